"""What each rule module of the rewriter pays (issue #21 part 4): the full rewriter against the
same rewriter with one module disabled.

    python benchmarks/rewrite_ablation.py [--data ../shared/data/mt-geneval-dev] [--langs es fr ...]
                                          [--sets contextual-dev leads] [--lines]

Sets: ``contextual-dev`` and ``leads`` are the REPORT sets (out of sample: run once per change);
``sentences-dev`` is the CHOOSING part of MT-GenEval dev (the packaged tables were learned from
it and the rules written on it: an in-sample figure, labelled so). Each set is read by
benchmarks/rewrite.py's own loaders and scored by its ``evaluate``. Scores only: no sentence of
any set is printed.

Per language, module and direction (m→f, f→m): exact over all lines (pairs whose two versions are
identical included: right when left unchanged) and P, the word-level precision of the edits, with
the module and without it; the deltas (with minus without, in points). A module **pays** where,
in some set and direction, it raises exact or P by at least 0.5 points without lowering the other
by more; it **hurts** where disabling it does the same; a module that does neither is
**neutral**; one that pays somewhere and hurts elsewhere is marked ``pays*``.

How a module is disabled: nothing in the package changes. Inside this process only (and undone
after each run), the functions a language's ``RULES`` imports from the module are replaced by
no-ops (``unittest.mock.patch.object`` on the language module's names): a proposer proposes
nothing, a veto never vetoes, a gate that licenses a change licenses none (``MODULES`` says which
is which, per function). The hooks of a whole language (``propose``, ``allows``, ``fix_plan``,
``extra_subs``, ``never_change``, ``protected_positions``, ``relatives``) and the engine's shared
families (the learned tables, the suffix guesses, determiner agreement) are disabled the same way
on the ``RULES`` instance or the ``Rewriter``. Modules of word lists and form helpers (``*_words``,
``*_forms``) serve the others and are not disabled alone; de_* and ru_* are one family each (their
helpers are shared by every hook), measured through the hooks. ``anchor`` works only with the
person's name: its row is with the name against without it, on benchmarks/rewrite_name.py's sets
(a name per pair; all of sentences-dev, in-sample) and scorer (exact over the pairs that differ).

No assertions: a report.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from types import SimpleNamespace
from unittest.mock import patch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from occbio.rewrite import Rewriter  # noqa: E402
from occbio.rewrite.languages import Language, rules_for  # noqa: E402
from occbio.rewrite.learn import load_mtgeneval, split_pairs  # noqa: E402

_spec = importlib.util.spec_from_file_location("bench_rewrite", ROOT / "benchmarks/rewrite.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)  # the loaders and the scorer of benchmarks/rewrite.py
_spec = importlib.util.spec_from_file_location("bench_name", ROOT / "benchmarks/rewrite_name.py")
bench_name = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_name)  # the name anchor's sets (a name per pair) and scorer


def _const(value) -> Callable:
    """A no-op returning a fresh copy of ``value`` (a mutable result may be filled by a caller)."""
    return lambda *_a, **_k: value.copy() if hasattr(value, "copy") else value


NONE, FALSE, TRUE = _const(None), _const(False), _const(True)
EMPTY_DICT, EMPTY_SET = _const({}), _const(set())
NO_LEAD = _const(({}, set()))

#: {language: {module: {name in the language module: its no-op}}}
MODULES: dict[str, dict[str, dict[str, Callable]]] = {
    "es": {
        "es_adjectives": {"adjectives_after_noun": NONE, "gender_words": NONE,
                          "name_adjectives": NONE},
        "es_clitics": {"object_clitics": NONE},
        "es_fallback": {"bare_predicates": NONE, "como_roles": NONE, "group_nouns": NONE,
                        "office_nouns": NONE},
        "es_lead": {"plan_lead": NO_LEAD},
        "es_noun_phrase": {"apposition_articles": NONE, "articles_across_modifiers": NONE,
                           "common_gender_articles": NONE, "propio_and_dama": NONE,
                           "relatives_after_noun": NONE, "uno_de_los": NONE},
        "es_predicates": {"next_conjunct": NONE, "participle_clauses": NONE,
                          "predicate_list": NONE, "predicate_np": NONE},
        # the gates of predicate agreement: closed (no predicate of the person agrees)
        "es_subject": {"_person_copula": FALSE, "plural_subject_changed": FALSE,
                       "subject_is_person": FALSE},
        # the hand list of person nouns (step 0 of `propose`) and the veto inside a name
        "es_words (person list)": {"_PERSON": {"f2m": {}, "m2f": {}}, "_inside_name": FALSE},
        "es_veto": {"_guess_ok": TRUE, "agrees_with_other": FALSE, "free_adjective": FALSE,
                    "free_office": FALSE},
    },
    "fr": {
        "fr_agreement": {"agree_noun_phrases": NONE, "elide_and_contract": NONE},
        "fr_lead": {"parse_lead": NONE},
        "fr_pronouns": {"agree_object_clitics": NONE, "pronoun_changes": EMPTY_DICT},
        "fr_subject": {"agree_opening_participle": NONE, "agree_predicates": NONE,
                       "agree_roles": NONE},
        "fr_things": {"drop_noun_agreement": NONE, "drop_stranded_modifiers": NONE,
                      "drop_unagreeing_participles": NONE, "drop_work_participles": NONE},
    },
    "it": {
        "it_articles": {"agree_determiners": NONE, "target_gender_before": FALSE},
        "it_clitics": {"swap_clitics": NONE},
        "it_lead": {"agree_predicates": NONE},
        "it_nouns": {"agree_postnominal": NONE, "agree_prenominal": NONE,
                     "agree_quantifiers": NONE, "mark_common_nouns": NONE,
                     "swap_hand_nouns": NONE, "swap_titles": NONE},
        "it_subject": {"fronted_predicate": NONE},
        # the name veto it.py's `allows` takes from it_forms (the other it_* modules keep it)
        "it_forms (name veto)": {"participle_like": FALSE},
    },
    "pt": {
        "pt_agreement": {"adjective_change": EMPTY_DICT, "agrees_here": TRUE,
                         "determiner_change": EMPTY_DICT, "fathers_change": EMPTY_DICT,
                         "gender_word": EMPTY_DICT},
        "pt_lead": {"sentence_lead": NONE},
        # a participle's gate opens (the veto goes), a predicate's start is never found
        "pt_opening": {"opening": EMPTY_DICT, "thing_subject_after_comma": FALSE},
        "pt_predicates": {"coordinated_role": EMPTY_DICT, "elided_predicate": EMPTY_DICT,
                          "participle_can_be_persons": TRUE, "predicate": EMPTY_DICT,
                          "predicate_starts": FALSE},
    },
}  # fmt: skip

#: a language's own hooks, each replaced by the base class's (no hand rule)
HOOKS = ("propose", "allows", "fix_plan", "extra_subs", "never_change", "protected_positions")
#: the engine's families every language shares
SHARED = ("learned tables", "suffix guesses", "determiners", "kin (relatives)")


@contextmanager
def disabled(lang: str, family: str) -> Iterator[dict]:
    """Inside the block, ``family`` of ``lang`` does nothing; yields Rewriter keyword
    overrides (the learned tables) and the attributes to set on the built rewriter."""
    rules = rules_for(lang)
    with ExitStack() as stack:
        kw: dict = {}
        if family in MODULES.get(lang, {}):
            module = sys.modules[type(rules).__module__]
            for name, noop in MODULES[lang][family].items():
                stack.enter_context(patch.object(module, name, noop))
        elif family.startswith("hook "):
            hook = family.removeprefix("hook ")
            base = getattr(Language, hook)
            stack.enter_context(
                patch.object(rules, hook, lambda *a, _b=base, **k: _b(rules, *a, **k))
            )
        elif family == "learned tables":
            kw["tables"] = {}
        elif family == "suffix guesses":
            kw["_suffix_form"] = NONE
        elif family == "determiners":
            stack.enter_context(patch.object(rules, "determiners", EMPTY_DICT))
        elif family == "kin (relatives)":
            stack.enter_context(patch.object(rules, "relatives", EMPTY_SET))
        elif family != "full":
            raise KeyError(family)
        yield kw


def families(lang: str) -> list[str]:
    own = list(MODULES.get(lang, {}))
    hooks = [f"hook {h}" for h in HOOKS if getattr(type(rules_for(lang)), h) is not getattr(
        Language, h)]  # fmt: skip
    return own + hooks + list(SHARED)


def score(lang: str, family: str, pairs: list, relatives: str) -> dict[str, tuple[float, float]]:
    """{direction: (exact over all lines, P)} with ``family`` disabled (``full``: none)."""
    out = {}
    with disabled(lang, family) as kw:
        setattrs = {k: kw.pop(k) for k in list(kw) if k.startswith("_")}
        rw = Rewriter(lang, strict=True, relatives=relatives, **kw)
        for k, v in setattrs.items():
            setattr(rw, k, v)
        plain = SimpleNamespace(lang=rw.lang, rewrite=rw.rewrite)  # no per-rule explain pass
        for to, name in (("feminine", "m→f"), ("masculine", "f→m")):
            data = pairs[to] if isinstance(pairs, dict) else pairs
            if not data:
                continue
            r = bench.evaluate(plain, data, to)
            lines = r["n"] + r["n_same"]
            right = r["exact"] * r["n"] + (r["n_same"] - r["same_chg"] * r["n_same"] if
                                           r["n_same"] else 0)  # fmt: skip
            out[name] = (100 * right / max(lines, 1), 100 * r["P"])
    return out


def sets_for(a: argparse.Namespace, lang: str) -> list[tuple[str, object, str]]:
    """(label, pairs, relatives) per set, each as benchmarks/rewrite.py reads it."""
    out = []
    for name in a.sets:
        if name == "contextual-dev":
            by_to = bench.load_contextual(a.data, lang)
            if by_to:
                by_to.pop("unknown")
                out.append(("contextual-dev", by_to, "change"))
        elif name == "leads":
            leads = bench.load_leads().get(lang)
            if leads:
                out.append(("leads", leads, "keep"))
        elif name == "sentences-dev":
            choose, _held = split_pairs(load_mtgeneval(a.data, lang), lang)
            if choose:
                out.append(("sentences-dev (IN-SAMPLE)", choose, "change"))
    return out


def anchor_cells(a: argparse.Namespace, lang: str) -> list[tuple[str, str, float, float]]:
    """(set, direction, Δexact, ΔP) of giving the person's name (``anchor``) as
    benchmarks/rewrite_name.py measures it: over the pairs that differ, ``relatives`` kept."""
    loaders = {"contextual-dev": bench_name.contextual_set,
               "sentences-dev": bench_name.sentences_set}  # fmt: skip
    out = []
    rw = Rewriter(lang, strict=True)
    for name in a.sets:
        if name not in loaders or not (a.data / name).exists():
            continue
        try:
            triples = loaders[name](a.data, lang)
        except FileNotFoundError:
            continue
        for to, short in (("feminine", "m→f"), ("masculine", "f→m")):
            _, e0, p0 = bench_name.score(rw, triples[to], to, use_name=False)
            _, e1, p1 = bench_name.score(rw, triples[to], to, use_name=True)
            out.append((name, short, 100 * (e1 - e0), 100 * (p1 - p0)))
    return out


def verdict(cells: list[tuple[float, float]]) -> str:
    """cells: (Δexact, ΔP) of each set and direction, with minus without the module."""

    def pays(de: float, dp: float) -> bool:
        de, dp = (0.0 if math.isnan(x) else x for x in (de, dp))
        return (de >= 0.5 and -dp <= de) or (dp >= 0.5 and -de <= dp)

    up = any(pays(de, dp) for de, dp in cells)
    down = any(pays(-de, -dp) for de, dp in cells)
    return ("pays*" if down else "pays") if up else ("hurts" if down else "neutral")


def line_count(path: Path) -> int:
    with path.open("rb") as f:
        return sum(1 for _ in f)


def print_lines() -> None:
    root = ROOT / "occbio/rewrite"
    files = sorted(root.glob("*.py")) + sorted((root / "languages").glob("*.py"))
    total = 0
    for f in files:
        n = line_count(f)
        total += n
        print(f"{n:7d} {f.relative_to(ROOT)}")
    print(f"{total:7d} total")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared/data/mt-geneval-dev")
    ap.add_argument("--langs", nargs="*", default=["en", "ca", "es", "fr", "it", "pt", "de", "ru"])
    ap.add_argument("--sets", nargs="*", default=["contextual-dev", "leads"],
                    choices=["contextual-dev", "leads", "sentences-dev"])  # fmt: skip
    ap.add_argument("--lines", action="store_true", help="also the wc -l of occbio/rewrite/")
    a = ap.parse_args(argv)
    if a.lines:
        print_lines()
        print()
    for lang in a.langs:
        sets = sets_for(a, lang)
        if not sets:
            continue
        full = {label: score(lang, "full", pairs, rel) for label, pairs, rel in sets}
        print(f"== {lang}  full: " + "; ".join(
            f"{label} " + " ".join(f"{d} exact {e:.1f} P {p:.1f}" for d, (e, p) in r.items())
            for label, r in full.items()))  # fmt: skip
        print(f"{'module disabled':28} {'verdict':8} Δexact/ΔP (with − without, points) per set "
              "and direction")  # fmt: skip
        for fam in families(lang):
            cells, parts = [], []
            for label, pairs, rel in sets:
                off = score(lang, fam, pairs, rel)
                for d, (e, p) in full[label].items():
                    de, dp = e - off[d][0], p - off[d][1]
                    cells.append((de, dp))
                    parts.append(f"{label.split()[0]} {d} {de:+5.1f}/{dp:+5.1f}")
            print(f"{fam:28} {verdict(cells):8} " + "  ".join(parts))
        if lang in MODULES or lang in ("de", "ru"):
            cells = anchor_cells(a, lang)
            if cells:
                parts = [f"{st} {d} {de:+5.1f}/{dp:+5.1f}" for st, d, de, dp in cells]
                print(f"{'anchor (name given)':28} {verdict([c[2:] for c in cells]):8} "
                      + "  ".join(parts) + "   (exact over the pairs that differ)")  # fmt: skip
        again = {label: score(lang, "full", pairs, rel) for label, pairs, rel in sets}
        if again != full:  # every patch undone: the full rewriter scores as before
            raise SystemExit(f"{lang}: the full rewriter changed after the ablations")
        print()


if __name__ == "__main__":
    main()

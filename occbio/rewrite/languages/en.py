"""English: ``her`` → ``his``/``him``, peer titles (``Lady`` → ``Lord``); pronouns and person
nouns come from the learned tables."""

from __future__ import annotations

from dataclasses import dataclass

from occbio.rewrite.languages.base import Language, Plan, Sentence

#: A capitalised title becomes its peer title (`Lady Jane` → `Lord Jane`, `Countess of Derby` →
#: `Earl of Derby`); in lower case `lady` is `gentleman` (the choosing pairs: 14 of 17
#: capitalised `Lady` → `Lord`, 16 of 33 lower-case `lady`/`ladies` → `gentleman`/`gentlemen`,
#: 8 → `lord(s)`).
_EN_F2M_TITLE = {"lady": "lord", "ladies": "lords", "countess": "earl", "countesses": "earls"}


# English `her` before these (or before punctuation / the end) is an object: `him`. Words that
# begin a noun phrase after a possessive (`her first album`, `her two sons`, `her only visit`,
# `her many works`, `her other films`, `her most famous role`, `her own`) are not here.
_EN_OBJ_NEXT = frozenset(
    """a an the this that these those to in on at for from with by of about as into onto
    upon over under after before during since until and or but nor so yet than then when while
    because if though although where whether which who whom whose what why how out up down off
    back away again also too very well not never always often once twice there here her his
    him she he it they them their we us our you your i me my is was be been being are were has
    had have do did does can could will would shall should may might must ever just even
    still now later soon alone herself himself some all both each every another any no such
    more less much
    against between through throughout across toward towards without within behind beside
    besides around near along among amongst via per like unlike despite except including
    regarding concerning""".split()
)
# `his` before these stands alone (`His is an uphill battle`, `this ability of his also`):
# `hers`. Only words that cannot follow a possessive determiner.
_AFTER_STANDALONE_HIS = frozenset(
    """is was are were has had also and or but too as will would could can did does
    remains remained became""".split()
)
# Adjectives and nouns in -ly (`her early work`, `her family`): not adverbs.
_EN_LY_NOT_ADVERB = frozenset(
    """early only family lovely friendly elderly likely unlikely daily weekly monthly yearly
    holy ugly lonely lively costly deadly silly jolly curly orderly fly july italy sally
    emily lily molly kelly holly polly""".split()
)


# Verbs that take an object and a bare infinitive (`helped her win`, `let her go`, `saw her
# perform`): after them `her` + a verb's base form is an object even when the verb is also a noun
# (`cope`, `record`). `make`/`made` are left out: `made her debut`, `made her name`, `made her way`.
_EN_BARE_INFINITIVE_VERBS = frozenset(
    """help helps helped helping let lets letting watch watches watched watching see sees saw
    seen seeing hear hears heard hearing bid bade""".split()
)


def her_is_object(nxt: str | None, punct_after: bool, prev: str | None = None) -> bool:
    """``her`` + ``nxt``: an object (``him``) or a possessive (``his``)?

    An object before punctuation, the end, a word of :data:`_EN_OBJ_NEXT`, an adverb in -ly
    (`represent her effectively`), a word that can only be a verb (`made her believe`, a word
    lemminflect's lexicon knows only as a verb), or a verb's base form after ``help``, ``let``,
    ``see``, ``hear`` ... (`helped her cope`); a possessive otherwise (numbers included:
    `her 1970 paper`, `her two sons`)."""
    if punct_after or nxt is None:
        return True
    if nxt in _EN_OBJ_NEXT:
        return True
    if nxt.endswith("ly") and nxt not in _EN_LY_NOT_ADVERB and len(nxt) > 4:
        return True
    if prev in _EN_BARE_INFINITIVE_VERBS and _base_verb(nxt):
        return True
    return _only_verb(nxt)


def _base_verb(word: str) -> bool:
    """A verb's base form in lemminflect's lexicon (`cope`, `record`, `make`)."""
    try:
        from lemminflect import getAllLemmas
    except ImportError:
        return False
    return word in getAllLemmas(word).get("VERB", ())


def _only_verb(word: str) -> bool:
    try:
        from lemminflect import getAllLemmas
    except ImportError:  # the lexicon is a dependency; without it, the default (possessive)
        return False
    if word.endswith(("ing", "ed")):  # `her starring roles`, `her beloved`: adjectives too
        return False
    pos = getAllLemmas(word)
    return bool(pos) and set(pos) <= {"VERB", "AUX"}


@dataclass
class English(Language):
    def fix_plan(self, d: str, s: Sentence, plan: Plan) -> None:
        """``her`` → ``him`` before what cannot start a noun phrase, else ``his``; ``his`` →
        ``hers`` when it stands alone; `God` stays; a plural
        possessive keeps its apostrophe only (`gentlemen's` → `ladies'`)."""
        low = s.low
        n = len(low)
        for i in list(plan):
            if _inside_name(s, i):
                del plan[i]
                continue
            ln, tgt = plan[i]
            gap = s.gap_after(i)
            if (
                ln == 1
                and gap in ("'", "’")
                and i + 1 < n
                and low[i + 1] == "s"
                and (i + 1) not in plan
                and tgt[-1].endswith("s")
                and not tgt[-1].endswith("ss")  # `duchess's` is singular
                and not low[i].endswith("s")
            ):
                plan[i] = (2, (*tgt[:-1], tgt[-1] + gap))
        for i, (ln, _tgt) in list(plan.items()):
            if ln != 1:
                continue
            nxt_word = low[i + 1] if i + 1 < n else None
            gap = s.gap_after(i)
            # an opening quote or a dash glued to the next word does not end the phrase
            # (`her "mother"`, `her—mother`)
            glued = gap.lstrip() in ('"', "“", "«", "—", "–") and not gap.endswith(" ")
            punct_after = nxt_word is None or (any(not c.isspace() for c in gap) and not glued)
            if d == "f2m" and low[i] == "lady" and i > 0 and s.toks[i - 1] == "First":
                plan[i] = (1, ("gentleman",))  # the First Lady's counterpart
            elif d == "f2m" and low[i] in _EN_F2M_TITLE and s.toks[i][:1].isupper():
                plan[i] = (1, (_EN_F2M_TITLE[low[i]],))
            elif d == "f2m" and low[i] == "her":
                prev = low[i - 1] if i > 0 and not s.gap_after(i - 1).strip() else None
                obj = her_is_object(nxt_word, punct_after, prev)
                plan[i] = (1, ("him",) if obj else ("his",))
            elif d == "m2f" and low[i] == "his":
                alone = (
                    punct_after and gap.strip()[:1] not in ("'", "’", "-")
                ) or nxt_word in _AFTER_STANDALONE_HIS
                plan[i] = (1, ("hers",) if alone else ("her",))
        for i, (ln, tgt) in list(plan.items()):
            # a plural possessive whose new plural does not end in s: `ladies' club` →
            # `gentlemen's club` (the reverse is done above)
            if (
                ln == 1
                and s.gap_after(i) in ("' ", "’ ")
                and i + 1 < n
                and (i + 1) not in plan
                and low[i].endswith("s")
                and not tgt[-1].endswith("s")
            ):
                plan[i] = (2, (*tgt[:-1], tgt[-1] + s.gap_after(i)[0] + "s", s.toks[i + 1]))


def _inside_name(s: Sentence, i: int) -> bool:
    """`God` with a capital is the deity, not a man (the choosing pairs keep it 4 times of 4);
    `Our Lady` is the Virgin Mary.
    Other capitalised nouns change: titles of the person (`the Duchess`, 98 of 154 times in the
    choosing pairs) and, in the human counterfactuals, even names of works (`Gossip Girl`):
    keeping a capitalised noun after another capitalised word cost 2.5 points of exact matches
    on the choosing pairs, so it is not done."""
    return s.toks[i] in ("God", "Goddess") or (
        s.toks[i] == "Lady" and i > 0 and s.toks[i - 1] == "Our"
    )


RULES = English(
    "en",
    name_copulas=frozenset({"was", "is", "became", "becomes", "remained"}),
    role_markers=(("as",),),
)

"""English: pronouns, a hand list of gendered person nouns, ``her`` → ``his``/``him``."""

from __future__ import annotations

from dataclasses import dataclass

from occbio.rewrite.languages.base import Language, Plan, Sentence

_PRONOUNS = {
    "f2m": {"she": "he", "herself": "himself", "hers": "his", "her": "his"},
    "m2f": {"he": "she", "himself": "herself", "him": "her", "his": "her"},
}

# English gendered person nouns (masculine, feminine), written from grammar knowledge, not from
# the pairs: the human counterfactuals flip them whoever they name, and the learned tables
# only know those seen in the choosing half. Words with another common sense (count, lord,
# master, man's "one") and spouses and siblings (who are not the person rewritten) are left out.
_EN_PAIRS = [
    ("actor", "actress"), ("waiter", "waitress"), ("duke", "duchess"), ("prince", "princess"),
    ("king", "queen"), ("emperor", "empress"), ("baron", "baroness"), ("viscount", "viscountess"),
    ("marquess", "marchioness"), ("heir", "heiress"), ("host", "hostess"),
    ("steward", "stewardess"), ("god", "goddess"), ("hero", "heroine"), ("priest", "priestess"),
    ("abbot", "abbess"), ("monk", "nun"), ("widower", "widow"), ("boyfriend", "girlfriend"),
    ("nephew", "niece"), ("uncle", "aunt"), ("grandfather", "grandmother"),
    ("grandson", "granddaughter"), ("stepson", "stepdaughter"), ("stepfather", "stepmother"),
    ("son", "daughter"), ("father", "mother"), ("boy", "girl"), ("man", "woman"),
    ("gentleman", "lady"), ("sir", "dame"), ("tsar", "tsarina"), ("sultan", "sultana"),
    ("masseur", "masseuse"),
    ("fiancé", "fiancée"), ("businessman", "businesswoman"), ("chairman", "chairwoman"),
    ("spokesman", "spokeswoman"), ("congressman", "congresswoman"),
    ("sportsman", "sportswoman"), ("horseman", "horsewoman"), ("statesman", "stateswoman"),
    ("policeman", "policewoman"), ("salesman", "saleswoman"), ("cameraman", "camerawoman"),
    ("councilman", "councilwoman"), ("craftsman", "craftswoman"), ("countryman", "countrywoman"),
    ("kinsman", "kinswoman"), ("schoolboy", "schoolgirl"), ("godfather", "godmother"),
    ("patriarch", "matriarch"), ("headmaster", "headmistress"), ("mr", "mrs"),
]  # fmt: skip
_EN_PLURAL = {"man": "men", "woman": "women", "gentleman": "gentlemen", "lady": "ladies"}
#: Feminine words whose masculine has another common sense (``count``, ``lord``): rewritten
#: into the masculine only.
_EN_F2M_ONLY = {"countess": "count", "countesses": "counts", "lady": "lord", "ladies": "lords"}


def _en_forms(word: str) -> list[str]:
    if word in _EN_PLURAL:
        return [word, _EN_PLURAL[word]]
    if word.endswith("man"):
        return [word, word[:-3] + "men"]
    if word.endswith("ess") or word.endswith("ss"):
        return [word, word + "es"]
    if word in ("mr", "mrs"):
        return [word]
    return [word, word + "s"]


# English `her` before these (or before punctuation / the end) is an object: `him`.
_EN_OBJ_NEXT = frozenset(
    """a an the this that these those to in on at for from with by of about as into onto
    upon over under after before during since until and or but nor so yet than then when while
    because if though although where whether which who whom whose what why how out up down off
    back away again also too very well not never always often once twice there here her his
    him she he it they them their we us our you your i me my is was be been being are were has
    had have do did does can could will would shall should may might must ever just only even
    still now later soon first alone herself himself one two three four five six seven eight
    nine ten several many some all both each every another any no other such more most less
    against between through throughout across toward towards without within behind beside
    besides around near along among amongst via per like unlike despite except including
    regarding concerning onto""".split()
)


@dataclass
class English(Language):
    def extra_subs(self, d: str) -> dict[str, tuple[str, str]]:
        out = {src: ("free", tgt) for src, tgt in _PRONOUNS[d].items()}
        if d == "f2m":
            out.update({src: ("free", tgt) for src, tgt in _EN_F2M_ONLY.items()})
        for m, f in _EN_PAIRS:
            for mf, ff in zip(_en_forms(m), _en_forms(f), strict=False):
                src, tgt = (ff, mf) if d == "f2m" else (mf, ff)
                out.setdefault(src, ("free", tgt))
        return out

    def fix_plan(self, d: str, s: Sentence, plan: Plan) -> None:
        """``her`` → ``him`` before what cannot start a noun phrase, else ``his``; ``his`` →
        ``hers`` when it stands alone."""
        low = s.low
        n = len(low)
        for i, (ln, _tgt) in list(plan.items()):
            if ln != 1:
                continue
            nxt_word = low[i + 1] if i + 1 < n else None
            gap = s.gap_after(i)
            punct_after = nxt_word is None or any(not c.isspace() for c in gap)
            if d == "f2m" and low[i] == "her":
                obj = punct_after or nxt_word in _EN_OBJ_NEXT or nxt_word.isdigit()
                plan[i] = (1, ("him",) if obj else ("his",))
            elif d == "m2f" and low[i] == "his":
                alone = punct_after and gap.strip()[:1] not in ("'", "’", "-")
                plan[i] = (1, ("hers",) if alone else ("her",))


RULES = English("en")

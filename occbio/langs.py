"""Language codes: which Wikipedia editions occbio knows, and validation of ``--langs``."""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = [
    "LANG_CODE",
    "LanguageError",
    "WIKIPEDIA_LANGS",
    "check_lang",
    "is_lang_code",
    "validate_langs",
    "parse_langs",
]

#: The shape of a language code (``en``, ``zh-min-nan``, ``mul``): lower-case letters, digits
#: and ``-``. A code becomes part of file names (``corpus.ca``, ``review-en-ca.html``,
#: ``evaluation/en-ca``), so one read from a file or the command line is checked against it
#: first: no ``/``, ``.`` or ``..`` ever reaches a path.
LANG_CODE = re.compile(r"[a-z][a-z0-9-]*")
#: The longest code accepted (Wikipedia's longest is 12 characters).
_MAX_CODE = 32

#: Codes of the Wikipedia language editions (the subdomain of ``<code>.wikipedia.org``).
WIKIPEDIA_LANGS: frozenset[str] = frozenset(
    """
    aa ab ace ady af ak als alt am ami an ang anp ar arc ary arz as ast atj av avk awa ay az
    azb ba ban bar bat-smg bbc bcl be be-tarask bg bh bi bjn blk bm bn bo bpy br bs bug bxr ca
    cbk-zam cdo ce ceb ch cho chr chy ckb co cr crh cs csb cu cv cy da dag de dga din diq dsb
    dty dv dz ee el eml en eo es et eu ext fa fat ff fi fiu-vro fj fo fon fr frp frr fur fy ga
    gag gan gcr gd gl glk gn gom gor got gpe gu guc gur guw gv ha hak haw he hi hif ho hr hsb
    ht hu hy hyw hz ia id ie ig ii ik ilo inh io is it iu ja jam jbo jv ka kaa kab kbd kbp kcg
    kg ki kj kk kl km kn ko koi kr krc ks ksh ku kus kv kw ky la lad lb lbe lez lfn lg li lij
    lld lmo ln lo lrc lt ltg lv mad mai map-bms mdf mg mh mhr mi min mk ml mn mni mnw mr mrj ms
    mt mus mwl my myv mzn na nah nap nds nds-nl ne new ng nia nl nn no nov nqo nrm nso nv ny oc
    olo om or os pa pag pam pap pcd pcm pdc pfl pi pih pl pms pnb pnt ps pt pwn qu rm rmy rn ro
    roa-rup roa-tara ru rue rw sa sah sat sc scn sco sd se sg sh shi shn si simple sk skr sl sm
    smn sn so sq sr srn ss st stq su sv sw szl szy ta tay tcy te tet tg th ti tk tl tly tn to
    tpi tr trv ts tt tum tw ty tyv udm ug uk ur uz ve vec vep vi vls vo wa war wo wuu xal xh xmf
    yi yo za zea zh zh-classical zh-min-nan zh-yue zu
    """.split()
)


class LanguageError(ValueError):
    """An unknown or malformed language code."""


def validate_langs(codes: Iterable[str]) -> list[str]:
    """Return the codes normalised (lower case, order kept, duplicates removed) or raise.

    >>> validate_langs(["EN", "es", "ca", "es"])
    ['en', 'es', 'ca']
    """
    seen: list[str] = []
    unknown: list[str] = []
    for raw in codes:
        code = raw.strip().lower().replace("_", "-")
        if not code:
            continue
        if code not in WIKIPEDIA_LANGS:
            unknown.append(raw)
        elif code not in seen:
            seen.append(code)
    if unknown:
        raise LanguageError(
            f"unknown language code(s) {', '.join(repr(u) for u in unknown)}: use Wikipedia "
            "language codes such as en, es, ca, fr, de (the subdomain of <code>.wikipedia.org)"
        )
    if not seen:
        raise LanguageError("no language given: pass e.g. --langs en,es,ca")
    return seen


def is_lang_code(code: object) -> bool:
    """Whether ``code`` is a string of the shape of a language code (:data:`LANG_CODE`)."""
    return isinstance(code, str) and len(code) <= _MAX_CODE and bool(LANG_CODE.fullmatch(code))


def check_lang(code: object, where: str) -> str:
    """``code`` when it has the shape of a language code, else a :class:`LanguageError` that
    says ``where`` it was found (an option, a file and line)."""
    if not is_lang_code(code):
        shown = repr(code) if len(repr(code)) <= 60 else repr(code)[:57] + "..."
        raise LanguageError(
            f"{where}: {shown} is not a language code (lower-case letters, digits and '-', "
            "e.g. en, es, zh-min-nan)"
        )
    assert isinstance(code, str)
    return code


def parse_langs(text: str) -> list[str]:
    """Parse a comma-separated ``--langs`` value."""
    return validate_langs(text.split(","))

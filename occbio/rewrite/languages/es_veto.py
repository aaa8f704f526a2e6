"""Spanish: changes vetoed because the word is not the person's (``Spanish.allows`` asks).

* An adjective or participle agrees with the noun it sits next to. When that noun is a thing
  (``una representación única``, ``su propia composición``: nouns in ``-ción``, ``-dad``,
  ``-miento`` ... or frequent ones such as ``álbum``, ``premio``) or a person noun of one fixed
  gender (``estrella invitada``, ``la primera persona``), its ending stays whoever the sentence
  is about: the tables', the suffix guesser's and ``propose``'s change is vetoed
  (:func:`agrees_with_other`).
* A learned change anywhere of an adjective or participle (``ruso``, ``nombrado``) is vetoed:
  next to a changed noun, after a copula of the person or in a participle clause the
  agreement rules change it with the subject known (:func:`free_adjective`).
* A learned change into the feminine of an office noun in a complement or before a name
  (``con el presidente``, ``el presidente Obama``) names someone else (:func:`free_office`).
* A suffix guess leftward from a preposition's complement or on a verb (:func:`_guess_ok`).
"""

from __future__ import annotations

import re

from occbio.rewrite.languages.base import Sentence
from occbio.rewrite.languages.es_fallback import _OFFICES
from occbio.rewrite.languages.es_words import _LEAD, _PERSON

#: nouns that name things, by their derivational suffix (singular and plural)
_THING = re.compile(
    r"^\w{2,}(?:ción|ciones|sión|siones|dad|dades|tad|tades|tud|tudes|miento|mientos|aje|ajes"
    r"|ismo|ismos|encia|encias|ancia|ancias|eza|ezas|umbre|umbres|logía|logías|grafía|grafías)$"
)
#: frequent nouns of things in biographies with no telling suffix
_THINGS = frozenset(
    {"álbum", "álbumes", "libro", "libros", "disco", "discos", "premio", "premios", "título",
     "títulos", "cargo", "cargos", "puesto", "papel", "papeles", "equipo", "equipos", "club",
     "partido", "partidos", "trabajo", "trabajos", "año", "años", "mandato", "matrimonio",
     "nombre", "apellido", "cuerpo", "idioma", "país", "mundo", "tiempo", "día", "días", "mes",
     "siglo", "lugar", "caso", "grupo", "grupos", "viaje", "estudio", "estudios", "campo"}
)  # fmt: skip
#: person nouns of one grammatical gender whatever the sex of the person (epicenes)
_EPICENE = frozenset(
    {"persona", "personas", "estrella", "estrellas", "víctima", "víctimas", "figura", "figuras",
     "personalidad", "personalidades", "celebridad", "celebridades", "criatura", "criaturas",
     "leyenda", "leyendas", "personaje", "personajes", "eminencia", "promesa"}
)  # fmt: skip
#: clitics and articles: they belong to a verb or a noun of their own (`una persona lo llamó`)
_FUNCTION = frozenset({"lo", "la", "los", "las", "un", "uno", "una", "unos", "unas", "el"})
#: an agreeing ending and its other-gender form
_ENDINGS = (("os", "as"), ("as", "os"), ("o", "a"), ("a", "o"), ("ora", "or"), ("or", "ora"))


def _inflects(w: str, t: str) -> bool:
    """``t`` is ``w`` with its gender ending swapped (an adjective's agreement)."""
    return any(w.endswith(a) and t == w[: len(w) - len(a)] + b for a, b in _ENDINGS)


def _other_noun(s: Sentence, k: int) -> bool:
    low = s.low[k]
    if not s.toks[k].islower() or s.covered[k]:
        return False
    return low in _EPICENE or low in _THINGS or _THING.match(low) is not None


def agrees_with_other(s: Sentence, i: int, ln: int, tgt: tuple[str, ...]) -> bool:
    """The word at ``i`` is an adjective next to a thing or an epicene noun it agrees with:
    after it (``representación única``) or before it (``su propia composición``)."""
    if ln != 1 or len(tgt) != 1 or s.low[i] in _FUNCTION or not _inflects(s.low[i], tgt[0]):
        return False
    if i > 0 and s.joined(i - 1) and _other_noun(s, i - 1):
        return True
    return i + 1 < len(s.low) and s.joined(i) and _other_noun(s, i + 1)


def free_adjective(d: str, s: Sentence, i: int, ln: int, tgt: tuple[str, ...]) -> bool:
    """A learned change anywhere of an adjective or participle (`ruso`, `nombrado`): not a
    person noun of the word lists."""
    w = s.low[i]
    if ln != 1 or len(tgt) != 1 or w in _PERSON[d] or w in _LEAD[d] or w.endswith(("or", "ora")):
        return False  # a person noun (`ojeador`)
    return _inflects(w, tgt[0])


#: words after which agreement does not run back: `el retrato del rey` is not `la retrata`
_NO_BACK = frozenset({"del", "al", "de", "a", "con", "en", "por", "para", "que", "y", "e", "o"})


def _guess_ok(d: str, s: Sentence, i: int) -> bool:
    """A suffix guess at ``i`` agrees with a changed neighbour: the noun before it, or the
    noun after it when ``i`` modifies that noun; not a word before a preposition whose
    complement changed (`el retrato del rey`), nor a verb (`su madre trabaja`, as the
    third person plural `trabajan` shows)."""
    low, cov = s.low, s.covered
    left = i > 0 and cov[i - 1] and s.joined(i - 1)
    right = i + 1 < len(low) and cov[i + 1] and s.joined(i)
    if not left and right and low[i + 1] in _NO_BACK:
        return False
    if d == "f2m" and low[i].endswith("a") and s.lex is not None:
        z = s.lex.zipf
        if z.get(low[i] + "n", 0.0) >= max(2.0, z.get(low[i], 0.0) - 0.6):
            return False  # as frequent as a verb as `trabaja`: `trabajan`
    return True


#: prepositions before an office noun's article: the office of someone else (`con el rey`)
_OTHER_PREPS = frozenset({"de", "a", "con", "por", "para", "ante", "contra", "según", "entre"})


def free_office(s: Sentence, i: int) -> bool:
    """A learned change into the feminine of an office noun that names someone else: in a
    complement (`del presidente`, `con el presidente`) or before a name (`el presidente
    Obama`); vetoed, as the word lists do."""
    low, toks = s.low, s.toks
    if low[i] not in _OFFICES or i == 0 or not s.joined(i - 1):
        return False
    if i + 1 < len(low) and s.joined(i) and toks[i + 1][:1].isupper():
        return True
    if low[i - 1] in ("del", "al"):
        return True
    return low[i - 1] in ("el", "un") and i > 1 and s.joined(i - 2) and low[i - 2] in _OTHER_PREPS

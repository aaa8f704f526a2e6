"""The templates that carry words: which ones are rendered, and how each one reads.

A template either renders here, following its documented arguments (named and positional, per
wiki), is known to carry no words of the sentence (a footnote, a maintenance tag, a category
helper), or is neither. :mod:`occbio.extract.wikitext_prepass` keeps the rendered ones for the
parser, drops the wordless ones and marks every other one that stood in running text with a
*hole* (:func:`hole`): the cleaning stage drops a sentence that holds a hole and counts it by
template name, so a sentence never comes out with a date or a number missing. The list was
chosen by counting which templates stand inside sentences on real dumps
(``benchmarks/real_pages.py``).

Dates, ages and numbers are written the way each language edition writes them (month names,
``de``/``d'``, German ``10. Dezember``, thousands separators). An age "until today" is computed
against ``today`` (the revision's date, so a re-run gives the same text); without it the
template is a hole, never the age on the day of the run. Pure: no files, no network.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

_WHITESPACE_RE = re.compile(r"\s+")

#: A hole: a template that was neither rendered nor known to be wordless stood here.
HOLE_OPEN, HOLE_CLOSE = "\ue000", "\ue001"
HOLE_RE = re.compile(HOLE_OPEN + "([^" + HOLE_OPEN + HOLE_CLOSE + "]*)" + HOLE_CLOSE)
_HOLE_NAME_UNSAFE = re.compile(r"[^\w :+-]")


def hole(name: str) -> str:
    """The marker for an unrendered template named ``name`` (its key, made safe to carry)."""
    key = _HOLE_NAME_UNSAFE.sub("", _template_key(name))[:60].strip() or "?"
    return f"{HOLE_OPEN}{key}{HOLE_CLOSE}"


def strip_holes(text: str) -> str:
    """``text`` without hole markers (what an article's stored text holds)."""
    if HOLE_OPEN not in text:
        return text
    return re.sub(r"[^\S\n]{2,}", " ", HOLE_RE.sub("", text))


def _template_key(name: str) -> str:
    return _WHITESPACE_RE.sub(" ", name.replace("_", " ")).strip().lower()


# ----- the arguments of one call ------------------------------------------------------------


@dataclass(slots=True)
class Call:
    """One template call as plain text: its key, positional and named arguments, the wiki."""

    key: str
    positional: list[str]
    named: dict[str, str]
    lang: str = "en"
    today: dt.date | None = None
    raw_positional: list[str] = field(default_factory=list)

    def arg(self, i: int, default: str = "") -> str:
        """The ``i``-th positional argument (1-based), stripped; ``default`` when absent."""
        value = self.positional[i - 1].strip() if len(self.positional) >= i else ""
        return value or default

    def get(self, *names: str, default: str = "") -> str:
        for name in names:
            value = self.named.get(name, "").strip()
            if value:
                return value
        return default

    def flag(self, *names: str) -> bool:
        return self.get(*names).lower() in {"y", "yes", "1", "true", "on", "oui", "sí", "si", "s"}


class Unrenderable(ValueError):
    """The call's arguments are not what the template documents: leave a hole, not a guess."""


Renderer = Callable[[Call], str]

# ----- dates --------------------------------------------------------------------------------

_MONTHS = {
    "en": "January February March April May June July August September October November December",
    "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
    "es": "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre "
    "diciembre",
    "ca": "gener febrer març abril maig juny juliol agost setembre octubre novembre desembre",
    "it": "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre "
    "dicembre",
    "pt": "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro "
    "dezembro",
    "de": "Januar Februar März April Mai Juni Juli August September Oktober November Dezember",
}
MONTHS = {lang: names.split() for lang, names in _MONTHS.items()}
_MONTH_NUMBER = {
    name.lower(): i + 1 for names in MONTHS.values() for i, name in enumerate(names)
} | {"setiembre": 9, "sept": 9, "sep": 9, "jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6,
     "jul": 7, "aug": 8, "oct": 10, "nov": 11, "dec": 12}  # fmt: skip
_AGE_WORDS = {
    "en": ("age {}", "aged {}"),
    "fr": ("{} ans", "à {} ans"),
    "es": ("{} años", "a los {} años"),
    "ca": ("{} anys", "als {} anys"),
    "it": ("{} anni", "a {} anni"),
    "pt": ("{} anos", "aos {} anos"),
    "de": ("{} Jahre", "im Alter von {} Jahren"),
}


@dataclass(frozen=True, slots=True)
class _Date:
    year: int
    month: int | None = None
    day: int | None = None

    def as_date(self) -> dt.date:
        if self.month is None or self.day is None:
            raise Unrenderable("an age needs a full date")
        return dt.date(self.year, self.month, self.day)


def _year(text: str) -> int:
    text = text.strip()
    if not re.fullmatch(r"-?\d{1,4}", text):
        raise Unrenderable(f"not a year: {text!r}")
    return int(text)


def _month(text: str) -> int:
    text = text.strip().lower().rstrip(".")
    if re.fullmatch(r"\d{1,2}", text) and 1 <= int(text) <= 12:
        return int(text)
    if text in _MONTH_NUMBER:
        return _MONTH_NUMBER[text]
    raise Unrenderable(f"not a month: {text!r}")


def _day(text: str) -> int:
    text = text.strip().lower().removesuffix("er").removesuffix("º").removesuffix("°")
    if re.fullmatch(r"\d{1,2}", text) and 1 <= int(text) <= 31:
        return int(text)
    raise Unrenderable(f"not a day: {text!r}")


def _ymd(year: str, month: str = "", day: str = "") -> _Date:
    """A date from year, month, day arguments; month and day may be absent."""
    y = _year(year)
    if not month.strip():
        return _Date(y)
    m = _month(month)
    if not day.strip():
        return _Date(y, m)
    d = _day(day)
    try:
        dt.date(max(y, 1), m, d)
    except ValueError as exc:
        raise Unrenderable(str(exc)) from exc
    return _Date(y, m, d)


def _parse_free_date(text: str) -> _Date:
    """``2006-01-15``, ``15 January 2006``, ``January 15, 2006``, ``January 2006``, ``2006``."""
    text = text.strip()
    iso = re.fullmatch(r"(\d{3,4})-(\d{1,2})(?:-(\d{1,2}))?", text)
    if iso:
        return _ymd(iso.group(1), iso.group(2), iso.group(3) or "")
    words = re.findall(r"[^\W\d_]+|\d+", text)
    numbers = [w for w in words if w.isdigit()]
    names = [w for w in words if not w.isdigit() and w.lower() in _MONTH_NUMBER]
    if len(words) != len(numbers) + len(names) or len(names) > 1 or not numbers:
        raise Unrenderable(f"not a date: {text!r}")
    if len(numbers) == 3 and not names:  # "29 9 2019" (day first) or "2019 9 29"
        first, middle, last = numbers
        return _ymd(first, middle, last) if len(first) >= 3 else _ymd(last, middle, first)
    year = next((n for n in numbers if len(n) >= 3), numbers[-1])
    days = [n for n in numbers if n is not year]
    if len(days) > 1:
        raise Unrenderable(f"not a date: {text!r}")
    return _ymd(year, names[0] if names else "", days[0] if days else "")


def format_date(date: _Date, lang: str, *, mdy: bool = False) -> str:
    """A date as the language edition writes it in running text."""
    lang = lang if lang in MONTHS else "en"
    year = str(date.year) if date.year > 0 else f"{-date.year + 1} BC"
    if date.month is None:
        return year
    month = MONTHS[lang][date.month - 1]
    if date.day is None:
        if lang in {"es", "pt"}:
            return f"{month} de {year}"
        if lang == "ca":
            return f"{_ca_de(month)}{month} de {year}"
        return f"{month} {year}"
    day = date.day
    if lang == "en":
        return f"{month} {day}, {year}" if mdy else f"{day} {month} {year}"
    if lang == "fr":
        return f"{'1er' if day == 1 else day} {month} {year}"
    if lang == "it":
        return f"{'1º' if day == 1 else day} {month} {year}"
    if lang == "de":
        return f"{day}. {month} {year}"
    if lang == "ca":
        return f"{day} {_ca_de(month)}{month} de {year}"
    return f"{day} de {month} de {year}"  # es, pt


def _ca_de(month: str) -> str:
    return "d'" if month[0] in "aeiouàèéíòóú" else "de "


def _age(born: _Date, until: dt.date) -> int:
    birth = born.as_date()
    return until.year - birth.year - ((until.month, until.day) < (birth.month, birth.day))


def _with_age(text: str, born: _Date, until: dt.date | None, lang: str, *, dead: bool) -> str:
    """``text (age N)`` the way the wiki shows it; without a date to count to, ``text``."""
    if until is None:
        return text
    words = _AGE_WORDS.get(lang, _AGE_WORDS["en"])[1 if dead else 0]
    return f"{text} ({words.format(_age(born, until))})"


def _mdy(call: Call, default: bool) -> bool:
    if call.flag("df"):
        return False
    if call.flag("mf"):
        return True
    return default


def _birth_date(call: Call) -> str:
    """enwiki {{birth date|Y|M|D}} (also death date, start/end date); ``df=y`` day first."""
    date = _ymd(call.arg(1), call.arg(2), call.arg(3))
    return format_date(date, call.lang, mdy=_mdy(call, call.lang == "en"))


def _birth_date_and_age(call: Call) -> str:
    date = _ymd(call.arg(1), call.arg(2), call.arg(3))
    text = format_date(date, call.lang, mdy=_mdy(call, call.lang == "en"))
    return _with_age(text, date, call.today, call.lang, dead=False) if date.day else text


def _death_date_and_age(call: Call) -> str:
    """{{death date and age|Y|M|D|bY|bM|bD}}: the death date, then the age at death."""
    died = _ymd(call.arg(1), call.arg(2), call.arg(3))
    text = format_date(died, call.lang, mdy=_mdy(call, call.lang == "en"))
    if not call.arg(4):
        raise Unrenderable("no birth date to count the age from")
    born = _ymd(call.arg(4), call.arg(5), call.arg(6))
    if died.day is None or born.day is None:
        return text
    return _with_age(text, born, died.as_date(), call.lang, dead=True)


def _year_and_age(call: Call) -> str:
    """{{birth year and age|Y}} / {{death year and age|Y|bY}}: the year (the age is an aside)."""
    return str(_year(call.arg(1)))


def _date_generic(call: Call) -> str:
    """{{date|...}} / {{fecha}} / {{data}} / {{Datum}}: day, month, year (or one free date).

    frwiki's {{date|4|juillet|1934|en musique}} puts a qualifier in the fourth argument: it
    only chooses a category link, so it is never printed.
    """
    if len(call.positional) == 1 or (call.arg(1) and not call.arg(2)):
        return format_date(_parse_free_date(call.arg(1)), call.lang)
    if call.lang == "en" and call.key == "date":
        return format_date(_parse_free_date(" ".join(call.positional[:3])), call.lang)
    day, month, year = call.arg(1), call.arg(2), call.arg(3)
    if not year and re.fullmatch(r"\d{3,4}", month.strip()):
        return format_date(_ymd(month, day), call.lang)  # {{date||mai|1950}} shapes
    if not day:
        return format_date(_ymd(year, month), call.lang)
    return format_date(_ymd(year, month, day), call.lang)


def _fr_birth_date(call: Call) -> str:
    """frwiki {{date de naissance|J|M|A|âge=oui}}: the date, and the age when asked."""
    date = (
        _ymd(call.arg(3), call.arg(2), call.arg(1))
        if call.arg(1)
        else _ymd(call.arg(3), call.arg(2))
    )
    text = format_date(date, "fr")
    if call.flag("âge", "age") and date.day:
        return _with_age(text, date, call.today, "fr", dead=False)
    return text


def _fr_death_date(call: Call) -> str:
    """frwiki {{date de décès|J|M|A|bJ|bM|bA}}: arguments 4-6 are the birth date, for the age."""
    died = (
        _ymd(call.arg(3), call.arg(2), call.arg(1))
        if call.arg(1)
        else _ymd(call.arg(3), call.arg(2))
    )
    text = format_date(died, "fr")
    if call.arg(6) and call.arg(4) and died.day:
        born = _ymd(call.arg(6), call.arg(5), call.arg(4))
        return _with_age(text, born, died.as_date(), "fr", dead=True)
    return text


def _years_between(call: Call, *, day_first: bool) -> str:
    """The number of years from the first date to the second, or to ``today`` (the revision's
    date) when there is none: eswiki/cawiki {{edad|d|m|a[|d|m|a]}} (``day_first``), enwiki
    {{age|Y|M|D[|Y|M|D]}}."""
    order = (3, 2, 1) if day_first else (1, 2, 3)
    born = _ymd(*(call.arg(i) for i in order))
    if call.arg(4):
        until = _ymd(*(call.arg(i + 3) for i in order)).as_date()
    elif call.today is not None:
        until = call.today
    else:
        raise Unrenderable("an age until today needs the revision's date")
    return str(_age(born, until))


def _pt_birth(call: Call) -> str:
    """ptwiki {{dni|D|M|A}} (birth date and age) and {{dtlink|D|M|A}}."""
    date = _ymd(call.arg(3), call.arg(2), call.arg(1))
    text = format_date(date, "pt")
    return _with_age(text, date, call.today, "pt", dead=False) if call.key == "dni" else text


def _pt_death(call: Call) -> str:
    """ptwiki {{morte|D|M|A|bD|bM|bA}}: the death date and the age at death."""
    died = _ymd(call.arg(3), call.arg(2), call.arg(1))
    text = format_date(died, "pt")
    if call.arg(6):
        born = _ymd(call.arg(6), call.arg(5), call.arg(4))
        return _with_age(text, born, died.as_date(), "pt", dead=True)
    return text


def _as_of(call: Call) -> str:
    """enwiki {{as of|Y[|M[|D]]}}: "As of May 2010" (``lc=y``: "as of")."""
    date = _ymd(call.arg(1), call.arg(2), call.arg(3))
    words = "as of" if call.flag("lc") else "As of"
    if call.get("since").lower() in {"y", "yes"}:
        words = "since" if call.flag("lc") else "Since"
    return f"{words} {format_date(date, 'en', mdy=not call.flag('df'))}"


# ----- numbers and units --------------------------------------------------------------------

_THOUSANDS = {"en": ",", "fr": " ", "es": " ", "pt": " ", "it": ".", "ca": ".", "de": "."}
_DECIMAL = {"en": ".", "fr": ",", "es": ",", "pt": ",", "it": ",", "ca": ",", "de": ","}
_NUMBER_RE = re.compile(r"-?\d+(?:\.\d+)?")


def format_number(text: str, lang: str) -> str:
    """A number the way MediaWiki's ``formatnum`` writes it in the wiki's language."""
    text = text.strip().replace(",", "") if lang == "en" else text.strip()
    if not _NUMBER_RE.fullmatch(text):
        raise Unrenderable(f"not a number: {text!r}")
    sign = "-" if text.startswith("-") else ""
    whole, _, frac = text.lstrip("-").partition(".")
    sep = _THOUSANDS.get(lang, ",")
    if len(whole) > 4 or (len(whole) == 4 and lang in {"en", "de", "it", "ca"}):
        groups = []
        while whole:
            groups.append(whole[-3:])
            whole = whole[:-3]
        whole = sep.join(reversed(groups))
    return sign + whole + (_DECIMAL.get(lang, ".") + frac if frac else "")


def _formatnum(call: Call) -> str:
    return format_number(call.key.partition(":")[2] or call.arg(1), call.lang)


_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
_LEADING_NUMBER_RE = re.compile(r"^\s*(-?[\d\s\u00a0\u202f]*\d(?:[.,]\d+)?)\s*(.*)$", re.DOTALL)


def _fr_value(text: str) -> tuple[str, str]:
    """frwiki's value argument: a number (``1.80``, ``1,80``, ``100 000``) and any words after
    it (``{{unité|100000 habitants}}``, which the wiki's module also reads)."""
    found = _LEADING_NUMBER_RE.match(text)
    if found is None:
        raise Unrenderable(f"not a number: {text!r}")
    number = re.sub(r"[\s\u00a0\u202f]", "", found.group(1)).replace(",", ".")
    return format_number(number, "fr"), found.group(2).strip()


def _fr_unit(call: Call) -> str:
    """frwiki {{unité|1.80|m}}, {{unité|892|km|2}} "892 km²", {{nombre|12000|habitants}},
    {{tmp|2|°C}}: the number, then each unit with its exponent (Modèle:Unité)."""
    number, words = _fr_value(call.arg(1))
    parts = [number] + ([words] if words else [])
    units = [p.strip() for p in call.positional[1:]]
    for i in range(0, len(units), 2):
        if not units[i]:
            continue
        exponent = units[i + 1] if i + 1 < len(units) else ""
        if exponent and not re.fullmatch(r"-?\d+", exponent):
            raise Unrenderable(f"not an exponent: {exponent!r}")
        parts.append(units[i] + exponent.translate(_SUPERSCRIPT))
    return " ".join(parts)


def _fr_euro(call: Call) -> str:
    """frwiki {{euro|77.80}}: "77,80 €"."""
    return f"{_fr_value(call.arg(1))[0]} €"


def _fr_incise(call: Call) -> str:
    """frwiki {{incise|texte}}: the aside set off by dashes, "— texte —"."""
    return f"— {_first(call)} —"


def _pt_century(call: Call) -> str:
    """ptwiki {{séc|XX}}: "século XX"."""
    return f"século {_roman(call.arg(1))}"


def _pt_number(call: Call) -> str:
    """ptwiki {{fmtn|150000}}: the number in Portuguese style."""
    return format_number(call.arg(1), "pt")


def _de_number(call: Call) -> str:
    """dewiki {{FlDez|891.68}}: the decimal number in German style ("891,68")."""
    return format_number(call.arg(1), "de")


def _harvtxt(call: Call) -> str:
    """enwiki {{harvtxt|Smith|Jones|2010}}: "Smith & Jones (2010)" (the citation as words)."""
    args = [a.strip() for a in call.positional if a.strip()]
    if len(args) < 2 or not re.fullmatch(r"\d{4}[a-z]?|n\.d\.", args[-1]):
        raise Unrenderable("harvtxt without authors and a year")
    names = args[:-1][:4]
    joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " & " + names[-1]
    if len(args) - 1 > 4:
        joined = f"{names[0]} et al."
    return f"{joined} ({args[-1]})"


_CONVERT_RANGE_WORDS = frozenset({"-", "–", "to", "and", "or", "by", "x", "×", "+/-", "±"})
#: {{convert}}'s unit codes and how enwiki spells them out in running text (abbr=off default).
_CONVERT_UNITS = {
    "m": ("metre", "metres"),
    "km": ("kilometre", "kilometres"),
    "cm": ("centimetre", "centimetres"),
    "mm": ("millimetre", "millimetres"),
    "mi": ("mile", "miles"),
    "ft": ("foot", "feet"),
    "in": ("inch", "inches"),
    "yd": ("yard", "yards"),
    "kg": ("kilogram", "kilograms"),
    "g": ("gram", "grams"),
    "lb": ("pound", "pounds"),
    "t": ("tonne", "tonnes"),
    "ha": ("hectare", "hectares"),
    "acre": ("acre", "acres"),
    "km2": ("square kilometre", "square kilometres"),
    "sqmi": ("square mile", "square miles"),
    "m2": ("square metre", "square metres"),
    "km/h": ("kilometre per hour", "kilometres per hour"),
    "mph": ("mile per hour", "miles per hour"),
    "l": ("litre", "litres"),
    "c": ("°C", "°C"),
    "f": ("°F", "°F"),
}


def _convert(call: Call) -> str:
    """enwiki {{convert|1.80|m|ftin}}: the first value and its unit, spelled out unless
    ``abbr=on`` (the converted value is the wiki's own arithmetic: left out, like an aside)."""
    values = [p.strip() for p in call.positional]
    if len(values) < 2:
        raise Unrenderable("convert needs a value and a unit")
    abbr = call.get("abbr").lower() in {"on", "values", "in"}

    def unit(code: str, amount: str) -> str:
        names = _CONVERT_UNITS.get(code.lower())
        if names is None or abbr:
            return code
        return names[0] if amount in {"1", "1.0"} else names[1]

    def number(value: str) -> str:
        return format_number(value, "en") if _NUMBER_RE.fullmatch(value.replace(",", "")) else value

    if values[1] in _CONVERT_RANGE_WORDS and len(values) >= 4:
        return f"{number(values[0])} {values[1]} {number(values[2])} {unit(values[3], values[2])}"
    return f"{number(values[0])} {unit(values[1], values[0])}"


# ----- centuries ----------------------------------------------------------------------------

_ROMAN_RE = re.compile(r"[IVXLC]+", re.IGNORECASE)


def _roman(text: str) -> str:
    text = text.strip()
    if not _ROMAN_RE.fullmatch(text):
        raise Unrenderable(f"not a Roman numeral: {text!r}")
    return text.upper()


def _fr_century(call: Call) -> str:
    """frwiki {{s|XIX}} "XIXe siècle", {{s-|XIX}} / {{s mini-|XIX}} "XIXe", {{-s|III}} B.C."""
    number = _roman(call.arg(1))
    suffix = "er" if number == "I" else "e"
    word = "" if call.key.endswith("-") else " siècle"
    era = " av. J.-C." if call.key.startswith("-s") else ""
    return f"{number}{suffix}{word}{era}"


def _fr_named_century(call: Call) -> str:
    """frwiki {{XIXe siècle}}, {{Ier siècle av. J.-C.}}: the name is the text."""
    found = _NAMED_CENTURY_RE.match(call.key)
    if found is None:
        raise Unrenderable(f"not a century: {call.key!r}")
    era = " av. J.-C." if found.group(3) else ""
    return f"{found.group(1).upper()}{found.group(2)} siècle{era}"


def _es_century(call: Call) -> str:
    """eswiki {{siglo|XIX}} "XIX", {{siglo|XIX||s}} "siglo XIX" (``S``: "Siglo XIX"), era in
    the second argument (``a`` "a. C.", ``d`` "d. C."); cawiki {{segle|XIX}} "segle XIX"."""
    number = _roman(call.arg(1))
    era = {"a": " a. C.", "d": " d. C."}.get(call.arg(2).strip().lower(), "")
    if call.key == "segle":
        return f"segle {number}{era}"
    style = call.arg(3) or call.get("3")
    word = {"s": "siglo ", "S": "Siglo "}.get(style.strip(), "")
    return f"{word}{number}{era}"


def _it_century(call: Call) -> str:
    """itwiki {{Sec|XIX}}: "XIX secolo"."""
    return f"{_roman(call.arg(1))} secolo"


# ----- languages ----------------------------------------------------------------------------

_LANGUAGE_NAMES = {
    "ar": "Arabic", "ca": "Catalan", "cs": "Czech", "da": "Danish", "de": "German",
    "el": "Greek", "en": "English", "es": "Spanish", "fa": "Persian", "fi": "Finnish",
    "fr": "French", "ga": "Irish", "grc": "Ancient Greek", "he": "Hebrew", "hi": "Hindi",
    "hu": "Hungarian", "it": "Italian", "ja": "Japanese", "ko": "Korean", "la": "Latin",
    "nl": "Dutch", "no": "Norwegian", "pl": "Polish", "pt": "Portuguese", "ro": "Romanian",
    "ru": "Russian", "sv": "Swedish", "tr": "Turkish", "uk": "Ukrainian", "zh": "Chinese",
}  # fmt: skip


def _lang(call: Call) -> str:
    """{{lang|fr|text}} / {{langue|en|text}}: the text in the other language."""
    text = call.get("texte", "text") or call.arg(2)
    if not text:
        raise Unrenderable("lang without text")
    return text


def _langx(call: Call) -> str:
    """enwiki {{langx|de|Bundesrepublik}} / {{lang-de|…}}: "German: Bundesrepublik"."""
    if call.key.startswith("lang-"):
        code, text = call.key[5:], call.arg(1)
    else:
        code, text = call.arg(1).lower(), call.arg(2)
    name = _LANGUAGE_NAMES.get(code)
    if not text or name is None:
        raise Unrenderable(f"no name for language {code!r}")
    if call.get("label").lower() == "none":
        return text
    return f"{name}: {text}"


def _nihongo(call: Call) -> str:
    """enwiki {{nihongo|English|漢字|rōmaji}}: "English (漢字, rōmaji)"."""
    first = call.arg(1) or call.arg(3)
    rest = [a for a in (call.arg(2), call.arg(3) if call.arg(1) else "") if a]
    return f"{first} ({', '.join(rest)})" if rest else first


def _fr_lien(call: Call) -> str:
    """frwiki {{Lien|fr=Titre|lang=en|trad=Title|texte=shown}}: the shown text or the title."""
    text = call.get("texte", "fr") or call.arg(1)
    if not text:
        raise Unrenderable("Lien without a French title")
    return text


def _first(call: Call) -> str:
    if not call.positional or not call.arg(1):
        raise Unrenderable("no text")
    return call.arg(1)


def _last(call: Call) -> str:
    if len(call.positional) < 2 or not call.positional[-1].strip():
        raise Unrenderable("no text")
    return call.positional[-1].strip()


def _angbr(call: Call) -> str:
    return f"⟨{_first(call)}⟩"


def _chem(call: Call) -> str:
    """enwiki {{chem|H|2|O}}: the formula, its parts joined."""
    if not call.positional:
        raise Unrenderable("no formula")
    return "".join(p.strip() for p in call.positional)


def _val(call: Call) -> str:
    """enwiki {{val|1.23|e=5|u=m}}: the number (grouped), its power of ten and unit."""
    text = format_number(call.arg(1), "en")
    if call.get("e"):
        text += f"×10{call.get('e')}"
    unit = call.get("u", "ul")
    return f"{text} {unit}" if unit else text


def _block_quote(call: Call) -> str:
    """{{quote|text}} / {{cita|text}}: a quotation set off as its own paragraph."""
    return f"\n\n{call.get('text', 'quote') or _first(call)}\n\n"


def _circa(call: Call) -> str:
    return f"c. {call.arg(1)}".strip()


def _floruit(call: Call) -> str:
    return f"fl. {call.arg(1)}".strip()


def _frac(call: Call) -> str:
    parts = [p.strip() for p in call.positional[:3]]
    if len(parts) == 3:
        return f"{parts[0]} {parts[1]}/{parts[2]}"
    if len(parts) == 2:
        return f"{parts[0]}/{parts[1]}"
    return f"1/{parts[0]}" if parts else "/"


def _sic(call: Call) -> str:
    return f"{call.arg(1)} [sic]".strip() if call.arg(1) else "[sic]"


def _quote_fr(call: Call) -> str:
    return f"« {_first(call)} »"


def _currency(symbol: str) -> Renderer:
    return lambda call: f"{symbol}{call.arg(1)}"


def _case(call: Call) -> str:
    word, _, arg = call.key.partition(":")
    text = call.raw_positional[0] if call.raw_positional else arg
    text = text.strip()
    return {"lc": text.lower(), "uc": text.upper(), "ucfirst": text[:1].upper() + text[1:],
            "lcfirst": text[:1].lower() + text[1:]}[word]  # fmt: skip


def _constant(text: str) -> Renderer:
    return lambda call: text


_CONSTANTS = {
    "ndash": "–",
    "mdash": "—",
    "snd": " – ",
    "spnd": " – ",
    "spaced ndash": " – ",
    "spaced en dash": " – ",
    "spaced mdash": " — ",
    "nbsp": " ",
    "'": "'",
    "'s": "'s",
    "okina": "ʻ",
    "' \"": "'\"",
    "\" '": "\"'",
    '"': '"',
    "mdashb": " —",
    "spaces": " ",
    "!": "|",
    "=": "=",
    "esd": " ",
    "er": "er",
    "re": "re",
    "e": "e",
    "ère": "ère",
    "1er": "1er",
    "1re": "1re",
    "ier": "Ier",
    "av j.-c.": "av. J.-C.",
    "av. j.-c.": "av. J.-C.",
    "apr j.-c.": "apr. J.-C.",
    "apr. j.-c.": "apr. J.-C.",
}

#: Key -> renderer. Names are compared after :func:`_template_key` (case, ``_``, spaces).
RENDERERS: dict[str, Renderer] = {name: _constant(text) for name, text in _CONSTANTS.items()}
RENDERERS.update(
    {
        name: _first
        for name in (
            "nowrap",
            "nobr",
            "nobreak",
            "nwr",
            "small",
            "smaller",
            "big",
            "larger",
            "ill",
            "interlanguage link",
            "abbr",
            "abbrlink",
            "flag",
            "flagcountry",
            "flagu",
            "keypress",
            "référence nécessaire",
            "refnec",
            "référence souhaitée",
            "romain",
            "rom",
            "sp",
            "highlight",
            "sc",
            "smallcaps",
            "small caps",
            "latin",
            "ta",
            "vanchor",
            "visible anchor",
            "not a typo",
            "as written",
            "sortname",
        )
    }
)
RENDERERS.update(
    {
        "lang": _lang,
        "langue": _lang,
        "langx": _langx,
        "transl": _last,
        "transliteration": _last,
        "nihongo": _nihongo,
        "nihongo2": _first,
        "lien": _fr_lien,
        "birth date": _birth_date,
        "birth-date": _birth_date,
        "dob": _birth_date,
        "death date": _birth_date,
        "start date": _birth_date,
        "end date": _birth_date,
        "film date": _birth_date,
        "birth date and age": _birth_date_and_age,
        "bda": _birth_date_and_age,
        "start date and age": _birth_date_and_age,
        "death date and age": _death_date_and_age,
        "dda": _death_date_and_age,
        "birth year and age": _year_and_age,
        "death year and age": _year_and_age,
        "age": lambda call: _years_between(call, day_first=False),
        "date": _date_generic,
        "date-": _date_generic,
        "fecha": _date_generic,
        "data": _date_generic,
        "datum": _date_generic,
        "date de naissance": _fr_birth_date,
        "date de naissance-": _fr_birth_date,
        "date de décès": _fr_death_date,
        "date de décès-": _fr_death_date,
        "edad": lambda call: _years_between(call, day_first=True),
        "edat": lambda call: _years_between(call, day_first=True),
        "dni": _pt_birth,
        "dtlink": _pt_birth,
        "morte": _pt_death,
        "as of": _as_of,
        "circa": _circa,
        "c.": _circa,
        "fl.": _floruit,
        "floruit": _floruit,
        "frac": _frac,
        "sic": _sic,
        "citation": _quote_fr,
        "cita": _block_quote,
        "quote": _block_quote,
        "blockquote": _block_quote,
        "angbr": _angbr,
        "chem": _chem,
        "val": _val,
        "convert": _convert,
        "cvt": _convert,
        "unité": _fr_unit,
        "nombre": _fr_unit,
        "tmp": _fr_unit,
        "euro": _fr_euro,
        "incise": _fr_incise,
        "séc": _pt_century,
        "fmtn": _pt_number,
        "fldez": _de_number,
        "harvtxt": _harvtxt,
        "formatnum": _formatnum,
        "s": _fr_century,
        "s-": _fr_century,
        "s mini-": _fr_century,
        "s mini": _fr_century,
        "-s": _fr_century,
        "-s-": _fr_century,
        "siècle": _fr_century,
        "siglo": _es_century,
        "segle": _es_century,
        "sec": _it_century,
        "us$": _currency("US$"),
        "usd": _currency("US$"),
        "£": _currency("£"),
        "gbp": _currency("£"),
        "€": _currency("€"),
        "eur": _currency("€"),
        "lc": _case,
        "uc": _case,
        "ucfirst": _case,
        "lcfirst": _case,
    }
)
#: frwiki's ordinal templates: {{2e}} "2e", {{1ère}} "1re", {{23e}} "23e".
_FR_ORDINAL_RE = re.compile(r"^\d+(?:e|er|re|ère|ème|es|ers|res)$")


def _fr_ordinal(call: Call) -> str:
    return call.key.replace("ère", "re").replace("ème", "e")


_NAMED_CENTURY_RE = re.compile(r"^([ivxlc]+)(e|er) siècle( av\. j\.-c\.)?$")

#: Templates whose output is no words of the sentence: footnotes and their kin (a superscript
#: mark), maintenance tags, anchors, category and sort-key helpers, layout. Dropped quietly
#: wherever they stand.
WORDLESS = frozenset(
    name.strip()
    for name in """
    sfn, sfnp, sfnm, efn, efn-ua, efn-lr, refn, r, rp, ref label, note label, harvnb, harv,
    harvp, citation needed, cn, fact, clarify, clarification needed, when, who, whom,
    by whom, which, according to whom, dubious, vague, page needed, pn, failed verification,
    better source needed, unreliable source?, verify source, year needed, self-published inline,
    full citation needed, disputed inline, request quotation, référence insuffisante,
    prononciation, carece de fontes, actualizar, anker, msapi, anchor, anchors, shy, wbr,
    zwsp, clear, clr, reflist,
    notelist, refbegin, refend, référence nécessaire?, pas clair, précision nécessaire, quand,
    qui, lequel ?, réf nécessaire, référence incomplète, cita requerida, cr, sin referencias,
    citazione necessaria, senza fonte, chiarire, dubbio, nn, ipa, respell, pronunciation, audio,
    coord, ancre, nf, dts, dtsort, sort, sortkey, flagicon, flagdeco, defaultsort, ordenar,
    lien web, lien brisé, article, ouvrage, commonscat, commons category, main, main article,
    see also, further, details, qualify evidence, where, full, -, better source, refimprove,
    update after, ebooks
    """.replace("\n", " ").split(",")
) - {""}
_WORDLESS_PREFIXES = ("cite ", "cita ", "infobox", "ficha ", "infotaula", "taxobox", "ipa",
                      "use ", "pp-", "short description", "multiple issues", "navbox", "portail",
                      "portal", "harv", "sfn", "efn", "coord", "citation", "#tag:ref", "#invoke:",
                      "reflist", "notelist", "authority control", "normdaten", "control de auto",
                      "autorité", "bases", "dts", "sort")  # fmt: skip


# ----- itwiki {{Bio}}: the whole incipit of a biography from its parameters -----------------

_IT_ELIDE_RE = re.compile(r"^(?:s[bcdfghjklmnpqrstvwxz]|z|gn|ps|pn|x|y)", re.IGNORECASE)


def _it_article(word: str, feminine: bool) -> str:
    vowel = word[:1].lower() in "aeiouàèéìòù"
    if feminine:
        return "un'" if vowel else "una "
    return "uno " if _IT_ELIDE_RE.match(word) else "un "


def _bio(call: Call) -> str:
    """itwiki {{Bio}}: "Nome Cognome (Luogo, giorno anno – Luogo, giorno anno) è stato un
    attività nazionalità." built from its documented named parameters (Template:Bio)."""
    g = call.get
    name = " ".join(p for p in (g("titolo"), g("nome"), g("cognome")) if p)
    if not name or not (g("attività") or g("fineincipit")):
        raise Unrenderable("Bio without a name or an activity")
    name += (", " + g("postcognomevirgola")) if g("postcognomevirgola") else ""
    name += (" " + g("postcognome")) if g("postcognome") else ""

    def when(place: str, day: str, year: str) -> str:
        date = " ".join(p for p in (day, year) if p)
        return ", ".join(p for p in (place, date) if p)

    born = when(g("luogonascitaalt", "luogonascita"), g("giornomesenascita"), g("annonascita"))
    died = when(g("luogomortealt", "luogomorte"), g("giornomesemorte"), g("annomorte"))
    dates = born + (f" – {died}" if died else "")
    if g("predata"):
        dates = f"{g('predata')}; {dates}" if dates else g("predata")
    head = f"{name} ({dates})" if dates else name
    if g("fineincipit"):
        tail = g("fineincipit")
    else:
        feminine = g("sesso").upper() == "F"
        dead = bool(g("annomorte"))
        verb = ("è stata " if feminine else "è stato ") if dead else "è "
        jobs = [j for j in (g("attività"), g("attività2"), g("attività3")) if j]
        work = ", ".join(jobs[:-1]) + (" e " if len(jobs) > 1 else "") + jobs[-1]
        if g("attivitàaltre"):
            work += g("attivitàaltre")
        nation = g("nazionalità")
        if g("nazionalitànaturalizzato"):
            nation += (" naturalizzata " if feminine else " naturalizzato ") + g(
                "nazionalitànaturalizzato"
            )
        if g("cittadinanza"):
            nation += f" con cittadinanza {g('cittadinanza')}"
        tail = verb + _it_article(work, feminine) + " ".join(p for p in (work, nation) if p)
        post = g("postnazionalità")
        if post:  # "…, premio Nobel" is glued; "e di origini canadesi" takes a space
            tail += post if post[0] in ",;:." else " " + post
    end = "" if g("punto").lower() == "no" else "."
    return f"{head} {tail}{end}"


RENDERERS["bio"] = _bio
#: Block templates that render a paragraph of their own (kept by the pre-pass although they
#: span lines): a paragraph break follows them.
BLOCK_RENDERED = frozenset({"bio"})


def renderer_for(key: str) -> Renderer | None:
    """The renderer of template ``key`` (already :func:`_template_key`-ed), or None."""
    found = RENDERERS.get(key)
    if found is not None:
        return found
    prefix, colon, _ = key.partition(":")
    if colon and prefix in {"formatnum", "lc", "uc", "ucfirst", "lcfirst"}:
        return RENDERERS[prefix]
    if key.startswith("lang-") and key[5:] in _LANGUAGE_NAMES:
        return _langx
    if _NAMED_CENTURY_RE.match(key):
        return _fr_named_century
    if _FR_ORDINAL_RE.match(key):
        return _fr_ordinal
    return None


_MAINTENANCE_SUFFIXES = (" needed", "-inline", " inline", " span")


def is_wordless(key: str) -> bool:
    """Whether template ``key`` carries no words of the sentence wherever it stands (a
    footnote, an inline maintenance tag such as ``{{weasel-inline}}``, a hatnote)."""
    return (
        key in WORDLESS or key.startswith(_WORDLESS_PREFIXES) or key.endswith(_MAINTENANCE_SUFFIXES)
    )


def render_call(call: Call) -> str | None:
    """The words ``call`` shows in running text, or None when its arguments are not what the
    template documents (the caller leaves a hole)."""
    renderer = renderer_for(call.key)
    if renderer is None:
        return None
    try:
        text = renderer(call)
    except (Unrenderable, ValueError, IndexError):
        return None
    return text


def make_call(
    key: str,
    params: Sequence[tuple[str | None, str]],
    *,
    lang: str,
    today: dt.date | None,
    raw_positional: Sequence[str] = (),
) -> Call:
    """A :class:`Call` from ``(name or None, rendered text)`` pairs in source order."""
    positional: list[str] = []
    named: dict[str, str] = {}
    for name, value in params:
        if name is None:
            positional.append(value)
        elif name.strip().isdigit():
            index = int(name.strip())
            while len(positional) < index:
                positional.append("")
            positional[index - 1] = value
        else:
            named[name.strip().lower()] = value
    return Call(key, positional, named, lang, today, list(raw_positional))

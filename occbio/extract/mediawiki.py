"""MediaWiki's conventions, shared by the dump and web paths: titles, categories, and the
section and namespace names (in the languages occbio knows best) that never hold prose."""

from __future__ import annotations

import re
import unicodedata

__all__ = [
    "NON_PROSE_NAMESPACES",
    "NON_PROSE_SECTIONS",
    "category_name",
    "normalise_title",
    "page_categories",
    "utc_timestamp",
]

# ---------------------------------------------------------------------------------------------
# Titles

_WHITESPACE_RE = re.compile(r"\s+")


def normalise_title(title: str) -> str:
    """A title as MediaWiki stores it: spaces for underscores, single spaces, first letter upper.

    Both the dump's titles and requested titles go through this, so ``albert_Einstein`` finds
    ``Albert Einstein``. A first letter whose upper case is longer than one character (``ß``)
    is kept as it is, as MediaWiki does.
    """
    text = _WHITESPACE_RE.sub(" ", unicodedata.normalize("NFC", title).replace("_", " ")).strip()
    if not text:
        return text
    first = text[0].upper()
    if len(first) != 1:
        first = text[0]
    return first + text[1:]


_TIMESTAMP_RE = re.compile(
    r"(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.\d+)?(Z|[+-]00:?00)?", re.ASCII
)


def utc_timestamp(text: str | None) -> str:
    """A revision's timestamp as ISO 8601 UTC to the second (``2024-06-01T12:34:56Z``), from
    a dump's ``<timestamp>`` or Parsoid's ``dc:modified`` (``2017-08-03T16:37:48.000Z``);
    ``""`` for anything else (no timestamp, or one in another time zone)."""
    match = _TIMESTAMP_RE.fullmatch((text or "").strip())
    if match is None:
        return ""
    return f"{match.group(1)}T{match.group(2)}Z"


# ---------------------------------------------------------------------------------------------
# Sections and namespaces

#: Sections that hold references, links or lists of works rather than prose, in the languages
#: occbio knows best (en es ca fr de it pt); compared lower-cased. The web path uses it too.
NON_PROSE_SECTIONS = frozenset(
    {
        "references",
        "external links",
        "external link",
        "see also",
        "further reading",
        "notes",
        "footnotes",
        "bibliography",
        "sources",
        "citations",
        "works cited",
        "notes and references",
        "references and notes",
        "referencias",
        "enlaces externos",
        "véase también",
        "notas",
        "bibliografía",
        "referències",
        "enllaços externs",
        "vegeu també",
        "bibliografia",
        "références",
        "liens externes",
        "voir aussi",
        "notes et références",
        "bibliographie",
        "einzelnachweise",
        "weblinks",
        "siehe auch",
        "literatur",
        "anmerkungen",
        # lists of works, and more names per language (Italian, Portuguese too)
        # en
        "works",
        "selected works",
        "selected bibliography",
        # es / ca
        "obras",
        "notas y referencias",
        "fuentes",
        "obres",
        "notes i referències",
        "altres referències",
        # fr
        "œuvres",
        "oeuvres",
        "articles connexes",
        "liens internes",
        # de
        "werke",
        "werke (auswahl)",
        "schriften",
        "schriften (auswahl)",
        "quellen",
        "fußnoten",
        "belege",
        # it
        "voci correlate",
        "note",
        "collegamenti esterni",
        "altri progetti",
        "opere",
        "fonti",
        # pt
        "ver também",
        "referências",
        "notas e referências",
        "ligações externas",
        "leitura adicional",
        "fontes",
    }
)

#: The category namespace, canonical and localized (lower-cased).
_CATEGORY_NAMESPACES = frozenset(
    {
        "category",
        "categoría",
        "categoria",
        "catégorie",
        "kategorie",
        "kategoria",
        "categorie",
        "kategori",
        "категория",
        "категорія",
        "thể loại",
        "カテゴリ",
        "分类",
        "分類",
        "تصنيف",
        "분류",
    }
)


# File and category namespaces, canonical and localized (lower-cased). A link into one of them
# is an image, a category or a media file, never prose.
NON_PROSE_NAMESPACES = _CATEGORY_NAMESPACES | frozenset(
    {
        # files
        "file",
        "image",
        "media",
        "fichier",
        "archivo",
        "imagen",
        "fitxer",
        "imatge",
        "datei",
        "bild",
        "immagine",
        "ficheiro",
        "arquivo",
        "imagem",
        "plik",
        "bestand",
        "afbeelding",
        "файл",
        "изображение",
        "tập tin",
        "hình",
        "ファイル",
        "画像",
        "文件",
        "檔案",
        "ملف",
        "파일",
    }
)
_CATEGORY_LINK_RE = re.compile(r"\[\[\s*([^:\]|]+?)\s*:\s*([^\]|]+?)\s*(?:\|[^\]]*)?\]\]")


def category_name(category: str) -> str:
    """A category's name without its namespace, normalised: "Categoria:Escriptors_catalans",
    "Category:Living people" and "Living people" name the categories the dump and the API
    know as "Escriptors catalans" and "Living people"."""
    namespace, sep, name = category.partition(":")
    if sep and namespace.strip().lower() in _CATEGORY_NAMESPACES:
        category = name
    return normalise_title(category)


def page_categories(wikitext: str) -> set[str]:
    """The categories a page's wikitext puts it in (``[[Category:Living people|Sortkey]]``, in
    any language's namespace name), titles normalised; ``[[:Category:X]]`` links are not."""
    found = set()
    for namespace, name in _CATEGORY_LINK_RE.findall(wikitext):
        if namespace.strip().lower() in _CATEGORY_NAMESPACES:
            found.add(normalise_title(name))
    return found

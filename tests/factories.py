"""Writers of small inputs in the real formats (dumps, a model directory), for tests and
benchmarks that need inputs of a chosen size."""

from __future__ import annotations

import bz2
import inspect
import json
from collections.abc import Iterable
from pathlib import Path
from xml.sax.saxutils import escape

_EXPORT_NS = "http://www.mediawiki.org/xml/export-0.10/"


def _item_claim(prop: str, qid: str, n: int) -> dict:
    return {
        "mainsnak": {
            "snaktype": "value",
            "property": prop,
            "datavalue": {
                "value": {"entity-type": "item", "numeric-id": int(qid[1:]), "id": qid},
                "type": "wikibase-entityid",
            },
            "datatype": "wikibase-item",
        },
        "type": "statement",
        "id": f"X${prop}-{n}",
        "rank": "normal",
    }


def human(
    qid: str, label: str, gender: str, occupations: list[str], titles: dict[str, str]
) -> dict:
    """A human item in the Wikidata JSON-dump entity shape."""
    claims = {"P31": [_item_claim("P31", "Q5", 0)], "P21": [_item_claim("P21", gender, 1)]}
    claims["P106"] = [_item_claim("P106", occ, i) for i, occ in enumerate(occupations)]
    return {
        "type": "item",
        "id": qid,
        "labels": {"en": {"language": "en", "value": label}},
        "descriptions": {},
        "aliases": {},
        "claims": claims,
        "sitelinks": {
            f"{lang}wiki": {"site": f"{lang}wiki", "title": t, "badges": []}
            for lang, t in titles.items()
        },
    }


def occupation(qid: str, label: str) -> dict:
    return {
        "type": "item",
        "id": qid,
        "labels": {"en": {"language": "en", "value": label}},
        "claims": {"P31": [_item_claim("P31", "Q28640", 0)]},
        "sitelinks": {},
    }


def write_wikidata_dump(path: Path, entities: Iterable[dict]) -> Path:
    """``[`` / one entity a line with a trailing comma / ``]``, bz2-compressed."""
    lines = [json.dumps(e, ensure_ascii=False) for e in entities]
    body = "[\n" + ",\n".join(lines) + "\n]\n"
    path.write_bytes(bz2.compress(body.encode()))
    return path


def write_pages_dump(path: Path, pages: Iterable[tuple[str, str]], lang: str = "en") -> Path:
    """A pages-articles XML dump of ``(title, wikitext)`` pages, bz2-compressed."""
    out = [
        f'<mediawiki xmlns="{_EXPORT_NS}" version="0.10" xml:lang="{lang}">',
        "  <siteinfo><sitename>Wikipedia</sitename><dbname>"
        f"{lang}wiki</dbname><case>first-letter</case><namespaces>"
        '<namespace key="0" case="first-letter" /></namespaces></siteinfo>',
    ]
    for i, (title, text) in enumerate(pages, 1):
        out.append(
            f"  <page><title>{escape(title)}</title><ns>0</ns><id>{i}</id><revision>"
            f"<id>{1000 + i}</id><timestamp>2020-01-01T00:00:00Z</timestamp>"
            "<contributor><username>t</username><id>1</id></contributor>"
            "<model>wikitext</model><format>text/x-wiki</format>"
            f'<text bytes="{len(text.encode())}" xml:space="preserve">{escape(text)}</text>'
            "</revision></page>"
        )
    out.append("</mediawiki>")
    path.write_bytes(bz2.compress("\n".join(out).encode()))
    return path


def write_tiny_bert(
    directory: Path, vocab: list[str], *, hidden: int = 32, seed: int = 0, max_positions: int = 64
) -> Path:
    """A random 2-layer BERT and its WordPiece tokenizer, saved as any Hub model is (needs
    torch and transformers): what the ``hf`` encoder loads, in ~100 KB."""
    import torch
    import transformers

    directory.mkdir(parents=True, exist_ok=True)
    vocab_file = directory / "vocab.txt"
    vocab_file.write_text("\n".join(vocab) + "\n", encoding="utf-8")
    cls = transformers.BertTokenizerFast
    key = "vocab" if "vocab" in inspect.signature(cls.__init__).parameters else "vocab_file"
    cls(**{key: str(vocab_file)}, do_lower_case=True).save_pretrained(str(directory))
    torch.manual_seed(seed)
    config = transformers.BertConfig(
        vocab_size=len(vocab),
        hidden_size=hidden,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=2 * hidden,
        max_position_embeddings=max_positions,
    )
    transformers.BertModel(config).eval().save_pretrained(str(directory))
    return directory

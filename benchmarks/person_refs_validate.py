"""The person-reference method (Derner et al., GeBNLP 2025) against the paper's ground truth.

What is measured: :func:`occbio.audit.llm.validate` (the paper's harness: identified, wrongly
classified, missed and extra words -> accuracy, precision, recall, F; plus the person
references L(P,M):L(P,F) themselves) for one backend on ``gt-es.txt`` and ``gt-va.txt`` (100
hand-annotated sentences each, ../shared/data/grb-corpora), on three splits:

* ``dev``: the even-numbered sentences, on which the offline backend's rules were chosen;
* ``test``: the odd-numbered ones, held out (the figure to quote for the offline backend);
* ``all``: both, the paper's setting.

Printed beside the paper's published figures (the F-score lines of the data's SOURCE.md). With
``--corpora`` (on by default for the offline backend, which costs nothing) it also counts
L(P,M):L(P,F) on the paper's two 1,000-sentence Spanish samples (Europarl, WMT-News), which
the paper reports at 4:1 to 6:1.

Run::

    .venv/bin/python benchmarks/person_refs_validate.py                  # offline backend
    .venv/bin/python benchmarks/person_refs_validate.py --base-url http://localhost:8000/v1 \\
        --model meta-llama/Llama-3.1-8B-Instruct --cache-dir outputs/chat-cache
    # key from $OPENAI_API_KEY (--api-key-env NAME for another variable)
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

from occbio.audit.llm import (  # noqa: E402
    audit_lines,
    backend_from_options,
    format_validation,
    validate,
)

DATA = REPO.parent / "shared" / "data" / "grb-corpora"
CORPORA = ["Europarl-v7.en-es.sample.01.es.txt", "WMT-News.en-es.sample.01.es.txt"]


def published(folder: Path) -> list[str]:
    """The lines of the data's SOURCE.md that give the paper's figures."""
    source = folder / "SOURCE.md"
    if not source.is_file():
        return ["(no SOURCE.md beside the ground truth)"]
    text = " ".join(source.read_text(encoding="utf-8").split())
    return [s.strip() + "." for s in text.split(". ") if "F-score" in s or "4:1" in s]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA, help="folder with gt-es.txt, gt-va.txt")
    parser.add_argument("--base-url", help="an OpenAI-compatible API root: use the chat backend")
    parser.add_argument("--model", help="the chat backend's model")
    parser.add_argument("--api-key-env", default="OPENAI_API_KEY")
    parser.add_argument("--cache-dir", type=Path, help="the chat backend's answer cache")
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--rate", type=float, default=2.0)
    parser.add_argument("--langs", default="es,va")
    parser.add_argument("--splits", default="dev,test,all")
    corpora = parser.add_mutually_exclusive_group()
    corpora.add_argument("--corpora", dest="corpora", action="store_true", default=None)
    corpora.add_argument("--no-corpora", dest="corpora", action="store_false")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)

    if not (args.data / "gt-es.txt").is_file():
        print(f"no ground truth in {args.data}: pass --data", file=sys.stderr)
        return 2
    chat = bool(args.base_url or args.model)
    if chat:
        backend = backend_from_options(
            "chat",
            base_url=args.base_url,
            model=args.model,
            api_key_env=args.api_key_env,
            cache_dir=args.cache_dir,
            concurrency=args.concurrency,
            rate=args.rate,
        )
    else:
        backend = backend_from_options("offline")
    results = []
    start = time.perf_counter()
    for lang in args.langs.split(","):
        for split in args.splits.split(","):
            results.append(validate(backend, lang, path=args.data, split=split))  # type: ignore[arg-type]
    seconds = time.perf_counter() - start
    print(f"backend: {backend.name}   ground truth: {args.data}")
    print(format_validation(results))
    print(
        "\nfound = identified, wrong = wrongly classified; acc = correct/found, "
        "P = correct/(found+extra), R = correct/(found+missed), F = harmonic mean; "
        "detF: finding the words, labels aside; pers*: the person labels (P with the right "
        "gender); M:F = L(P,M):L(P,F), ground truth and predicted."
    )
    labelled = sum(r.sentences for r in results)
    print(f"{labelled} sentences labelled in {seconds:.2f} s ({labelled / seconds:.0f}/s)")
    print("\nThe paper's published figures (SOURCE.md):")
    for line in published(args.data):
        print(f"  {line}")

    corpus_rows = []
    if args.corpora if args.corpora is not None else not chat:
        print("\nL(P,M):L(P,F) on the paper's Spanish samples (1,000 sentences each):")
        for name in CORPORA:
            path = args.data / name
            if not path.is_file():
                continue
            with path.open(encoding="utf-8") as fh:
                res = audit_lines(fh, "es", backend)
            corpus_rows.append({"corpus": name, **res.to_dict()})
            print(
                f"  {name:<40} {res.person_masculine:>4} : {res.person_feminine:<4} "
                f"= {res.ratio_text:<8} feminine share {100 * (res.feminine_share or 0):.1f} %"
            )
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "backend": backend.name,
                    "validation": [r.to_dict() for r in results],
                    "corpora": corpus_rows,
                },
                indent=2,
                ensure_ascii=False,
            ),
            encoding="utf-8",
        )
    close = getattr(backend, "close", None)
    if close is not None:
        close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

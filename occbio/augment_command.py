"""``occbio augment RUN_DIR``: add the counterfactual copy to a corpus already mined.

The same as running the write stage again with ``--augment``, but with the run's own settings
(read from its manifest), so nothing has to be repeated on the command line and no earlier
stage runs again: the corpus is rewritten from the balanced tuples the run already holds.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

__all__ = ["AugmentError", "add_augment_parser", "run_augment"]


class AugmentError(ValueError):
    """The directory is not a finished run (one line, no traceback)."""


def add_augment_parser(sub: Any) -> None:
    from occbio.cli_options import RELATIVES_HELP

    p = sub.add_parser(
        "augment",
        help="add the counterfactual copy (every document in the other gender) to a mined run",
        description="Write corpus/counterfactual.* beside the corpus of a finished run: each "
        "female or male document rewritten into the other gender in every language, marked "
        "counterfactual with its source gender, counted in the data card. Uses the run's own "
        "settings; only the write stage runs again.",
    )
    p.add_argument("run_dir", type=Path, metavar="RUN_DIR", help="the run's --out directory")
    p.add_argument(
        "--relatives",
        choices=["keep", "change"],
        help=RELATIVES_HELP + "; default: the run's setting, else keep",
    )
    p.add_argument(
        "--uncertain",
        choices=["keep", "skip"],
        help="a segment whose rewrite the rules are not sure of in some language: skip it "
        "(left out of the copy in every language, so the copy stays parallel and holds no "
        "rewrite the rules doubt; counted in the data card) or keep it; default: the run's "
        "setting, else skip",
    )
    p.add_argument("-v", "--verbose", action="store_true", help="log debugging detail")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def run_augment(args: argparse.Namespace) -> int:
    from occbio.augment import check_languages
    from occbio.config import ConfigError, load_config
    from occbio.run import MANIFEST, RunDir
    from occbio.runlock import run_lock
    from occbio.stages.write import CORPUS_DIR, run_write

    run_dir: Path = args.run_dir
    if not (run_dir / MANIFEST).is_file():
        raise AugmentError(
            f"{run_dir} is not an occbio run directory (no {MANIFEST}): give the --out of a "
            "finished `occbio mine`"
        )
    with run_lock(run_dir):
        stored = RunDir(run_dir).manifest
        if stored["stages"].get("balance", {}).get("status") != "done":
            raise AugmentError(
                f"{run_dir} has no balanced corpus yet: finish the run first (`occbio mine` "
                "with the same options and --out)"
            )
        config = stored.get("config") or {}
        if not isinstance(config, dict):
            raise AugmentError(
                f"{run_dir / MANIFEST} holds no run settings (config is not a table)"
            )
        config = dict(config)
        if not config.get("langs"):
            raise AugmentError(f"{run_dir / MANIFEST} holds no run settings (no languages)")
        config["out"] = str(run_dir)
        write = config.get("write") or {}
        if isinstance(write, dict):  # anything else is for the validation to name
            write = {**write, "augment": True}
            for option in ("relatives", "uncertain"):
                if getattr(args, option, None) is not None:
                    write[option] = getattr(args, option)
        config["write"] = write
        try:
            cfg = load_config(None, config)
        except ConfigError as exc:  # the settings are the manifest's, not the command line's
            raise AugmentError(
                f"{run_dir / MANIFEST} holds run settings occbio cannot use: {exc}"
            ) from None
        check_languages(cfg.langs)
        run = RunDir(cfg.out_dir, config=cfg.model_dump(mode="json"))
        result = run_write(cfg, run, show_progress=not args.quiet)
    print(
        result.summary(
            (
                "documents",
                "counterfactual_documents",
                "counterfactual_segments",
                "counterfactual_segments_uncertain",
            )
        )
    )
    for warning in result.warnings:
        print(f"  warning: {warning}")
    print(f"counterfactual corpus: {cfg.out_dir / CORPUS_DIR}/counterfactual.*")
    return 0

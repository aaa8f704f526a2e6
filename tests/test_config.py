"""Typed configuration: defaults, TOML files, overrides, errors that name the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from occbio.config import ConfigError, load_config
from occbio.langs import LanguageError, parse_langs

REPO_ROOT = Path(__file__).resolve().parents[1]


def test_defaults() -> None:
    cfg = load_config()
    assert cfg.langs == ["en", "es", "ca"]
    assert cfg.out_dir == Path("outputs/default")


def test_every_bundled_config_file_loads() -> None:
    files = sorted((REPO_ROOT / "configs").glob("*.toml"))
    assert files, "configs/ must hold at least default.toml"
    for path in files:
        load_config(path)


def test_toml_then_overrides(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('name = "x"\nlangs = ["en", "fr"]\n[clean]\nmin_words = 6\n')
    cfg = load_config(path, {"clean": {"min_chars": 20}, "langs": ["de"]})
    assert (cfg.name, cfg.langs, cfg.clean.min_words, cfg.clean.min_chars) == ("x", ["de"], 6, 20)


@pytest.mark.parametrize(
    ("toml", "expected"),
    [
        ('[clean]\nmin_words = "many"\n', "clean.min_words"),
        ("[clean]\nmin_words = 0\n", "clean.min_words"),
        ("[clean]\nmin_wrods = 3\n", "clean.min_wrods: unknown setting"),
        ('langs = ["en", "xx"]\n', "unknown language code"),
        ('[text]\nsource = "ftp"\n', "text.source"),
    ],
)
def test_bad_values_name_the_key(tmp_path: Path, toml: str, expected: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(toml)
    with pytest.raises(ConfigError, match=expected.replace(".", r"\.")):
        load_config(path)


def test_missing_and_malformed_files(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        load_config(tmp_path / "nope.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("langs = [\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(bad)


def test_unconfigured_dumps_say_how_to_fix() -> None:
    cfg = load_config()
    with pytest.raises(ConfigError, match="--entities-dump"):
        cfg.resolved_entity_dump()
    with pytest.raises(ConfigError, match="--dump es=PATH"):
        cfg.resolved_text_dump("es")


def test_parse_langs() -> None:
    assert parse_langs("EN, es,ca,es") == ["en", "es", "ca"]
    assert parse_langs("zh-min-nan,be_tarask") == ["zh-min-nan", "be-tarask"]
    with pytest.raises(LanguageError, match="'english'"):
        parse_langs("en,english")
    with pytest.raises(LanguageError, match="no language"):
        parse_langs(" , ")


def test_default_toml_matches_the_code_defaults() -> None:
    """configs/default.toml documents the defaults; it must not drift from config.py."""
    assert load_config(REPO_ROOT / "configs" / "default.toml") == load_config()


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({"align": {"threshold": float("nan")}}, "align.threshold: Input should be a finite"),
        ({"align": {"threshold": float("inf")}}, "align.threshold: Input should be a finite"),
        ({"align": {"min_cos": 1.5}}, "align.min_cos"),
        ({"clean": {"min_chars": 500, "max_chars": 100}}, "no sentence could be kept"),
    ],
)
def test_settings_that_would_give_nothing_are_errors(override: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_config(None, override)

"""Content versions on disk: an id is the hash of the game and the files, a version is
written once and checked against its id when read, a missing one is fetched from whoever
keeps versions (the server's database), and nothing but a plain id or file name is taken."""

from __future__ import annotations

from pathlib import Path

import pytest

from knockabout.core import content_versions as cv
from knockabout.core.errors import ConfigError

FILES = {"my-pack.toml": 'game = "knockback"\nid = "my-pack"\n'}


@pytest.fixture(autouse=True)
def content_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KNOCKABOUT_CONTENT", str(tmp_path / "content"))
    return tmp_path / "content"


def test_the_id_is_the_hash_of_the_game_and_the_files() -> None:
    a = cv.version_id("knockback", FILES)
    assert cv.valid_id(a)
    assert a == cv.version_id("knockback", dict(FILES))
    assert a != cv.version_id("knockdown", FILES)
    assert a != cv.version_id("knockback", {"my-pack.toml": FILES["my-pack.toml"] + "\n"})
    assert a != cv.version_id("knockback", {"other.toml": FILES["my-pack.toml"]})
    # the boundary between a name and its text cannot be moved
    assert cv.version_id("g", {"a.toml": "b"}) != cv.version_id("g", {"a.tom": "lb"})


def test_installed_files_read_back_and_are_checked(content_root: Path) -> None:
    files = {"box/box.toml": "a = 1\n", "box/arena.toml": "b = 2\n"}
    ident = cv.install("knockdown", files)
    assert cv.install("knockdown", files) == ident  # written once
    path = cv.folder("knockdown", ident)
    assert path == content_root / ident and cv.read(path) == files


def test_a_changed_file_is_not_the_version_any_more(content_root: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KNOCKABOUT_CONTENT", str(tmp_path / "elsewhere"))
    ident = cv.install("knockback", FILES)
    (tmp_path / "elsewhere" / ident / "my-pack.toml").write_text('game = "knockback"\nid = "evil"\n')
    with pytest.raises(ConfigError, match="not those of version"):
        cv.folder("knockback", ident)
    with pytest.raises(ConfigError, match="not those of version"):
        cv.folder("knockdown", ident)  # nor another game's


@pytest.mark.parametrize("bad", ["", "../../etc", "A" * 32, "0" * 31, "0" * 33, "0" * 30 + "/x", "0" * 31 + "\n"])
def test_only_an_id_names_a_version(bad: str) -> None:
    with pytest.raises(ConfigError, match="not a content version id"):
        cv.folder("knockback", bad)


@pytest.mark.parametrize("name", ["../x.toml", "/abs.toml", "a/b/c.toml", "x.py", "x.toml/", "x y.toml", "",
                                  "a\\b.toml", "." * 3 + ".toml"])
def test_only_plain_file_names_are_written(name: str, content_root: Path) -> None:
    with pytest.raises(ValueError, match="not a content file name"):
        cv.install("knockback", {name: "x = 1\n"})
    assert not content_root.exists() or not any(content_root.iterdir())


def test_a_missing_version_is_fetched_from_whoever_keeps_it(content_root: Path) -> None:
    ident = cv.version_id("knockback", FILES)
    asked: list[str] = []

    def fetch(version: str) -> tuple[str, dict[str, str]] | None:
        asked.append(version)
        return ("knockback", dict(FILES)) if version == ident else None

    with pytest.raises(ConfigError, match="no content version"):
        cv.folder("knockback", ident)
    remove = cv.add_fetcher(fetch)
    try:
        with pytest.raises(ConfigError, match="no content version"):
            cv.folder("knockdown", ident)  # the version is another game's
        assert cv.read(cv.folder("knockback", ident)) == FILES
        assert cv.folder("knockback", ident) and asked == [ident, ident]  # once written, never asked again
        with pytest.raises(ConfigError, match="no content version"):
            cv.folder("knockback", "0" * 32)
    finally:
        remove()

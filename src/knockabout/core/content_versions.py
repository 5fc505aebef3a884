"""Content versions: a designer's own content (a pack, a box) that tables can play, by id.

A content version is a few TOML files of one game (name -> text, as the game's content
editor writes a document: :meth:`~knockabout.core.plugins.ContentEditor.files`). Its id is
a hash of the game and the files (:func:`version_id`), so a version never changes: edited
content is a new version with a new id. A table plays one by naming its id in the game's
config option :data:`CONTENT_OPTION` (``content``); the game loads the files from
:func:`folder`, and its records name the version, so they replay exactly.

The files live on disk under :func:`root` (``$KNOCKABOUT_CONTENT``, else the user's cache
folder), one folder per id, written once (:func:`install`) and checked against their id
whenever a process first reads them. A process that keeps versions elsewhere (the
server's database) registers a :data:`Fetcher`, asked for a version whose folder is
missing. The files are data: the game's own loaders validate them and nothing in them
runs.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pydantic import Field

from knockabout.core.errors import ConfigError

CONTENT_OPTION = "content"
"""The config option by which a game's table names the content version it plays."""
ID_PATTERN = r"^([0-9a-f]{32})?$"
_ID = re.compile(r"^[0-9a-f]{32}$")
_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}(/[A-Za-z0-9_-]{1,64})?\.toml$")

Fetcher = Callable[[str], "tuple[str, dict[str, str]] | None"]
"""Asked for a version by id: its game and files, or None when it knows no such version."""

_fetchers: list[Fetcher] = []
_checked: set[tuple[str, Path]] = set()
_lock = threading.Lock()


def content_field(description: str) -> Any:
    """The ``content`` option of a game's config model: an id or empty (the shipped content).
    The lobby does not draw it among the options; it offers the person's own versions."""
    return Field("", pattern=ID_PATTERN, title="Content version", description=description,
                 json_schema_extra={"content_version": True})


def root() -> Path:
    """``$KNOCKABOUT_CONTENT``, else ``$XDG_CACHE_HOME/knockabout/content``, else
    ``~/.cache/knockabout/content``."""
    env = os.environ.get("KNOCKABOUT_CONTENT")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "knockabout" / "content"


def valid_id(version: str) -> bool:
    return bool(_ID.match(version))


def check_files(files: Mapping[str, str]) -> None:
    """Refuse (ValueError) a file name that is not a plain ``name.toml`` or ``folder/name.toml``."""
    if not files:
        raise ValueError("a content version has at least one file")
    for name in files:
        if not _NAME.match(name):
            raise ValueError(f"{name[:80]!r} is not a content file name (name.toml or folder/name.toml)")


def version_id(game_id: str, files: Mapping[str, str]) -> str:
    """The id of the version of ``game_id`` made of ``files``: 32 hex digits of SHA-256."""
    h = hashlib.sha256(f"knockabout content\0{game_id}\0".encode())
    for name in sorted(files):
        text = files[name].encode()
        h.update(f"{name}\0{len(text)}\0".encode() + text)
    return h.hexdigest()[:32]


def install(game_id: str, files: Mapping[str, str]) -> str:
    """Write a version's files under :func:`root` (once; a folder already there is kept)
    and return its id."""
    check_files(files)
    version = version_id(game_id, files)
    dest = root() / version
    if dest.is_dir():
        return version
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{version}-", dir=dest.parent))
    try:
        for name, text in files.items():
            path = tmp / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        try:
            tmp.rename(dest)
        except OSError:
            if not dest.is_dir():  # (another process wrote the same version first: fine)
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return version


def read(folder: Path) -> dict[str, str]:
    """The files of a version's folder, by name."""
    return {p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8")
            for p in sorted(folder.rglob("*.toml")) if p.is_file()}


def add_fetcher(fetch: Fetcher) -> Callable[[], None]:
    """Ask ``fetch`` for versions missing on disk; returns what removes it again."""
    _fetchers.append(fetch)
    return lambda: _fetchers.remove(fetch) if fetch in _fetchers else None


def folder(game_id: str, version: str) -> Path:
    """The folder of ``game_id``'s version ``version``, fetched and written if missing;
    a :class:`ConfigError` when there is no such version or its files are not its own."""
    if not valid_id(version):
        raise ConfigError(f"{game_id}: content: {version[:40]!r} is not a content version id (32 hex digits)")
    path = root() / version
    if not path.is_dir():
        for fetch in list(_fetchers):
            found = fetch(version)
            if found is not None and found[0] == game_id:
                install(game_id, found[1])
                break
    if not path.is_dir():
        raise ConfigError(f"{game_id}: content: no content version {version} here (uploaded versions live on "
                          "the server they were uploaded to)",
                          plain="This table's content version is not on this server.")
    with _lock:
        if (game_id, path) in _checked:
            return path
    if version_id(game_id, read(path)) != version:
        raise ConfigError(f"{game_id}: content: the files in {path} are not those of version {version} "
                          f"(of another game, or changed on disk)")
    with _lock:
        _checked.add((game_id, path))
    return path

"""A broken entry point in the ``knockabout.games`` group is one clear line naming it, and
does not hide the games that work."""

from __future__ import annotations

import importlib
import logging
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from knockabout.core.errors import KnockaboutError
from knockabout.core.registry import game_ids, get_game
from tests.plugin_game.conftest import SITE

BROKEN = {
    "fails-to-load": "highcard_no_such_module:GAME",
    "not-a-game": "highcard.actions:SPACE",
    "wrong-id": "highcard:GAME",
}


@pytest.fixture
def broken_site(tmp_path: Path) -> Iterator[Path]:
    info = tmp_path / "broken_games-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-games\nVersion: 0.1\n")
    lines = "".join(f"{name} = {target}\n" for name, target in BROKEN.items())
    (info / "entry_points.txt").write_text("[knockabout.games]\n" + lines)
    sys.path[:0] = [str(tmp_path), str(SITE)]
    importlib.invalidate_caches()
    try:
        yield tmp_path
    finally:
        sys.path.remove(str(tmp_path))
        sys.path.remove(str(SITE))
        importlib.invalidate_caches()
        from knockabout.core.registry import unregister

        unregister("high-card")


@pytest.mark.usefixtures("broken_site")
@pytest.mark.parametrize(("name", "says"), [
    ("fails-to-load", "failed to load: ModuleNotFoundError: No module named 'highcard_no_such_module'"),
    ("not-a-game", "is not a knockabout Game instance (it is a ActionSpace)"),
    ("wrong-id", "names a game whose id is 'high-card'; the names must match"),
])
def test_a_broken_entry_point_is_one_clear_line(name: str, says: str) -> None:
    with pytest.raises(KnockaboutError) as info:
        get_game(name)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"entry point {name!r} ({BROKEN[name]}) of the knockabout.games group")
    assert says in message


@pytest.mark.usefixtures("broken_site")
def test_broken_entry_points_leave_the_working_games_listed(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="knockabout.core.registry"):
        ids = game_ids()
    assert {"nak-muay", "knockback", "knockdown", "high-card"} <= set(ids)
    assert not set(BROKEN) & set(ids)
    assert sum("entry point" in r.getMessage() for r in caplog.records) == len(BROKEN)

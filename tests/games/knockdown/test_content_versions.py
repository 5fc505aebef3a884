"""Knockdown content versions (``balance compare``): a box folder or a folder of box folders,
validated on load, each box replacing the shipped box of its id; a version that copies the
shipped content deals exactly the shipped matches."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from knockabout.core.errors import ConfigError, ContentError
from knockabout.games.knockdown import GAME
from knockabout.games.knockdown.content.loader import BOXES, CONTENT_DIR, builtin_boxes, load_version, version_digest
from knockabout.games.knockdown.content.match import ALL_SYMBOLS

BOX = "tainted_grail"


def stronger_knight(tmp_path: Path, name: str = "tuned") -> Path:
    """A folder holding a copy of Tainted Grail whose Lost Knight's Special Attacks all cost
    one wild symbol, and whose two heavy ones wound 4 heavy (a deliberately stronger fighter)."""
    folder = tmp_path / name / BOX
    shutil.copytree(CONTENT_DIR / BOX, folder)
    sheet = folder / "fighters.toml"
    head, knight = sheet.read_text().split('id = "lost_knight"')
    knight = re.sub(r"heavy = \d", "heavy = 4", knight)
    knight = re.sub(r"cost = \[[^\]]*\]", 'cost = ["wild"]', knight)
    sheet.write_text(head + 'id = "lost_knight"' + knight)
    return folder.parent


def test_a_copy_of_the_shipped_content_loads_as_the_shipped_boxes(tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(CONTENT_DIR, copy)
    assert load_version(str(copy)) == builtin_boxes()
    assert list(load_version(str(copy / BOX))) == list(BOXES)  # a single box folder: the others stay shipped
    assert version_digest(str(copy)) == version_digest(str(CONTENT_DIR)) != ""


def test_a_box_of_a_version_replaces_the_shipped_box_of_its_id_only(tmp_path: Path) -> None:
    boxes = load_version(str(stronger_knight(tmp_path)))
    shipped = builtin_boxes()
    knight = boxes[BOX].fighter("lost_knight")
    assert knight != shipped[BOX].fighter("lost_knight")
    assert {sp.cost for sp in knight.special} == {("wild",)}
    assert boxes[BOX].fighter("maggot") == shipped[BOX].fighter("maggot")
    assert all(boxes[b] is shipped[b] for b in BOXES if b != BOX)
    assert version_digest(str(tmp_path / "tuned")) != version_digest(str(CONTENT_DIR))


def test_a_version_copying_the_shipped_content_deals_the_shipped_match(tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(CONTENT_DIR / BOX, copy)
    cfg = GAME.make_config({"fighters": ["maggot", "lost_knight"], "boxes": [BOX]})
    for seed in (1, 2):
        shipped, mine = GAME.new_state(cfg, seed), GAME.deal(cfg, seed, str(copy))
        assert mine.setup is not shipped.setup  # built from the version's files
        for _ in range(60):
            assert [mine.observe(p) for p in (0, 1)] == [shipped.observe(p) for p in (0, 1)]
            if shipped.is_over:
                break
            action = shipped.legal_actions()[seed % len(shipped.legal_actions())]
            shipped.apply(action)
            mine.apply(action)


def test_a_tuned_version_plays_its_tuned_fighter(tmp_path: Path) -> None:
    cfg = GAME.make_config({"fighters": ["lost_knight", "maggot"], "boxes": [BOX]})
    s = GAME.deal(cfg, 3, str(stronger_knight(tmp_path)))
    assert {sp.slots for sp in s.setup.specials[0]} == {(ALL_SYMBOLS,)}  # every one costs one wild symbol
    assert max(sp.heavy for sp in s.setup.specials[0]) == 4


def _problem(path: Path) -> str:
    with pytest.raises(ContentError) as info:
        load_version(str(path))
    return str(info.value)


def test_a_broken_version_is_one_clear_error_naming_the_file_and_the_problem(tmp_path: Path) -> None:
    assert _problem(tmp_path / "missing") == f"{tmp_path / 'missing'}: no such folder"
    a_file = tmp_path / "fighters.toml"
    a_file.write_text('game = "knockdown"\n')
    assert "is a folder" in _problem(a_file)
    (tmp_path / "empty").mkdir()
    assert "no knockdown box there" in _problem(tmp_path / "empty")

    broken = stronger_knight(tmp_path, "broken")
    sheet = broken / BOX / "fighters.toml"
    sheet.write_text(sheet.read_text().replace("heavy = 4", "heavy = 9", 1))
    msg = _problem(broken)
    assert msg.startswith(f"{sheet}: fighter #3 'lost_knight'.special #1 'Greatsword Arc': heavy: ")
    assert "less than or equal to 4" in msg and "\n" not in msg

    (broken / BOX / "skills.toml").unlink()
    msg = _problem(broken)
    assert "more;" in msg and "knockabout content validate" in msg  # first problem, then how many more

    unknown = stronger_knight(tmp_path, "unknown")
    meta = unknown / BOX / "box.toml"
    meta.write_text(meta.read_text().replace(f'id = "{BOX}"', 'id = "my_box"'))
    assert _problem(unknown) == (f"{meta}: box: id: 'my_box' is not a shipped box; a content version replaces "
                                 f"shipped boxes by id ({', '.join(BOXES)})")

    twice = stronger_knight(tmp_path, "twice")
    shutil.copytree(twice / BOX, twice / "again")
    first, second = twice / "again" / "box.toml", twice / BOX / "box.toml"  # read in name order
    assert _problem(twice) == f"{second}: box: id: {BOX!r} is also the id of {first}"


def test_the_balance_plugin_refuses_a_broken_version_with_the_game_named(tmp_path: Path) -> None:
    plugin = GAME.balance()
    with pytest.raises(ConfigError, match=r"^knockdown: version: .*missing: no such folder$"):
        plugin.version_options(str(tmp_path / "missing"))
    with pytest.raises(ConfigError, match=r"^knockdown: version: "):
        plugin.groups({"version": str(tmp_path / "missing")})
    assert plugin.version_options(str(CONTENT_DIR)) == {"version": str(CONTENT_DIR)}
    assert plugin.content_digest({}) == ""
    assert plugin.content_digest({"version": str(CONTENT_DIR)}) == version_digest(str(CONTENT_DIR))

"""Changed copies of a run's content (:mod:`knockabout.sim.variants`): the tunable numbers
each game's models mark, edits that change only what they must in the TOML, and versions
that `content validate` and the balance plug-ins accept."""

from __future__ import annotations

from pathlib import Path

import pytest

from knockabout.core.errors import ConfigError
from knockabout.core.registry import get_game
from knockabout.games.knockback.content import check_pack
from knockabout.sim.balance import plugin_for
from knockabout.sim.variants import ContentFiles, Edit, Tunable


def _files(game: str, options: dict[str, object] | None = None) -> ContentFiles:
    return ContentFiles(plugin_for(get_game(game)).content(options or {}))


def _find(tunables: list[Tunable], label: str) -> Tunable:
    return next(t for t in tunables if t.label == label)


def test_knockback_tunes_edges_and_ability_amounts_of_each_pack_owned_by_the_pack() -> None:
    files = _files("knockback")
    ts = files.tunables()
    north = _find(ts, "ember-rush.toml: Blaze Hound: edges.north.attack")
    assert (north.value, north.values, north.owners) == (3, tuple(range(10)), ("ember-rush",))
    pounce = _find(ts, "ember-rush.toml: Blaze Hound: ability.effects[0].amount")
    assert pounce.values == (1, 2, 3, 4, 5)
    assert {t.file for t in ts} == {f"{p}.toml" for p in ("ember-rush", "granite-ward", "iron-knuckles",
                                                           "lantern-choir", "night-moths", "tide-breakers")}
    assert not any("name" in t.key or "actions" in t.key for t in ts)  # only numbers the models mark


def test_knockdown_tunes_wounds_ranges_and_token_costs_and_knows_whose_they_are() -> None:
    ts = _files("knockdown", {"boxes": ["tainted_grail"]}).tunables()
    assert {t.file.split("/")[0] for t in ts} == {"tainted_grail"}
    card = [t for t in ts if t.file.endswith("attacks.toml")]
    assert card and all(t.owners == ("mistbearer", "maggot", "lost_knight") for t in card)
    doom = [t for t in ts if t.label.startswith("tainted_grail/fighters.toml: Mistbearer's Doom: ")]
    assert {t.label.rsplit(": ", 1)[1] for t in doom} >= {"heavy", "light", "range.lo", "range.hi"}
    assert all(t.owners == ("mistbearer",) for t in doom)
    reach = next(t for t in doom if t.key.endswith("range.hi"))
    assert reach.value == 2 and min(reach.values) == 1  # a span's reach never falls below its start (1)
    start = next(t for t in doom if t.key.endswith("range.lo"))
    assert start.values == (1, 2)  # nor its start above its reach
    ranged = {t.label.split(": ")[1] for t in card if ".range." in t.key}
    assert "Jab" in ranged and "Spinning Heel" in ranged
    assert "Wyrdness" not in ranged and "Menhir Shard" not in ranged  # "any" and "projectile" have no numbers
    costs = [t for t in _files("knockdown", {"boxes": ["nemesis"]}).tunables() if ".token_cost." in t.key]
    sidearm = next(t for t in costs if t.label == "nemesis/fighters.toml: James's Sidearm: token_cost.ammo")
    assert (sidearm.value, sidearm.values, sidearm.owners) == (1, (1, 2, 3, 4, 5, 6), ("james",))


def test_an_edit_changes_one_number_and_leaves_the_rest_of_the_file_as_written() -> None:
    files = _files("knockback")
    t = _find(files.tunables(), "ember-rush.toml: Blaze Hound: edges.north.attack")
    changed = files.edited([Edit(t.file, t.path, 5)])
    diff = files.diff(changed)
    minus = [line for line in diff.splitlines() if line.startswith("-") and not line.startswith("---")]
    plus = [line for line in diff.splitlines() if line.startswith("+") and not line.startswith("+++")]
    assert minus == ["-edges.north = { attack = 3, heart = 2 }"]
    assert plus == ["+edges.north = { attack = 5, heart = 2 }"]
    assert "# Ember Rush" in changed["ember-rush.toml"]  # the comments stay


def test_knockdown_writes_a_range_as_files_do_and_adds_a_defaulted_number(tmp_path: Path) -> None:
    files = _files("knockdown", {"boxes": ["nemesis"]})
    ts = files.tunables()
    whip = [t for t in ts if t.label.startswith("nemesis/attacks.toml: Pistol Whip: ")]
    reach = next(t for t in whip if t.key.endswith("range.hi"))
    light = next(t for t in whip if t.key.endswith(".light"))
    changed = files.edited([Edit(reach.file, reach.path, 3), Edit(light.file, light.path, 2)])
    text = changed["nemesis/attacks.toml"]
    assert 'range = "1-3"' in text and "light = 2" in text
    folder = files.write(tmp_path / "v", changed)
    assert get_game("knockdown").validate_content(folder / "nemesis") == []
    opts = plugin_for(get_game("knockdown")).version_options(str(folder))
    assert opts == {"version": str(folder)}


def test_an_edit_the_file_refuses_is_one_clear_error_naming_the_file_and_field() -> None:
    files = _files("knockback")
    t = _find(files.tunables(), "ember-rush.toml: Blaze Hound: edges.north.attack")
    with pytest.raises(ConfigError, match=r"ember-rush.toml: cards\[1\].edges.north.attack: .*less than or equal to 9"):
        files.edited([Edit(t.file, t.path, 12)])


def test_a_stand_in_replaces_a_whole_card_and_the_pack_still_loads(tmp_path: Path) -> None:
    files = _files("knockback")
    plugin = plugin_for(get_game("knockback"))
    part = next(p for p in files.content.parts if p.name == "Spark Imp")
    changed = files.replaced(part, plugin.neutral(part, files.data_at(part.file, part.path)))
    folder = files.write(tmp_path / "v", changed)
    model, problems = check_pack(folder / "ember-rush.toml")  # validate_content also refuses a shipped id
    assert problems == [] and model is not None and model.cards[2].name == "Spark Imp"
    assert plugin.version_options(str(folder)) == {"version": str(folder)}
    data = files.data_at(part.file, part.path)
    assert data["name"] == "Spark Imp" and data["actions"] == ["move_or_punch", "move_or_punch"]
    assert "Spark Imp" in changed["ember-rush.toml"] and 'op = "knockback"' in changed["ember-rush.toml"]

"""Balance runs: the generic runner names no game (a made-up game runs through it), and the
two real plug-ins give the matrices they gave before the runner moved into sim/."""

from __future__ import annotations

import pytest

from knockabout.core.errors import ConfigError
from knockabout.core.plugins import EntrantGroup, RateTable
from knockabout.core.registry import get_game
from knockabout.sim import balance

pytestmark = pytest.mark.usefixtures("tiny_games")


def _tiny(games: int = 2, workers: int = 1, **options: object) -> tuple[EntrantGroup, list[balance.PairResult]]:
    (group,) = balance.groups("tiny-duel", options)
    return group, balance.run_group("tiny-duel", group, games, "random", seed=4, workers=workers)


def test_a_made_up_game_runs_through_the_generic_runner() -> None:
    group, results = _tiny(games=3)
    assert group == EntrantGroup("Tiny decks", ("aces", "even", "steps"), {"rounds": 3})
    assert [(r.a, r.b) for r in results] == [
        ("aces", "even"), ("aces", "steps"), ("even", "aces"), ("even", "steps"), ("steps", "aces"), ("steps", "even")
    ]
    for r in results:
        assert r.games == len(r.matches) == 3
        assert r.a_points == sum(m.payoffs[0] for m in r.matches)
        for m in r.matches:
            assert (m.a, m.b) == (r.a, r.b)
            assert m.metrics.extra["steps"] == 6  # the watcher saw every one of the 6 decisions
            assert len(m.metrics.rounds) == 3
    text = balance.report("tiny-duel", group, results)
    lines = text.splitlines()
    assert lines[0] == "### Tiny decks"
    assert "| deck \\ vs | ac | ev | st | field | 95 % interval |" in lines
    assert "18 matches, 54 rounds" in text and "First-player edge" in text and "Inside a round" in text
    assert "| deck | started | starter wins | 95 % interval |" in lines


def test_runs_are_reproducible_and_the_same_for_any_number_of_workers() -> None:
    def key(results: list[balance.PairResult]) -> list[object]:
        return [(r.a, r.b, r.a_points, r.draws, r.matches) for r in results]

    _, one = _tiny()
    _, again = _tiny()
    _, two = _tiny(workers=2)
    assert key(one) == key(again) == key(two)


def test_the_group_options_reach_every_match() -> None:
    group, results = _tiny(rounds=1, decks=["aces", "even"])
    assert group.entrants == ("aces", "even")
    assert [len(m.metrics.rounds) for r in results for m in r.matches] == [1] * 4
    # aces (9, 1, 1) against even (4, 4, 4) over three rounds: the aces lose two of them
    _, three = _tiny(decks=["aces", "even"])
    assert [r.a_points for r in three] == [0.0, 2.0]


def test_options_are_the_plug_ins_and_its_checks_hold() -> None:
    with pytest.raises(ConfigError, match=r"tiny-duel: balance has no option 'boxes' \(its options: rounds, decks\)"):
        balance.groups("tiny-duel", {"boxes": ["x"]})
    with pytest.raises(ConfigError, match="unknown deck"):
        balance.groups("tiny-duel", {"decks": ["jokers"]})


def test_a_game_without_a_plug_in_is_named_with_those_that_have_one() -> None:
    with pytest.raises(ConfigError, match=r"nak-muay has no balance plug-in; balance runs for: .*knockback, knockdown"):
        balance.groups("nak-muay", {})


def test_rate_tables_show_each_rate_with_its_interval() -> None:
    table = RateTable(("a", "b"), "held", "wins", [(("1", "x"), 1.0, 2), (("2", "y"), 0.0, 1)])
    assert balance.rate_table_lines(table) == [
        "| a | b | held | wins | 95 % interval |",
        "|---|---|---|---|---|",
        "| 1 | x | 2 | 50.0% | 9.5–90.5% |",
        "| 2 | y | 1 | 0.0% | 0.0–79.3% |",
    ]


# -- the real games' plug-ins ----------------------------------------------------------


def test_knockback_packs_meet_in_one_matrix_with_the_table_options() -> None:
    packs = ("ember-rush", "granite-ward", "night-moths")
    group = EntrantGroup("", packs, {"scoring": "speed", "max_turns": 30})
    results = balance.run_group("knockback", group, games=1, bot="random", seed=3)
    assert len(results) == 6 and all(r.games == 1 for r in results)
    text = balance.report("knockback", group, results)
    assert not text.startswith("###")
    for p in packs:
        assert f"| {p} |" in text
    assert "| pack \\ vs | ember | granite | night |" in text
    assert "6 matches" in text and "First-player edge" in text and "Inside a round" in text
    (every,) = balance.groups("knockback", {"scoring": "speed"})
    assert len(every.entrants) == 6 and every.config == {"scoring": "speed"}
    with pytest.raises(ConfigError, match="scoring"):
        balance.groups("knockback", {"scoring": "fast"})


def test_knockdown_boxes_alone_or_merged_are_groups() -> None:
    alone = balance.groups("knockdown", {"boxes": ["tainted_grail", "nemesis"]})
    assert [g.config["boxes"] for g in alone] == [["tainted_grail"], ["nemesis"]]
    assert all(len(g.entrants) == 3 for g in alone)
    (merged,) = balance.groups("knockdown", {"boxes": "tainted_grail,nemesis", "merged": True})
    assert merged.config == {"boxes": ["tainted_grail", "nemesis"]} and len(merged.entrants) == 6
    assert all(":" in f for f in merged.entrants)
    assert len(balance.groups("knockdown", {})) == 3  # every box, one by one
    with pytest.raises(ConfigError, match="unknown box 'nope'"):
        balance.groups("knockdown", {"boxes": ["nope"]})


def test_knockdown_nemesis_matrix_is_the_one_played_before_the_runner_moved() -> None:
    # `knockabout balance knockdown --bot random --games 1 -o boxes=nemesis`, recorded before the
    # runner moved; re-recorded for Knockdown rules 1.1 (a Combo ends only after a Special
    # Attack or a Dash, so random play takes other paths)
    (group,) = balance.groups("knockdown", {"boxes": ["nemesis"]})
    results = balance.run_group("knockdown", group, games=1, bot="random", seed=1)
    lines = balance.report("knockdown", group, results).splitlines()
    assert lines[:7] == [
        "### Nemesis",
        "",
        "| fighter \\ vs | james | puppy | katie | field | 95 % interval |",
        "|---|---|---|---|---|---|",
        "| james | — | 50% | 50% | **50.0%** | 15.0–85.0% |",
        "| puppy | 50% | — | 50% | **50.0%** | 15.0–85.0% |",
        "| katie | 50% | 50% | — | **50.0%** | 15.0–85.0% |",
    ]
    assert lines[8].startswith("6 matches, 17 rounds (17 decisive), 0 drawn matches")
    assert "first player scores 16.7% of matches" in lines[9]
    assert "wins 64.7% of decisive rounds" in lines[10]
    skills = lines[lines.index("| initiative | face up in round 1 | held | holder wins | 95 % interval |"):]
    assert skills[2:] == [
        "| 11 | Sprinter | 1 | 0.0% | 0.0–79.3% |",
        "| 9 | Vent Runner | 1 | 0.0% | 0.0–79.3% |",
        "| 8 | Cool Head | 1 | 0.0% | 0.0–79.3% |",
        "| 7 | Marksman | 1 | 100.0% | 20.7–100.0% |",
        "| 5 | Medkit | 3 | 33.3% | 6.1–79.2% |",
        "| 4 | Armoured Suit | 3 | 66.7% | 20.8–93.9% |",
        "| 3 | Blast Door | 1 | 100.0% | 20.7–100.0% |",
        "| 2 | Motion Scanner | 1 | 100.0% | 20.7–100.0% |",
    ]


def test_each_match_shows_two_face_up_skills_whose_holders_share_its_point() -> None:
    (group,) = balance.groups("knockdown", {"boxes": ["tainted_grail"]})
    results = balance.run_group("knockdown", group, games=2, bot="random", seed=5)
    matches = [m for r in results for m in r.matches]
    assert all(len(m.metrics.extra["faceup"]) == 2 for m in matches)
    plugin = balance.plugin_for(get_game("knockdown"))
    (table,) = plugin.rate_tables(group, matches)
    assert sum(n for _, _, n in table.rows) == 2 * len(matches) == 24
    assert sum(points for _, points, _ in table.rows) == len(matches)
    initiatives = [int(cells[0]) for cells, _, _ in table.rows]
    assert initiatives == sorted(initiatives, reverse=True)

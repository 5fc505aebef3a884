"""The typed view of Nak Muay, its JSON Schema, and what the game declares around it."""

from __future__ import annotations

import re
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

import pytest

from knockabout.core.errors import ConfigError
from knockabout.core.events import Event
from knockabout.games.nakmuay import GAME
from knockabout.games.nakmuay.heuristic import HeuristicBot
from knockabout.games.nakmuay.terminal import RENDERER
from knockabout.games.nakmuay.view import KnownCard, NakMuayView, Pending
from tests.conformance.playouts import played
from tests.games.nakmuay.stacking import stacked

ROOT = Path(__file__).resolve().parents[3]


def test_a_spectator_sees_no_hand_no_known_pile_and_no_legal_actions() -> None:
    for s in played(GAME.id, {"players": 3}, 7, 200):
        spectator = s.observe(None)
        assert spectator.seat is None
        assert spectator.hand is None and spectator.known_pile is None and spectator.legal is None
        assert spectator.pending.seen is None
        assert "hand" not in {k for k, v in spectator.to_json().items() if v is not None}


def test_a_seat_sees_its_hand_and_its_legal_actions_only_when_it_decides() -> None:
    s = GAME.new_state({"players": 3}, 9)
    d = s.to_act()
    assert d is not None
    for seat in range(3):
        view = s.observe(seat)
        assert view.hand is not None and len(view.hand) == view.hand_sizes[seat]
        if seat == d.player:
            assert view.legal == tuple(a.text for a in s.legal_actions())
        else:
            assert view.legal is None


def test_states_differing_only_in_hidden_cards_give_a_seat_identical_views() -> None:
    a = stacked([["block", "scout"], ["plum", "plum", "dodge"], ["sweep"]], pile=["attack+1", "ko", "overhook"])
    b = stacked([["block", "scout"], ["attack+2", "sweep", "dodge"], ["plum"]], pile=["overhook", "ko", "attack+1"])
    assert a.observe(0) == b.observe(0)
    assert a.observe(0).to_json() == b.observe(0).to_json()
    assert a.observe(None).to_json() == b.observe(None).to_json()
    assert a.observe(1) != b.observe(1)


def test_pending_parts_that_do_not_apply_are_null() -> None:
    s = stacked([["attack+2"], ["dodge"]], pile=["sweep"] * 4)
    assert s.observe(1).pending == Pending()
    s.apply("attack:2")
    pending = s.observe(0).pending
    assert (pending.attacker, pending.target, pending.value) == (0, 1, 2)
    assert pending.countdown is None and pending.seen is None and pending.named is None
    data = s.observe(0).to_json()["pending"]
    assert {k for k, v in data.items() if v is not None} == {"attacker", "target", "value"}


def test_known_pile_entries_are_typed() -> None:
    s = stacked([["scout"], ["plum"]], pile=["block", "ko", "dodge", "sweep"])
    s.apply("scout")
    s.apply("scout-take:0")
    s.apply("order:1,0")  # dodge on top (drawn at once), the KO under it
    known = s.observe(0).known_pile
    assert known == (KnownCard(depth=0, card="ko"),)
    assert s.observe(0).to_json()["known_pile"] == [{"depth": 0, "card": "ko"}]
    assert s.observe(1).known_pile == ()


# -- the game's declarations ------------------------------------------------------
def test_players_given_to_new_state_override_the_configuration() -> None:
    s = GAME.new_state({"players": 2}, 3, players=4)
    assert s.num_players == 4
    assert GAME.new_state({"players": 3}, 3).num_players == 3
    assert GAME.new_state(None, 3, players=5).to_dict() == GAME.new_state({"players": 5}, 3).to_dict()


@pytest.mark.parametrize("players", [1, 6, 0])
def test_a_player_count_out_of_range_names_the_range(players: int) -> None:
    with pytest.raises(ConfigError, match="between 2 and 5"):
        GAME.new_state(None, 1, players=players)


def test_plugins_come_from_the_game_package() -> None:
    plugin = GAME.heuristic()
    assert plugin.bot is HeuristicBot
    assert plugin.rollout_policy is not None
    assert GAME.terminal_renderer() is RENDERER
    assert GAME.web_renderer == "web/renderer.js"


def _js_renderer() -> Path:
    # the browser renderer lives in the game package once moved there (web/renderer.js)
    moved = ROOT / "src/knockabout/games/nakmuay" / str(GAME.web_renderer)
    return moved if moved.exists() else ROOT / "src/knockabout/web/static/games/nak-muay.js"


def _schema_fields(cls: Any) -> set[str]:
    return {f.name for f in fields(cls)} if is_dataclass(cls) else set()


def test_the_browser_renderer_reads_only_fields_of_the_schema() -> None:
    js = _js_renderer().read_text()
    reads = {
        "view": (set(re.findall(r"\bview\.(\w+)", js)), NakMuayView),
        "pending": (set(re.findall(r"\b(?:p|pend)\.(\w+)", js)), Pending),
        "known pile": (set(re.findall(r"\bk\.(card|depth)\b", js)), KnownCard),
    }
    assert reads["view"][0], "the renderer reads no view fields: the pattern is wrong"
    for what, (keys, cls) in reads.items():
        missing = keys - _schema_fields(cls)
        assert not missing, f"{_js_renderer().name} reads {what} keys the schema lacks: {sorted(missing)}"


def test_the_browser_renderer_does_not_test_pending_keys_by_presence() -> None:
    # pending fields that do not apply are null, so `"value" in p` would always be true
    js = _js_renderer().read_text()
    assert not re.search(r"\"\w+\" in (?:p|pend)\b", js)


def test_no_file_of_the_game_package_is_over_600_lines() -> None:
    for path in (ROOT / "src/knockabout/games/nakmuay").rglob("*.py"):
        assert len(path.read_text().splitlines()) <= 600, path.name


# -- narration -------------------------------------------------------------------
@pytest.mark.parametrize(("seconds", "said"), [(10.0, "10-second"), (3.0, "3-second"), (2.5, "2.5-second")])
def test_the_countdown_narration_says_the_configured_length(seconds: float, said: str) -> None:
    s = GAME.new_state({"players": 2, "countdown_seconds": seconds}, 1)
    s.hands[s.current][5] += 1  # a Countdown in hand (cards.COUNTDOWN)
    s.sizes[s.current] += 1
    s._legal = None
    events = s.apply("countdown")
    (event,) = [e for e in events if e.type == "countdown"]
    line = GAME.narrate(event, ["Ann", "Bo"])
    assert line is not None and f"a {said} Countdown" in line
    d = s.to_act()
    assert d is not None and d.time_limit == seconds


def test_the_countdown_action_label_says_the_configured_length() -> None:
    s = GAME.new_state({"players": 2, "countdown_seconds": 3}, 1)
    view = s.observe(s.current)
    assert RENDERER.action_label("countdown", view, ["Ann", "Bo"]).startswith("3-Second Countdown on ")


def test_narration_of_a_recorded_countdown_event() -> None:
    line = GAME.narrate(Event("countdown", {"player": 0, "target": 1, "seconds": 4.0}), ["Ann", "Bo"])
    assert line == "Ann starts a 4-second Countdown on Bo!"

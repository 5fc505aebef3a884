"""The typed view of Knockdown, its JSON Schema, and the plug-ins the game declares around it."""

from __future__ import annotations

import json

from knockabout.games.knockdown import GAME
from knockabout.games.knockdown.challenge import tower_puzzle
from knockabout.games.knockdown.heuristic import ROLLOUT_DEPTH, HeuristicBot, rollout_policy, rollout_value
from knockabout.games.knockdown.presentation.terminal import RENDERER
from knockabout.games.knockdown.presentation.view import FighterView, KnockdownView, Pending
from tests.games.knockdown.helpers import arrange, fresh, play, ready


def test_the_fighter_class_is_class_on_the_wire_and_in_the_schema() -> None:
    view = GAME.new_state({"fighters": ["mistbearer", "maggot"]}, 1).observe(0)
    f = view.to_json()["fighters"][0]
    assert f["class"] == view.fighters[0].fighter_class and "fighter_class" not in f
    assert f["sheet"]["class"] == view.fighters[0].sheet.fighter_class
    assert "class" in KnockdownView.json_schema()["$defs"][FighterView.__name__]["properties"]


def test_a_spectator_gets_no_draft_and_no_legal_actions_and_a_seat_only_its_own_draft() -> None:
    s = GAME.new_state({}, 3)
    d = s.to_act()
    assert d is not None and d.kind == "skill_draft"
    spectator = s.observe(None)
    assert spectator.draft is None and spectator.legal is None
    for seat in (0, 1):
        view = s.observe(seat)
        assert view.draft is not None
        assert [sk.name for sk in view.draft.dealt] == [s.setup.skills[i].name for i in s.dealt[seat]]
        others = {s.setup.skills[i].name for i in s.dealt[1 - seat]} - {s.setup.skills[i].name for i in s.dealt[seat]}
        assert not any(name in json.dumps(view.to_json()) for name in others), "the other seat's dealt skills"
        assert (view.legal is not None) == (seat == d.player)


def test_pending_parts_that_do_not_apply_are_null_and_the_attack_shows_while_it_runs() -> None:
    s = ready(fresh())
    me = s.current
    assert s.observe(me).pending == Pending() and s.observe(me).attack is None
    arrange(s, at=((3, 1), (4, 1)), hands=([], []), row=["High Kick", "Jab", "Jab", "Jab"])
    play(s, "attack:0")
    view = s.observe(me)
    assert view.decision is not None and view.decision.kind == "knockdown"
    assert view.attack is not None and view.attack.by == me and view.attack.name == "High Kick"
    assert {k for k, v in view.to_json()["pending"].items() if v is not None} == set()


def test_the_games_plug_ins_come_from_its_own_package() -> None:
    plugin = GAME.heuristic()
    assert plugin.bot is HeuristicBot and plugin.rollout_policy is rollout_policy
    assert plugin.rollout_value is rollout_value and plugin.rollout_depth == ROLLOUT_DEPTH
    assert GAME.terminal_renderer() is RENDERER
    assert GAME.challenges() == {"tower_challenge": tower_puzzle}
    assert GAME.web_renderer == "web/renderer.js"
    for module in (HeuristicBot, type(RENDERER), tower_puzzle):
        assert module.__module__.startswith("knockabout.games.knockdown.")

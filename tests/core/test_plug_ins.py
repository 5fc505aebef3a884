"""``Game.plug_ins``: a game names the module of each plug-in, and the plug-in methods import
it the first time they are asked (a process that never draws a terminal never loads it)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping
from typing import Any, ClassVar

import pytest
from pydantic import BaseModel

from knockabout.core import game_ids, get_game
from knockabout.core.events import Event
from knockabout.core.plugins import GameFacts
from knockabout.core.protocol import Game, State
from knockabout.core.view import View

READ_BY = {"lobby", "terminal_renderer", "content_editor", "guide", "encoder", "state_encoder",
           "narrate", "validate_content", "content_hash"}
"""The methods that read ``plug_ins``."""


@pytest.mark.parametrize("game_id", game_ids())
def test_every_named_plug_in_is_read_by_its_method_and_found(game_id: str) -> None:
    g = get_game(game_id)
    assert set(g.plug_ins) <= READ_BY, f"{game_id}: no method reads {sorted(set(g.plug_ins) - READ_BY)}"
    for method in g.plug_ins:
        assert g.plug_in(method) is not None, f"{game_id}: plug_ins[{method!r}] names nothing"
    for method in sorted({"lobby", "terminal_renderer", "content_editor", "guide", "encoder", "state_encoder"}
                         & set(g.plug_ins)):
        assert getattr(g, method)() is not None, method
    if "content_hash" in g.plug_ins:
        assert len(g.content_hash()) >= 16
    if "narrate" in g.plug_ins:
        s = g.new_state({}, 1)
        events = s.apply(s.legal_actions()[0])
        generic = _Tiny()
        assert any(g.narrate(e, ["A", "B"]) != generic.narrate(e, ["A", "B"]) for e in events), "the game's own words"


class _Tiny(Game[BaseModel]):
    id: ClassVar[str] = "tiny"
    name: ClassVar[str] = "Tiny"
    rules_version: ClassVar[str] = "1"
    facts: ClassVar[GameFacts] = GameFacts(2, 2, 2, False, "none", False, frozenset({"turn"}))
    view_type: ClassVar[type[View]] = View
    config_model: ClassVar[type[BaseModel]] = BaseModel

    def new_state(self, config: Mapping[str, Any] | BaseModel | None = None, seed: int = 0, *,
                  players: int | None = None) -> State:
        raise NotImplementedError


def test_a_made_plug_in_is_fresh_at_each_call_and_a_named_one_is_the_same_object() -> None:
    class Made(_Tiny):
        plug_ins: ClassVar[Mapping[str, str]] = {"encoder": "encoding:NakMuayEncoder()", "guide": "guide:GUIDE",
                                                 "narrate": "narration:narrate"}

    Made.__module__ = "knockabout.games.nakmuay.game"  # its modules are Nak Muay's
    g = Made()
    assert g.package == "knockabout.games.nakmuay"
    assert g.encoder() is not g.encoder() and type(g.encoder()).__name__ == "NakMuayEncoder"
    assert g.guide() is g.guide()
    assert g.narrate(Event("turn", {"player": 1, "turn": 2}), ["Ann", "Bo"]) != "turn: player=1, turn=2"


def test_a_game_without_plug_ins_gets_the_generic_answers_and_a_wrong_name_fails_loudly() -> None:
    g = _Tiny()
    assert g.guide() is None and g.encoder() is None and g.terminal_renderer() is None
    assert g.content_hash() == ""
    assert g.narrate(Event("turn", {"player": 1}), ["A", "B"]) == "turn: player=1"

    class Typo(_Tiny):
        plug_ins: ClassVar[Mapping[str, str]] = {"guide": "guide:GUIDES"}

    Typo.__module__ = "knockabout.games.nakmuay.game"
    with pytest.raises(AttributeError, match="GUIDES"):
        Typo().guide()


def test_loading_a_game_imports_no_plug_in_module() -> None:
    code = ("import sys; from knockabout.core import get_game; g = get_game('knockdown'); g.new_state({}, 1); "
            "print(sorted(m for m in sys.modules if m.endswith(('.terminal', '.guide', '.lobby', '.editor'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"

"""A game started from an arranged position is a game like any other: its record keeps the
arrangement, and the record replays it (tutorials start this way)."""

from __future__ import annotations

import pytest

from knockabout.core.errors import ReplayError
from knockabout.core.replay import GameRecord, Match, replay
from knockabout.table import Seat, Table

ARR = {"hands": [["block", "attack+1"], ["dodge"]], "pile_top": ["scout", "ko"], "first": 1}


def test_the_record_keeps_the_arrangement_and_replays_it() -> None:
    m = Match("nak-muay", {"players": 2}, 5, ARR)
    assert m.record.arrangement == ARR
    for text in ("draw", "draw"):
        m.apply(text)
    data = m.record.to_dict()
    assert data["arrangement"] == ARR
    again = replay(GameRecord.from_json(m.record.to_json()))
    assert again.to_dict() == m.state.to_dict()
    # a dealt game's record has no arrangement at all
    assert "arrangement" not in Match("nak-muay", {"players": 2}, 5).record.to_dict()


def test_a_record_with_a_broken_arrangement_is_refused_with_the_reason() -> None:
    data = Match("nak-muay", {"players": 2}, 5, ARR).record.to_dict()
    with pytest.raises(ReplayError, match="'arrangement' must be an object"):
        GameRecord.from_dict({**data, "arrangement": [1]})
    with pytest.raises(ReplayError, match=r"record arrangement: nak-muay: invalid arrangement: hands\.0\.0"):
        replay({**data, "arrangement": {"hands": [["blok"], []]}})


def test_a_table_starts_from_the_arrangement_and_undo_keeps_it() -> None:
    t = Table("nak-muay", [Seat("person", name="A"), Seat("person", name="B")], {"players": 2}, 3,
              local=True, arrangement=ARR)
    d = t.decision()
    assert d is not None and d.player == 1
    assert t.updates_for(0).view.hand == ("block", "attack+1")  # type: ignore[attr-defined]
    t.act(1, "draw", t.version)  # B draws the Scout (public knowledge of nothing: undoable only if safe)
    t.act(0, "draw", t.version)  # A draws the KO and must block it
    assert t.decision().kind == "ko_block"  # type: ignore[union-attr]
    assert t.record.arrangement == ARR

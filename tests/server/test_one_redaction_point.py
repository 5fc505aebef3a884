"""The server shows a seat exactly what ``Table.updates_for`` gives that seat, nothing more:
every WebSocket frame's view, events, decision, legal actions and challenge are one update's."""

from __future__ import annotations

import json
from typing import Any

import pytest

from knockabout.table import Table, Update
from tests.server.conftest import my_turn, receive, receive_until

pytestmark = pytest.mark.timeout(120)


def _projection(up: Update) -> str:
    """What a frame must carry of an update, as one comparable text."""
    return json.dumps({
        "seat": up.seat,
        "version": up.version,
        "view": up.view.to_json(),
        "events": [[s, e.type, dict(e.data)] for s, e in up.events],
        "decision": None if up.decision is None else up.decision.to_dict(),
        "legal": list(up.legal),
        "outcome": None if up.outcome is None else up.outcome.to_dict(),
        "challenge": None if up.challenge is None else {k: v for k, v in up.challenge.items() if k != "left"},
    }, sort_keys=True)


def _frame_projection(f: dict[str, Any]) -> str:
    challenge = f["challenge"]
    return json.dumps({
        "seat": f["seat"],
        "version": f["version"],
        "view": f["view"],
        "events": [[e["step"], e["type"], e["data"]] for e in f["events"] if e["type"] != "start"],
        "decision": f["decision"],
        "legal": f["legal"],
        "outcome": f["outcome"],
        "challenge": None if challenge is None else {k: v for k, v in challenge.items() if k != "left"},
    }, sort_keys=True)


def test_every_frame_is_exactly_one_update_of_the_table(make_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    given: list[str] = []
    original = Table.updates_for

    def recording(self: Table, seat: int | None, cursor: int = 0) -> Update:
        up = original(self, seat, cursor)
        given.append(_projection(up))
        return up

    monkeypatch.setattr(Table, "updates_for", recording)
    with make_client() as c:
        made = c.post("/api/tables", json={"game": "nak-muay", "seats": ["me", "random", "random"],
                                           "name": "Ann", "seed": 5}).json()
        frames: list[dict[str, Any]] = []
        with c.websocket_connect(f"/ws/tables/{made['id']}") as ws, \
                c.websocket_connect(f"/ws/tables/{made['id']}") as watch:
            ws.send_json({"type": "hello", "token": made["token"]})
            watch.send_json({"type": "hello"})
            frames.append(receive(watch))
            for _ in range(6):
                msg = receive_until(ws, lambda m: (frames.append(m) or True) and my_turn(0)(m))
                if msg["outcome"] is not None:
                    break
                ws.send_json({"type": "act", "action": msg["legal"][-1], "version": msg["version"]})
            frames.append(receive_until(watch, lambda m: m.get("type") == "update"))
    states = [f for f in frames if f.get("type") in ("sync", "update")]
    assert len(states) >= 4 and {f["seat"] for f in states} == {0, None}
    for f in states:
        assert _frame_projection(f) in given, "a frame carried something no update gave"
    assert any(f["legal"] for f in states) and any(f["events"] for f in states)

"""Seats over WebSockets: views, whole games, stale/foreign/malformed messages."""

from __future__ import annotations

from typing import Any

import pytest

from knockabout.core import GameRecord, replay
from tests.server.conftest import my_turn, receive, receive_until

pytestmark = pytest.mark.timeout(120)


def create(c: Any, seats: list[str], **config: Any) -> dict[str, Any]:
    body = {"game": "nak-muay", "seats": seats, "name": "Ann", "config": config}
    if "open" not in seats:
        body["seed"] = 7
    r = c.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    made: dict[str, Any] = r.json()
    return made


def test_a_person_plays_a_whole_game_against_two_bots_and_it_is_stored(make_client: Any) -> None:
    with make_client() as c:
        made = create(c, ["me", "random", "random"])
        with c.websocket_connect(f"/ws/tables/{made['id']}") as ws:
            ws.send_json({"type": "hello", "token": made["token"]})
            sync = receive(ws)
            assert sync["type"] == "sync" and sync["seat"] == 0 and "hand" in sync["view"]
            assert sync["table"]["seed"] is None
            moves = 0
            msg = sync  # (on a slow machine the bots may already have played up to seat 0's turn)
            while True:
                if not my_turn(0)(msg):
                    msg = receive_until(ws, my_turn(0))
                if msg["outcome"] is not None:
                    break
                assert msg["view"]["seat"] == 0
                ws.send_json({"type": "act", "action": msg["legal"][-1], "version": msg["version"]})
                moves += 1
                msg = receive(ws)
        assert moves >= 1
        info = c.get(f"/api/tables/{made['id']}").json()
        assert info["status"] == "finished" and info["outcome"]["winners"]
        steps = info["version"]
        first = c.get(f"/api/tables/{made['id']}/replay/0").json()
        last = c.get(f"/api/tables/{made['id']}/replay/{steps}").json()
        assert first["steps"] == steps and first["view"]["turn"] == 1
        assert last["view"]["outcome"] is not None and len(last["views"]) == 3
        assert c.get(f"/api/tables/{made['id']}/replay/{steps + 1}").status_code == 404
        record = GameRecord.from_dict(c.get(f"/api/tables/{made['id']}/record").json())
        assert replay(record).outcome() is not None and len(record.actions) == steps


def test_a_spectator_sees_only_public_information(make_client: Any) -> None:
    with make_client() as c:
        made = create(c, ["me", "open", "random"])
        with c.websocket_connect(f"/ws/tables/{made['id']}") as ws:
            ws.send_json({"type": "hello"})
            sync = receive(ws)
            assert sync["seat"] is None and sync["view"].get("hand") is None and sync["view"].get("legal") is None
            ws.send_json({"type": "act", "action": "draw", "version": 0})
            err = receive_until(ws, lambda m: m["type"] == "error")
            assert "spectators cannot act" in err["message"]


def test_a_wrong_token_is_refused(make_client: Any) -> None:
    with make_client() as c:
        made = create(c, ["me", "random"])
        with c.websocket_connect(f"/ws/tables/{made['id']}") as ws:
            ws.send_json({"type": "hello", "token": "not-a-token"})
            err = receive(ws)
            assert err["type"] == "error" and "does not belong to this table" in err["message"]


def test_stale_and_foreign_actions_are_refused_and_change_nothing(make_client: Any) -> None:
    with make_client() as c:
        made = create(c, ["me", "open"])
        joined = c.post(f"/api/tables/{made['id']}/join", json={"name": "Bo"}).json()
        with c.websocket_connect(f"/ws/tables/{made['id']}") as a, c.websocket_connect(f"/ws/tables/{made['id']}") as b:
            a.send_json({"type": "hello", "token": made["token"]})
            b.send_json({"type": "hello", "token": joined["token"]})
            sa = receive_until(a, lambda m: m["type"] == "sync")
            receive_until(b, lambda m: m["type"] == "sync")
            d = sa["decision"]["player"]
            mover, other = (a, b) if d == 0 else (b, a)
            version = sa["version"]
            other.send_json({"type": "act", "action": "draw", "version": version})
            err = receive_until(other, lambda m: m["type"] == "error")
            assert "It is not your move" in err["message"] and err["version"] == version  # (a person's words)
            mover.send_json({"type": "act", "action": "draw", "version": version + 3})
            err = receive_until(mover, lambda m: m["type"] == "error")
            assert "The game moved on before your move arrived" in err["message"] and err["version"] == version
            mover.send_json({"type": "act", "action": "attack:9", "version": version})
            err = receive_until(mover, lambda m: m["type"] == "error")
            assert "not an action" in err["message"] and err["version"] == version
            assert c.get(f"/api/tables/{made['id']}").json()["version"] == version
            mover.send_json({"type": "act", "action": "draw", "version": version})
            upd = receive_until(mover, lambda m: m["type"] == "update" and m["version"] > version)
            assert upd["version"] == version + 1


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        ("this is not json", "not JSON"),
        ('{"type": "act", "action": "draw"}', "version"),
        ('{"type": "dance"}', "type"),
        ('{"type": "act", "action": "draw", "version": 0, "extra": 1}', "extra"),
        ('{"type": "act", "action": "", "version": 0}', "action"),
        ("[1, 2]", "message"),
    ],
)
def test_malformed_messages_get_one_clear_error_and_change_nothing(make_client: Any, raw: str, why: str) -> None:
    with make_client() as c:
        made = create(c, ["me", "open"])
        with c.websocket_connect(f"/ws/tables/{made['id']}") as ws:
            ws.send_json({"type": "hello", "token": made["token"]})
            sync = receive_until(ws, lambda m: m["type"] == "sync")
            ws.send_text(raw)
            err = receive_until(ws, lambda m: m["type"] == "error")
            assert err["message"].startswith("malformed message") and why in err["message"]
            assert "nothing changed" in err["message"]
            ws.send_json({"type": "ping"})
            assert receive_until(ws, lambda m: m["type"] in ("pong", "error"))["type"] == "pong"
        assert c.get(f"/api/tables/{made['id']}").json()["version"] == sync["version"]

"""A judged tower over the WebSocket: the puzzle comes with the seat's update, only a right
answer in time by the server's clock passes, and a client cannot claim a pass."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import receive, receive_until
from tests.table.conftest import FakeClock
from tests.table.towers import store_tower_table

pytestmark = pytest.mark.timeout(20)


def solution(ch: dict[str, Any]) -> list[str]:
    return [c["id"] for c in sorted(ch["cubes"], key=lambda c: c["place"])]


def judged(ws: Any, version: int) -> dict[str, Any]:
    return receive_until(ws, lambda m: m["type"] == "update" and m["version"] > version)


def hello(ws: Any, token: str) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token})
    sync = receive(ws)
    assert sync["type"] == "sync" and sync["decision"]["kind"] == "tower_challenge"
    return sync


def test_the_puzzle_comes_with_the_sync_only_to_the_tested_seat_and_on_request(
        make_client: Any, tmp_path: Path) -> None:
    table_id, token = store_tower_table(f"sqlite:///{tmp_path / 'k.db'}")
    with make_client() as c, c.websocket_connect(f"/ws/tables/{table_id}") as ws:
        sync = hello(ws, token)
        ch = sync["challenge"]
        assert ch["kind"] == "tower" and len(ch["cubes"]) == sync["view"]["pending"]["cubes"] and ch["limit"] == 10
        # the only thing the seat may send is an answer: no action is offered (they would be dead buttons)
        assert sync["legal"] == [] and sync["view"]["legal"] is None
        ws.send_json({"type": "challenge"})
        again = receive_until(ws, lambda m: m["type"] == "challenge")
        assert again["challenge"]["id"] == ch["id"] and again["version"] == sync["version"]
        with c.websocket_connect(f"/ws/tables/{table_id}") as spectator:
            spectator.send_json({"type": "hello"})
            watch = receive(spectator)
            assert watch["challenge"] is None and watch["decision"]["kind"] == "tower_challenge"


def test_a_client_cannot_claim_a_pass_and_a_right_answer_passes(make_client: Any, tmp_path: Path) -> None:
    table_id, token = store_tower_table(f"sqlite:///{tmp_path / 'k.db'}")
    clock = FakeClock()
    with make_client(clock=clock) as c, c.websocket_connect(f"/ws/tables/{table_id}") as ws:
        sync = hello(ws, token)
        v = sync["version"]
        ws.send_json({"type": "act", "action": "tower:pass", "version": v})
        err = receive_until(ws, lambda m: m["type"] == "error")
        assert "judged by the table" in err["message"] and err["version"] == v
        for bad in ({"type": "answer", "answer": "abc", "version": v},
                    {"type": "answer", "answer": [1, 2], "version": v},
                    {"type": "answer", "answer": ["zz"], "version": v},
                    {"type": "answer", "version": v}):
            ws.send_json(bad)
            err = receive_until(ws, lambda m: m["type"] == "error")
            assert "nothing changed" in err["message"], err
        assert c.get(f"/api/tables/{table_id}").json()["version"] == v
        clock.advance(4)  # a person's pace (the table fails a right answer faster than a person's)
        ws.send_json({"type": "answer", "answer": solution(sync["challenge"]), "version": v})
        upd = judged(ws, v)
        results = [e for e in upd["events"] if e["type"] == "test_result"]
        assert results and results[0]["data"]["passed"] is True and upd["challenge"] is None
    with make_client() as c2:  # the store says who decided: the table's judgement
        live = c2.app.state.manager.get(table_id)
        assert live.table.record.actions[v] == "tower:pass"
        assert c2.app.state.store.get(table_id).actions[v] == "tower:pass"


def test_a_right_answer_sent_at_once_fails_as_too_fast_for_a_person(make_client: Any, tmp_path: Path) -> None:
    table_id, token = store_tower_table(f"sqlite:///{tmp_path / 'k.db'}")
    clock = FakeClock()
    with make_client(clock=clock) as c, c.websocket_connect(f"/ws/tables/{table_id}") as ws:
        sync = hello(ws, token)
        ch = sync["challenge"]
        assert "layouts" not in ch and len(ch["layout"]) == len(ch["cubes"]) and ch["min_seconds_per_piece"] > 0
        ws.send_json({"type": "answer", "answer": solution(ch), "version": sync["version"]})
        upd = judged(ws, sync["version"])
        results = [e for e in upd["events"] if e["type"] == "test_result"]
        assert results and results[0]["data"]["passed"] is False
        entry = c.app.state.manager.get(table_id).table.log[sync["version"]]
        assert entry.action == "tower:fail" and entry.by == "judged" and "too fast for a person" in entry.verdict


def test_a_right_answer_after_the_server_clock_ran_out_fails(make_client: Any, tmp_path: Path) -> None:
    table_id, token = store_tower_table(f"sqlite:///{tmp_path / 'k.db'}")
    clock = FakeClock()
    with make_client(clock=clock) as c, c.websocket_connect(f"/ws/tables/{table_id}") as ws:
        sync = hello(ws, token)
        clock.advance(10.5)  # the client still shows time left; the server's clock decides
        ws.send_json({"type": "answer", "answer": solution(sync["challenge"]), "version": sync["version"]})
        upd = judged(ws, sync["version"])
        results = [e for e in upd["events"] if e["type"] == "test_result"]
        assert results and results[0]["data"]["passed"] is False
        live = c.app.state.manager.get(table_id)
        entry = live.table.log[sync["version"]]
        # the driver may tick the timeout first, or the answer is judged late: the server clock decides either way
        assert entry.action == "tower:fail" and entry.by in ("judged", "timeout")
        assert entry.by == "timeout" or "late" in entry.verdict

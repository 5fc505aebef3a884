"""Taking back moves over the WebSocket: at once against bots, by request between people;
what each seat is sent after an undo, refusals, limits, and the store after a restart."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from knockabout.core.replay import GameRecord, replay
from knockabout.server.undo import UndoPolicy
from knockabout.store import Store
from knockabout.table.turn_based import HOUR
from tests.server.conftest import my_turn, receive

pytestmark = pytest.mark.timeout(180)


class Seen:
    """What one connection was sent: its view, legal actions and decision at each version,
    and every event in the order it came (a sync starts the list again)."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.at: dict[int, tuple[Any, Any, Any]] = {}
        self.events: list[dict[str, Any]] = []
        self.last: dict[str, Any] = {}

    def read(self) -> dict[str, Any]:
        msg = receive(self.ws)
        if msg["type"] in ("sync", "update"):
            self.events = list(msg["events"]) if msg["type"] == "sync" else self.events + msg["events"]
            self.at[msg["version"]] = (msg["view"], msg["legal"], msg["decision"])
            self.last = msg
        return msg

    def until(self, pred: Callable[[dict[str, Any]], bool], limit: int = 5000) -> dict[str, Any]:
        for _ in range(limit):
            msg = self.read()
            if pred(msg):
                return msg
        raise AssertionError("the expected message never came")


def make(c: Any, game: str, seats: list[str], **body: Any) -> dict[str, Any]:
    r = c.post("/api/tables", json={"game": game, "seats": seats, "name": "Ann", **body})
    assert r.status_code == 200, r.text
    made: dict[str, Any] = r.json()
    return made


def hello(c: Any, table_id: str, token: str | None) -> Any:
    ws = c.websocket_connect(f"/ws/tables/{table_id}")
    ws.__enter__()
    ws.send_json({"type": "hello", "token": token})
    return ws


def error(seen: Seen) -> str:
    msg: str = seen.until(lambda m: m["type"] == "error")["message"]
    return msg


def at_version(v: int) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["type"] in ("sync", "update") and m["version"] == v


def my_turn_after(seat: int, version: int) -> Callable[[dict[str, Any]], bool]:
    """A frame past ``version`` where ``seat`` decides (or the game is over)."""
    turn = my_turn(seat)
    return lambda m: m.get("version", -1) > version and turn(m)


def stored_actions(c: Any, table_id: str) -> list[str]:
    store: Store = c.app.state.store
    st = store.get(table_id)
    assert st is not None
    return st.actions


def test_against_bots_a_move_is_taken_back_at_once_and_the_log_says_so(make_client: Any) -> None:
    with make_client() as c:
        made = make(c, "knockback", ["me", "random"], seed=11, undo=True)
        me = Seen(hello(c, made["id"], made["token"]))
        msg = me.until(my_turn(0))
        assert msg["table"]["undo"] is True and msg["can_undo"] is False, "nothing to take back yet"
        for _ in range(3):
            me.ws.send_json({"type": "act", "action": msg["legal"][0], "version": msg["version"]})
            msg = me.until(my_turn_after(0, msg["version"]))
        assert msg["can_undo"] is True
        version = msg["version"]
        last_move_at = max(v for v, (_, _, d) in me.at.items() if v < version and d and d["player"] == 0)
        me.ws.send_json({"type": "undo", "version": version})
        sync = me.until(lambda m: m["type"] == "sync")
        assert sync["version"] == last_move_at
        assert (sync["view"], sync["legal"], sync["decision"]) == me.at[last_move_at], "the table as it was then"
        undone = sync["events"][-1]
        assert undone["type"] == "undone" and undone["data"] == {"player": 0, "steps": version - last_move_at}
        assert undone["text"].startswith("Ann took back ")
        assert stored_actions(c, made["id"]) == c.app.state.manager.get(made["id"]).table.record.actions
        assert len(stored_actions(c, made["id"])) == last_move_at
        # play goes on from there, and a second undo goes further back
        me.ws.send_json({"type": "act", "action": sync["legal"][-1], "version": sync["version"]})
        msg = me.until(my_turn_after(0, sync["version"]))
        me.ws.send_json({"type": "undo", "version": msg["version"]})
        again = me.until(lambda m: m["type"] == "sync")
        assert again["version"] == sync["version"] and again["view"] == sync["view"]
        me.ws.__exit__(None, None, None)


def test_undo_is_refused_where_the_table_does_not_allow_it_and_for_stale_or_spectators(make_client: Any) -> None:
    with make_client() as c:
        made = make(c, "knockback", ["me", "random"], seed=11)
        me = Seen(hello(c, made["id"], made["token"]))
        msg = me.until(my_turn(0))
        assert msg["table"]["undo"] is False
        me.ws.send_json({"type": "act", "action": msg["legal"][0], "version": msg["version"]})
        msg = me.until(my_turn_after(0, msg["version"]))
        assert msg["can_undo"] is False
        me.ws.send_json({"type": "undo", "version": msg["version"]})
        assert "does not allow undo" in error(me)

        allowed = make(c, "knockback", ["me", "random"], seed=11, undo=True)
        me2 = Seen(hello(c, allowed["id"], allowed["token"]))
        msg = me2.until(my_turn(0))
        me2.ws.send_json({"type": "undo", "version": msg["version"]})
        assert "nothing to undo" in error(me2)
        me2.ws.send_json({"type": "act", "action": msg["legal"][0], "version": msg["version"]})
        msg = me2.until(my_turn_after(0, msg["version"]))
        me2.ws.send_json({"type": "undo", "version": msg["version"] - 1})
        assert "stale undo request" in error(me2)
        for bad in ('{"type": "undo"}', '{"type": "undo", "version": "1"}', '{"type": "undo_answer", "id": 1}',
                    '{"type": "undo_answer", "id": 1, "accept": 1}'):
            me2.ws.send_text(bad)
            assert "malformed message" in error(me2)
        watcher = Seen(hello(c, allowed["id"], None))
        watcher.until(lambda m: m["type"] == "sync")
        watcher.ws.send_json({"type": "undo", "version": msg["version"]})
        assert "spectators cannot take back moves" in error(watcher)
        assert c.get(f"/api/tables/{allowed['id']}").json()["version"] == msg["version"], "nothing changed"
        for ws in (me.ws, me2.ws, watcher.ws):
            ws.__exit__(None, None, None)


def two_people(c: Any, **body: Any) -> tuple[dict[str, Any], Seen, Seen]:
    """A KNOCKBACK table of two people (every step public), both connected and synced."""
    # (no seed: a table with an open seat is dealt secretly)
    made = make(c, "knockback", ["me", "open"], undo=True, **body)
    joined = c.post(f"/api/tables/{made['id']}/join", json={"name": "Bo"}).json()
    a = Seen(hello(c, made["id"], made["token"]))
    b = Seen(hello(c, made["id"], joined["token"]))
    a.until(lambda m: m["type"] == "sync")
    b.until(lambda m: m["type"] == "sync")
    return made, a, b


def move_then_ask(a: Seen, b: Seen) -> tuple[dict[str, Any], dict[str, Any]]:
    """Whoever decides moves until the first person (``a``, seat 0) has moved and it is the
    other's (``b``, seat 1) turn; then ``a`` asks to take its move back. Returns (the table
    as ``a`` saw it when asking, the request as ``b`` sees it)."""
    while True:
        v = a.last["version"]
        who = a if a.last["decision"]["player"] == 0 else b
        if who.last["version"] != v:
            who.until(at_version(v))
        who.ws.send_json({"type": "act", "action": who.last["legal"][0], "version": v})
        a.until(at_version(v + 1))
        b.until(at_version(v + 1))
        if who is a and a.last["decision"]["player"] == 1:
            break
    before = a.last
    assert before["can_undo"] is True
    a.ws.send_json({"type": "undo", "version": before["version"]})
    req = b.until(lambda m: m["type"] in ("update", "sync") and m["table"]["undo_request"] is not None)
    return before, req["table"]["undo_request"]


def test_between_people_the_other_accepts_and_both_get_the_table_as_it_was(make_client: Any) -> None:
    with make_client() as c:
        made, a, b = two_people(c)
        before, req = move_then_ask(a, b)
        assert req["seat"] == 0 and req["waiting"] == [1] and req["steps"] == 1 and req["version"] == before["version"]
        assert 0 < req["left"] <= req["limit"]
        a_view = a.until(lambda m: m["type"] in ("update", "sync") and m["table"]["undo_request"] is not None)
        assert a_view["can_undo"] is False, "one request at a time"
        assert c.get(f"/api/tables/{made['id']}").json()["version"] == before["version"], "nothing is undone yet"
        b.ws.send_json({"type": "undo_answer", "id": req["id"], "accept": True})
        for seen in (a, b):
            result = seen.until(lambda m: m["type"] == "undo_result")
            assert result == {"type": "undo_result", "id": req["id"], "seat": 0, "steps": 1, "result": "done", "by": 1}
            sync = seen.until(lambda m: m["type"] == "sync")
            to = before["version"] - 1
            assert sync["version"] == to and (sync["view"], sync["legal"], sync["decision"]) == seen.at[to]
            assert sync["table"]["undo_request"] is None
        assert len(stored_actions(c, made["id"])) == to
        a.ws.__exit__(None, None, None)
        b.ws.__exit__(None, None, None)


def test_a_refused_or_expired_request_changes_nothing_and_the_asker_waits(make_client: Any) -> None:
    with make_client(undo=UndoPolicy(seconds=30.0, cooldown=30.0)) as c:
        made, a, b = two_people(c)
        before, req = move_then_ask(a, b)
        actions = stored_actions(c, made["id"])
        b.ws.send_json({"type": "undo_answer", "id": req["id"], "accept": False})
        result = a.until(lambda m: m["type"] == "undo_result")
        assert result["result"] == "refused" and result["by"] == 1
        a.until(lambda m: m["type"] in ("update", "sync") and m["table"]["undo_request"] is None)
        assert a.last["version"] == before["version"] and a.last["view"] == before["view"]
        assert stored_actions(c, made["id"]) == actions
        b.ws.send_json({"type": "undo_answer", "id": req["id"], "accept": True})  # too late: it is closed
        assert "no longer open" in error(b)
        a.ws.send_json({"type": "undo", "version": before["version"]})
        assert "you can ask again in" in error(a)
        for ws in (a.ws, b.ws):
            ws.__exit__(None, None, None)
    with make_client(undo=UndoPolicy(seconds=0.6, cooldown=0.0)) as c:
        made, a, b = two_people(c)
        before, req = move_then_ask(a, b)
        t0 = time.monotonic()
        result = b.until(lambda m: m["type"] == "undo_result")
        assert result["result"] == "expired" and result["by"] is None and time.monotonic() - t0 < 5
        assert c.get(f"/api/tables/{made['id']}").json()["version"] == before["version"]
        assert len(stored_actions(c, made["id"])) == before["version"]
        for ws in (a.ws, b.ws):
            ws.__exit__(None, None, None)


def test_at_a_turn_based_table_a_request_waits_as_long_as_a_move_may_take(make_client: Any) -> None:
    """The other person may be away for hours: the request waits the table's time per move
    (and a live table's request its policy's seconds)."""
    with make_client(undo=UndoPolicy(seconds=30.0)) as c:
        _, a, b = two_people(c, move_time=HOUR)
        _, req = move_then_ask(a, b)
        assert req["limit"] == HOUR and HOUR - 60 < req["left"] <= HOUR
        for ws in (a.ws, b.ws):
            ws.__exit__(None, None, None)
        _, a, b = two_people(c)
        _, req = move_then_ask(a, b)
        assert req["limit"] == 30.0
        for ws in (a.ws, b.ws):
            ws.__exit__(None, None, None)


def test_answers_that_do_not_count_are_refused_and_a_move_voids_the_request(make_client: Any) -> None:
    with make_client() as c:
        made, a, b = two_people(c)
        before, req = move_then_ask(a, b)
        a.ws.send_json({"type": "undo_answer", "id": req["id"], "accept": True})
        assert "your own request" in error(a)
        b.ws.send_json({"type": "undo_answer", "id": req["id"] + 1, "accept": True})
        assert "no longer open" in error(b)
        a.ws.send_json({"type": "undo", "version": before["version"]})
        assert "already waiting for an answer" in error(a)
        watcher = Seen(hello(c, made["id"], None))
        w = watcher.until(lambda m: m["type"] == "sync")
        assert w["table"]["undo_request"]["id"] == req["id"] and w["can_undo"] is False
        watcher.ws.send_json({"type": "undo_answer", "id": req["id"], "accept": True})
        assert "spectators have no say" in error(watcher)
        # instead of answering, Bo moves: the request was about the table as it stood
        b.ws.send_json({"type": "act", "action": b.last["legal"][0], "version": b.last["version"]})
        result = a.until(lambda m: m["type"] == "undo_result")
        assert result["result"] == "void"
        upd = a.until(lambda m: m["type"] == "update")
        assert upd["version"] == before["version"] + 1 and upd["table"]["undo_request"] is None
        for ws in (a.ws, b.ws, watcher.ws):
            ws.__exit__(None, None, None)


def test_a_seat_may_take_back_only_so_many_moves_a_minute(make_client: Any) -> None:
    with make_client(undo=UndoPolicy(per_minute=2)) as c:
        made = make(c, "knockback", ["me", "random"], seed=11, undo=True)
        me = Seen(hello(c, made["id"], made["token"]))
        msg = me.until(my_turn(0))
        for n in range(3):
            me.ws.send_json({"type": "act", "action": msg["legal"][0], "version": msg["version"]})
            msg = me.until(my_turn_after(0, msg["version"]))
            me.ws.send_json({"type": "undo", "version": msg["version"]})
            if n < 2:
                msg = me.until(lambda m: m["type"] == "sync")
        assert "2 times within a minute" in error(me)
        me.ws.__exit__(None, None, None)


def _first_undoable_nak_muay(c: Any) -> tuple[dict[str, Any], Seen, Seen]:
    """A Nak Muay table (hidden hands and pile) of a person and two bots, played until the
    person may take back a move: (the table made, the person's connection, a spectator's)."""
    for seed in range(40):
        made = make(c, "nak-muay", ["me", "random", "random"], seed=seed, undo=True,
                    config={"countdown_seconds": 120})
        me = Seen(hello(c, made["id"], made["token"]))
        watcher = Seen(hello(c, made["id"], None))
        watcher.until(lambda m: m["type"] == "sync")
        msg = me.until(my_turn(0))
        for _ in range(40):
            if msg["outcome"] is not None:
                break
            if msg["can_undo"]:
                v = msg["version"]
                watcher.until(at_version(v))
                return made, me, watcher
            pairs = [x for x in msg["legal"] if x.startswith("pair:")]
            me.ws.send_json({"type": "act", "action": (pairs or msg["legal"])[0], "version": msg["version"]})
            msg = me.until(my_turn_after(0, msg["version"]))
        me.ws.__exit__(None, None, None)
        watcher.ws.__exit__(None, None, None)
    raise AssertionError("no seed lets the person take back a move")


def test_after_an_undo_each_seat_is_sent_nothing_it_did_not_know(make_client: Any) -> None:
    with make_client() as c:
        _, me, watcher = _first_undoable_nak_muay(c)
        version = me.last["version"]
        before = {id(s): (list(s.events), dict(s.at)) for s in (me, watcher)}
        me.ws.send_json({"type": "undo", "version": version})
        for seen in (me, watcher):
            events, at = before[id(seen)]
            sync = seen.until(lambda m: m["type"] == "sync")
            to = sync["version"]
            assert to < version
            # the view, the choices and the decision are those this seat was sent at that version
            assert (sync["view"], sync["legal"], sync["decision"]) == at[to]
            # its events: those it was sent up to that version, and one public line
            assert sync["events"][:-1] == [e for e in events if e["step"] < to]
            assert sync["events"][-1]["type"] == "undone"
        assert watcher.last["view"].get("hand") is None
        me.ws.__exit__(None, None, None)
        watcher.ws.__exit__(None, None, None)


def test_an_undo_is_durable_a_restarted_server_resumes_the_table_as_the_undo_left_it(make_client: Any) -> None:
    with make_client() as c:
        made, me, watcher = _first_undoable_nak_muay(c)
        me.ws.send_json({"type": "undo", "version": me.last["version"]})
        sync = me.until(lambda m: m["type"] == "sync")
        assert len(stored_actions(c, made["id"])) == sync["version"]
        me.ws.__exit__(None, None, None)
        watcher.ws.__exit__(None, None, None)
    with make_client() as c2:
        info = c2.get(f"/api/tables/{made['id']}").json()
        assert info["version"] == sync["version"] and info["undo"] is True
        again = Seen(hello(c2, made["id"], made["token"]))
        resumed = again.until(lambda m: m["type"] == "sync")
        seen = ("view", "legal", "decision")
        assert [resumed[k] for k in seen] == [sync[k] for k in seen]
        again.ws.send_json({"type": "act", "action": resumed["legal"][0], "version": resumed["version"]})
        again.until(lambda m: m["type"] == "update" and m["version"] > resumed["version"])
        again.ws.__exit__(None, None, None)


def test_a_finished_table_with_moves_taken_back_replays_to_the_game_as_played(make_client: Any) -> None:
    # (the bots answer at once, so a whole game of quick moves would pass the per-address
    # message rate: an error frame, and no update to wait for)
    with make_client(message_rate=None) as c:
        made = make(c, "knockback", ["me", "random"], seed=5, undo=True, config={"max_turns": 4})
        me = Seen(hello(c, made["id"], made["token"]))
        msg = me.until(my_turn(0))
        undone = 0
        while msg["outcome"] is None:
            if msg["can_undo"] and undone < 3 and msg["version"] % 2:  # now and then, take the last move back
                me.ws.send_json({"type": "undo", "version": msg["version"]})
                msg = me.until(lambda m: m["type"] == "sync")
                undone += 1
            me.ws.send_json({"type": "act", "action": msg["legal"][-1], "version": msg["version"]})
            msg = me.until(my_turn_after(0, msg["version"]))
        assert undone > 0
        live = c.app.state.manager.get(made["id"]).table
        record = GameRecord.from_dict(c.get(f"/api/tables/{made['id']}/record").json())
        assert record.actions == live.record.actions == stored_actions(c, made["id"])
        end = replay(record)
        assert end.outcome() == live.outcome() and end.outcome() is not None
        assert end.to_dict() == live._state.to_dict()
        last = c.get(f"/api/tables/{made['id']}/replay/{len(record.actions)}").json()
        assert last["view"] == msg["view"] or last["views"][0] == msg["view"]
        me.ws.__exit__(None, None, None)

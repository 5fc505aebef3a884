"""Turn-based tables on the server: made with a time per move, refused when the game's
options cannot wait a day, "your turn" for a seat's token, nobody marked away for leaving,
a bot moving for a person whose day ran out (stored as such), and the deadline kept across
a restart. Time is a fake clock moved by hand; the table's driver is woken after a move."""

from __future__ import annotations

from typing import Any

import pytest

from knockabout.table.turn_based import DAY, HOUR
from tests.server.conftest import receive_until

pytestmark = pytest.mark.timeout(120)


class FakeClock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def make(c: Any, game: str = "nak-muay", seats: list[str] | None = None, **body: Any) -> Any:
    return c.post("/api/tables", json={"game": game, "seats": seats or ["me", "open"], "name": "Ann",
                                       "move_time": DAY, **body})


def wake(c: Any, table_id: str) -> None:
    """Wake the table's driver (it sleeps in real time; the test moved the fake clock)."""
    live = c.app.state.server.manager.get(table_id)
    c.portal.call(live.wake.set)


def seated(c: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    r = make(c)
    assert r.status_code == 200, r.text
    made = r.json()
    joined = c.post(f"/api/tables/{made['id']}/join", json={"name": "Bo"}).json()
    return made, joined


def turns(c: Any, *seats: tuple[str, str]) -> list[dict[str, Any]]:
    r = c.post("/api/turns", json={"seats": [{"table": t, "token": k} for t, k in seats]})
    assert r.status_code == 200, r.text
    out: list[dict[str, Any]] = r.json()["turns"]
    return out


def test_a_turn_based_table_sets_the_games_rules_and_lists_whose_turn_it_is(make_client: Any) -> None:
    clock = FakeClock()
    with make_client(clock=clock) as c:
        made, joined = seated(c)
        info = c.get(f"/api/tables/{made['id']}").json()
        assert info["move_time"] == DAY and info["config"]["countdown"] == "move_time"
        mine = (made["id"], made["token"]), (made["id"], joined["token"])
        waiting = turns(c, *mine, ("nope", "x"), (made["id"], "wrong"))
        assert len(waiting) == 1 and waiting[0]["left"] == DAY
        first = waiting[0]["seat"]
        token = made["token"] if first == 0 else joined["token"]
        with c.websocket_connect(f"/ws/tables/{made['id']}") as ws:
            ws.send_json({"type": "hello", "token": token})
            sync = receive_until(ws, lambda m: m["type"] == "sync")
            assert sync["clock"] == {"seat": first, "left": DAY, "limit": DAY}
            clock.now += 5 * HOUR
            ws.send_json({"type": "act", "action": sync["legal"][0], "version": sync["version"]})
            receive_until(ws, lambda m: m["type"] == "update" and m["version"] > sync["version"])
        after = turns(c, *mine)
        assert all(t["seat"] != first or t["version"] > sync["version"] for t in after)
        games = c.get("/api/games").json()
        assert DAY in games["move_times"]
        by_id = {g["id"]: g["turn_based"] for g in games["games"]}
        assert by_id["nak-muay"] == {"options": {"countdown": "move_time"}}
        assert by_id["knockback"] == {"options": {}}


@pytest.mark.parametrize(("game", "body", "why"), [
    ("knockdown", {"config": {"knockdown_test": "tower", "tower_timer": "at_test"}}, "tower_timer=when_opened"),
    ("nak-muay", {"config": {"countdown": "seconds"}}, "use countdown=move_time"),
    ("nak-muay", {"move_time": 60}, "from 1 hour to 14 days"),
])
def test_what_cannot_wait_a_day_is_refused(make_client: Any, game: str, body: dict[str, Any], why: str) -> None:
    with make_client() as c:
        r = make(c, game, **body)
        assert r.status_code == 400 and why in r.json()["error"]
        assert c.get("/api/tables").json()["tables"] == []


def test_leaving_marks_nobody_away_and_a_late_person_gets_a_bots_move(make_client: Any) -> None:
    clock, wall = FakeClock(), FakeClock(1_700_000_000.0)
    with make_client(clock=clock, wall_clock=wall, grace=30.0) as c:
        made, _ = seated(c)
        tid = made["id"]
        live = c.app.state.server.manager.get(tid)
        first = live.table.decision().player
        clock.now += 2 * HOUR  # far past the 30 s grace of a live table
        wake(c, tid)
        assert live.table.version == 0 and not any(s.away for s in live.table.seats)
        kept = c.app.state.server.store.get(tid)
        assert kept.clock_deadline == pytest.approx(wall.now + DAY), "the move's deadline is in the store"
        clock.now += DAY
        wake(c, tid)
        for _ in range(500):
            if live.table.log:
                break
            c.portal.call(lambda: None)
        entry = live.table.log[0]
        assert entry.by == "out-of-time" and entry.seat == first
        assert not live.table.seats[first].away, "they keep the seat"
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_json({"type": "hello", "token": made["token"]})
            sync = receive_until(ws, lambda m: m["type"] == "sync")
            assert sync["version"] >= 1
            said = [e["text"] for e in sync["events"] if e["type"] == "out_of_time"]
            assert said == [f"{'Ann' if first == 0 else 'Bo'} ran out of time (1 day per move): a bot made this "
                            "move for them."]


def test_a_restart_gives_the_move_only_what_is_left(make_client: Any) -> None:
    clock, wall = FakeClock(), FakeClock(1_700_000_000.0)
    with make_client(clock=clock, wall_clock=wall) as c:
        made, _ = seated(c)
    wall.now += 20 * HOUR  # the server was down most of a day
    clock.now = 5.0  # a new process: its monotonic clock starts anew
    with make_client(clock=clock, wall_clock=wall) as c:
        live = c.app.state.server.manager.get(made["id"])
        assert live.table.move_time == DAY and live.table.time_left() == pytest.approx(4 * HOUR)

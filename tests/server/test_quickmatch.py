"""Quick match on the server: two people asking for the same game are seated together at a
new table; one alone gets a bot after the set wait (a fake clock); a ticket is a secret that
only its holder can turn into a seat; leaving stops the wait."""

from __future__ import annotations

import time
from typing import Any

import pytest

from knockabout.ladder.ratings import BOT_PRIOR_SHOWN
from tests.server.conftest import receive_until

pytestmark = pytest.mark.timeout(120)


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def wait_seated(c: Any, ticket: str, seconds: float = 30.0) -> dict[str, Any]:
    deadline = time.monotonic() + seconds  # (real time: making the table waits for the store)
    while time.monotonic() < deadline:
        got: dict[str, Any] = c.get(f"/api/quickmatch/{ticket}").json()
        if got["status"] != "waiting":
            return got
        time.sleep(0.02)
    raise AssertionError("never seated")


def wake(c: Any) -> None:
    c.portal.call(c.app.state.server.quickmatch.wake.set)


def test_two_people_asking_for_a_game_sit_at_one_table(make_client: Any) -> None:
    with make_client(clock=FakeClock()) as c:
        a = c.post("/api/quickmatch", json={"game": "nak-muay", "name": "Ann"}).json()
        assert a["status"] == "waiting" and a["players"] == 2 and a["rating"] == 1500
        b = c.post("/api/quickmatch", json={"game": "nak-muay", "name": "Bo"}).json()
        sa, sb = wait_seated(c, a["ticket"]), wait_seated(c, b["ticket"])
        assert sa["status"] == sb["status"] == "seated" and sa["table"] == sb["table"] and sa["bots"] == 0
        assert {sa["seat"], sb["seat"]} == {0, 1} and sa["token"] != sb["token"]
        info = c.get(f"/api/tables/{sa['table']}").json()
        assert [s["name"] for s in info["seats"]] == ["Ann", "Bo"] and info["status"] == "playing"
        assert info["free_seats"] == [], "nobody else can take a quick match's seats"
        with c.websocket_connect(f"/ws/tables/{sa['table']}") as ws:
            ws.send_json({"type": "hello", "token": sa["token"]})
            assert receive_until(ws, lambda m: m["type"] == "sync")["seat"] == sa["seat"]


def test_alone_after_the_set_wait_a_bot_at_your_level_fills_the_table(make_client: Any) -> None:
    clock = FakeClock()
    with make_client(clock=clock, bot_fill_after=45.0) as c:
        a = c.post("/api/quickmatch", json={"game": "nak-muay", "name": "Ann", "players": 3}).json()
        b = c.post("/api/quickmatch", json={"game": "knockback", "name": "Bo"}).json()  # another queue
        clock.now += 44.0
        wake(c)
        assert c.get(f"/api/quickmatch/{a['ticket']}").json()["status"] == "waiting"
        clock.now += 1.0
        wake(c)
        sa = wait_seated(c, a["ticket"])
        assert sa["status"] == "seated" and sa["bots"] == 2
        seats = c.get(f"/api/tables/{sa['table']}").json()["seats"]
        assert [s["kind"] for s in seats] == ["person", "bot", "bot"]
        nearest = min(BOT_PRIOR_SHOWN, key=lambda level: abs(BOT_PRIOR_SHOWN[level] - 1500))
        assert {s["level"] for s in seats[1:]} == {nearest}, "the level nearest a new player's 1500"
        assert wait_seated(c, b["ticket"])["bots"] == 1


def test_tickets_are_secret_and_leaving_stops_the_wait(make_client: Any) -> None:
    with make_client(clock=FakeClock()) as c:
        a = c.post("/api/quickmatch", json={"game": "knockdown", "name": "Ann"}).json()
        assert c.get("/api/quickmatch/not-a-ticket").status_code == 404
        assert c.delete(f"/api/quickmatch/{a['ticket']}").json()["status"] == "left"
        assert c.get(f"/api/quickmatch/{a['ticket']}").status_code == 404
        assert c.delete(f"/api/quickmatch/{a['ticket']}").status_code == 404
        b = c.post("/api/quickmatch", json={"game": "knockdown", "name": "Bo"}).json()
        assert c.get(f"/api/quickmatch/{b['ticket']}").json()["status"] == "waiting", "Ann left: Bo waits alone"
        for bad, why in (({"game": "chess"}, "chess"), ({"game": "knockdown", "players": 3}, "players")):
            r = c.post("/api/quickmatch", json=bad)
            assert r.status_code == 409 and why in r.json()["error"]

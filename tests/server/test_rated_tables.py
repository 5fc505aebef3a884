"""A rated table on the server: once its end is stored it is rated, and everyone at it gets
what it did to the ratings; the table's ratings and the game's leaderboard are read back.
(Who holds which seat is the accounts' business: here a stand-in names two accounts.)"""

from __future__ import annotations

from typing import Any

import pytest

from knockabout.server.ratings import end_hook
from tests.server.conftest import receive

pytestmark = pytest.mark.timeout(180)


class Stub:
    """A connection the test acts through directly (the table reads only its seat)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat


def play_out(c: Any, table_id: str) -> None:
    """Both people play their first legal action until the end (through the live table, as
    their messages would)."""
    live = c.app.state.server.manager.get(table_id)
    while not live.table.over:
        d = live.table.decision()
        c.portal.call(live.act, Stub(d.player), live.table.updates_for(d.player).legal[0], live.table.version)
    if live.end_task is not None:
        c.portal.call(lambda: live.end_task)


def until_ratings(ws: Any) -> dict[str, Any]:
    for _ in range(5000):
        msg = receive(ws)
        if msg["type"] == "ratings":
            return msg
    raise AssertionError("no ratings message")


def test_a_finished_table_of_two_accounts_is_rated_and_both_are_told(make_client: Any) -> None:
    with make_client() as c:
        server = c.app.state.server
        made = c.post("/api/tables", json={"game": "nak-muay", "seats": ["me", "open"], "name": "Ann"}).json()
        joined = c.post(f"/api/tables/{made['id']}/join", json={"name": "Bo"}).json()
        server.manager.on_end = end_hook(server.store, lambda tid: {0: "ann", 1: "bo"})
        server.manager.get(made["id"]).on_end = server.manager.on_end  # (made before the stand-in was set)
        with c.websocket_connect(f"/ws/tables/{made['id']}") as a, c.websocket_connect(f"/ws/tables/{made['id']}") as b:
            a.send_json({"type": "hello", "token": made["token"]})
            b.send_json({"type": "hello", "token": joined["token"]})
            play_out(c, made["id"])
            got = [until_ratings(a), until_ratings(b)]
        changes = got[0]["changes"]
        assert [ch["name"] for ch in changes] == ["Ann", "Bo"] and all(ch["before"] == 1500 for ch in changes)
        assert changes == got[1]["changes"], "both seats are told the same"
        outcome = c.get(f"/api/tables/{made['id']}").json()["outcome"]
        if not outcome["draw"]:
            winner = outcome["winners"][0]
            assert changes[winner]["after"] > 1500 > changes[1 - winner]["after"]
        again = c.get(f"/api/tables/{made['id']}/ratings").json()
        assert again["rated"] and again["changes"] == changes

        async def names(players: list[str]) -> dict[str, str]:
            return {p: p.split(":")[1].title() for p in players if p.startswith("account:")}

        server.names_of = names
        lb = c.get("/api/games/nak-muay/leaderboard").json()
        assert sorted(p["name"] for p in lb["people"]) == ["Ann", "Bo"] and lb["people"][0]["rank"] == 1
        assert lb["people"][0]["rating"] >= lb["people"][1]["rating"]
        assert [b["level"] for b in lb["bots"]] == ["random", "easy", "medium", "hard"]
        assert c.get("/api/games/chess/leaderboard").status_code == 404
        assert c.get("/api/tables/nope/ratings").status_code == 404


def test_a_table_of_guests_is_not_rated(make_client: Any) -> None:
    with make_client() as c:
        made = c.post("/api/tables", json={"game": "nak-muay", "seats": ["me", "open"], "name": "Ann"}).json()
        c.post(f"/api/tables/{made['id']}/join", json={"name": "Bo"})
        play_out(c, made["id"])
        assert c.get(f"/api/tables/{made['id']}/ratings").json() == {"id": made["id"], "rated": False, "changes": []}

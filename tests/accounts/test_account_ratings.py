"""Accounts on the ladder: a logged-in person waits for a quick match as their account (by
its name and rating), the seat is linked to it, so the table of two accounts is rated;
each profile then shows the game's rating beside its win rate and what the game did to
it, and the leaderboard lists both by name (a deleted account leaves it). A guest next to
an account keeps the table unrated, as before."""

from __future__ import annotations

import json
import time
from contextlib import ExitStack
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from tests.accounts.conftest import Browser, Site

pytestmark = pytest.mark.timeout(180)


def wait_seated(b: Browser, ticket: str, within: float = 30.0) -> dict[str, Any]:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        got: dict[str, Any] = b.client.get(f"/api/quickmatch/{ticket}").json()
        if got["status"] != "waiting":
            return got
        time.sleep(0.02)
    raise AssertionError("never seated")


def drain(ws: ClientConnection) -> None:
    try:
        while True:
            ws.recv(timeout=0)
    except TimeoutError:
        return


def play_out(site: Site, table_id: str, tokens: dict[int, str]) -> None:
    """Each person plays their first legal action, over their own WebSocket, to the end."""
    live = site.app.state.manager.get(table_id)
    url = site.url.replace("http", "ws") + f"/ws/tables/{table_id}"
    with ExitStack() as stack:
        socks = {seat: stack.enter_context(connect(url)) for seat in tokens}
        for seat, ws in socks.items():
            ws.send(json.dumps({"type": "hello", "token": tokens[seat]}))
        deadline = time.monotonic() + 120
        while not live.table.over:
            assert time.monotonic() < deadline, "the game did not end"
            d = live.table.decision()
            legal = live.table.updates_for(d.player).legal if d is not None else []
            if d is None or not legal:
                time.sleep(0.01)
                continue
            version = live.table.version
            for ws in socks.values():
                drain(ws)
            socks[d.player].send(json.dumps({"type": "act", "action": legal[0], "version": version}))
            end = time.monotonic() + 10
            while live.table.version == version and time.monotonic() < end:
                time.sleep(0.005)
    deadline = time.monotonic() + 30
    while live.end_task is None or not live.end_task.done():  # (rating runs once the end is stored)
        assert time.monotonic() < deadline, "the table's end was not handled"
        time.sleep(0.02)


def matched(site: Site, ann: Browser, bo: Browser, game: str = "nak-muay") -> tuple[dict[str, Any], dict[str, Any]]:
    a = ann.post("/api/quickmatch", {"game": game, "name": "not my account's name"})
    assert a.status_code == 200, a.text
    b = bo.post("/api/quickmatch", {"game": game})
    sa, sb = wait_seated(ann, a.json()["ticket"]), wait_seated(bo, b.json()["ticket"])
    assert sa["status"] == sb["status"] == "seated" and sa["table"] == sb["table"] and sa["bots"] == 0
    return sa, sb


def test_two_accounts_matched_by_quick_match_are_rated_and_see_it_on_their_profiles(make_site: Any) -> None:
    with make_site() as site:
        ann, bo = site.browser(), site.browser("198.51.100.2")
        ann.signup("ann")
        bo.signup("Bo")
        sa, sb = matched(site, ann, bo)
        table_id = sa["table"]
        info = ann.client.get(f"/api/tables/{table_id}").json()
        assert {s["name"] for s in info["seats"]} == {"ann", "Bo"}, "each plays by the account's name"
        at = site.app.state.store.accounts.accounts_at(table_id)
        assert {at[sa["seat"]].name, at[sb["seat"]].name} == {"ann", "Bo"}, "both seats are the accounts'"
        play_out(site, table_id, {sa["seat"]: sa["token"], sb["seat"]: sb["token"]})
        rated = ann.client.get(f"/api/tables/{table_id}/ratings").json()
        assert rated["rated"] and len(rated["changes"]) == 2
        outcome = ann.client.get(f"/api/tables/{table_id}").json()["outcome"]
        for who, ticket in ((ann, sa), (bo, sb)):
            me = who.client.get("/api/account").json()["account"]["name"]
            profile = who.client.get(f"/api/accounts/{me}").json()
            (row,) = [s for s in profile["stats"] if s["game"] == "nak-muay"]
            change = next(c for c in rated["changes"] if c["seat"] == ticket["seat"])
            assert row["rating"]["rating"] == change["after"] and row["rating"]["games"] == 1
            (game,) = [g for g in profile["games"] if g["id"] == table_id]
            assert game["rating_change"] == {"before": 1500, "after": change["after"]}
            won = not outcome["draw"] and ticket["seat"] in outcome["winners"]
            assert row["played"] == 1 and row["win_rate"] == (1.0 if won else 0.0)
            if not outcome["draw"]:
                assert (change["after"] > 1500) == won and game["result"] == ("won" if won else "lost")
        # the next quick match waits at the account's new rating
        again = ann.post("/api/quickmatch", {"game": "nak-muay"}).json()
        mine = next(c for c in rated["changes"] if c["seat"] == sa["seat"])
        assert again["rating"] == mine["after"]
        ann.client.delete(f"/api/quickmatch/{again['ticket']}")
        board = ann.client.get("/api/games/nak-muay/leaderboard").json()
        assert sorted(p["name"] for p in board["people"]) == ["Bo", "ann"]
        # a deleted account leaves the leaderboard; its rated games stay rated
        assert bo.post("/api/account/delete", {"password": "correct horse battery"}).status_code == 200
        board = ann.client.get("/api/games/nak-muay/leaderboard").json()
        assert [p["name"] for p in board["people"]] == ["ann"]
        assert ann.client.get(f"/api/tables/{table_id}/ratings").json()["rated"]


def test_a_profile_without_rated_games_shows_no_rating(make_site: Any) -> None:
    with make_site(grace=0.0) as site:  # nobody connects: a stand-in moves first, so nothing is rated
        ann = site.browser()
        ann.signup("ann")
        site.played(ann)
        (row,) = ann.client.get("/api/accounts/ann").json()["stats"]
        assert row["played"] == 1 and row["rating"] is None


def test_an_account_matched_with_a_guest_is_not_rated(make_site: Any) -> None:
    with make_site() as site:
        ann, guest = site.browser(), site.browser("198.51.100.3")
        ann.signup("ann")
        a = ann.post("/api/quickmatch", {"game": "nak-muay"}).json()
        g = guest.post("/api/quickmatch", {"game": "nak-muay", "name": "Guest"}).json()
        sa, sg = wait_seated(ann, a["ticket"]), wait_seated(guest, g["ticket"])
        assert sa["table"] == sg["table"]
        at = site.app.state.store.accounts.accounts_at(sa["table"])
        assert {s: x.name for s, x in at.items()} == {sa["seat"]: "ann"}, "the guest's seat is nobody's"
        play_out(site, sa["table"], {sa["seat"]: sa["token"], sg["seat"]: sg["token"]})
        assert ann.client.get(f"/api/tables/{sa['table']}/ratings").json()["rated"] is False
        (row,) = ann.client.get("/api/accounts/ann").json()["stats"]
        assert row["played"] == 1 and row["rating"] is None

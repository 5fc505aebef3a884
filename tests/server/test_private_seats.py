"""Private seats (issue 14, item 5): unlisted tables and seats kept for an invite link."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.conftest import receive_until

pytestmark = pytest.mark.timeout(60)


def code_of(url: str) -> str:
    assert "#invite=" in url, url
    return url.split("#invite=", 1)[1]


def test_an_unlisted_table_is_not_in_the_lobby_but_its_link_works(make_client: Any) -> None:
    with make_client() as c:
        shown = c.post("/api/tables", json={"game": "nak-muay", "seats": ["me", "open"], "name": "Ann"}).json()
        hidden = c.post("/api/tables", json={"game": "nak-muay", "seats": ["me", "open"], "name": "Bo",
                                             "listed": False}).json()
        lobby = [t["id"] for t in c.get("/api/tables").json()["tables"]]
        assert shown["id"] in lobby and hidden["id"] not in lobby
        assert len(hidden["id"]) >= 20, "an unlisted table's id is too long to guess (~125 bits)"
        info = c.get(f"/api/tables/{hidden['id']}").json()
        assert info["listed"] is False and info["free_seats"] == [1]
        joined = c.post(f"/api/tables/{hidden['id']}/join", json={"name": "Cy"})
        assert joined.status_code == 200 and joined.json()["seat"] == 1
        assert hidden["id"] not in str(c.get("/api/tables").json()), "not even once it plays"


def test_a_reserved_seat_opens_only_with_its_invite_link(make_client: Any) -> None:
    with make_client() as c:
        made = c.post("/api/tables", json={"game": "nak-muay", "seats": ["me", "invite", "open"],
                                           "name": "Ann"}).json()
        tid = made["id"]
        assert [i["seat"] for i in made["invites"]] == [1]
        code = code_of(made["invites"][0]["url"])
        info = c.get(f"/api/tables/{tid}").json()
        assert info["free_seats"] == [2] and info["reserved_seats"] == [1]
        assert info["seats"][1]["reserved"] is True
        lobby = c.get("/api/tables").json()["tables"]
        assert lobby[0]["free_seats"] == [2], "the lobby offers only the open seat"
        assert code not in str(info) and code not in str(lobby), "nobody else ever sees the code"
        r = c.post(f"/api/tables/{tid}/join", json={"name": "Eve", "seat": 1})
        assert r.status_code == 409 and "kept for an invite link" in r.json()["error"]
        r = c.post(f"/api/tables/{tid}/join", json={"name": "Eve", "invite": "x" * 24})
        assert r.status_code == 409 and "not valid" in r.json()["error"]
        r = c.post(f"/api/tables/{tid}/join", json={"name": "Eve"})
        assert r.status_code == 200 and r.json()["seat"] == 2, "a stranger gets the open seat, not the friend's"
        r = c.post(f"/api/tables/{tid}/join", json={"name": "Mal"})
        assert r.status_code == 409 and "kept for invite links" in r.json()["error"]
        info = c.get(f"/api/tables/{tid}").json()
        assert info["status"] == "waiting" and info["seats"][1]["kind"] == "empty"
        r = c.post(f"/api/tables/{tid}/join", json={"name": "Flo", "invite": code})
        assert r.status_code == 200 and r.json()["seat"] == 1
        info = c.get(f"/api/tables/{tid}").json()
        assert info["status"] == "playing" and info["seats"][1]["name"] == "Flo"
        again = c.post(f"/api/tables/{tid}/join", json={"name": "Gus", "invite": code})
        assert again.status_code == 409, "an invite opens its seat once"
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_json({"type": "hello", "token": r.json()["token"]})
            sync = receive_until(ws, lambda m: m["type"] == "sync")
            assert sync["seat"] == 1 and code not in str(sync)


def test_the_invite_for_one_seat_does_not_open_another(make_client: Any) -> None:
    with make_client() as c:
        made = c.post("/api/tables", json={"game": "nak-muay", "seats": ["me", "invite", "invite"],
                                           "name": "Ann"}).json()
        codes = {i["seat"]: code_of(i["url"]) for i in made["invites"]}
        assert set(codes) == {1, 2} and codes[1] != codes[2]
        r = c.post(f"/api/tables/{made['id']}/join", json={"name": "B", "invite": codes[2], "seat": 1})
        assert r.status_code == 409 and "for seat 3" in r.json()["error"]
        r = c.post(f"/api/tables/{made['id']}/join", json={"name": "B", "invite": codes[2]})
        assert r.status_code == 200 and r.json()["seat"] == 2


def test_reserved_seats_and_unlisted_tables_survive_a_restart(make_client: Any) -> None:
    with make_client() as c:
        made = c.post("/api/tables", json={"game": "nak-muay", "seats": ["me", "invite"], "name": "Ann",
                                           "listed": False}).json()
        code = code_of(made["invites"][0]["url"])
        stored = c.app.state.store.get(made["id"])
        assert stored.listed is False and stored.seats[1]["invite"] and stored.seats[1]["invite"] != code
    with make_client() as c:  # the same database: the table is resumed from the store
        assert made["id"] not in str(c.get("/api/tables").json())
        info = c.get(f"/api/tables/{made['id']}").json()
        assert info["reserved_seats"] == [1] and info["free_seats"] == []
        assert c.post(f"/api/tables/{made['id']}/join", json={"name": "E"}).status_code == 409
        r = c.post(f"/api/tables/{made['id']}/join", json={"name": "Bo", "invite": code})
        assert r.status_code == 200 and r.json()["seat"] == 1
        assert "invite" not in c.app.state.store.get(made["id"]).seats[1], "a used invite is gone from the store"

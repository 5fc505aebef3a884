"""Optional accounts, as a person uses them: a guest plays as before and claims their
tables on signing up; logging in and out; a logged-in person's tables are theirs; a profile
with recent games and per-game win rates; changing the password; deleting the account."""

from __future__ import annotations

from typing import Any

import pytest

from knockabout.core.registry import get_game
from knockabout.store import DELETED_NAME
from tests.accounts.conftest import PASSWORD, Site

pytestmark = pytest.mark.timeout(180)


def test_a_guest_plays_as_before_and_claims_their_tables_on_signing_up(site: Site) -> None:
    guest = site.browser()
    assert guest.load()["account"] is None
    with_bot = guest.table(name="Ann", seats=["me", "random"])
    waiting = guest.table(name="Ann", seats=["me", "open"])
    assert with_bot["token"] and waiting["token"], "a guest gets seat tokens exactly as before"
    made = guest.signup("ann", claim=guest.claims())
    assert made.status_code == 200, made.text
    assert sorted(c["table"] for c in made.json()["claimed"]) == sorted([with_bot["id"], waiting["id"]])
    games = guest.client.get("/api/accounts/ann").json()["games"]
    assert {g["id"] for g in games} == {with_bot["id"], waiting["id"]}
    assert all(g["names"][g["seat"]] == "Ann" for g in games), "a claimed seat keeps the name it was played under"


def test_signing_up_logs_in_and_logging_out_ends_the_session(site: Site) -> None:
    b = site.browser()
    made = b.signup("Bo_1")
    assert made.status_code == 200 and made.json()["account"]["name"] == "Bo_1"
    assert b.load()["account"]["name"] == "Bo_1"
    assert b.post("/api/account/logout").status_code == 200
    assert b.load()["account"] is None
    again = b.login("bo_1")  # names compare without case
    assert again.status_code == 200 and again.json()["account"]["name"] == "Bo_1"
    other = site.browser("203.0.113.9")
    assert other.signup("BO_1").status_code == 409, "a name differing only in case is the same name"


def test_a_logged_in_person_s_tables_carry_their_name_and_are_theirs(site: Site) -> None:
    ann, bo = site.browser(), site.browser("198.51.100.2")
    ann.signup("ann")
    bo.signup("bo")
    made = ann.table(seats=["me", "open"], name="Someone Else")
    assert made["table"]["seats"][0]["name"] == "ann", "the account's name, not a typed one"
    joined = bo.post(f"/api/tables/{made['id']}/join", {"name": "not bo"})
    assert joined.status_code == 200
    info = bo.client.get(f"/api/tables/{made['id']}").json()
    assert [s["name"] for s in info["seats"]] == ["ann", "bo"]
    at = site.app.state.store.accounts.accounts_at(made["id"])
    assert {seat: a.name for seat, a in at.items()} == {0: "ann", 1: "bo"}
    assert [g["id"] for g in ann.client.get("/api/accounts/ann").json()["games"]] == [made["id"]]


def test_a_profile_shows_recent_games_with_their_replays_and_the_win_rate_per_game(make_site: Any) -> None:
    with make_site(grace=0.0) as site:  # nobody connects: stand-ins play the person's seats to the end
        ann = site.browser()
        ann.signup("ann")
        ids = [site.played(ann, game=g)["id"] for g in ("nak-muay", "nak-muay", "knockback")]
        viewer = site.browser("198.51.100.7")  # anyone may look
        profile = viewer.client.get("/api/accounts/ANN").json()
    assert profile["name"] == "ann" and profile["own"] is False
    assert {g["id"] for g in profile["games"]} == set(ids)
    store_results = {}
    for g in profile["games"]:
        assert g["url"] == f"/replay/{g['id']}" and g["status"] == "finished"
        winners = g["outcome"]["winners"]
        expected = "drawn" if g["outcome"]["draw"] else "won" if g["seat"] in winners else "lost"
        assert g["result"] == expected
        store_results.setdefault(g["game"], []).append(expected)
    stats = {s["game"]: s for s in profile["stats"]}
    assert set(stats) == {"nak-muay", "knockback"}
    for game, results in store_results.items():
        s = stats[game]
        assert (s["played"], s["won"], s["drawn"], s["lost"]) == (
            len(results), results.count("won"), results.count("drawn"), results.count("lost"))
        assert s["win_rate"] == pytest.approx(results.count("won") / len(results))
    assert stats["knockback"]["name"] == get_game("knockback").name


def test_changing_the_password_logs_out_every_other_session(site: Site) -> None:
    here, there = site.browser(), site.browser("198.51.100.3")
    here.signup("cy")
    assert there.login("cy").status_code == 200
    wrong = here.post("/api/account/password", {"password": "not it at all", "new_password": "a new secret"})
    assert wrong.status_code == 401
    before = here.client.cookies.get("knockabout_session")
    changed = here.post("/api/account/password", {"password": PASSWORD, "new_password": "a new secret"})
    assert changed.status_code == 200, changed.text
    assert here.client.cookies.get("knockabout_session") != before, "a new session id"
    assert here.load()["account"]["name"] == "cy"
    assert there.load()["account"] is None, "the other browser is logged out"
    assert there.login("cy").status_code == 401
    assert there.login("cy", "a new secret").status_code == 200


def test_deleting_the_account_keeps_its_games_under_another_name(make_site: Any) -> None:
    with make_site(grace=0.0) as site:
        dee = site.browser()
        dee.signup("dee")
        done = site.played(dee)
        live = dee.table(seats=["me", "open"])
        watcher = site.browser("198.51.100.4")
        assert dee.post("/api/account/delete", {"password": "wrong password"}).status_code == 401
        gone = dee.post("/api/account/delete", {"password": PASSWORD})
        assert gone.status_code == 200 and gone.json()["deleted"]
        assert dee.load()["account"] is None
        for table_id in (done["id"], live["id"]):
            names = [s["name"] for s in watcher.client.get(f"/api/tables/{table_id}").json()["seats"]]
            assert names[0] == DELETED_NAME and "dee" not in names
        steps = watcher.client.get(f"/api/tables/{done['id']}").json()["version"]
        replay = watcher.client.get(f"/api/tables/{done['id']}/replay/{steps}").json()
        assert replay["names"][0] == DELETED_NAME and replay["outcome"], "the game is kept, and replays"
        record = watcher.client.get(f"/api/tables/{done['id']}/record").json()
        assert "dee" not in str(record)
        assert watcher.client.get("/api/accounts/dee").status_code == 404
        assert dee.login("dee").status_code == 401
        assert site.app.state.store.get(live["id"]).seats[0]["name"] == DELETED_NAME
        assert dee.signup("dee").status_code == 200, "the name is free again (with none of the old games)"
        assert dee.client.get("/api/accounts/dee").json()["games"] == []


def test_a_rematch_asked_while_logged_in_is_the_account_s_too(make_site: Any) -> None:
    with make_site(grace=0.0) as site:
        eve = site.browser()
        eve.signup("eve")
        first = site.played(eve)
        again = eve.post(f"/api/tables/{first['id']}/rematch", {"token": first["token"]})
        assert again.status_code == 200, again.text
        at = site.app.state.store.accounts.accounts_at(again.json()["id"])
        assert at[again.json()["seat"]].name == "eve"

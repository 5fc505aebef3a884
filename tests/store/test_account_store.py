"""The accounts' store API, on SQLite and PostgreSQL: what ratings, matching and profiles
build on (see knockabout.store.accounts)."""

from __future__ import annotations

import hashlib

import pytest

from knockabout.store import DELETED_NAME, NameTaken, Store, StoredTable


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def table(table_id: str, names: list[str], tokens: list[str | None], *, listed: bool = True) -> StoredTable:
    seats = [{"kind": "person" if t else "bot", "name": n, "level": None if t else "random",
              "token": token_hash(t) if t else None} for n, t in zip(names, tokens, strict=True)]
    return StoredTable(id=table_id, game="nak-muay", rules_version="1", config={"players": len(names)}, seed=1,
                       seats=seats, listed=listed)


def test_accounts_sessions_seats_and_results(db_url: str) -> None:
    store = Store(db_url, writer="thread")
    accounts = store.accounts
    ann = accounts.create("Ann", "hash-a")
    with pytest.raises(NameTaken):
        accounts.create("ANN", "hash-b")
    bo = accounts.create("bo", "hash-b")
    assert accounts.by_name("aNN") == ann and accounts.get(bo.id) == bo
    assert accounts.login_facts("ann") == (ann, "hash-a") and accounts.login_facts("nobody") is None

    accounts.start_session(ann.id, "s1", 60.0)
    accounts.start_session(ann.id, "s2", -1.0)  # already expired
    assert accounts.session_account("s1") == ann and accounts.session_account("s2") is None
    assert accounts.end_expired_sessions() == 1
    accounts.end_session("s1")
    assert accounts.session_account("s1") is None

    store.create(table("won", ["Ann", "Bo"], ["ta", "tb"]))
    store.finish("won", {"winners": [0], "payoffs": [1.0, 0.0], "draw": False, "reason": "ko"})
    store.create(table("drawn", ["Ann", "Bot"], ["tc", None], listed=False))
    store.finish("drawn", {"winners": [], "payoffs": [0.5, 0.5], "draw": True, "reason": "time"})
    store.create(table("live", ["Bo", "Ann"], ["td", "te"]))
    assert accounts.link_seat("won", 0, ann.id) and accounts.link_seat("won", 1, bo.id)
    assert not accounts.link_seat("won", 0, bo.id), "a held seat stays its account's"
    claimed = accounts.claim(ann.id, [("drawn", token_hash("tc")), ("live", token_hash("te")),
                                      ("live", token_hash("td-wrong")), ("nope", token_hash("x"))])
    assert sorted(claimed) == [("drawn", 0), ("live", 1)]
    assert accounts.claim(bo.id, [("drawn", token_hash("tc"))]) == []
    assert {s: a.name for s, a in accounts.accounts_at("won").items()} == {0: "Ann", 1: "bo"}

    games = accounts.games(ann.id)
    assert {g.table_id for g in games} == {"won", "drawn", "live"}
    assert [g.table_id for g in accounts.games(ann.id, listed_only=True, finished_only=True)] == ["won"]
    results = {g.table_id: g for g in accounts.results(ann.id)}
    assert set(results) == {"won", "drawn"}
    assert results["won"].won and not results["won"].lost and results["drawn"].drawn
    assert [g.lost for g in accounts.results(bo.id)] == [True]

    assert accounts.secret("k", lambda: "first") == "first" and accounts.secret("k", lambda: "second") == "first"

    accounts.start_session(ann.id, "s3", 60.0)
    held = accounts.delete(ann.id)
    assert sorted(held) == [("drawn", 0), ("live", 1), ("won", 0)]
    assert accounts.session_account("s3") is None and accounts.by_name("ann") is None
    gone = accounts.get(ann.id)
    assert gone is not None and gone.deleted and gone.name == DELETED_NAME
    for table_id, seat in held:
        st = store.get(table_id)
        assert st is not None and st.seats[seat]["name"] == DELETED_NAME
    assert store.get("won").seats[1]["name"] == "Bo", "other seats keep their names"  # type: ignore[union-attr]
    assert len(accounts.results(ann.id)) == 2, "the games still count as one (deleted) player's"
    assert accounts.create("ann", "hash-c").id != ann.id, "the name is free again"
    store.close()

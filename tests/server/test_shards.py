"""Tables shared out by id over a server's workers (``serve --workers``): which worker a
request goes to, the ids a worker makes, what each worker resumes, and the limits each
keeps its share of. (The processes themselves: test_workers.py.)"""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from knockabout.server import ServerSettings, create_app
from knockabout.server.quotas import LimitReached, Quotas
from knockabout.server.shards import Router, shard_id, shard_of, share, table_in

ID = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789xy", min_size=1, max_size=22)


def test_a_table_s_worker_is_a_fixed_hash_of_its_id() -> None:
    # pinned: the same in every process and every run (Python's own hash() is not)
    ids = ("BQGA2nzM", "6hCiGhg9", "xmlh7Sjy", "GGzUnEnm", "a", "b", "c", "d")
    assert [shard_of(t, 4) for t in ids] == [2, 3, 0, 1, 3, 1, 3, 3]
    assert shard_of("anything", 1) == 0
    counts = Counter(shard_of(f"t{i}", 3) for i in range(30_000))
    assert set(counts) == {0, 1, 2} and all(9_000 < n < 11_000 for n in counts.values()), counts


@given(shards=st.integers(1, 8), shard=st.integers(0, 7))
def test_a_worker_makes_ids_of_its_own_shard(shards: int, shard: int) -> None:
    shard %= shards
    made = shard_id(6, shard, shards)
    assert shard_of(made, shards) == shard and len(made) == 8 and made.isalnum()


def test_a_limit_s_share() -> None:
    assert [share(30, n) for n in (1, 2, 4, 7)] == [30, 15, 8, 5]
    assert share(1, 4) == 1 and share(0, 3) == 0


@pytest.mark.parametrize(("target", "table"), [
    (b"/ws/tables/AbC9xy", "AbC9xy"),
    (b"/ws/tables/AbC9xy?token=zz", "AbC9xy"),
    (b"/api/tables/AbC9xy", "AbC9xy"),
    (b"/api/tables/AbC9xy/join", "AbC9xy"),
    (b"/api/tables/AbC9xy/replay/12", "AbC9xy"),
    (b"/t/AbC9xy", "AbC9xy"),
    (b"/replay/AbC9xy", "AbC9xy"),
    (b"/api/studio/jobs/AbC9xy", "AbC9xy"),  # a studio test lives in the worker that runs it
    (b"/api/studio/jobs/AbC9xy/stop", "AbC9xy"),
    (b"/api/studio/knockback/test", None),
    (b"/api/tables", None),
    (b"/api/tables?x=1", None),
    (b"/api/tables/", None),
    (b"/", None),
    (b"/static/app.js", None),
    (b"/games/knockdown/renderer.js", None),
    (b"/tables/AbC9xy", None),
])
def test_the_table_a_request_names(target: bytes, table: str | None) -> None:
    assert table_in(target) == table


@given(table=ID, address=st.text(max_size=40))
def test_a_request_that_names_a_table_goes_to_its_worker(table: str, address: str) -> None:
    router = Router(3)
    for line in (f"GET /ws/tables/{table}?token=abc HTTP/1.1\r\nHost: x\r\n",
                 f"POST /api/tables/{table}/join HTTP/1.1\r\n", f"GET /t/{table} HTTP/1.1\n"):
        assert router.route(line.encode(), address) == shard_of(table, 3)


def test_one_address_s_new_tables_alternate_over_the_workers() -> None:
    router = Router(3)
    create = b"POST /api/tables HTTP/1.1\r\nContent-Length: 40\r\n"
    first = router.route(create, "10.0.0.1")
    seen = [first] + [router.route(create, "10.0.0.1") for _ in range(5)]
    assert seen == [(first + i) % 3 for i in range(6)]
    other = [router.route(create, "10.0.0.2") for _ in range(3)]
    assert sorted(other) == [0, 1, 2], "another address has its own turn"
    router.route(b"GET / HTTP/1.1\r\n", "10.0.0.1")  # pages do not move an address's turn for new tables
    assert router.route(create, "10.0.0.1") == (first + 6) % 3


@given(head=st.binary(max_size=200), address=st.text(max_size=20))
def test_any_bytes_get_a_worker(head: bytes, address: str) -> None:
    assert 0 <= Router(2).route(head, address) < 2  # the worker's uvicorn answers a bad request


def test_other_requests_take_turns() -> None:
    router = Router(2)
    assert [router.route(b"GET /api/tables HTTP/1.1\r\n", "a") for _ in range(4)] == [0, 1, 0, 1]


def test_each_worker_keeps_its_share_of_the_creation_rate() -> None:
    def check(quotas: Quotas) -> None:
        asyncio.run(quotas.check_create("10.0.0.1"))

    quotas = Quotas("30/minute", None, shards=2)
    for _ in range(15):
        check(quotas)
    with pytest.raises(LimitReached, match="at most 30 per minute"):
        check(quotas)  # (with two workers, the address's other 15 go to the other one)
    one = Quotas("30/minute", None)
    for _ in range(30):
        check(one)
    with pytest.raises(LimitReached):
        check(one)


def worker(tmp_path: Path, shard: int, **kw: Any) -> TestClient:
    kw = {"bot_delay": 0.0, "bot_pace": 0.0, **kw}
    return TestClient(create_app(ServerSettings(db_url=f"sqlite:///{tmp_path / 'k.db'}", shard=shard, shards=2,
                                                **kw)))


def new_table(client: TestClient, seats: list[str]) -> dict[str, Any]:
    answer = client.post("/api/tables", json={"game": "nak-muay", "seats": seats, "name": "Ann"})
    assert answer.status_code == 200, answer.text
    made: dict[str, Any] = answer.json()
    return made


def test_workers_make_resume_and_list_tables_of_their_own_shard(tmp_path: Path) -> None:
    with worker(tmp_path, 0) as zero:
        mine = [new_table(zero, ["me", "open"])["id"] for _ in range(4)]
        assert all(shard_of(t, 2) == 0 for t in mine)
        assert zero.get("/api/games").headers["connection"] == "close"
    with worker(tmp_path, 1) as one:
        assert one.app.state.resumed == 0, "worker 1 leaves worker 0's tables alone"  # type: ignore[attr-defined]
        listed = {t["id"]: t for t in one.get("/api/tables").json()["tables"]}
        assert set(mine) <= set(listed), "every worker's lobby lists every worker's tables"
        assert all(listed[t]["free_seats"] == [1] and listed[t]["status"] == "waiting" for t in mine)
        theirs = new_table(one, ["me", "random"])["id"]
        assert shard_of(theirs, 2) == 1
    with worker(tmp_path, 0) as zero:
        assert zero.app.state.resumed == 4  # type: ignore[attr-defined]
        assert zero.post(f"/api/tables/{mine[0]}/join", json={"name": "Bo"}).status_code == 200


def test_each_worker_keeps_its_share_of_the_bot_table_cap(tmp_path: Path) -> None:
    with worker(tmp_path, 0, max_bot_tables=3, bot_pace=30.0) as zero:
        for _ in range(2):
            new_table(zero, ["random", "random"])
        refused = zero.post("/api/tables", json={"game": "nak-muay", "seats": ["random", "random"]})
        assert refused.status_code == 429
        assert "its share of the server's 3" in refused.json()["error"]

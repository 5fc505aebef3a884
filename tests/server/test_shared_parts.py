"""What hosts share through Redis (``serve --redis``), with two servers in this process
and a Redis of the test's own on a loopback port: the lobby's updates reach the lobby
pages of every host, the per-address limits count an address's requests to every host
together (and the log-in attempts at one name too), and a table asked for is let go at
once (not at the holder's next renewal). Without Redis, a server's own lobby pages still
hear its own tables."""

from __future__ import annotations

import asyncio
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from knockabout.server import ServerSettings, create_app
from knockabout.server.quotas import LimitReached, LoginLimits
from tests.server.conftest import free_port, receive_until
from tests.server.multihost import LOOPBACK, program

pytestmark = [pytest.mark.timeout(120), pytest.mark.solo]  # (solo: see tests/conftest.py)


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    proc = subprocess.Popen([program("redis-server"), "--bind", LOOPBACK, "--port", str(port), "--save", "",
                             "--appendonly", "no", "--dir", str(tmp_path_factory.mktemp("redis"))],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        import redis

        client = redis.Redis(host=LOOPBACK, port=port)
        deadline = time.monotonic() + 20
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.05)
        client.close()
        yield f"redis://{LOOPBACK}:{port}/0"
    finally:
        proc.terminate()
        proc.wait(10)


@contextmanager
def host(db: str, name: str, redis: str | None, **kw: Any) -> Iterator[TestClient]:
    settings = ServerSettings(db_url=db, host_name=name, redis_url=redis, bot_delay=0.0, bot_pace=0.0,
                              grace_seconds=60.0, **kw)
    with TestClient(create_app(settings)) as client:
        yield client


def test_the_lobby_pages_of_every_host_hear_a_table_made_on_one(tmp_path: Path, redis_url: str) -> None:
    db = f"sqlite:///{tmp_path / 'k.db'}"
    with host(db, "h1", redis_url) as one, host(db, "h2", redis_url) as two, \
            two.websocket_connect("/ws/lobby") as lobby_two, one.websocket_connect("/ws/lobby") as lobby_one:
        time.sleep(0.3)  # (the buses subscribe as the servers start)
        made = one.post("/api/tables", json={"game": "nak-muay", "seats": ["me", "open"], "name": "Ann"}).json()
        hidden = one.post("/api/tables", json={"game": "nak-muay", "seats": ["me", "open"], "listed": False}).json()
        heard = receive_until(lobby_two, lambda m: m["type"] == "tables")
        assert {c["id"] for c in heard["changed"]} == {made["id"]}, "an unlisted table is never told"
        assert heard["changed"][0]["status"] == "waiting" and heard["changed"][0]["game"] == "nak-muay"
        assert receive_until(lobby_one, lambda m: m["type"] == "tables")["changed"][0]["id"] == made["id"]
        joined = two.post(f"/api/tables/{made['id']}/join", json={"name": "Bo"})  # (h2 takes it from h1)
        assert joined.status_code == 200, joined.text
        heard = receive_until(lobby_one, lambda m: m["type"] == "tables")
        assert [c["id"] for c in heard["changed"]] == [made["id"]] and heard["changed"][0]["status"] == "playing"
        assert hidden["id"] not in {c["id"] for c in heard["changed"]}


def test_a_server_alone_tells_its_own_lobby_pages(make_client: Any) -> None:
    with make_client() as c, c.websocket_connect("/ws/lobby") as lobby:
        made = c.post("/api/tables", json={"game": "nak-muay", "seats": ["me", "random"], "name": "Ann"}).json()
        heard = receive_until(lobby, lambda m: m["type"] == "tables")
        assert heard["changed"][0]["id"] == made["id"]


def test_an_address_s_limit_counts_its_requests_to_every_host(tmp_path: Path, redis_url: str) -> None:
    db = f"sqlite:///{tmp_path / 'k.db'}"
    rates = {"create_rate": "3/minute", "server_create_rate": "off"}
    with host(db, "h1", redis_url, **rates) as one, host(db, "h2", redis_url, **rates) as two:
        body = {"game": "nak-muay", "seats": ["me", "open"], "listed": False}
        assert [c.post("/api/tables", json=body).status_code for c in (one, two, one)] == [200, 200, 200]
        refused = two.post("/api/tables", json=body)
        assert refused.status_code == 429 and "at most 3 per minute" in refused.json()["error"]
        assert one.post("/api/tables", json=body).status_code == 429


def test_a_table_asked_for_is_let_go_at_once_over_redis(tmp_path: Path, redis_url: str) -> None:
    """The holder renews only every 15 s here, so only the bus's message can make it let
    the table go within the few seconds the asker is given."""
    db = f"sqlite:///{tmp_path / 'k.db'}"
    with host(db, "h1", redis_url, lease_seconds=60.0) as one, host(db, "h2", redis_url, lease_seconds=60.0) as two:
        time.sleep(0.3)
        made = one.post("/api/tables", json={"game": "nak-muay", "seats": ["me", "random"], "name": "Ann"}).json()
        started = time.monotonic()
        info = two.get(f"/api/tables/{made['id']}")
        assert info.status_code == 200, info.text
        assert time.monotonic() - started < 5, "let go on the bus's message, not at a renewal"
        assert one.get("/api/host").json()["released"] == 1 and two.get("/api/host").json()["taken"] == 1


def test_quick_match_pairs_people_waiting_on_two_hosts(tmp_path: Path, redis_url: str) -> None:
    """Ann waits on h1, Bo on h2: one table seats them both, and each ticket is answered on
    either host (a balancer sends the asks wherever it likes)."""
    db = f"sqlite:///{tmp_path / 'k.db'}"
    with host(db, "h1", redis_url) as one, host(db, "h2", redis_url) as two:
        time.sleep(0.3)
        a = one.post("/api/quickmatch", json={"game": "knockback", "name": "Ann"}).json()
        assert a["status"] == "waiting"
        assert two.get(f"/api/quickmatch/{a['ticket']}").json()["status"] == "waiting"
        b = two.post("/api/quickmatch", json={"game": "knockback", "name": "Bo"}).json()
        deadline = time.monotonic() + 30
        while True:
            sa = two.get(f"/api/quickmatch/{a['ticket']}").json()
            sb = one.get(f"/api/quickmatch/{b['ticket']}").json()
            if sa["status"] == sb["status"] == "seated":
                break
            assert time.monotonic() < deadline, (sa, sb)
            time.sleep(0.05)
        assert sa["table"] == sb["table"] and sa["bots"] == 0 and {sa["seat"], sb["seat"]} == {0, 1}
        info = one.get(f"/api/tables/{sa['table']}").json()
        assert sorted(s["name"] for s in info["seats"]) == ["Ann", "Bo"] and info["status"] == "playing"
        assert two.delete(f"/api/quickmatch/{a['ticket']}").status_code == 404, "a seated ticket cannot leave"


def account_post(client: TestClient, path: str, name: str, password: str) -> Any:
    """An account form as the page sends it (with the CSRF token of this client's guest cookie)."""
    csrf = client.get("/api/account").json()["csrf"]
    return client.post(path, json={"name": name, "password": password}, headers={"x-csrf-token": csrf})


def test_log_ins_to_one_name_count_on_every_host_together(tmp_path: Path, redis_url: str) -> None:
    """Guesses at one name spread over two hosts (and, with two workers each, over their
    workers) meet one limit, not one per host; a name with no account is refused alike."""
    db = f"sqlite:///{tmp_path / 'k.db'}"
    rates = {"login_rate": "off", "account_login_rate": "3/minute", "shards": 2}
    with host(db, "h1", redis_url, **rates) as one, host(db, "h2", redis_url, **rates) as two:
        assert account_post(one, "/api/account/signup", "Ann", "correct horse battery").status_code == 200
        one.cookies.clear()
        guesses = [account_post(c, "/api/account/login", name, "guess guess").status_code
                   for c in (one, two, one) for name in ("ann", "nobody-here")]
        assert guesses == [401] * 6
        refused = {name: account_post(c, "/api/account/login", name, pw)
                   for c, name, pw in ((two, "ann", "correct horse battery"), (one, "nobody-here", "guess guess"))}
        assert refused["ann"].status_code == 429, "the right password too, past the limit"
        assert (refused["ann"].status_code, refused["ann"].json()) == \
            (refused["nobody-here"].status_code, refused["nobody-here"].json())
        assert account_post(two, "/api/account/login", "ANN", "correct horse battery").status_code == 429


def test_log_in_limits_over_redis_are_counted_whole(redis_url: str) -> None:
    """With Redis the count is shared, so no worker's share divides the rate; in memory it does."""
    shared = LoginLimits("10/minute", "20/hour", "10/hour", shards=4, storage=redis_url)
    alone = LoginLimits("10/minute", "20/hour", "10/hour", shards=4)
    assert [r.amount for r in (shared.address_rate, shared.name_rate, shared.signup_rate) if r] == [10, 20, 10]
    assert [r.amount for r in (alone.address_rate, alone.name_rate, alone.signup_rate) if r] == [3, 5, 3]


def test_two_login_limits_on_one_redis_share_the_count(redis_url: str) -> None:
    async def attempts() -> None:
        a = LoginLimits("2/minute", "off", "2/hour", storage=redis_url)
        b = LoginLimits("2/minute", "off", "2/hour", storage=redis_url)
        await a.check_login("203.0.113.9", "someone")
        await b.check_login("203.0.113.9", "someone-else")
        with pytest.raises(LimitReached, match="too many attempts to log in"):
            await a.check_login("203.0.113.9", "a third")
        await b.check_login("203.0.113.10", "someone")  # another address is not held up
        await a.check_signup("203.0.113.9")
        await b.check_signup("203.0.113.9")
        with pytest.raises(LimitReached, match="at most 2 per hour"):
            await a.check_signup("203.0.113.9")

    asyncio.run(attempts())


def test_log_ins_stay_limited_while_redis_does_not_answer() -> None:
    """A Redis that does not answer does not open the door to guessing: this process counts."""
    async def attempts() -> None:
        limits = LoginLimits("off", "2/minute", None, storage=f"redis://{LOOPBACK}:{free_port()}/0")
        for _ in range(2):
            await limits.check_login("203.0.113.9", "ann")
        with pytest.raises(LimitReached):
            await limits.check_login("203.0.113.11", "ann")

    asyncio.run(attempts())

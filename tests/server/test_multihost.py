"""Three hosts behind HAProxy (deploy/haproxy.cfg), sharing PostgreSQL and Redis, all on
this machine's loopback: tables played through HAProxy survive losing a host.

* A host killed outright (SIGKILL) mid-game: HAProxy marks it down, its tables are taken by
  the others once its leases run out, and every table finishes; every stored record
  replays to its stored result (the one its player was shown), and no player was ever
  shown a move go back.
* A host cut off (SIGSTOP, past its lease) that comes back (SIGCONT): its tables went on
  elsewhere, and it wrote nothing more: each table's actions were written under lease
  generations that never go down from one step to the next.
"""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from knockabout.core.replay import GameRecord, replay
from knockabout.store import Store
from knockabout.store.schema import ActionRow
from tests.server.multihost import Cluster, Seen, make_table, play

pytestmark = [pytest.mark.timeout(240), pytest.mark.solo]  # (solo: see tests/conftest.py)

TABLES = [("nak-muay", ["me", "random"], {"max_turns": 40}), ("knockback", ["me", "random"], {"max_turns": 8}),
          ("knockdown", ["me", "random"], {"max_turns": 12})] * 3
"""Nine tables, three of each game, one person (the scripted player) against a bot."""


@pytest.fixture
def cluster(tmp_path: Path, postgres_url: str) -> Any:
    c = Cluster(tmp_path, postgres_url, hosts=3, lease=2.0)
    try:
        c.start()
        yield c
    finally:
        c.stop()


async def play_all(c: Cluster, during: Any) -> list[Seen]:
    """Make the tables through HAProxy and play them all to the end; ``during(tables)``
    runs meanwhile (in a thread), once every table has been played a while."""
    deadline = time.monotonic() + 150
    async with httpx.AsyncClient(timeout=15) as http:
        made = [await make_table(http, c.url, game, seats, config) for game, seats, config in TABLES]
    players = [asyncio.ensure_future(play(c.ws, m["id"], m["token"], m["seat"], deadline)) for m in made]

    async def versions() -> list[int]:
        async with httpx.AsyncClient(timeout=15) as http:
            out = []
            for m in made:
                try:
                    facts = (await http.get(f"{c.url}/api/tables/{m['id']}")).json()
                    # (a game may end in a few steps: a bot at random can lose at once)
                    out.append(1 << 30 if facts.get("status") == "finished" else facts.get("version", 0))
                except (httpx.TransportError, ValueError):
                    out.append(0)
            return out

    while min(await versions()) < 6:
        assert time.monotonic() < deadline, "the tables did not get going"
        await asyncio.sleep(0.3)
    await asyncio.to_thread(during, [m["id"] for m in made])
    return list(await asyncio.gather(*players))


def busiest(c: Cluster) -> Any:
    holding = c.holding()
    name = max(holding, key=lambda n: holding[n])
    assert holding[name] > 0, f"no host holds a table: {holding}"
    return next(h for h in c.servers if h.name == name), holding[name]


def check_records(db_url: str, seen: list[Seen]) -> dict[str, list[int | None]]:
    """Every table finished, its record replays to the stored result, the player was shown
    that result and nothing that went back; returns each table's lease generations by step."""
    store = Store(db_url, writer="thread")
    generations = {}
    try:
        for s in seen:
            assert not s.went_back, (s.table_id, s.went_back)
            st = store.get(s.table_id)
            assert st is not None and st.status == "finished", s.table_id
            state = replay(GameRecord(game=st.game, rules_version=st.rules_version, config=st.config, seed=st.seed,
                                      content_hash=st.content_hash, actions=st.actions))
            outcome = state.outcome()
            assert outcome is not None and outcome.to_dict() == st.result == s.outcome, s.table_id
            assert max(s.versions) == len(st.actions), "the player saw the last stored step"
            with Session(store.engine) as session:
                generations[s.table_id] = list(session.scalars(
                    select(ActionRow.lease).where(ActionRow.table_id == s.table_id).order_by(ActionRow.step)))
    finally:
        store.close()
    return generations


def test_a_host_killed_mid_game_loses_no_table(cluster: Cluster, postgres_url: str) -> None:
    killed: dict[str, Any] = {}

    def kill(tables: list[str]) -> None:
        host, _ = busiest(cluster)
        held = len(cluster.leases_of(host))
        killed.update(name=host.name, held=held, at=time.monotonic())
        host.signal(signal.SIGKILL)
        host.proc.wait(10)  # type: ignore[union-attr]
        deadline = time.monotonic() + 15
        while cluster.states().get(host.name) != "DOWN":
            assert time.monotonic() < deadline, f"HAProxy did not mark {host.name} down: {cluster.states()}"
            time.sleep(0.2)
        killed["down_after"] = time.monotonic() - killed["at"]
        while cluster.leases_of(host):  # each taken by another host (or finished there)
            assert time.monotonic() - killed["at"] < 10 + cluster.lease, "its tables were not taken within 10 s"
            time.sleep(0.2)
        killed["taken_after"] = time.monotonic() - killed["at"]

    seen = asyncio.run(play_all(cluster, kill))
    generations = check_records(postgres_url, seen)
    assert killed["taken_after"] < 10, killed
    moved = [t for t, g in generations.items() if len(set(g)) > 1]
    assert moved, "some table was played by two hosts"
    assert all(g == sorted(g) for g in generations.values())
    assert any(s.connections > 1 for s in seen), "the killed host's players connected again"


def test_a_host_cut_off_past_its_lease_comes_back_and_cannot_write(cluster: Cluster, postgres_url: str) -> None:
    cut: dict[str, Any] = {}

    def partition(tables: list[str]) -> None:
        host, _ = busiest(cluster)
        host.signal(signal.SIGSTOP)  # the server and its store writer: as a host cut off from the network
        held = len(cluster.leases_of(host))
        cut.update(name=host.name, held=held)
        started = time.monotonic()
        while cluster.leases_of(host):  # each taken by another host (or finished there)
            assert time.monotonic() - started < 10 + cluster.lease, "its tables were not taken within 10 s"
            time.sleep(0.2)
        time.sleep(cluster.lease)  # the others play on meanwhile
        host.signal(signal.SIGCONT)
        deadline = time.monotonic() + 30  # (its next renewal is due within a quarter lease: slack for a busy machine)
        while True:  # it learns it lost them: at its next renewal, or when a write is refused or fails
            try:  # (a write it had begun when stopped fails: the database ended that idle transaction)
                info = host.info()
                if info["lost"] + info["unsaved"] >= held:
                    cut["info"] = info
                    break
            except (httpx.TransportError, ValueError):
                pass
            assert time.monotonic() < deadline, "the host that came back did not let its tables go"
            time.sleep(0.2)

    seen = asyncio.run(play_all(cluster, partition))
    generations = check_records(postgres_url, seen)
    assert cut["info"]["lost"] + cut["info"]["unsaved"] >= cut["held"]
    for table_id, g in generations.items():
        assert g == sorted(g), f"table {table_id}: a step written under an older lease after a newer one: {g}"

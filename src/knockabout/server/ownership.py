"""Which tables this server holds, when several servers share one database.

Each server (each worker of ``serve --workers``) is a *holder* with a name: the host's
(``--host-name``, else the machine's name), with ``/N`` for worker N. It holds a table by
the table's lease in the store (:mod:`knockabout.store.leases`), and writes the table only
under that lease's generation, which the database checks on every write
(:mod:`knockabout.store.fence`). :class:`Ownership` keeps the leases:

* **Renewing.** Every quarter of the lease time (``--lease-seconds``, 5 by default) it
  renews its hold (one row, whatever the number of its tables: its leases run out with
  it). A table it turns out not to hold any more (another holder took it while this one
  was stopped or cut off) is let go at once: its
  driver stops and its connections are closed with code 1012 (the clients connect again,
  and the load balancer sends them where the table is now). So does a table whose write
  was refused by the fence. A server that cannot renew for a whole lease time lets every
  table go and answers its health check with 503 until it can again.
* **Taking on demand.** A request for a table it does not hold (the load balancer sends
  it a table's requests by the table's id, so it is where the table's players are now)
  makes it take the table (:meth:`Ownership.acquire`): at once if nobody holds it or its
  lease ran out, else by asking the holder to let it go and waiting (the holder does at
  once when the ask reaches it over the bus, :mod:`.bus`, else at its next renewal). It
  then resumes the table from the store exactly as a restarted server does: the log
  replayed, the pending decision's clock with the time actually left, each person away
  until they connect again.
* **Sweeping.** Tables nobody holds (their holder died, or let them go when it stopped)
  are taken by the holders at their renewals without waiting for a request: each by the
  live host that rendezvous hashing prefers for it (:func:`~knockabout.store.leases.preferred`),
  or by any host once the lease has been free for a while. So bots and clocks go on at a
  table nobody is connected to, within about ``1.5 x`` the lease time of its holder's end.
* **Letting go.** A table another holder asked for is let go at the next renewal: no more
  writes (under its lock), then the lease is released with the next generation, then its
  connections are closed (code 1012) so that they reach the new holder. On a graceful
  stop every lease is released, so that others take the tables at once.

The database calls run on threads; a table is resumed on the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from knockabout.core.errors import KnockaboutError
from knockabout.server.background import cancel
from knockabout.server.bus import Bus
from knockabout.server.shards import shard_of
from knockabout.store.leases import Lease, Leases, host_of, preferred

if TYPE_CHECKING:
    from knockabout.server.live import LiveTable, Manager
    from knockabout.server.settings import ServerSettings

log = logging.getLogger("knockabout.ownership")

MOVED = 1012
"""The WebSocket close code of a table that moved to another server ("service restart":
the client connects again, and reaches the table where it is now)."""
TRY_AGAIN = 1013
"""The close code when a table could not be taken in time ("try again later")."""
POLL = 0.2
"""Seconds between looks at a lease this server waits for."""


def channel(holder: str) -> str:
    """The bus channel of messages to one holder (a table asked for, a table let go)."""
    return f"holder:{holder}"


class TableMoved(KnockaboutError):
    """This server does not hold the table any more (another one does, or will)."""


class TableMoving(KnockaboutError):
    """The table is held by another server that has not let it go yet."""


def holder_name(settings: ServerSettings) -> str:
    """This server's name as a lease holder: the host's, with ``/N`` for worker N."""
    host = settings.host_name or socket.gethostname()
    if "/" in host:
        raise KnockaboutError(f"a host name cannot hold '/' ({host!r})")
    return host if settings.shards <= 1 else f"{host}/{settings.shard}"


@dataclass
class Counts:
    """What this holder's leases went through (``GET /api/host``)."""

    taken: int = 0  # tables taken (on demand, by sweeping, or at start)
    released: int = 0  # let go to another holder that asked
    lost: int = 0  # found held by another (renewal, or a write the fence refused)
    refused: int = 0  # writes the fence refused
    unsaved: int = 0  # let go after a write that failed otherwise (resumed from the store on the next request)


class Ownership:
    """The leases of one holder: renewing, taking, letting go (see the module)."""

    def __init__(self, manager: Manager, leases: Leases, settings: ServerSettings, bus: Bus | None = None) -> None:
        self.manager = manager
        self.leases = leases
        self.settings = settings
        self.bus = bus or Bus()
        self.bus.subscribe(channel(leases.owner), self._heard)
        self._asked = asyncio.Event()  # a holder asked for a table of ours: let it go now
        self._released: dict[str, asyncio.Event] = {}  # tables we wait for, set when let go
        self.seconds = settings.lease_seconds
        self.every = max(0.1, self.seconds / 4)
        self.counts = Counts()
        self.renewed_at = time.monotonic()  # the last renewal that worked
        self.healthy = True
        self.renew_failing = False  # the last renewal raised (set until one works)
        self._task: asyncio.Task[None] | None = None
        self._acquiring: dict[str, asyncio.Future[LiveTable | None]] = {}
        self._unplayable: set[str] = set()  # tables this build cannot replay: left to others
        self._making: set[str] = set()  # tables being made here (their leases exist before they are live)

    @property
    def holder(self) -> str:
        return self.leases.owner

    def mine(self, table_id: str) -> bool:
        """Whether ``table_id`` belongs to this worker's shard of its host."""
        return shard_of(table_id, self.settings.shards) == self.settings.shard

    # -- starting and stopping
    def claim_at_start(self) -> dict[str, int]:
        """Take, as the server starts, the tables this holder held before (a restart), those
        without a lease, and those nobody holds that this host is preferred for: their new
        generations. (On the server's thread: nothing else runs yet.)"""
        self.leases.renew()  # this host is alive from now on
        taken: dict[str, int] = {}
        seen = {lease.table_id: lease for lease in self.leases.free()}
        for table_id, generation in self.leases.held().items():
            seen[table_id] = Lease(table_id, self.holder, generation, 0.0)
        alive = self.leases.alive()
        for table_id, lease in seen.items():
            if not self.mine(table_id):
                continue
            if lease.owner == self.holder or preferred(table_id, alive) == self.leases.host:
                got = self.leases.claim(table_id, lease)
                if got is not None:
                    taken[table_id] = got
        for table_id in self.leases.unleased():
            if self.mine(table_id):
                got = self.leases.claim(table_id, None)
                if got is not None:
                    taken[table_id] = got
        self.counts.taken += len(taken)
        return taken

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._keep(), name="lease-keeper")

    async def stop(self) -> None:
        task, self._task = self._task, None
        await cancel(task)

    def release_all(self) -> int:
        """Let every lease of this holder go (a graceful stop): other holders take the
        tables at once, not after the lease time."""
        n = 0
        for table_id, generation in self.leases.held().items():
            n += self.leases.release(table_id, generation)
        self.leases.leave()
        return n

    # -- the renewal loop
    def _heard(self, message: dict[str, Any]) -> None:
        """A message to this holder: a table asked for, or a table we wait for let go."""
        if "ask" in message:
            self._asked.set()
        elif (waiting := self._released.get(str(message.get("released")))) is not None:
            waiting.set()

    async def _keep(self) -> None:
        due = time.monotonic() + self.every
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(max(0.0, due - time.monotonic())):
                    await self._asked.wait()
            if self._asked.is_set() and time.monotonic() < due:  # asked between renewals: only the hand-over
                self._asked.clear()
                with contextlib.suppress(Exception):
                    await self.hand_over()
                continue
            self._asked.clear()
            due = time.monotonic() + self.every
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database is away: try again at the next turn
                log.warning("could not renew the table leases of %s: %s", self.holder, exc)
            # Let go only when the renewals themselves fail (the database is away) for a lease
            # time. A renewal that worked but came late (a busy machine, a long sweep after it)
            # lets nothing go: the next one follows at once, and a table another holder took
            # meanwhile is found at that renewal, or by the fence at its next write.
            if self.renew_failing and time.monotonic() - self.renewed_at > self.seconds and self.healthy:
                self.healthy = False
                log.error("%s could not renew its leases for %.1f s: letting its tables go", self.holder,
                          self.seconds)
                for live in list(self.manager.tables.values()):
                    if not live.table.over:
                        self.let_go(live, "this server lost its database; the table goes on elsewhere")

    async def tick(self) -> None:
        """One renewal: renew, let go what was lost or asked for, take what nobody holds."""
        started = time.monotonic()
        away = started - self.renewed_at  # a quarter lease, unless the server was stopped or cut off
        self.renew_failing = True
        renewed = await asyncio.to_thread(self.leases.renew)
        self.renewed_at, self.healthy, self.renew_failing = started, True, False
        held = self.held()
        if renewed != len(held):
            current = await asyncio.to_thread(self.leases.held)
            for table_id, generation in held.items():
                if current.get(table_id) != generation and table_id not in self._making:
                    live = self.manager.tables.get(table_id)
                    if live is not None and live.lease == generation:
                        self.counts.lost += 1
                        self.let_go(live, "another server holds this table now")
            for table_id, generation in current.items():  # ours, yet not played here (let go while the
                if (table_id not in held and table_id not in self._making  # database was away): take them up
                        and table_id not in self._acquiring and table_id not in self.manager.tables):
                    seen = Lease(table_id, self.holder, generation, 0.0)
                    with contextlib.suppress(TableMoving):
                        await self._once(table_id, lambda _id=table_id, lease=seen: self._take(_id, lease))
        if away > self.seconds:  # (after letting go: a bot thinking that spanned the time away
            # counted it, and taught a floor that would slow every bot of its level here)
            log.warning("%s was away %.1f s: its bots' release floors are learned afresh", self.holder, away)
            self.manager.forget_floors()
        await self.hand_over()
        await self.sweep()

    async def hand_over(self) -> None:
        """Let go the tables other holders asked for."""
        for table_id, generation, asker in await asyncio.to_thread(self.leases.wanted):
            await self.release(table_id, generation, asker)

    def held(self) -> dict[str, int]:
        """The tables this server plays under a lease (not those whose game is over: their
        leases went with their finish)."""
        return {t.id: t.lease for t in self.manager.tables.values()
                if t.lease is not None and not t.gone and not t.finished_saved}

    async def sweep(self) -> None:
        """Take the tables nobody holds that fall to this holder (see the module)."""
        free = [lease for lease in await asyncio.to_thread(self.leases.free)
                if self.mine(lease.table_id) and lease.table_id not in self.manager.tables
                and lease.table_id not in self._unplayable and lease.table_id not in self._acquiring]
        if not free:
            return
        alive = await asyncio.to_thread(self.leases.alive)
        for lease in free:
            late = lease.left < -self.seconds  # free for a while: whoever comes first
            if lease.wanted_by not in (None, self.holder) and not late:
                continue  # let go to the holder that asked for it, which takes it now
            if lease.owner == self.holder or late or preferred(lease.table_id, alive) == self.leases.host:
                with contextlib.suppress(TableMoving):
                    await self._once(lease.table_id, lambda _id=lease.table_id, seen=lease: self._take(_id, seen))

    # -- taking
    async def acquire(self, table_id: str, wait: float | None = None) -> LiveTable | None:
        """The live table ``table_id``, taken from the store if another holder had it (see
        the module); None when there is no such unfinished table. Raises
        :class:`TableMoving` when its holder did not let it go within ``wait`` seconds
        (default: twice the lease time)."""
        live = self.manager.tables.get(table_id)
        if live is not None:
            return live
        limit = time.monotonic() + (2 * self.seconds + 1 if wait is None else wait)
        return await self._once(table_id, lambda: self._acquire(table_id, limit))

    async def _once(self, table_id: str, work: Any) -> LiveTable | None:
        """Run ``work`` (taking ``table_id``) once however many requests wait for it."""
        pending = self._acquiring.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        done: asyncio.Future[LiveTable | None] = asyncio.get_running_loop().create_future()
        self._acquiring[table_id] = done
        try:
            result: LiveTable | None = await work()
        except BaseException as exc:
            done.set_exception(exc)
            done.exception()  # (retrieved: a lone caller gets it raised below)
            raise
        finally:
            self._acquiring.pop(table_id, None)
        done.set_result(result)
        return result

    async def _acquire(self, table_id: str, limit: float) -> LiveTable | None:
        asked = False
        while True:
            lease = await asyncio.to_thread(self.leases.get, table_id)
            if lease is None or lease.free or lease.owner == self.holder:
                if lease is None:
                    stored = await asyncio.to_thread(self.manager.store.get, table_id)
                    if stored is None or stored.status == "finished":
                        return None
                claimed, live = await self._claim(table_id, lease)
                if claimed:
                    return live
            elif not asked and lease.owner is not None:
                await asyncio.to_thread(self.leases.ask, table_id)
                await self.bus.publish(channel(lease.owner), {"ask": table_id})  # (else at its next renewal)
                asked = True
            if time.monotonic() > limit:
                raise TableMoving(f"table {table_id!r} is held by {lease.owner if lease else 'another server'} and"
                                  " was not let go in time; try again in a moment",
                                  plain="this table is moving to another server; try again in a moment")
            waiting = self._released.setdefault(table_id, asyncio.Event())
            try:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(POLL):
                        await waiting.wait()
            finally:
                self._released.pop(table_id, None)

    async def _take(self, table_id: str, seen: Lease | None) -> LiveTable | None:
        return (await self._claim(table_id, seen))[1]

    async def _claim(self, table_id: str, seen: Lease | None) -> tuple[bool, LiveTable | None]:
        """Claim ``table_id``'s lease as ``seen`` and resume the table under it: whether it
        was claimed (False: another holder was first), and the live table (None: there is
        nothing this server can play there)."""
        if table_id in self._unplayable:
            return True, None
        generation = await asyncio.to_thread(self.leases.claim, table_id, seen)
        if generation is None:
            return False, None
        self.counts.taken += 1
        stored = await asyncio.to_thread(self.manager.store.get, table_id)
        playable = stored is not None and stored.status != "finished"
        try:
            live = await self.manager.adopt(stored, generation) if stored is not None and playable else None
        except TableMoved:  # another holder took it while it was being resumed here: not this one's to play,
            log.info("%s: table %s was taken by another server while it was resumed here", self.holder, table_id)
            return False, None  # and nothing wrong with the table (a request waits for it, or tries again)
        if live is None:  # nothing this build can play: let others try
            if stored is not None and playable:
                log.warning("%s cannot replay table %s (game %r, rules %s): left to other servers", self.holder,
                            table_id, stored.game, stored.rules_version)
            self._unplayable.add(table_id)
            await asyncio.to_thread(self.leases.release, table_id, generation)
        return True, live

    # -- letting go
    async def release(self, table_id: str, generation: int, asker: str) -> None:
        """Let ``table_id`` go to ``asker``: no more writes here, then the lease, then the
        connections (which then reach the asker)."""
        live = self.manager.tables.get(table_id)
        if live is not None and live.lease == generation and not live.gone:
            async with live.lock:
                live.gone = True
        if await asyncio.to_thread(self.leases.release, table_id, generation):
            self.counts.released += 1
            log.info("%s let table %s go to %s", self.holder, table_id, host_of(asker))
            await self.bus.publish(channel(asker), {"released": table_id})
        if live is not None and live.lease == generation:
            self.let_go(live, "this table moved to another server")

    def let_go(self, live: LiveTable, why: str) -> None:
        """Stop playing ``live`` here: no more writes, its driver stopped, its connections
        closed with :data:`MOVED`."""
        live.gone = True
        self.manager.forget_live(live)
        task = live.task
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        live.task = None
        conns, live.connections = list(live.connections), []
        for conn in conns:
            asyncio.get_running_loop().create_task(_close(conn.ws, why))

    def lost(self, live: LiveTable) -> None:
        """A write of ``live`` was refused by the fence: another holder has it."""
        self.counts.refused += 1
        if not live.gone:
            self.counts.lost += 1
            self.let_go(live, "another server holds this table now")

    def unsaved(self, live: LiveTable) -> None:
        """A write of ``live`` failed (not by the fence): it is let go, and the next request
        for it takes it up again from what the store holds."""
        if not live.gone:
            self.counts.unsaved += 1
            self.let_go(live, "this server could not save the table; connecting again")

    def making(self, table_id: str, on: bool) -> None:
        """A table being made here (its lease exists before it is live)."""
        if on:
            self._making.add(table_id)
        else:
            self._making.discard(table_id)

    def info(self) -> dict[str, Any]:
        return {"holder": self.holder, "host": self.leases.host, "healthy": self.healthy,
                "tables": len(self.held()), "lease_seconds": self.seconds,
                "taken": self.counts.taken, "released": self.counts.released, "lost": self.counts.lost,
                "refused": self.counts.refused, "unsaved": self.counts.unsaved}


async def _close(ws: Any, why: str) -> None:
    from knockabout.server.guards import close_safely

    await close_safely(ws, MOVED, why[:120])

"""Live tables on the server: seats with secret tokens, connections, clocks, the store.

Everything here runs on the server's event loop; the :class:`~knockabout.table.Table`
is synchronous and each :class:`LiveTable` has one driver task that sleeps until the
table has something to do (a bot's move, a timeout, a grace period running out).

The store is written by its writer thread (:meth:`Store.commit`, group commit): a change
is sent to anyone only once it is durable, and the table's lock is held until then, so
no later change is confirmed before an earlier one. With each change goes the deadline
of the timed decision it leaves pending (wall-clock time), so a restarted server gives
that decision only the time actually left, and takes its timeout at once if it ran out
while the server was down. A finished table leaves memory ``finished_ttl`` seconds after
its end; the store then answers for it.

Several servers may share one store (hosts behind a load balancer): a server plays a
table only while it holds the table's lease, and every write carries the lease's
generation (:mod:`.ownership`). A table this server does not hold is taken when a request
names it (:meth:`Manager.acquire`) and resumed from the store as a restarted server
resumes it (:meth:`Manager.adopt`); a table it lost is let go (``LiveTable.gone``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable, Coroutine, Iterable
from dataclasses import dataclass, field
from typing import Any

from starlette.websockets import WebSocket, WebSocketState

from knockabout.bots.levels import make_bot
from knockabout.core.errors import ConfigError, KnockaboutError
from knockabout.core.events import Event
from knockabout.core.protocol import Game
from knockabout.core.registry import get_game
from knockabout.core.rng import fresh_seed
from knockabout.server.background import cancel
from knockabout.server.bot_pools import BotPools
from knockabout.server.bus import Bus
from knockabout.server.chat import ChatLine, ChatRoom, readable
from knockabout.server.frames import Shown, change_frame, frame_text, update_message
from knockabout.server.lobby_feed import LobbyFeed
from knockabout.server.ownership import Ownership, TableMoved, holder_name
from knockabout.server.pacing import TurnGate
from knockabout.server.quotas import LimitReached, Quotas
from knockabout.server.settings import ServerSettings
from knockabout.server.shards import shard_id, share
from knockabout.server.undo import Result, UndoDesk
from knockabout.store import (
    Op,
    Store,
    StoredTable,
    action_op,
    chat_op,
    clock_op,
    create_op,
    finish_op,
    seats_op,
    undo_op,
)
from knockabout.store.fence import LeaseLost
from knockabout.store.leases import Leases
from knockabout.table import LogEntry, Seat, StaleActionError, Table, TableError, default_names, parse_seat
from knockabout.table.table import table_narration
from knockabout.table.thinking import FLOOR_MEMORY
from knockabout.table.turn_based import check_move_time, turn_based_config

log = logging.getLogger("knockabout.live")

_FILE_SUFFIXES = ("_file", "_files", "_dir", "_dirs", "_path", "_paths")


def local_only_options(game: Game[Any]) -> set[str]:
    """Options a web table may not set: those that name files or folders on the server's
    disk. A game marks one with ``json_schema_extra={"local_only": True}``; options named
    ``*_file(s)``, ``*_dir(s)`` or ``*_path(s)`` count as such too."""
    out = set()
    for name, info in game.config_model.model_fields.items():
        extra = info.json_schema_extra
        flagged = isinstance(extra, dict) and bool(extra.get("local_only"))
        if flagged or name.endswith(_FILE_SUFFIXES):
            out.add(name)
    return out


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Connection:
    ws: WebSocket
    seat: int | None
    cursor: int = 0  # the table's event cursor after the last update this connection got
    last: Shown | None = None  # the last message sent to it: the next patch starts there
    sender: str = ""  # who it speaks as in the chat: "seat:N", or "spectator:N" (see .chat)
    name: str = ""  # a spectator's name in the chat
    muted: set[str] = field(default_factory=set)  # a spectator's own mutes (a seat's are the table's)


@dataclass
class LearnedFloors:
    """The server's recent release floors by (game, bot level), shared by its tables: a new
    or resumed table starts from the longest (see :meth:`LiveTable._learn_floor`). After
    the server was away (stopped, suspended, cut off: see :meth:`forget`), a thinking that
    opened before it came back teaches nothing, since its time counts the time away."""

    recent: dict[tuple[str, str], deque[float]] = field(default_factory=dict)
    since: float = float("-inf")  # table clock: thinkings that opened earlier teach no floor

    def learns_from(self, opened: float) -> bool:
        return opened >= self.since

    def learn(self, game_id: str, level: str, floor: float) -> None:
        self.recent.setdefault((game_id, level), deque(maxlen=FLOOR_MEMORY)).append(floor)

    def longest(self, game_id: str, levels: Iterable[str]) -> list[float]:
        """The longest recent floor of each of ``levels`` that has one."""
        learned = [self.recent.get((game_id, level), ()) for level in levels]
        return [max(recent) for recent in learned if recent]

    def forget(self, now: float) -> None:
        self.recent.clear()
        self.since = now


@dataclass
class LiveTable:
    id: str
    table: Table
    tokens: list[str | None]  # sha256 of each person's token
    settings: ServerSettings
    store: Store
    invites: list[str | None] = field(default_factory=list)  # sha256 of each reserved seat's invite code
    listed: bool = True  # whether the public lobby shows this table
    created_at: float = field(default_factory=time.time)
    connections: list[Connection] = field(default_factory=list)
    gone_since: dict[int, float] = field(default_factory=dict)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one change to the table at a time
    task: asyncio.Task[None] | None = None
    finished_saved: bool = False
    rematch: str | None = None  # the id of the table this one's rematch is played at
    new_invites: dict[int, str] = field(default_factory=dict)  # seat -> invite code, for the creator only
    think_floors: LearnedFloors = field(default_factory=LearnedFloors)  # the server's, shared by its tables
    on_finished: Callable[[LiveTable], None] | None = None  # the manager's, to let it go in time
    on_end: Callable[[LiveTable], Coroutine[Any, Any, None]] | None = None  # the manager's: once the end is durable
    end_reported: bool = False
    end_task: asyncio.Task[None] | None = None
    saved_clock: tuple[int, float, float | None] | None = None  # (version, decision start, deadline) stored
    thinkers: BotPools | None = None  # where the server's bots think (see bot_pools; None: default threads)
    gate: TurnGate | None = None  # the server's: bot moves and timeouts, a few per turn of the loop (see .pacing)
    arrivals: TurnGate | None = None  # the server's: new connections, a few per turn of the loop
    chat: ChatRoom | None = None  # the table's chat (see .chat), made on first use
    mutes: dict[int, set[str]] = field(default_factory=dict)  # each seat's muted chat senders
    spectators_seen: int = 0  # numbers the spectators' chat names
    lease: int | None = None  # the generation of this server's lease on the table (every write carries it)
    gone: bool = False  # let go: another server holds the table now (see .ownership); nothing more is written
    on_lost: Callable[[LiveTable], None] | None = None  # the manager's: a write the fence refused
    on_unsaved: Callable[[LiveTable], None] | None = None  # the manager's: a write that failed otherwise
    lobby: LobbyFeed | None = None  # where a listed table's changes are told (see .lobby_feed)
    told: str | None = None  # the status last told to the lobby
    undo_desk: UndoDesk | None = None  # the table's undo requests (see .undo), made on first use

    # -- facts
    @property
    def game(self) -> Game[Any]:
        return self.table.game

    def status(self) -> str:
        if self.table.over:
            return "finished"
        return "playing" if self.table.started else "waiting"

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token opens, or None (a spectator). A wrong token raises."""
        if not token:
            return None
        h = token_hash(token)
        for i, t in enumerate(self.tokens):
            if t is not None and secrets.compare_digest(t, h):
                return i
        raise TableError("this seat token does not belong to this table")

    def invited_seat(self, code: str) -> int | None:
        """The reserved, still free seat an invite code opens, or None."""
        h = token_hash(code)
        for i, t in enumerate(self.invites):
            if t is not None and secrets.compare_digest(t, h) and self.table.seats[i].kind == "empty":
                return i
        return None

    def free_seats(self) -> list[int]:
        """Empty seats anyone may take (not those kept for an invite link)."""
        return [i for i, s in enumerate(self.table.seats) if s.kind == "empty" and not s.reserved]

    def bots_only(self) -> bool:
        return all(s.kind == "bot" for s in self.table.seats)

    def spectators(self) -> int:
        return sum(1 for c in self.connections if c.seat is None)

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.connections)

    def info(self) -> dict[str, Any]:
        t = self.table
        seats = []
        for i, s in enumerate(t.seats):
            d = s.public()
            d["connected"] = self.connected(i) if s.kind == "person" else None
            seats.append(d)
        return {
            "id": self.id,
            "game": self.game.id,
            "game_name": self.game.name,
            "config": t.record.config,
            "seed": t.seed if t.over else None,  # the seed gives away the whole deal
            "seats": seats,
            "status": self.status(),
            "version": t.version,
            "outcome": None if t.outcome() is None else t.outcome().to_dict(),  # type: ignore[union-attr]
            "free_seats": self.free_seats(),
            "reserved_seats": [i for i, s in enumerate(t.seats) if s.kind == "empty" and s.reserved],
            "listed": self.listed,
            "created_at": self.created_at,
            "rematch": self.rematch,
            "move_time": t.move_time,
            "undo": t.undo_allowed,
            "undo_request": None if self.undo_desk is None or self.undo_desk.pending is None
            else self.undo_desk.pending.public(self.settings.clock()),
        }

    def waits_for(self, seat: int) -> bool:
        """Whether the table waits for the person at ``seat`` to decide (their turn)."""
        t = self.table
        d = t.decision()
        return d is not None and t.started and d.player == seat and not t.bot_controls(seat)

    def turn_info(self, seat: int) -> dict[str, Any]:
        """A "your turn" entry for ``seat``: the table, the game and the time left."""
        left = self.table.time_left()
        return {"id": self.id, "game": self.game.id, "game_name": self.game.name, "seat": seat,
                "names": self.table.names(), "version": self.table.version,
                "left": None if left is None else round(left, 1), "move_time": self.table.move_time}

    def clock_info(self) -> dict[str, Any] | None:
        d = self.table.decision()
        left = self.table.time_left()
        limit = self.table.time_limit()
        if d is None or left is None or limit is None:
            return None
        return {"seat": d.player, "left": round(left, 3), "limit": limit}

    def event_json(self, step: int, ev: Event) -> dict[str, Any]:
        names = self.table.names()
        text = table_narration(ev, names)
        return {"step": step, "type": ev.type, "data": dict(ev.data),
                "text": text if text is not None else self.game.narrate(ev, names)}

    def message(self, conn: Connection, kind: str) -> dict[str, Any]:
        """A sync (everything) or update (what is new) message for one connection, built
        from the table's :meth:`~knockabout.table.Table.updates_for` and nothing else."""
        msg, conn.cursor = self._build(conn.seat, 0 if kind == "sync" else conn.cursor, kind)
        conn.last = Shown.of(msg)  # the connection's next patch starts from it
        return msg

    def _build(self, seat: int | None, cursor: int, kind: str) -> tuple[dict[str, Any], int]:
        t = self.table
        up = t.updates_for(seat, cursor)
        can_undo = up.can_undo and seat is not None and self._may_ask(seat)
        return update_message(up, kind, self.info(), self.clock_info(), self.event_json,
                              t.names() if kind == "sync" and t.first_player is not None else None,
                              t.first_player, can_undo=can_undo), up.cursor

    # -- fan-out
    async def send(self, conn: Connection, data: dict[str, Any]) -> None:
        await self.send_text(conn, frame_text(data))

    async def send_text(self, conn: Connection, text: str) -> None:
        if conn.ws.application_state != WebSocketState.CONNECTED:
            return
        try:
            await conn.ws.send_text(text)
        except Exception:  # a dropped socket is cleaned up by its receive loop
            return

    async def broadcast(self) -> None:
        """Send each connection a patch of the message it was last sent (:mod:`.frames`).
        Those that see the same (the same seat and cursor: all spectators, usually) share
        one message, and those last sent the same too share one frame, built once."""
        built: dict[tuple[int | None, int], tuple[dict[str, Any], Shown, int]] = {}
        frames: dict[tuple[int | None, int, bytes | None], str | None] = {}
        for conn in list(self.connections):
            key = (conn.seat, conn.cursor)
            if key not in built:
                msg, cursor = self._build(conn.seat, conn.cursor, "update")
                built[key] = (msg, Shown.of(msg), cursor)
            msg, shown, cursor = built[key]
            seen = (*key, None if conn.last is None else conn.last.text)
            if seen not in frames:
                frames[seen] = change_frame(conn.last, shown, msg)
            conn.cursor, conn.last, text = cursor, shown, frames[seen]
            if text is not None:
                await self.send_text(conn, text)

    # -- changes
    def clock_ops(self) -> list[Op]:
        """The write that keeps the pending decision's deadline, if it changed since the
        last one (a new decision, play began, a clock restarted)."""
        t = self.table
        due = t.deadline()
        key = (t.version, t.decided_at, due)
        if t.over or key == self.saved_clock:
            return []
        self.saved_clock = key
        wall = None if due is None else self.settings.wall_clock() + (due - self.settings.clock())
        return [clock_op(self.id, t.version, wall, self.lease)]

    def save_ops(self, entries: list[LogEntry]) -> list[Op]:
        ops = [action_op(self.id, e.step, e.seat, e.action, e.by, self.lease) for e in entries]
        if self.table.over and not self.finished_saved:
            out = self.table.outcome()
            ops.append(finish_op(self.id, {} if out is None else out.to_dict(), self.lease))
            self.finished_saved = True
            if self.on_finished is not None:
                self.on_finished(self)
        return ops + self.clock_ops()

    @property
    def write_lease(self) -> int | None:
        """The lease generation a write carries: none once the table's end is stored (its
        lease went with the finish, and a finished table is no longer any host's to take;
        a chat line said after the end is still written)."""
        return None if self.finished_saved else self.lease

    def seat_ops(self) -> list[Op]:
        return [seats_op(self.id, stored_seats(self.table, self.tokens, self.invites), self.status(),
                         self.write_lease),
                *self.clock_ops()]

    async def rename(self, seat: int, name: str) -> None:
        """Show another name for a seat (a deleted account's), stored and sent to everyone."""
        async with self.lock:
            if not 0 <= seat < len(self.table.seats) or self.table.seats[seat].name == name:
                return
            self.table.seats[seat].name = name
            await self.save(self.seat_ops())
        await self.broadcast()

    async def save(self, ops: list[Op]) -> None:
        """Make ``ops`` durable (on the store's writer); call with the lock held. Raises
        :class:`~.ownership.TableMoved` (nothing written) once another server holds the
        table, and when the write failed for any other reason (the database away, a
        connection it ended): the table here is then ahead of its stored log, so it is let
        go, and the next request for it resumes it from the store."""
        if not ops:
            return
        if self.gone:
            raise moved(self.id)
        try:
            await self.store.commit(*ops)
        except LeaseLost:
            if self.on_lost is not None:
                self.on_lost(self)
            raise moved(self.id) from None
        except Exception as exc:
            log.warning("table %s could not be saved (%s): let go, to be resumed from the store", self.id,
                        str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__)
            if self.on_unsaved is not None:
                self.on_unsaved(self)
            raise moved(self.id) from exc

    async def changed(self, entries: list[LogEntry], *, paced: bool = False) -> None:
        await self.save(self.save_ops(entries))
        self.tell_lobby()
        if entries and self.undo_desk is not None and self.undo_desk.pending is not None:
            await self._end_undo("void")  # the request was about the table as it stood
        if paced and self.gate is not None:
            await self.gate.enter()
        await self.broadcast()
        self.wake.set()
        if self.table.over and not self.end_reported and self.on_end is not None:
            self.end_reported = True  # the end is stored: rate it (off the table's lock)
            self.end_task = asyncio.get_running_loop().create_task(self.on_end(self), name=f"end-{self.id}")

    async def send_all(self, data: dict[str, Any]) -> None:
        """One message to every connection at the table (the same for all: nothing private)."""
        text = frame_text(data)
        for conn in list(self.connections):
            await self.send_text(conn, text)

    def tell_lobby(self, what: str | None = None) -> None:
        """Tell the lobby pages of every server that this listed table changed (``what``;
        by default only when its status did: started, finished)."""
        status = self.status()
        if self.lobby is None or not self.listed or (what is None and status == self.told):
            return
        self.told = status
        self.lobby.tell(self.id, self.game.id, status, what or status)

    # -- the driver: bots, clocks and grace periods
    def _grace_due(self) -> float | None:
        if self.table.turn_based:
            return None  # people come and go: only the move time runs
        times = [since + self.settings.grace_seconds for seat, since in self.gone_since.items()
                 if not self.table.seats[seat].away]
        return min(times) if times else None

    def _expire_grace(self) -> bool:
        if self.table.turn_based:
            return False
        now = self.settings.clock()
        changed = False
        for seat, since in list(self.gone_since.items()):
            if now >= since + self.settings.grace_seconds and not self.table.seats[seat].away:
                self.table.set_away(seat, True)
                changed = True
        return changed

    async def drive(self) -> None:
        """Bots, clocks and grace periods. A bot thinks in a worker thread on a copy of the
        state *without* the table's lock (so the table keeps answering and nobody can time
        the thinking by how long the table is busy); its move is released when due. It
        ends when the game does, or when another server holds the table."""
        with contextlib.suppress(TableMoved):
            await self._drive()

    async def _drive(self) -> None:
        clock = self.settings.clock
        while not self.table.over and not self.gone:
            if self.gate is not None and self._due_by(clock()):
                await self.gate.enter()  # a few bot moves and timeouts per turn of the loop (see .pacing)
            async with self.lock:
                if self.undo_desk is not None and self.undo_desk.expired():
                    await self._end_undo("expired")
                    await self.broadcast()
                    continue
                if self._expire_grace():
                    await self.changed([], paced=True)
                    continue
                held = self.undo_desk is not None and self.undo_desk.pending is not None  # bots wait for the answers
                thought = None if held else self.table.think()
                if thought is None:
                    entries = [] if held else self.table.tick(think=False)  # planned moves and timeouts: quick
                    if entries:
                        await self.changed(entries, paced=True)
                        continue
                    due = None if held else self.table.next_due()
                    undo_due = None if self.undo_desk is None else self.undo_desk.due()
                    wakes = [x for x in (due, self._grace_due(), undo_due) if x is not None]
                    self.wake.clear()
            if thought is not None:
                if self.thinkers is None:
                    await asyncio.get_running_loop().run_in_executor(None, thought.run)
                else:
                    await self.thinkers.think(thought)
                async with self.lock:
                    learn = self.think_floors.learns_from(thought.counts_from)
                    if self.table.accept(thought, learn) and learn:
                        self._learn_floor(thought.key[1], thought.floor)
                continue
            if not wakes:
                await self.wake.wait()
                continue
            delay = max(0.0, min(wakes) - clock())
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(delay + 0.005):  # (no task per wait, as wait_for makes on 3.11)
                    await self.wake.wait()

    def _due_by(self, now: float) -> bool:
        due = self.table.next_due()
        return due is not None and due <= now

    def _learn_floor(self, seat: int, floor: float) -> None:
        """Remember how long this level thinks in this game, so that the server's next
        tables release its moves no sooner from their first move on (a long search then
        stands out at most once per server, not once per table)."""
        self.think_floors.learn(self.game.id, self.table.bot_level(seat), floor)

    def start(self) -> None:
        if self.task is None and not self.table.over:
            self.task = asyncio.get_running_loop().create_task(self.drive(), name=f"table-{self.id}")

    async def stop(self) -> None:
        if self.task is not None:
            await cancel(self.task)
            self.task = None

    # -- people
    async def connect(self, conn: Connection) -> None:
        if self.arrivals is not None:
            await self.arrivals.enter()
        if conn.seat is not None:
            conn.sender = f"seat:{conn.seat}"
        else:
            self.spectators_seen += 1
            conn.sender = f"spectator:{self.spectators_seen}"
            conn.name = conn.name or f"Spectator {self.spectators_seen}"
        async with self.lock:
            if self.gone:
                raise moved(self.id)
            self.connections.append(conn)
            if conn.seat is not None:
                self.gone_since.pop(conn.seat, None)
                self.table.set_away(conn.seat, False)
            await self.save(self.clock_ops())  # coming back restarts the seat's clock
            await self.send(conn, self.message(conn, "sync"))
            if conn.seat is not None:  # a seat's presence shows in everyone's table facts; a spectator's does not
                await self.broadcast()
            said = [] if self.chat is None else self.chat.history(conn.seat, self.muted_by(conn))
            if said or self.muted_by(conn):
                await self.send(conn, {"type": "chat", "lines": [x.to_json() for x in said],
                                       "muted": sorted(self.muted_by(conn)), "you": conn.sender})
        self.wake.set()

    # -- chat (see .chat)
    def room(self) -> ChatRoom:
        if self.chat is None:
            self.chat = ChatRoom(self.settings.clock, self.settings.wall_clock, self.settings.chat)
        return self.chat

    def muted_by(self, conn: Connection) -> set[str]:
        return conn.muted if conn.seat is None else self.mutes.setdefault(conn.seat, set())

    async def say(self, conn: Connection, text: str | None = None, phrase: str | None = None) -> ChatLine:
        """A line from ``conn`` (a :class:`~.chat.ChatRefused` says why not), stored, then
        sent to every connection that reads its channel and has not muted its sender."""
        name = self.table.names()[conn.seat] if conn.seat is not None else conn.name
        line = self.room().post(conn.sender, conn.seat, name, self.table.version, text=text, phrase=phrase)
        data = line.to_json()
        await self.save([chat_op(self.id, data, self.write_lease)])
        frame = frame_text({"type": "chat", "lines": [data]})
        for other in list(self.connections):
            if readable(line, other.seat) and line.sender not in self.muted_by(other):
                await self.send_text(other, frame)
        return line

    async def mute(self, conn: Connection, sender: str, muted: bool) -> None:
        """Hide (or show again) ``sender``'s chat lines for this reader only (a seat's mutes
        hold for all its connections)."""
        if sender == conn.sender:
            raise TableError("you cannot mute yourself")
        mine = self.muted_by(conn)
        if muted:
            if len(mine) >= 64:
                raise TableError("you have muted 64 people at this table, the most it keeps")
            mine.add(sender)
        else:
            mine.discard(sender)
        await self.send(conn, {"type": "chat", "lines": [], "muted": sorted(mine), "you": conn.sender})

    async def resync(self, conn: Connection) -> None:  # a client a patch did not fit
        async with self.lock:
            await self.send(conn, self.message(conn, "sync"))

    async def disconnect(self, conn: Connection) -> None:
        async with self.lock:
            if conn in self.connections:
                self.connections.remove(conn)
            seat = conn.seat
            if seat is None or self.gone:
                return  # nobody else sees spectators come and go
            if not self.connected(seat):
                self.gone_since[seat] = self.settings.clock()
            await self.broadcast()
        self.wake.set()

    async def act(self, conn: Connection, action: str, version: int) -> None:
        if conn.seat is None:
            raise TableError("spectators cannot act; join a free seat to play")
        async with self.lock:
            entry = self.table.act(conn.seat, action, version)
            await self.changed([entry])

    async def answer(self, conn: Connection, answer: list[str], version: int) -> None:
        """The seat's answer to its open challenge; the table judges it by the server's clock."""
        if conn.seat is None:
            raise TableError("spectators cannot answer a challenge; join a free seat to play")
        async with self.lock:
            entry = self.table.answer(conn.seat, answer, version)
            await self.changed([entry])

    async def open_challenge(self, conn: Connection, version: int | None) -> None:
        """The seat opens its closed puzzle (a turn-based table's): its seconds start now."""
        if conn.seat is None:
            raise TableError("spectators have no challenge to open")
        async with self.lock:
            self.table.open_challenge(conn.seat, version)
            await self.broadcast()
        self.wake.set()  # the driver now waits for the puzzle's end

    # -- taking back moves (see .undo)
    def desk(self) -> UndoDesk:
        if self.undo_desk is None:
            self.undo_desk = UndoDesk(self.settings.clock, self.settings.undo)
        return self.undo_desk

    def _others(self, seat: int) -> list[int]:
        """The other people at the table: whoever must accept ``seat``'s request."""
        return [i for i in self.table.persons() if i != seat]

    def _may_ask(self, seat: int) -> bool:
        """Whether the table takes an undo from ``seat`` now, beside the table's own rule
        (the game goes on, no request waits, and where others must answer, no timed
        decision is open). A seat's cooldown is not counted: the refusal says how long."""
        t = self.table
        if t.over or (self.undo_desk is not None and self.undo_desk.pending is not None):
            return False
        d = t.decision()
        return not (self._others(seat) and d is not None and d.time_limit is not None)

    async def ask_undo(self, conn: Connection, version: int) -> None:
        """The seat asks to take back its last move (and everything after it), seen at
        ``version``: at once against bots, else a request to the other people."""
        seat = conn.seat
        if seat is None:
            raise TableError("spectators cannot take back moves")
        async with self.lock:
            t = self.table
            if t.over:
                raise TableError("the game is over; its moves can no longer be taken back")
            if not t.undo_allowed:
                raise TableError("this table does not allow undo")
            if version != t.version:
                raise StaleActionError(f"stale undo request: it was asked on state {version}, the table is at "
                                       f"state {t.version}; look again and ask anew")
            desk = self.desk()
            desk.check_ask(seat)
            steps = t.undo_span(seat)  # (the table's rule: says why not)
            others = self._others(seat)
            if not others:
                desk.asked(seat)
                await self._take_back(seat)
                return
            d = t.decision()
            if d is not None and d.time_limit is not None:
                raise TableError("a timed decision is open; ask to take back your move once it is over")
            desk.open(seat, t.version, steps, others, move_time=t.move_time)
            await self.broadcast()
        self.wake.set()

    async def answer_undo(self, conn: Connection, request_id: int, accept: bool) -> None:
        """A seat accepts or refuses the open request; the last acceptance takes the moves back."""
        seat = conn.seat
        if seat is None:
            raise TableError("spectators have no say in taking back moves")
        async with self.lock:
            desk = self.desk()
            agreed = desk.answer(seat, request_id, accept)
            r = desk.pending
            assert r is not None
            if not accept:
                await self._end_undo("refused", by=seat)
            elif not agreed:
                await self.broadcast()
                return
            elif self.table.version != r.version or self.table.undo_span(r.seat) != r.steps:
                await self._end_undo("void")  # (a change always voids it first: never reached)
            else:
                await self._end_undo("done", by=seat)
                await self._take_back(r.seat)
                return
            await self.broadcast()
        self.wake.set()

    async def _take_back(self, seat: int) -> None:
        """Take back ``seat``'s last move and what followed it, durably, then send every
        connection its table afresh (a sync: the log as it now stands). Call with the lock held."""
        self.table.undo(seat)
        await self.save([undo_op(self.id, self.table.version, self.lease), *self.clock_ops()])
        for conn in list(self.connections):
            await self.send(conn, self.message(conn, "sync"))
        self.wake.set()

    async def _end_undo(self, result: Result, by: int | None = None) -> None:
        """Close the open request and tell everyone how it ended. Call with the lock held."""
        r = self.desk().end(result)
        frame = frame_text({"type": "undo_result", "id": r.id, "seat": r.seat, "steps": r.steps,
                            "result": result, "by": by})
        for conn in list(self.connections):
            await self.send_text(conn, frame)

    def challenge_message(self, conn: Connection) -> dict[str, Any]:
        t = self.table
        up = t.updates_for(conn.seat, conn.cursor)
        return {"type": "challenge", "version": up.version, "challenge": up.challenge}


def moved(table_id: str) -> TableMoved:
    return TableMoved(f"table {table_id!r} is held by another server now; connect again to reach it",
                      plain="this table moved to another server; reconnecting")


def stored_seats(table: Table, tokens: list[str | None], invites: list[str | None]) -> list[dict[str, Any]]:
    """The seats as stored: kind, name, level, the hash of the person's token and, while a
    reserved seat is free, the hash of its invite code."""
    out = []
    for i, s in enumerate(table.seats):
        d: dict[str, Any] = {"kind": s.kind, "name": s.name, "level": s.level, "token": tokens[i]}
        if s.kind == "empty" and s.reserved and i < len(invites):
            d["invite"] = invites[i]
        out.append(d)
    return out


class Manager:
    """Every live table of one server."""

    def __init__(self, settings: ServerSettings, store: Store, quotas: Quotas | None = None, *,
                 bus: Bus | None = None, lobby: LobbyFeed | None = None) -> None:
        self.settings = settings
        self.store = store
        # the creation rates (per address and the server's); messages are the app's to count
        self.quotas = quotas or Quotas(settings.create_rate, None, settings.shards, settings.server_create_rate,
                                       storage=settings.redis_url)
        self.bus = bus or Bus()  # what this server tells the others (see .bus)
        self.lobby = lobby
        self.tables: dict[str, LiveTable] = {}
        self._making = 0  # tables past the caps and being stored, not yet in self.tables
        self._leaving: dict[str, asyncio.TimerHandle] = {}
        # bots think in bounded pools shared by all tables: threads, or processes for searches
        self.thinkers = BotPools(settings.bot_threads, settings.bot_processes, settings.slow_thinking)
        self.think_floors = LearnedFloors()  # see LiveTable._learn_floor
        self.gate = TurnGate(settings.bot_moves_per_turn)  # people at play first (see .pacing)
        self.arrivals = TurnGate(settings.arrivals_per_turn)
        self.on_end: Callable[[LiveTable], Coroutine[Any, Any, None]] | None = None  # (the server's: ratings)
        self.holder = holder_name(settings)  # this server's name on the tables' leases
        self.ownership = Ownership(self, Leases(store.engine, self.holder, settings.lease_seconds), settings,
                                   self.bus)

    def _table(self, game: Game[Any], seats: list[Seat], config: dict[str, Any], seed: int,
               actions: list[str] | None = None, move_time: float | None = None, undo: bool = False) -> Table:
        s = self.settings
        table = Table(game, seats, config, seed, bot_delay=s.bot_delay, bot_pace=s.bot_pace, clock=s.clock,
                      actions=actions or (), steady_bots=True, move_time=move_time, undo=undo)
        for level in table.bot_levels():
            self.thinkers.warm(level, game.id, make_bot(level, game.id).searches)
        table.remember_floors(self.think_floors.longest(game.id, table.bot_levels()))
        return table

    async def create(self, game_id: str, seat_texts: list[str], config: dict[str, Any], name: str,
               seed: int | None = None, *, listed: bool = True,
               address: str | None = None,
               move_time: float | None = None, undo: bool = False) -> tuple[LiveTable, int | None, str | None]:
        """A new table. The first ``me`` seat is the creator's (returned with its token);
        further people join through ``open`` seats, or an ``invite`` seat's link (the codes
        are in :attr:`LiveTable.new_invites` until the creator has been answered).
        ``listed=False`` keeps the table out of the public lobby (its id is then ~125 bits,
        so only its link finds it). ``move_time`` makes a turn-based table (seconds per
        move, see :mod:`knockabout.table.turn_based`); ``undo`` lets people take back moves
        (see :mod:`.undo`). The request is checked first, then the
        server's caps (live tables, live bot-only tables), and only a table that will be made
        counts against the creation rates (``address``'s, and the whole server's)."""
        await self.arrivals.enter()  # (see .pacing)
        game = get_game(game_id)
        if not seat_texts:
            raise ConfigError("a table needs seats (me, open or a bot level for each)")
        seats = [parse_seat(t, game.id) for t in seat_texts]
        persons = [i for i, s in enumerate(seats) if s.kind == "person"]
        if len(persons) > 1:
            raise ConfigError("only one seat may be 'me' (yours); make the others 'open' for friends to join")
        cfg = dict(config)
        refused = sorted(local_only_options(game) & set(cfg))
        if refused:
            raise ConfigError(f"{', '.join(refused)}: only available in local play (it names files on the server)")
        if "players" in game.config_model.model_fields and cfg.setdefault("players", len(seats)) != len(seats):
            raise ConfigError(f"players is {cfg['players']} but {len(seats)} seats were given")
        if move_time is not None:
            check_move_time(move_time)
            cfg = turn_based_config(game, cfg)  # the game's rules for turn-based tables, or its refusal
        game.make_config(cfg)
        if seed is not None and any(s.kind == "empty" for s in seats):
            raise ConfigError("a chosen seed gives away the deal: it is only allowed at a table without open seats")
        self._check_caps(bots_only=all(s.kind == "bot" for s in seats))
        await self.quotas.check_create(address)
        if self.quotas.shared:  # (counted in Redis: other tables may have been made meanwhile)
            self._check_caps(bots_only=all(s.kind == "bot" for s in seats))
        mine = persons[0] if persons else None
        if mine is not None:
            seats[mine].name = clean_name(name) or f"Player {mine + 1}"
        default_names(seats)
        for i, s in enumerate(seats):
            if s.kind == "empty":
                s.name = f"Seat {i + 1}"
        table_id = shard_id(6 if listed else 16, self.settings.shard, self.settings.shards)  # one of this worker's
        # a secret 256-bit seed: the deal comes from keyed BLAKE2b (see knockabout.core.rng)
        seed = seed if seed is not None else fresh_seed()
        table = self._table(game, seats, cfg, seed, move_time=move_time, undo=undo)
        tokens: list[str | None] = [None] * len(seats)
        token = None
        if mine is not None:
            token = secrets.token_urlsafe(18)
            tokens[mine] = token_hash(token)
        codes = {i: secrets.token_urlsafe(18) for i, s in enumerate(seats) if s.kind == "empty" and s.reserved}
        invites = [token_hash(codes[i]) if i in codes else None for i in range(len(seats))]
        live = LiveTable(table_id, table, tokens, self.settings, self.store, invites=invites, listed=listed,
                         think_floors=self.think_floors, on_finished=self._finished, on_end=self.on_end,
                         thinkers=self.thinkers, gate=self.gate, arrivals=self.arrivals, lease=1,
                         on_lost=self.ownership.lost, on_unsaved=self.ownership.unsaved, lobby=self.lobby)
        live.new_invites = codes
        self._making += 1
        self.ownership.making(table_id, True)
        try:
            await self.store.commit(create_op(StoredTable(
                id=table_id, game=game.id, rules_version=game.rules_version, config=table.record.config,
                seed=table.seed, seats=stored_seats(table, tokens, invites), status=live.status(),
                content_hash=game.content_hash(), listed=listed, move_time=move_time, undo=undo,
            ), owner=self.holder), *live.clock_ops())
        finally:
            self._making -= 1
            self.ownership.making(table_id, False)
        if mine is not None:
            live.gone_since[mine] = self.settings.clock()
        self.tables[table_id] = live
        # the first decision's time starts now that the table is stored and live (a slow
        # commit would otherwise count as the bots' first thinking and space their moves)
        table.restart_clock()
        live.start()
        live.tell_lobby("made")
        return live, mine, token

    def _check_caps(self, bots_only: bool) -> None:
        """Refuse (:class:`LimitReached`) a new table past the server's cap on live tables,
        or on live tables of bots only (each worker of ``serve --workers`` its share)."""
        s = self.settings
        running = self._making + sum(1 for t in self.tables.values() if not t.table.over)
        if running >= share(s.max_tables, s.shards):
            held = (f"{running} tables (at most {s.max_tables})" if s.shards == 1 else
                    f"{running} tables in this worker (its share of the server's {s.max_tables})")
            raise LimitReached(f"this server already runs {held}; try again when some have finished")
        if not bots_only:
            return
        running = sum(1 for t in self.tables.values() if t.bots_only() and not t.table.over)
        if running >= share(s.max_bot_tables, s.shards):
            held = (f"{running} tables of bots only (at most {s.max_bot_tables})" if s.shards == 1 else
                    f"{running} tables of bots only in this worker (its share of the server's {s.max_bot_tables})")
            raise LimitReached(f"this server already runs {held}; wait for one to finish or take a seat")

    async def rematch(self, live: LiveTable, token: str | None) -> tuple[LiveTable, int | None, str | None]:
        """A finished table played again by the person holding ``token``: same game, options
        and seats (bots at their levels; the other people's seats open for them to take from
        the old table's page), a new seed. Asked twice, the second asker is sent to the first
        rematch (a seat of their own there if one is open)."""
        if not live.table.over:
            raise TableError("the game is not over yet; a rematch starts once it has ended")
        seat = live.seat_of(token)
        if seat is None:
            raise TableError("only a player of this table can ask for a rematch")
        me = live.table.seats[seat]
        if live.rematch is not None and (other := self.get(live.rematch)) is not None:
            joined, tok = await self.join(other, me.name, None)
            return other, joined, tok
        texts = ["me" if i == seat else (s.level or "random") if s.kind == "bot" else "open"
                 for i, s in enumerate(live.table.seats)]
        local = local_only_options(live.game)  # the server never set them: defaults, refused if passed
        config = {k: v for k, v in live.table.record.config.items() if k not in local}
        again, mine, new_token = await self.create(live.game.id, texts, config, me.name, listed=live.listed,
                                                   move_time=live.table.move_time, undo=live.table.undo_allowed)
        live.rematch = again.id
        await live.broadcast()
        return again, mine, new_token

    async def join(self, live: LiveTable, name: str, seat: int | None,
                   invite: str | None = None) -> tuple[int, str]:
        """Seat a person: in a free open seat (``seat``, or the first), or with an invite
        code in the reserved seat it was made for."""
        if invite is not None:
            kept = live.invited_seat(invite)
            if kept is None:
                raise TableError("this invite link is not valid for this table, or its seat is taken")
            if seat is not None and seat != kept:
                raise TableError(f"this invite link is for seat {kept + 1}, not seat {seat + 1}")
            seat = kept
        else:
            free = live.free_seats()
            if not free:
                kept_note = " (the other seats are kept for invite links)" if any(
                    s.kind == "empty" for s in live.table.seats) else ""
                raise TableError(f"this table has no free seat{kept_note}; you can watch it as a spectator")
            if seat is None:
                seat = free[0]
            elif seat not in free:
                if 0 <= seat < len(live.table.seats) and live.table.seats[seat].reserved:
                    raise TableError(f"seat {seat + 1} is kept for an invite link")
                raise TableError(f"seat {seat + 1} is not free (free seats: {', '.join(str(i + 1) for i in free)})")
        async with live.lock:
            if live.table.seats[seat].kind != "empty":
                raise TableError(f"seat {seat + 1} was taken meanwhile")
            live.table.fill(seat, clean_name(name) or f"Player {seat + 1}")
            token = secrets.token_urlsafe(18)
            live.tokens[seat] = token_hash(token)
            if seat < len(live.invites):
                live.invites[seat] = None  # an invite opens its seat once
            live.gone_since[seat] = self.settings.clock()
            await live.save(live.seat_ops())
            await live.broadcast()
            live.tell_lobby("joined")
        live.wake.set()
        return seat, token

    def resume_all(self) -> int:
        """Take and rebuild, as the server starts, the unfinished tables of this server's shard
        that fall to it (:meth:`.ownership.Ownership.claim_at_start`: those it held before,
        those without a lease, those nobody holds that this host is preferred for; on a
        server alone, every one); returns how many."""
        resumed: list[Op] = []
        count = 0
        for table_id, generation in self.ownership.claim_at_start().items():
            st = self.store.get(table_id)
            if st is None or st.status == "finished":
                continue
            made = self._revive(st, generation, self.store.chat(table_id))
            if made is None:
                continue  # a game this build cannot replay stays stored, untouched
            live, ops = made
            resumed.extend(ops)
            count += 1
        self.store.run(*resumed)  # the resumed clocks' deadlines, in one transaction
        for live in self.tables.values():
            if not live.table.over:
                live.start()
        return count

    async def adopt(self, st: StoredTable, generation: int) -> LiveTable | None:
        """Resume ``st``, whose lease this server has just taken at ``generation``, as a
        restarted server resumes its tables (None: a game this build cannot replay). Raises
        :class:`~.ownership.TableMoved` when another server took the table meanwhile (the
        fence refused the resumed clock's write)."""
        said = await asyncio.to_thread(self.store.chat, st.id)
        made = self._revive(st, generation, said)
        if made is None:
            return None
        live, ops = made
        async with live.lock:
            await live.save(ops)
        if not live.table.over and not live.gone:
            live.start()
        return live

    def _revive(self, st: StoredTable, generation: int | None,
                said: list[dict[str, Any]]) -> tuple[LiveTable, list[Op]] | None:
        """``st`` rebuilt from its log (and its chat from the lines ``said``) and made live
        (not started), with the write that keeps its resumed clock."""
        try:
            game = get_game(st.game)
            seats = [Seat(s["kind"], s.get("name") or "", s.get("level"),
                          reserved=s["kind"] == "empty" and bool(s.get("invite"))) for s in st.seats]
            table = self._table(game, seats, st.config, st.seed, st.actions, st.move_time, st.undo)
        except KnockaboutError:
            return None
        tokens = [s.get("token") for s in st.seats]
        invites = [s.get("invite") for s in st.seats]
        live = LiveTable(st.id, table, tokens, self.settings, self.store, invites=invites, listed=st.listed,
                         created_at=st.created_at, think_floors=self.think_floors, on_finished=self._finished,
                         on_end=self.on_end, thinkers=self.thinkers, gate=self.gate, arrivals=self.arrivals,
                         lease=generation,
                         on_lost=self.ownership.lost, on_unsaved=self.ownership.unsaved, lobby=self.lobby,
                         told=st.status)
        now = self.settings.clock()
        for i, s in enumerate(seats):
            if s.kind == "person":
                live.gone_since[i] = now
        if said:
            live.room().restore(ChatLine.from_json(x) for x in said)
        if st.clock_deadline is not None and st.clock_step == table.version:
            table.resume_clock(st.clock_deadline - self.settings.wall_clock())  # the time actually left
        else:
            table.restart_clock()
        self.tables[st.id] = live
        # finished but not marked (the server stopped right at the end): its finish now
        ops = live.save_ops([]) if table.over else live.clock_ops()
        return live, ops

    async def acquire(self, table_id: str, wait: float | None = None) -> LiveTable | None:
        """The live table ``table_id``, taken from another server if need be (see
        :meth:`.ownership.Ownership.acquire`); None when there is no unfinished table of
        that id (a finished one may still be live here a while)."""
        return await self.ownership.acquire(table_id, wait)

    async def ended(self, table_id: str) -> LiveTable | None:
        """A finished table rebuilt from the store for someone who connects to it (it ended
        on another server, or has left this one's memory, maybe while they were away): its
        last position and result, for :attr:`ServerSettings.finished_ttl` seconds as any
        finished table here. None when the store has no finished table of that id."""
        live = self.tables.get(table_id)
        if live is not None:
            return live
        st = await asyncio.to_thread(self.store.get, table_id)
        if st is None or st.status != "finished":
            return None
        made = self._revive(st, None, await asyncio.to_thread(self.store.chat, table_id))
        if made is None:
            return None
        live = made[0]
        live.finished_saved = live.end_reported = True  # (stored and rated where it ended)
        self._finished(live)
        return live

    def forget_live(self, live: LiveTable) -> None:
        """Let ``live`` go from memory now (another server holds it)."""
        if self.tables.get(live.id) is live:
            del self.tables[live.id]
        handle = self._leaving.pop(live.id, None)
        if handle is not None:
            handle.cancel()

    def forget_floors(self) -> None:
        """Forget the bots' release floors this server and its tables learned: it was away
        (see :meth:`Ownership.tick`), and a thinking that spanned that time counted it."""
        self.think_floors.forget(self.settings.clock())
        for live in self.tables.values():
            live.table.forget_floors()

    def get(self, table_id: str) -> LiveTable | None:
        return self.tables.get(table_id)

    def _finished(self, live: LiveTable) -> None:
        """Let a finished table go from memory ``finished_ttl`` seconds from now."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a script using the manager directly): kept
            return
        self._leaving[live.id] = loop.call_later(self.settings.finished_ttl, self._forget, live.id)

    def _forget(self, table_id: str) -> None:
        self._leaving.pop(table_id, None)
        live = self.tables.get(table_id)
        if live is not None and live.table.over:
            del self.tables[table_id]  # open connections keep their LiveTable until they close

    async def close(self) -> None:
        await self.ownership.stop()
        for handle in self._leaving.values():
            handle.cancel()
        for live in self.tables.values():
            await live.stop()
        self.thinkers.close()


def clean_name(name: str) -> str:
    """A display name: printable, trimmed, at most 24 characters."""
    return "".join(ch for ch in name if ch.isprintable()).strip()[:24]

"""Quick match on the server: one :class:`~knockabout.ladder.matching.MatchQueue` per game
and number of players, and the task that seats whoever the queues pair.

A person asks to play (:meth:`QuickMatch.join`) and gets a ticket, a secret id; they wait,
asking after it (:meth:`QuickMatch.status`) until it says where they sit. The queue pairs
people of close rating (the shown scale of :mod:`knockabout.ladder.ratings`), its window
widening as they wait; after ``bot_fill_after`` seconds (45 by default, ``serve
--bot-fill-after``) a person is seated with whoever fits and bots at their level in the
other seats: the bot level whose rating is nearest theirs (``bot_ratings``, the ladder's).

A pairing becomes a new table whose people's seats are kept for them (invite seats, taken
at once with their codes, so nobody else can sit there); each ticket then holds its seat
and token until it is fetched or ``TICKET_TTL`` seconds pass. The tickets are kept in a
:class:`~.match_tickets.TicketStore`: this server's memory, or the Redis the hosts share
(``serve --redis``), where one host at a time pairs everyone's queues. The table is a standard one
(the game's default options), so it is rated when everyone at it is signed in.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from knockabout.bots.levels import LEVELS
from knockabout.core.errors import KnockaboutError
from knockabout.core.registry import get_game
from knockabout.ladder.matching import MatchPolicy, MatchQueue, Pairing, QueueError
from knockabout.ladder.ratings import Rating, closest_bot
from knockabout.server.background import cancel
from knockabout.server.bus import Bus
from knockabout.server.live import Manager
from knockabout.server.match_tickets import MemoryTickets, TicketStore

log = logging.getLogger(__name__)

TICKET_TTL = 300.0
"""Seconds a seated ticket keeps its seat and token for the person to fetch."""
SHARED_LOOK = 1.0
"""Seconds between two looks at tickets shared by the hosts (another host may hold the
right to pair them, and may be gone)."""
CHANNEL = "quickmatch"
"""The bus channel that wakes the hosts' matchers."""

BOT_LEVELS: tuple[str, ...] = tuple(level for level in ("random", "easy", "medium", "hard") if level in LEVELS)
"""The bot levels a quick match may seat (the ladder's, weakest first)."""


@dataclass
class Ticket:
    """One person's wait: who (``player``, a ladder key; a guest's is its ticket), the name
    they play under, and once seated, where."""

    id: str
    game: str
    players: int
    player: str
    name: str
    rating: float
    account: str | None = None
    table: str | None = None
    seat: int | None = None
    token: str | None = None
    seated_at: float | None = None
    bots: int = 0
    gap: float = 0.0
    problem: str | None = None
    since: float = 0.0  # when the wait began (the tickets' clock: see QuickMatch.clock)

    def to_json(self, now: float, waited_since: float | None) -> dict[str, Any]:
        if self.problem is not None:
            return {"ticket": self.id, "status": "failed", "message": self.problem}
        if self.table is None:
            return {"ticket": self.id, "status": "waiting", "game": self.game, "players": self.players,
                    "rating": round(self.rating), "waited": round(now - (waited_since or now), 1)}
        return {"ticket": self.id, "status": "seated", "game": self.game, "players": self.players,
                "table": self.table, "seat": self.seat, "token": self.token, "url": f"/t/{self.table}",
                "bots": self.bots, "gap": round(self.gap)}


BotRatings = Callable[[str], Awaitable[Mapping[str, Rating]]]
"""The bot levels' ratings at a game (the ladder's), asked when a table is filled with bots."""


async def _no_ratings(game: str) -> Mapping[str, Rating]:
    return {}


@dataclass
class QuickMatch:
    """Every quick-match queue of one server (or, with a shared ticket store, of every host)
    and the task that seats them."""

    manager: Manager
    policy: MatchPolicy = field(default_factory=MatchPolicy)
    bot_ratings: BotRatings = _no_ratings
    on_seated: Callable[[Ticket, str, int], Awaitable[None]] | None = None
    """Told of each (ticket, table id, seat) of a new table before its tickets say where they
    sit: the server links a logged-in person's seat to their account there."""
    store: TicketStore = field(default_factory=MemoryTickets)  # where the tickets are (see .match_tickets)
    bus: Bus | None = None  # tells the other hosts' matchers that someone joined or left
    queues: dict[tuple[str, int], MatchQueue] = field(default_factory=dict)  # as of the last round
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None

    def __post_init__(self) -> None:
        if self.bus is not None:
            self.bus.subscribe(CHANNEL, lambda _message: self.wake.set())

    @property
    def clock(self) -> Callable[[], float]:
        """The tickets' clock: the server's, or the wall clock when hosts share them."""
        return self.manager.settings.wall_clock if self.store.shared else self.manager.settings.clock

    async def join(self, game_id: str, players: int | None, name: str, player: str | None, rating: float,
                   account: str | None = None) -> Ticket:
        """Start waiting for a table of ``game_id`` with ``players`` seats (the game's usual
        number when None). ``player`` is the ladder key (None: a guest, who waits as itself)."""
        game = get_game(game_id)
        n = game.facts.default_players if players is None else players
        game.check_players(n)
        ticket_id = secrets.token_urlsafe(18)
        who = player or f"guest:{ticket_id}"
        for t in await self.store.all():
            if t.player == who and t.table is None and t.problem is None:
                raise QueueError("you are already waiting for a quick match; leave that one first")
        waiting = MatchQueue(n, self.clock, self.policy).join(ticket_id, who, rating)  # (refuses a bad rating)
        ticket = Ticket(ticket_id, game.id, n, who, name, rating, account, since=waiting.since)
        await self.store.add(ticket)
        await self._poke()
        return ticket

    async def leave(self, ticket_id: str) -> bool:
        ticket = await self.store.get(ticket_id)
        if ticket is None or ticket.table is not None or ticket.problem is not None:
            return False
        await self.store.remove(ticket_id)
        await self._poke()
        return True

    async def status(self, ticket_id: str) -> dict[str, Any]:
        ticket = await self.store.get(ticket_id)
        if ticket is None:
            raise QueueError("no such quick-match ticket (it was left, or its seat was given long ago)")
        return ticket.to_json(self.clock(), ticket.since)

    async def _poke(self) -> None:
        """Wake the matcher: this server's, and over the bus every host's."""
        self.start()
        self.wake.set()
        if self.store.shared and self.bus is not None:
            await self.bus.publish(CHANNEL, {"wake": True})

    # -- the task
    def start(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.run(), name="quick-match")

    async def close(self) -> None:
        if self.task is not None:
            await cancel(self.task)
            self.task = None
        await self.store.close()

    async def run(self) -> None:
        """Seat whatever the queues pair, then sleep until the next time they may pair
        someone (a window grown wide enough, a bot wait ending) or someone joins. With a
        shared store only the host holding its lock pairs; the others look again within
        :data:`SHARED_LOOK` seconds (the holder may be gone)."""
        while True:
            self.wake.clear()
            try:
                async with self.store.matching() as mine:
                    if mine:
                        await self.round()
            except Exception as exc:  # a store that does not answer: try again shortly
                log.warning("quick match: could not pair the queues: %s", exc)
            dues = [d for d in (q.next_due() for q in self.queues.values()) if d is not None]
            timeout = None if not dues else max(0.0, min(dues) - self.clock()) + 0.005
            if self.store.shared:
                timeout = SHARED_LOOK if timeout is None else min(timeout, SHARED_LOOK)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):
                    await self.wake.wait()

    async def round(self) -> None:
        """Pair every queue once, from the tickets as stored, and seat the pairings."""
        tickets = await self.store.all()
        now = self.clock()
        by_id = {t.id: t for t in tickets}
        self.queues = {}
        for t in tickets:
            if t.seated_at is not None:
                if now - t.seated_at > TICKET_TTL:  # seated (or failed) long ago: let go
                    await self.store.remove(t.id)
                continue
            key = (t.game, t.players)
            if key not in self.queues:
                self.queues[key] = MatchQueue(t.players, self.clock, self.policy)
            self.queues[key].join(t.id, t.player, t.rating, since=t.since)
        for queue in list(self.queues.values()):
            for pairing in queue.match():
                await self.seat(pairing, by_id)

    async def seat(self, pairing: Pairing, tickets: Mapping[str, Ticket]) -> None:
        """Make the table of a pairing: its people's seats kept for them, bots in the rest."""
        people = [tickets[t.id] for t in pairing.tickets if t.id in tickets]
        if not people:
            return
        game = people[0].game
        level = BOT_LEVELS[0]
        if pairing.bots:
            level = closest_bot(pairing.rating, await self.bot_ratings(game), BOT_LEVELS)
        texts = ["invite"] * len(people) + [level] * pairing.bots
        try:
            live, _, _ = await self.manager.create(game, texts, {}, people[0].name)
            codes = dict(live.new_invites)
            live.new_invites = {}
            joined = [(ticket, *await self.manager.join(live, ticket.name, i, codes[i]))
                      for i, ticket in enumerate(people)]
            if self.on_seated is not None:  # before anyone learns the seat (and can move)
                for ticket, seat, _ in joined:
                    await self.on_seated(ticket, live.id, seat)
            for ticket, seat, token in joined:
                ticket.table, ticket.seat, ticket.token = live.id, seat, token
                ticket.seated_at, ticket.bots, ticket.gap = self.clock(), pairing.bots, pairing.gap
                await self.store.put(ticket)
        except KnockaboutError as exc:  # a server at its caps: say so to each ticket
            log.warning("quick match: could not make a %s table: %s", game, exc)
            for ticket in people:
                ticket.problem, ticket.seated_at = f"no table could be made now: {exc}", self.clock()
                await self.store.put(ticket)

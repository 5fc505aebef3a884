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
and token until it is fetched or ``TICKET_TTL`` seconds pass. The table is a standard one
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
from knockabout.server.live import Manager

log = logging.getLogger(__name__)

TICKET_TTL = 300.0
"""Seconds a seated ticket keeps its seat and token for the person to fetch."""

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
    """Every quick-match queue of one server and the task that seats them."""

    manager: Manager
    policy: MatchPolicy = field(default_factory=MatchPolicy)
    bot_ratings: BotRatings = _no_ratings
    on_seated: Callable[[Ticket], Awaitable[None]] | None = None  # (accounts: link the seat)
    queues: dict[tuple[str, int], MatchQueue] = field(default_factory=dict)
    tickets: dict[str, Ticket] = field(default_factory=dict)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None

    @property
    def clock(self) -> Callable[[], float]:
        return self.manager.settings.clock

    def queue(self, game: str, players: int) -> MatchQueue:
        key = (game, players)
        if key not in self.queues:
            self.queues[key] = MatchQueue(players, self.clock, self.policy)
        return self.queues[key]

    def join(self, game_id: str, players: int | None, name: str, player: str | None, rating: float,
             account: str | None = None) -> Ticket:
        """Start waiting for a table of ``game_id`` with ``players`` seats (the game's usual
        number when None). ``player`` is the ladder key (None: a guest, who waits as itself)."""
        game = get_game(game_id)
        n = game.facts.default_players if players is None else players
        game.check_players(n)
        ticket_id = secrets.token_urlsafe(18)
        who = player or f"guest:{ticket_id}"
        for t in self.tickets.values():
            if t.player == who and t.table is None and t.problem is None:
                raise QueueError("you are already waiting for a quick match; leave that one first")
        self.queue(game.id, n).join(ticket_id, who, rating)
        ticket = Ticket(ticket_id, game.id, n, who, name, rating, account)
        self.tickets[ticket_id] = ticket
        self.start()
        self.wake.set()
        return ticket

    def leave(self, ticket_id: str) -> bool:
        ticket = self.tickets.get(ticket_id)
        if ticket is None or ticket.table is not None:
            return False
        self.queue(ticket.game, ticket.players).leave(ticket_id)
        del self.tickets[ticket_id]
        self.wake.set()
        return True

    def status(self, ticket_id: str) -> dict[str, Any]:
        ticket = self.tickets.get(ticket_id)
        if ticket is None:
            raise QueueError("no such quick-match ticket (it was left, or its seat was given long ago)")
        since = next((t.since for t in self.queue(ticket.game, ticket.players).tickets() if t.id == ticket_id), None)
        return ticket.to_json(self.clock(), since)

    # -- the task
    def start(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.run(), name="quick-match")

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
            self.task = None

    async def run(self) -> None:
        """Seat whatever the queues pair, then sleep until the next time they may pair
        someone (a window grown wide enough, a bot wait ending) or someone joins."""
        while True:
            self.wake.clear()
            for queue in list(self.queues.values()):
                for pairing in queue.match():
                    await self.seat(pairing)
            self._forget_old()
            dues = [d for d in (q.next_due() for q in self.queues.values()) if d is not None]
            timeout = None if not dues else max(0.0, min(dues) - self.clock()) + 0.005
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):
                    await self.wake.wait()

    def _forget_old(self) -> None:
        """Tickets seated (or failed) ``TICKET_TTL`` seconds ago are let go."""
        now = self.clock()
        for tid, t in list(self.tickets.items()):
            if t.seated_at is not None and now - t.seated_at > TICKET_TTL:
                del self.tickets[tid]

    async def seat(self, pairing: Pairing) -> None:
        """Make the table of a pairing: its people's seats kept for them, bots in the rest."""
        people = [self.tickets[t.id] for t in pairing.tickets if t.id in self.tickets]
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
            for i, ticket in enumerate(people):
                seat, token = await self.manager.join(live, ticket.name, i, codes[i])
                ticket.table, ticket.seat, ticket.token = live.id, seat, token
                ticket.seated_at, ticket.bots, ticket.gap = self.clock(), pairing.bots, pairing.gap
                if self.on_seated is not None:
                    await self.on_seated(ticket)
        except KnockaboutError as exc:  # a server at its caps: say so to each ticket
            log.warning("quick match: could not make a %s table: %s", game, exc)
            for ticket in people:
                ticket.problem, ticket.seated_at = f"no table could be made now: {exc}", self.clock()

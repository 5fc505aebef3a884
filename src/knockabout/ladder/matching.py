"""The quick-match queue of one game and player count.

People join with their rating (on the shown scale, :func:`knockabout.ladder.ratings.shown`)
and wait. Each has a **window**: the rating distance they accept, ``window`` points at
first and ``widen`` more every second they wait (at most ``max_window``). A group of
``players`` people is seated together when its rating span (highest minus lowest) fits
the window of *every* one of them, so the newcomer is never matched far away just
because someone else has waited long; the one who has waited longest is seated first.
Whoever has waited ``bot_after`` seconds (45 by default) is seated at once: with those
waiting who fit their window, and bots at their level in the other seats.

The queue reads time only from the clock it is given, and changes only when asked
(:meth:`MatchQueue.join`, :meth:`MatchQueue.leave`, :meth:`MatchQueue.match`), so a test
or a simulation drives it with a fake clock; :meth:`MatchQueue.next_due` says when
:meth:`~MatchQueue.match` may find something new without anyone joining.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from knockabout.core.errors import KnockaboutError

BOT_AFTER = 45.0
"""Seconds a person waits for people before the table fills with bots (``serve --bot-fill-after``)."""


_SLACK = 1e-6  # rating points: a window reaches a span at the time next_due computed, whatever the rounding


class QueueError(KnockaboutError):
    """A request the queue refuses (already waiting, a bad rating); the message says why."""


@dataclass(frozen=True)
class MatchPolicy:
    """How patient the queue is. Ratings are in shown points (a new player has 1500)."""

    window: float = 100.0  # points accepted at once
    widen: float = 15.0  # points added per second of waiting
    max_window: float = 800.0  # the widest a window gets
    bot_after: float = BOT_AFTER  # seconds; then the seats still empty get bots

    def __post_init__(self) -> None:
        if self.window < 0 or self.widen < 0 or self.max_window < self.window:
            raise QueueError("a match window needs window >= 0, widen >= 0 and max_window >= window")
        if self.bot_after <= 0:
            raise QueueError(f"bot_after must be a positive number of seconds (got {self.bot_after})")


@dataclass(frozen=True, slots=True)
class Ticket:
    """One person waiting: the server's id for the wait, who it is (one wait at a time
    each), their rating and when they joined (queue clock)."""

    id: str
    player: str
    rating: float
    since: float


@dataclass(frozen=True, slots=True)
class Pairing:
    """People to seat at one new table (the longest waiting first) and how many seats get
    bots instead; ``at`` is when it was made (queue clock)."""

    tickets: tuple[Ticket, ...]
    bots: int
    at: float

    @property
    def gap(self) -> float:
        """The rating span of the people seated (0 for one person and bots)."""
        ratings = [t.rating for t in self.tickets]
        return max(ratings) - min(ratings)

    @property
    def waits(self) -> tuple[float, ...]:
        """How long each person waited."""
        return tuple(self.at - t.since for t in self.tickets)

    @property
    def rating(self) -> float:
        """The people's mean rating: the level the bots are chosen for."""
        return sum(t.rating for t in self.tickets) / len(self.tickets)


class MatchQueue:
    """The people waiting for a table of one game with ``players`` seats."""

    def __init__(self, players: int, clock: Callable[[], float], policy: MatchPolicy | None = None) -> None:
        if players < 2:
            raise QueueError(f"a quick match seats at least 2 players (got {players})")
        self.players = players
        self.clock = clock
        self.policy = policy or MatchPolicy()
        self._waiting: dict[str, Ticket] = {}  # by ticket id, in joining order

    def __len__(self) -> int:
        return len(self._waiting)

    def __contains__(self, ticket_id: object) -> bool:
        return ticket_id in self._waiting

    def tickets(self) -> list[Ticket]:
        """Everyone waiting, longest first."""
        return list(self._waiting.values())

    def join(self, ticket_id: str, player: str, rating: float, since: float | None = None) -> Ticket:
        """``player`` starts waiting now, with ``rating`` (``since``: has waited since then, as
        a queue rebuilt from kept tickets says)."""
        if ticket_id in self._waiting:
            raise QueueError(f"ticket {ticket_id!r} is already waiting")
        if any(t.player == player for t in self._waiting.values()):
            raise QueueError("you are already waiting for a quick match of this game")
        if not rating == rating or rating in (float("inf"), float("-inf")):  # NaN or infinite
            raise QueueError("a rating must be a finite number")
        ticket = Ticket(ticket_id, player, float(rating), self.clock() if since is None else since)
        self._waiting[ticket_id] = ticket
        return ticket

    def leave(self, ticket_id: str) -> bool:
        """Stop waiting; False when the ticket was not waiting (already seated, or unknown)."""
        return self._waiting.pop(ticket_id, None) is not None

    def window(self, ticket: Ticket, now: float) -> float:
        """The rating distance ``ticket`` accepts at ``now``."""
        p = self.policy
        return min(p.max_window, p.window + p.widen * max(0.0, now - ticket.since))

    def match(self) -> list[Pairing]:
        """Seat everyone who can be seated now (and take them out of the queue): groups
        whose rating span fits each member's window, longest waiting first; and anyone who
        has waited ``bot_after``, with whoever fits their window and bots for the rest."""
        now = self.clock()
        out: list[Pairing] = []
        for anchor in list(self._waiting.values()):
            if anchor.id not in self._waiting:
                continue  # seated with someone who waited longer
            others = [t for t in self._waiting.values() if t.id != anchor.id]
            group = self._closest_group(anchor, others, self.players - 1, now)
            if group is None and now >= anchor.since + self.policy.bot_after:  # (as next_due computes it)
                group = self._largest_fitting(anchor, others, now)
            if group is None:
                continue
            for t in group:
                del self._waiting[t.id]
            out.append(Pairing(tuple(group), self.players - len(group), now))
        return out

    def next_due(self) -> float | None:
        """The next queue time after now at which :meth:`match` may seat someone though
        nobody joins or leaves (a window grown wide enough, a wait reaching ``bot_after``);
        None when nobody waits."""
        if not self._waiting:
            return None
        now = self.clock()
        times = [t.since + self.policy.bot_after for t in self._waiting.values()]
        waiting = list(self._waiting.values())
        for i, a in enumerate(waiting):
            for b in waiting[i + 1:]:
                fits = self._fits_at(abs(a.rating - b.rating), max(a.since, b.since))
                if fits is not None:
                    times.append(fits)
        later = [t for t in times if t > now]
        return min(later) if later else None

    # -- internals
    def _fits_at(self, gap: float, newest_since: float) -> float | None:
        """When a span of ``gap`` fits the window of someone who joined at ``newest_since``
        (the newest of a group decides: every older window is wider), or None (never)."""
        p = self.policy
        if gap <= p.window:
            return newest_since
        if gap > p.max_window or p.widen == 0:
            return None
        return newest_since + (gap - p.window) / p.widen

    def _fits(self, group: Iterable[Ticket], now: float) -> bool:
        members = list(group)
        span = max(t.rating for t in members) - min(t.rating for t in members)
        return all(span <= self.window(t, now) + _SLACK for t in members)

    def _closest_group(self, anchor: Ticket, others: list[Ticket], size: int, now: float) -> list[Ticket] | None:
        """``anchor`` and the ``size`` others nearest in rating whose span fits everyone's
        window (among equal spans: those waiting longest), or None."""
        if len(others) < size:
            return None
        if size == 0:
            return [anchor]
        order = sorted([anchor, *others], key=lambda t: (t.rating, t.since))
        at = order.index(anchor)
        best: list[Ticket] | None = None
        best_key: tuple[float, float] | None = None
        for start in range(max(0, at - size), min(at, len(order) - size - 1) + 1):
            group = order[start:start + size + 1]
            if not self._fits(group, now):
                continue
            key = (group[-1].rating - group[0].rating, sum(t.since for t in group))
            if best_key is None or key < best_key:
                best, best_key = group, key
        if best is None:
            return None
        return [anchor, *sorted((t for t in best if t.id != anchor.id), key=lambda t: t.since)]

    def _largest_fitting(self, anchor: Ticket, others: list[Ticket], now: float) -> list[Ticket]:
        """The most people (fewer than a full table) to seat with ``anchor`` whose span fits
        everyone's window; just ``anchor`` when nobody does."""
        for size in range(min(len(others), self.players - 2), 0, -1):
            group = self._closest_group(anchor, others, size, now)
            if group is not None:
                return group
        return [anchor]

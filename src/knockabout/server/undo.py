"""Taking back moves at a server's table: asking, the others' answers, and the limits.

What may be taken back is the table's rule (:meth:`knockabout.table.Table.undo`: a person's
last move and everything after it, only across public, deterministic steps, at a table
made with undo allowed). Here is who decides and how often one may ask:

* At a table where no other **person** sits (against bots, as in the terminal), the move
  is taken back at once.
* Otherwise it is a **request** every other person must accept within
  :attr:`UndoPolicy.seconds` (at a turn-based table, within its time per move: the others
  may be away for hours). One refusal ends it; so does the time running out, and so
  does any move made meanwhile (the request was about the table as it stood: it is then
  *void*). While it waits, the table holds (bots wait to move), and no request is taken
  while a timed decision (a reaction window, a puzzle) is open.
* **Limits**: one request at a time per table; after a request that was not accepted its
  asker waits :attr:`UndoPolicy.cooldown` seconds before asking again; and a seat may ask
  at most :attr:`UndoPolicy.per_minute` times in any minute (at once or by request).

:class:`UndoDesk` keeps one table's requests with time from an injected clock; it does no
I/O (``live.py`` sends the frames and stores the undo).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from knockabout.table import TableError

Result = Literal["done", "refused", "expired", "void"]
"""How a request ended: the moves were taken back; someone refused; the time ran out; a
move was made meanwhile."""


@dataclass(frozen=True)
class UndoPolicy:
    seconds: float = 30.0  # a request waits this long for the others' answers
    cooldown: float = 10.0  # after a request that was not accepted, its asker waits this long
    per_minute: int = 10  # takes-back a seat may ask for in any 60 seconds


@dataclass
class UndoRequest:
    """One open request: ``seat`` asks to take back ``steps`` steps of the table at
    ``version``; ``waiting`` are the seats whose answer is still missing."""

    id: int
    seat: int
    version: int
    steps: int
    deadline: float
    limit: float
    waiting: set[int]
    accepted: set[int] = field(default_factory=set)

    def public(self, now: float) -> dict[str, Any]:
        """What everyone at the table may know of it (it holds nothing hidden)."""
        return {"id": self.id, "seat": self.seat, "version": self.version, "steps": self.steps,
                "to": self.version - self.steps, "waiting": sorted(self.waiting), "accepted": sorted(self.accepted),
                "left": round(max(0.0, self.deadline - now), 1), "limit": self.limit}


class UndoDesk:
    """One table's undo requests and the limits on asking."""

    def __init__(self, clock: Callable[[], float], policy: UndoPolicy | None = None) -> None:
        self.clock = clock
        self.policy = policy or UndoPolicy()
        self.pending: UndoRequest | None = None
        self._ids = 0
        self._asked: dict[int, deque[float]] = {}  # seat -> when it asked, within the last minute
        self._refused_at: dict[int, float] = {}  # seat -> when its last request ended unaccepted

    def check_ask(self, seat: int) -> None:
        """Refuse (:class:`TableError`, saying why and for how long) a seat that may not ask now."""
        if self.pending is not None:
            who = "your" if self.pending.seat == seat else "another"
            raise TableError(f"{who} request to take back a move is already waiting for an answer")
        now = self.clock()
        since = self._refused_at.get(seat)
        if since is not None and now < since + self.policy.cooldown:
            wait = math.ceil(since + self.policy.cooldown - now)
            raise TableError(f"your last request was not accepted; you can ask again in {wait} s")
        asked = self._recent(seat, now)
        if len(asked) >= self.policy.per_minute:
            wait = math.ceil(asked[0] + 60.0 - now)
            raise TableError(f"you asked to take back moves {len(asked)} times within a minute, the most "
                             f"allowed; you can ask again in {wait} s")

    def _recent(self, seat: int, now: float) -> deque[float]:
        asked = self._asked.setdefault(seat, deque())
        while asked and asked[0] <= now - 60.0:
            asked.popleft()
        return asked

    def asked(self, seat: int) -> None:
        """Count an ask of ``seat`` (one taken at once, or a request opened)."""
        self._recent(seat, self.clock()).append(self.clock())

    def open(self, seat: int, version: int, steps: int, others: Iterable[int],
             move_time: float | None = None) -> UndoRequest:
        """Open a request of ``seat`` to the seats ``others`` (call :meth:`check_ask` first).
        At a turn-based table (``move_time``: its seconds per move) the others may be away
        for hours, so the request waits as long as a move may take, and never less than
        :attr:`UndoPolicy.seconds`."""
        self._ids += 1
        self.asked(seat)
        limit = max(self.policy.seconds, move_time or 0.0)
        self.pending = UndoRequest(self._ids, seat, version, steps, self.clock() + limit, limit, set(others))
        return self.pending

    def answer(self, seat: int, request_id: int, accept: bool) -> bool:
        """``seat`` answers request ``request_id``; True when everyone asked has now accepted.
        Refused (:class:`TableError`, nothing changes) for a request no longer open or a
        seat whose answer is not asked for. A refusal is the caller's to :meth:`end`."""
        r = self.pending
        if r is None or r.id != request_id:
            raise TableError("that request to take back a move is no longer open")
        if seat == r.seat:
            raise TableError("you cannot answer your own request")
        if seat in r.accepted:
            raise TableError("you have accepted this request already")
        if seat not in r.waiting:
            raise TableError("this request does not wait for your answer")
        if accept:
            r.waiting.discard(seat)
            r.accepted.add(seat)
        return accept and not r.waiting

    def end(self, result: Result) -> UndoRequest:
        """Close the open request; one not accepted starts its asker's cooldown."""
        r = self.pending
        assert r is not None, "no request is open"
        self.pending = None
        if result != "done":
            self._refused_at[r.seat] = self.clock()
        return r

    def due(self) -> float | None:
        """When the open request runs out (clock time), or None."""
        return None if self.pending is None else self.pending.deadline

    def expired(self) -> bool:
        return self.pending is not None and self.clock() >= self.pending.deadline

"""One live game: seats, clocks, an append-only action log and per-seat event fan-out.

The table is synchronous and never sleeps: whoever runs it (the terminal loop, the
server's driver task, a test with a fake clock) asks :meth:`Table.next_due` when
something will happen by itself (a bot's move, a timed decision running out) and
calls :meth:`Table.tick` then. People act through :meth:`Table.act`, naming the state
number (``version``) they chose on, so a stale or foreign action is refused with a
clear message and changes nothing.

Redaction happens here and only here, in :meth:`Table.updates_for`: a seat gets an
:class:`~knockabout.table.update.Update` holding ``state.observe(seat)``, the events
:meth:`~knockabout.core.events.Event.visible` to it since a cursor, its legal actions
when it decides and its open challenge; a spectator (seat None) gets the public view
and public events. The state, the match and the full event log are private: the
server and the terminal build everything they show from updates.

Timing that tells nothing: a bot's move is worked out ahead (:meth:`Table.think`, which
a driver may run in another thread without holding anything) and released at a time
fixed when its decision opened, whatever it holds and however long it thought: a timed
decision (a reaction window) ``bot_delay`` seconds after the window opened, any other
``bot_pace`` seconds after. With ``steady_bots`` the table also never releases a move
sooner than 1.25 x the longest of the last ``FLOOR_MEMORY`` thinkings it has seen, so a
slow search does not stand out from a forced move either, and caps every search at
``THINK_SHARE`` (0.6) of its base release time (:meth:`~knockabout.core.bot.Bot.choose_within`),
so a search never runs past its release even before the floor has learned anything. How
long the bot really thought shows nowhere.

Judged decisions (see :mod:`.challenge`): for a decision kind with a challenge maker
(declared by the game's :meth:`~knockabout.core.protocol.Game.challenges`) a person
does not choose the action; the table issues a puzzle from its own secret generator
(sent in that seat's update only) and turns the person's answer into the pass or fail
action by checking it against the puzzle and its own clock (:meth:`Table.answer`).
Such a log entry is ``by="judged"`` and carries the verdict.

Undo (``undo``; on by default in a ``local`` game): a person takes back their last move and
everything after it, only across steps that were public and deterministic (the rule and its
check: :mod:`.undo`). Each applied step is checked as it is applied, once a person has
moved, so only tables that allow undo pay for the check; the state before each person's
move is kept while an undo could still reach it, and :meth:`Table.undo` goes back to it
(the same state a replay of the shortened record gives). The table then says so to every
seat with its own public event (:data:`UNDONE`), and a cursor past the log starts from its
end: whoever follows the table by cursors (the server) sends each seat everything afresh.

Turn-based tables (``move_time``, see :mod:`.turn_based`): a person's decision without a
time limit of its own runs out after ``move_time`` seconds, and a bot then moves for them
(``by="out-of-time"``). A puzzle with seconds of its own (:attr:`Puzzle.seconds`) on such
a decision stays closed until the person opens it (:meth:`Table.open_challenge`).
"""

from __future__ import annotations

import logging
import secrets
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from pydantic import BaseModel

from knockabout.bots.levels import make_bot
from knockabout.core.actions import Action
from knockabout.core.bot import Bot, SeatView
from knockabout.core.errors import KnockaboutError
from knockabout.core.events import Event
from knockabout.core.plugins import Guidance, Guide, Maker
from knockabout.core.protocol import Decision, Game, Outcome, State
from knockabout.core.registry import get_game
from knockabout.core.replay import GameRecord, Match
from knockabout.core.rng import Rng, derive_seed
from knockabout.core.view import View
from knockabout.table.challenge import Challenge, check_shape
from knockabout.table.seats import Seat, standin_level
from knockabout.table.thinking import FLOOR_MEMORY, THINK_SHARE, PlanKey, Thought
from knockabout.table.undo import public_and_deterministic
from knockabout.table.update import Update, without_choices

log = logging.getLogger(__name__)

Actor = Literal["person", "bot", "stand-in", "timeout", "judged", "out-of-time"]
"""Who made a move: the person; a bot seat; a stand-in bot for a person who is away; the
decision's own timeout action; the table judging a puzzle's answer; a bot for a person
whose move time ran out (a turn-based table)."""

OUT_OF_TIME = "out_of_time"
"""The table's own event (public) before a bot's move for a person whose move time ran out."""


UNDONE = "undone"
"""The table's own event (public) after an undo: who took back how many steps."""


def table_narration(event: Event, names: Sequence[str]) -> str | None:
    """The sentence of an event the table itself makes (None: not one of the table's)."""
    if event.type == UNDONE:
        who = names[int(event.data["player"])]
        steps = int(event.data["steps"])
        return f"{who} took back {steps} step{'' if steps == 1 else 's'}."
    if event.type == OUT_OF_TIME:
        from knockabout.table.turn_based import move_time_text

        who = names[int(event.data["player"])]
        limit = event.data.get("move_time")
        took = f" ({move_time_text(float(limit))} per move)" if limit else ""
        return f"{who} ran out of time{took}: a bot made this move for them."
    return None


KEPT_STATES = 64
"""How many of the states before people's moves an undo-allowing table keeps (the latest):
an undo goes back to one at once; one further back replays the record."""

# A bot answering a timed window never takes more than this share of the window.
_MAX_WINDOW_SHARE = 0.5


class TableError(KnockaboutError):
    """An action or request the table refuses; the message says why."""


class StaleActionError(TableError):
    """The action was chosen on an older state than the table's current one."""


class NotYourDecisionError(TableError):
    """The seat offering an action is not the one that must decide."""


class UndoError(TableError):
    """Undo is not available here."""


@dataclass(frozen=True)
class LogEntry:
    """One applied action. ``step`` is its index in the record (0-based); the table's
    ``version`` after it is ``step + 1``."""

    step: int
    seat: int
    action: str
    events: tuple[Event, ...]
    by: Actor
    undoable: bool  # public and deterministic (checked only where undo is allowed; else False)
    verdict: str = ""  # for a judged answer: why it passed or failed


class Table:
    """A live game. See the module doc for how it is driven."""

    def __init__(
        self,
        game: Game[Any] | str,
        seats: Sequence[Seat],
        config: Mapping[str, Any] | BaseModel | None = None,
        seed: int = 0,
        *,
        local: bool = False,
        bot_delay: float = 0.0,
        bot_pace: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
        actions: Sequence[str] = (),
        stand_in: str | None = None,
        challenges: Mapping[str, Maker] | None = None,
        challenge_seed: int | None = None,
        steady_bots: bool = False,
        arrangement: Mapping[str, Any] | None = None,
        move_time: float | None = None,
        undo: bool | None = None,
    ) -> None:
        self.game = get_game(game) if isinstance(game, str) else game
        self._match = Match(self.game, config, seed, arrangement)
        n = self._match.state.num_players
        if len(seats) != n:
            raise TableError(f"{self.game.id}: {len(seats)} seats given for a {n}-player game")
        self.seats = list(seats)
        self.seed = seed
        self.local = local
        self.undo_allowed = local if undo is None else undo  # whether people may take back moves
        self._before: dict[int, State] = {}  # step -> the state before it, for a person's move undo may reach
        self._person_moved = False  # whether the log holds a person's move (before one, nothing is undone)
        self.bot_delay = bot_delay
        self.bot_pace = bot_pace
        self.clock = clock
        self.stand_in = stand_in or standin_level()
        self.log: list[LogEntry] = []
        self._events: list[tuple[int, Event]] = []
        self._bots: dict[int, Bot] = {}
        # the bots' generator: secret when the deal is (a secret seed), so bot moves tell
        # nothing about the deal's key; mix_seed(seed, "table-bots") for other seeds
        self._bot_rng = Rng(derive_seed(seed, "table-bots"))
        self.steady_bots = steady_bots
        self.move_time = move_time  # a turn-based table's seconds per person's move (None: live)
        self._overtime: tuple[int, int] | None = None  # (version, seat) whose move time ran out
        self._floors: deque[float] = deque(maxlen=FLOOR_MEMORY)  # the last thinkings' floors
        self._plan: tuple[PlanKey, Action] | None = None
        self._decided_at = clock()
        self._resumed_at: float | None = None  # when resume_clock last put the decision's opening in the past
        self.makers: Mapping[str, Maker] = self.game.challenges() if challenges is None else challenges
        # the puzzles' generator is the table's secret, never the game's (tests may fix it)
        self._challenge_rng = Rng(secrets.randbits(64) if challenge_seed is None else challenge_seed)
        self.challenge: Challenge | None = None
        self._issuing = False
        self._guide: Guide | None = self.game.guide()
        # the last guidance given: (the log entry it follows, seat, names) -> it
        self._guided: tuple[LogEntry | None, int, tuple[str, ...], Guidance] | None = None
        first = self._state.to_act()
        self.first_player: int | None = None if first is None else first.player
        for text in actions:
            self._apply(self._state.to_act(), text, "person", check_undo=False)
        self._decided_at = clock()
        self._issuing = True
        self._issue_challenge()

    # ------------------------------------------------------------------ facts
    @property
    def _state(self) -> State:
        return self._match.state

    @property
    def record(self) -> GameRecord:
        """The replay record so far (game, rules version, config, seed, actions): what a
        table is saved as. It holds no hidden information beyond the seed."""
        return self._match.record

    @property
    def version(self) -> int:
        """The state number: how many actions have been applied."""
        return len(self._match.record.actions)

    @property
    def started(self) -> bool:
        """Play (and every clock) begins once no seat is empty."""
        return all(s.kind != "empty" for s in self.seats)

    @property
    def over(self) -> bool:
        return self._state.to_act() is None

    def decision(self) -> Decision | None:
        """The pending decision (public: every view shows who decides what), None when over."""
        return self._state.to_act()

    def outcome(self) -> Outcome | None:
        return self._state.outcome()

    def names(self) -> list[str]:
        return [s.name or f"Seat {i + 1}" for i, s in enumerate(self.seats)]

    def persons(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == "person"]

    def bot_level(self, seat: int) -> str:
        """The level of the bot that plays this seat (its own, or the stand-in's)."""
        s = self.seats[seat]
        return s.level if s.kind == "bot" and s.level else self.stand_in

    def bot_levels(self) -> set[str]:
        """Every bot level that may play at this table (a person's seat: the stand-in's)."""
        return {self.bot_level(i) for i in range(len(self.seats))}

    def bot_controls(self, seat: int) -> bool:
        """Whether a bot decides for this seat (a bot seat, a person who is away, or a
        person whose move time ran out on the pending decision)."""
        s = self.seats[seat]
        return s.kind == "bot" or (s.kind == "person" and s.away) or self._overtime == (self.version, seat)

    @property
    def turn_based(self) -> bool:
        return self.move_time is not None

    # ----------------------------------------------------------------- clocks
    def time_limit(self) -> float | None:
        """The pending decision's time: its own limit, or on a turn-based table the move
        time of a person deciding; None when it has none."""
        d = self.decision()
        if d is None or not self.started:
            return None
        if d.time_limit is not None:
            return d.time_limit
        if self.move_time is not None and not self.bot_controls(d.player):
            return self.move_time
        return None

    def deadline(self) -> float | None:
        """When the pending decision's time (:meth:`time_limit`) runs out (clock time), else None."""
        limit = self.time_limit()
        return None if limit is None else self._decided_at + limit

    def time_left(self) -> float | None:
        dl = self.deadline()
        return None if dl is None else max(0.0, dl - self.clock())

    def _bot_due(self, d: Decision) -> float:
        """When the bot's move is released: fixed when the decision opened (never by what
        the bot holds or how long it thought)."""
        if d.time_limit is not None:
            wait = min(max(self.bot_delay, self.think_floor), d.time_limit * _MAX_WINDOW_SHARE)
        else:
            wait = max(self.bot_pace, self.think_floor)
        return self._decided_at + wait

    def _think_by(self, d: Decision) -> float | None:
        """With ``steady_bots``: the clock time a bot's search for ``d`` must be done by
        (:data:`THINK_SHARE` of the way to its base release), else None (no cap)."""
        if not self.steady_bots:
            return None
        if d.time_limit is not None:
            base = min(self.bot_delay, d.time_limit * _MAX_WINDOW_SHARE) if self.bot_delay > 0 else 0.0
        else:
            base = self.bot_pace
        return self._decided_at + THINK_SHARE * base if base > 0 else None

    # ------------------------------------------------------------ bot thinking
    @property
    def think_floor(self) -> float:
        """With ``steady_bots``: no bot move is released sooner than this after its decision
        opened (1.25 x the longest of the last thinkings, at most 10 s)."""
        return max(self._floors, default=0.0)

    def remember_floors(self, floors: Iterable[float]) -> None:
        """Start from floors learned elsewhere (the server's other tables of these levels)."""
        self._floors.extend(f for f in floors if f > 0)

    def _plan_key(self, d: Decision) -> PlanKey:
        s = self.seats[d.player]
        return (self.version, d.player, d.player if s.kind == "bot" else -1 - d.player, self._decided_at)

    def _planned(self, d: Decision) -> Action | None:
        plan = self._plan
        return plan[1] if plan is not None and plan[0] == self._plan_key(d) else None

    def think(self) -> Thought | None:
        """The thinking a bot must do now for the pending decision, or None (no bot decides,
        play has not started, or its move is already worked out). Run it (in any thread; it
        needs no lock on the table) and give it back to :meth:`accept`; :meth:`tick` then
        releases the move when it is due. A driver that never calls this still works:
        :meth:`tick` thinks itself, ahead of the release time when called early."""
        self._mark_overtime()
        d = self.decision()
        if d is None or not self.started or not self.bot_controls(d.player) or self._planned(d) is not None:
            return None
        key = self._plan_key(d)
        return Thought(key, self._bot_for(d.player), self._state.clone(), d.player, self._bot_rng,
                       self.clock, self._decided_at, self._think_by(d), self.bot_level(d.player),
                       counts_from=self._resumed_at)

    def accept(self, thought: Thought, learn: bool = True) -> bool:
        """Keep a finished :class:`Thought` if the decision it was for is still pending
        (same state, same seat and bot, same clock start); False when it came too late.
        With ``learn`` False its time teaches no release floor (it counts time the server
        was away: see :meth:`forget_floors`)."""
        d = self.decision()
        if thought.action is None or d is None or not self.bot_controls(d.player) or self._plan_key(d) != thought.key:
            return False
        self._plan = (thought.key, thought.action)
        if self.steady_bots:
            # the move is ready for release only now: the hand-back from the thinking's
            # worker counts too (on a starved event loop it can take longer than the
            # thinking, and a floor without it would let the longer thinkings show)
            thought.ready_after = max(thought.ready_after, self.clock() - thought.counts_from)
            if learn:
                self._floors.append(thought.floor)
        return True

    def forget_floors(self) -> None:
        """Drop the release floors learned so far (a server that was stopped or cut off: a
        thinking begun before counted the time away as thinking)."""
        self._floors.clear()

    def next_due(self) -> float | None:
        """The clock time at which :meth:`tick` will have something to do, or None when
        the table waits for a person (or is over, or not started)."""
        d = self.decision()
        if d is None or not self.started:
            return None
        times = []
        if self.bot_controls(d.player):
            times.append(self._bot_due(d))
        dl = self.deadline()
        if dl is not None:
            times.append(dl)
        c = self._open_puzzle(d)
        if c is not None:
            times.append(c.deadline)
        return min(times) if times else None

    def _open_puzzle(self, d: Decision) -> Challenge | None:
        """The opened puzzle of an untimed decision (whose own seconds end it), or None."""
        c = self.challenge
        if c is None or not c.opened or c.version != self.version or d.time_limit is not None:
            return None
        return c if self.judged(d.player) else None

    def tick(self, *, think: bool = True) -> list[LogEntry]:
        """Apply every bot move and timeout that is due by now. A bot whose move is not
        worked out yet thinks here (its move is still released only when due); with
        ``think=False`` the tick stops there instead, for a driver that runs
        :meth:`think` itself (outside any lock)."""
        done: list[LogEntry] = []
        while self.started:
            d = self.decision()
            if d is None:
                break
            if self.bot_controls(d.player):
                action = self._planned(d)
                if action is None and think:
                    thought = self.think()
                    assert thought is not None  # a bot decides and nothing is planned
                    thought.run()
                    self.accept(thought)
                    action = thought.action
                if action is not None and self.clock() >= self._bot_due(d):
                    self._plan = None
                    by: Actor = ("bot" if self.seats[d.player].kind == "bot" else
                                 "out-of-time" if self._overtime == (self.version, d.player) else "stand-in")
                    if by == "out-of-time":  # the table says so, to everyone, before the move
                        self._events.append((self.version, Event(OUT_OF_TIME, {"player": d.player,
                                                                               "move_time": self.move_time})))
                    done.append(self._apply(d, action, by))
                    continue
            now = self.clock()
            c = self._open_puzzle(d)
            if c is not None and now >= c.deadline:
                verdict = f"failed: the {c.limit:g} s ran out without an answer"
                done.append(self._apply(d, c.puzzle.fail_action, "judged", verdict=verdict))
                continue
            dl = self.deadline()
            if dl is not None and now >= dl:
                if d.time_limit is None:  # a turn-based move time: a bot moves for the person
                    self._overtime = (self.version, d.player)
                    self.challenge = None
                    log.info("seat %d ran out of its move time at step %d", d.player, self.version)
                    continue
                if d.timeout_action is not None:
                    done.append(self._apply(d, d.timeout_action, "timeout"))
                    continue
            break
        return done

    def _mark_overtime(self) -> None:
        """A person whose move time ran out: from now a bot decides for them (the driver's
        :meth:`think` finds it without waiting for a :meth:`tick`)."""
        d = self.decision()
        dl = self.deadline()
        if d is not None and d.time_limit is None and dl is not None and self.clock() >= dl:
            self._overtime = (self.version, d.player)
            self.challenge = None

    def restart_clock(self) -> None:
        """Start the pending decision's time afresh (after a resume or when play begins)."""
        self._decided_at = self.clock()
        self._issue_challenge()

    @property
    def decided_at(self) -> float:
        """When the pending decision's time started (clock time)."""
        return self._decided_at

    def resume_clock(self, left: float) -> None:
        """Resume the pending decision's time (:meth:`time_limit`) with ``left`` seconds to go
        (as kept before a restart; at most its whole limit, and 0 or less: it has run out,
        and the next :meth:`tick` takes its timeout). An untimed decision just restarts its clock."""
        limit = self.time_limit()
        if limit is None:
            self.restart_clock()
            return
        self._decided_at = self.clock() - (limit - min(max(left, 0.0), limit))
        self._resumed_at = self.clock()  # (a bot's release floor is not learned from the time away)
        self._issue_challenge()

    # -------------------------------------------------------------- challenges
    def judged(self, seat: int) -> bool:
        """Whether the pending decision is one the table judges for this seat (a person's
        decision of a kind with a challenge maker)."""
        d = self.decision()
        return d is not None and d.player == seat and d.kind in self.makers and not self.bot_controls(seat)

    def _issue_challenge(self) -> None:
        """Set (or clear) the puzzle for the pending decision. A new one is issued whenever
        the decision's clock starts (it opened, play began, a resume, a person came back)."""
        if not self._issuing:
            return
        d = self.decision()
        if d is None or not self.started or not self.judged(d.player):
            self.challenge = None
            return
        c = self.challenge
        if c is not None and c.version == self.version and c.seat == d.player and c.clock_start == self._decided_at:
            return
        puzzle = self.makers[d.kind](self._view(d.player), d, self._challenge_rng)
        cid = f"{self.version}-{self._challenge_rng.below(1 << 30):08x}"
        closed = d.time_limit is None and puzzle.seconds is not None  # opened by the person (a turn-based table)
        limit = (puzzle.seconds if closed else d.time_limit) or float("inf")
        self.challenge = Challenge(cid, d.player, self.version, d.kind, self._decided_at,
                                   float("inf") if closed else self._decided_at + limit, limit, puzzle,
                                   opened=not closed, clock_start=self._decided_at)

    def open_challenge(self, seat: int, version: int | None = None) -> None:
        """The person at ``seat`` opens their closed puzzle: it is shown from now, and its
        own seconds start. Refused (changing nothing) when there is no closed puzzle."""
        d = self._check_turn(seat, "opening the challenge", version)
        c = self.challenge
        if c is None or c.seat != seat or c.version != self.version or not self.judged(seat):
            raise TableError(f"there is no challenge for you to open: the pending decision is {d.kind}",
                             plain="There is no challenge for you to open now.")
        if c.opened:
            raise TableError("this challenge is open already; send your answer")
        c.open(self.clock())

    def _challenge_for(self, seat: int | None) -> dict[str, Any] | None:
        """The open puzzle for this seat (what to solve, the time left), or None. Only the
        challenged seat gets it; everyone else sees the decision in the public view."""
        c = self.challenge
        if seat is None or c is None or c.seat != seat or c.version != self.version:
            return None
        return c.public(self.clock())

    def answer(self, seat: int, answer: object, version: int | None = None) -> LogEntry:
        """The person at ``seat`` answers the open challenge. The table's clock decides
        lateness; a right answer in time records the pass action, a wrong or late one the
        fail action. A malformed answer (unknown or repeated pieces, not a list of texts),
        a stale version or a seat without a challenge is refused, changing nothing."""
        d = self._check_turn(seat, f"answer {answer!r}", version)
        c = self.challenge
        if c is None or c.seat != seat or c.version != self.version or not self.judged(seat):
            raise TableError(f"there is no challenge for you to answer: the pending decision is {d.kind}",
                             plain="There is no challenge for you to answer now.")
        if not c.opened:
            raise TableError(f"open the challenge first: its {c.limit:g} seconds start when you open it")
        picks = check_shape(c.puzzle, answer)
        passed, why = c.judge(picks, self.clock())
        action = c.puzzle.pass_action if passed else c.puzzle.fail_action
        return self._apply(d, action, "judged", verdict=f"{'passed' if passed else 'failed'}: {why}")

    # ----------------------------------------------------------------- people
    def act(self, seat: int, action: Action | str, version: int | None = None) -> LogEntry:
        """A person at ``seat`` takes ``action``, chosen on state number ``version``.

        Refused, changing nothing, when the game is over or not started, the version is
        stale, the seat is not the one deciding, or the action is not legal.
        """
        d = self._check_turn(seat, f"action {str(action)!r}", version)
        if self.judged(seat):
            raise TableError(
                f"{str(action)!r} cannot be chosen directly: the table judges this {d.kind}; "
                "solve the challenge and send your answer",
                plain="This one is judged by the table: solve the challenge and send your answer.",
            )
        return self._apply(d, action, "person")

    def _check_turn(self, seat: int, what: str, version: int | None) -> Decision:
        if not 0 <= seat < len(self.seats):
            raise TableError(f"there is no seat {seat + 1} at this table")
        d = self.decision()
        if d is None:
            raise TableError("the game is over; no more actions are accepted")
        if not self.started:
            raise TableError("the game has not started: a seat is still empty")
        if version is not None and version != self.version:
            raise StaleActionError(
                f"stale {what}: it was chosen on state {version}, "
                f"the table is at state {self.version}; look again and choose anew",
                plain="The game moved on before your move arrived: look again and choose anew.",
            )
        if d.player != seat:
            who = self.names()[d.player]
            raise NotYourDecisionError(f"it is not your decision: {who} must decide ({d.kind})",
                                       plain=f"It is not your move: {who} is deciding.")
        return d

    def set_away(self, seat: int, away: bool) -> None:
        """Mark a person as away (a stand-in bot plays for them) or back."""
        s = self.seats[seat]
        if s.kind == "person" and s.away != away:
            s.away = away
            d = self.decision()
            if d is not None and d.player == seat:
                self.restart_clock()

    def fill(self, seat: int, name: str) -> None:
        """A person takes an empty seat; play starts when the last one is taken."""
        s = self.seats[seat]
        if s.kind != "empty":
            raise TableError(f"seat {seat + 1} is not free")
        was_started = self.started
        self.seats[seat] = Seat("person", name=name)
        if self.started and not was_started:
            self.restart_clock()

    # ------------------------------------------------------------------- undo
    def can_undo(self, seat: int) -> bool:
        """Whether ``seat`` may take back its last move now (see :meth:`undo_span`)."""
        if not self.undo_allowed:
            return False
        for e in reversed(self.log):  # (stops at the first step undo cannot cross)
            if not e.undoable:
                return False
            if e.seat == seat and e.by == "person":
                return True
        return False

    def undo_span(self, seat: int) -> int:
        """How many steps taking back ``seat``'s last move undoes (it and everything after
        it); raises :class:`UndoError` saying why when it may not."""
        if not self.undo_allowed:
            raise UndoError("this table does not allow undo")
        last_mine = next((i for i in range(len(self.log) - 1, -1, -1)
                          if self.log[i].seat == seat and self.log[i].by == "person"), -1)
        if last_mine < 0:
            raise UndoError("nothing to undo: you have not acted yet")
        for e in self.log[last_mine:]:
            if not e.undoable:
                who = self.names()[e.seat]
                raise UndoError(
                    f"cannot undo past {who}'s {e.action!r}: it revealed information or used chance"
                )
        return len(self.log) - last_mine

    def undo(self, seat: int) -> int:
        """Take back the seat's last action and everything after it (where undo is
        allowed, never across revealed information or chance). The table then says so in
        a public :data:`UNDONE` event. Returns how many steps went."""
        k = self.undo_span(seat)
        to = len(self.log) - k
        before = self._before.get(to)
        if before is not None:  # the state kept before that move: what a replay would give
            self._match.state = before.clone()
            del self._match.record.actions[to:]
        else:
            keep = self.record.actions[:to]
            rec = GameRecord(**{**self.record.__dict__, "actions": list(keep)})
            match = Match.from_record(rec)
            match.game = self.game
            self._match = match
        del self.log[to:]
        for step in [s for s in self._before if s >= to]:
            del self._before[step]
        self._person_moved = any(e.by == "person" for e in self.log)
        self._events = [(step, e) for step, e in self._events if step < to]
        self._events.append((to, Event(UNDONE, {"player": seat, "steps": k})))
        self._overtime = None
        self._plan = None
        self.challenge = None
        self.restart_clock()
        return k

    def _check_undo(self, before: State | None, d: Decision, text: str, events: Sequence[Event], by: Actor) -> bool:
        """Whether the step just applied may be undone, and keep the state before it when a
        person's undo may go back there. The check runs only where undo is allowed, once a
        person sits and has moved (a step before every person's first move is never undone)."""
        if by == "person":
            self._person_moved = True
        if before is None or by == "judged" or not self._person_moved:  # a judged answer: no second try
            return False
        step = len(self.log)
        viewers = self.persons() or [d.player]
        undoable = public_and_deterministic(before, self.game.actions.parse(text), events, self._state, viewers)
        if not undoable:
            self._before.clear()  # no undo reaches back past this step
        elif by == "person":
            self._before[step] = before
            if len(self._before) > KEPT_STATES:
                del self._before[next(iter(self._before))]  # (an undo further back replays the record)
        return undoable

    # --------------------------------------------------------------- fan-out
    def updates_for(self, seat: int | None, cursor: int = 0) -> Update:
        """Everything ``seat`` may see (None: a spectator), with the events since ``cursor``.

        The one place the table redacts: the seat's typed view, the events of the log
        from position ``cursor`` on that are visible to it, its legal actions when it
        must decide, its open challenge, the game's guidance for its decision (from what the
        seat knows: see :class:`~knockabout.core.plugins.Guide`), and the new cursor to
        pass next time (a cursor past the log, as after an undo, starts from the end).
        """
        state = self._state
        since = min(max(cursor, 0), len(self._events))
        d = state.to_act()
        mine = seat is not None and d is not None and d.player == seat
        guidance = self._guidance(seat) if mine and seat is not None else None
        view = self._view(seat)
        if mine and seat is not None and self.judged(seat):  # it answers a challenge: no actions to offer
            mine = False
            view = without_choices(view)
            if guidance is not None:  # its prompt and hints still say what the challenge is
                guidance = replace(guidance, actions=())
        return Update(
            seat=seat,
            version=self.version,
            view=view,
            events=tuple((s, e) for s, e in self._events[since:] if e.visible(seat)),
            decision=d,
            legal=tuple(a.text for a in state.legal_actions()) if mine else (),
            challenge=self._challenge_for(seat),
            outcome=state.outcome(),
            since=since,
            cursor=len(self._events),
            guidance=guidance,
            can_undo=seat is not None and self.can_undo(seat),
        )

    def _guidance(self, seat: int) -> Guidance | None:
        """The game's guidance for ``seat``'s decision, worked out once per position."""
        if self._guide is None:
            return None
        last = self.log[-1] if self.log else None
        names = tuple(self.names())
        hit = self._guided
        if hit is not None and hit[0] is last and hit[1] == seat and hit[2] == names:
            return hit[3]
        got = self._guide.advise(SeatView(self._state, seat), names)
        self._guided = (last, seat, names, got)
        return got

    def _view(self, seat: int | None) -> View:
        return self._state.observe(seat)

    # -------------------------------------------------------------- internals
    def _bot_for(self, seat: int) -> Bot:
        s = self.seats[seat]
        level = self.bot_level(seat)
        key = seat if s.kind == "bot" else -1 - seat
        bot = self._bots.get(key)
        if bot is None:
            bot = self._bots[key] = make_bot(level, self.game.id)
        return bot

    def _apply(
        self, d: Decision | None, action: Action | str, by: Actor, *, check_undo: bool = True, verdict: str = ""
    ) -> LogEntry:
        if d is None:
            raise TableError("the game is over; no more actions are accepted")
        before = self._state.clone() if (self.undo_allowed and check_undo) else None
        events = self._match.apply(action)
        text = self.record.actions[-1]
        step = len(self.record.actions) - 1
        undoable = self._check_undo(before, d, text, events, by)
        entry = LogEntry(step, d.player, text, tuple(events), by, undoable, verdict)
        self.log.append(entry)
        self._events.extend((step, e) for e in events)
        self._decided_at = self.clock()
        self._issue_challenge()
        return entry

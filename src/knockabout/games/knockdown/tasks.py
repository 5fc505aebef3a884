"""The rule steps waiting on Knockdown's task stack (``KnockdownState.tasks``, top last).

Every step that may stop for a player's choice is a task: the state's run loop pops
tasks until one of them sets a pending decision. A task is a small immutable record;
a saved state stores each as ``[code, *fields]`` with the codes below (they never change).
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple, final


@final
class ActionDone(NamedTuple):
    """A turn action is over: count it, then the next action or the end of the turn."""


@final
class ComboNext(NamedTuple):
    """Back to the Combo decision (another Special Attack, a Dash, or the end)."""


@final
class SequenceStart(NamedTuple):
    """The Attack Sequence begins: Wound Pool, then the defender's Reactions."""


@final
class SequenceBlock(NamedTuple):
    """The defender may Block."""


@final
class SequenceWounds(NamedTuple):
    """Wounds land, then the effect runs."""


@final
class SequenceKO(NamedTuple):
    """A K.O. attack that hit may start a Knockdown Test."""


@final
class RunOps(NamedTuple):
    """Run effect program ``program`` from op ``pc`` on, for ``actor``."""

    program: int
    pc: int
    actor: int


@final
class Take(NamedTuple):
    """Card design ``card`` goes into ``player``'s hand."""

    player: int
    card: int


@final
class CheckHandLimit(NamedTuple):
    """``player`` discards down to their hand limit."""

    player: int


@final
class EndTurn(NamedTuple):
    """End-of-turn wounds, the turn limit, and the other fighter's turn."""


@final
class StartTurn(NamedTuple):
    """A new turn: refill the Attack Row, Stun, turn-start skills."""


@final
class Move(NamedTuple):
    """``mover`` moves to ``dest``; ``react`` lets the opponent answer with a Reaction first."""

    mover: int
    dest: int
    react: bool


@final
class Steps(NamedTuple):
    """``actor`` moves ``mover`` up to ``left`` single steps (a Dash when ``dash``)."""

    mover: int
    left: int
    optional: bool
    actor: int
    dash: bool


@final
class KnockdownTest(NamedTuple):
    """``tested`` takes a Knockdown Test started by ``attacker``."""

    tested: int
    attacker: int


@final
class TurnReady(NamedTuple):
    """The current fighter chooses their first action."""


@final
class RowPick(NamedTuple):
    """``player`` takes ``left`` cards from the Attack Row (the opening picks when ``opening``)."""

    player: int
    left: int
    opening: bool


@final
class AfterOpening(NamedTuple):
    """The opening picks are over: refill the row, shuffle in Candles, start the round."""


Task = (
    ActionDone | ComboNext | SequenceStart | SequenceBlock | SequenceWounds | SequenceKO | RunOps | Take
    | CheckHandLimit | EndTurn | StartTurn | Move | Steps | KnockdownTest | TurnReady | RowPick | AfterOpening
)

# the tasks without fields, one shared record each
ACTION_DONE: Final = ActionDone()
COMBO_NEXT: Final = ComboNext()
SEQUENCE_START: Final = SequenceStart()
SEQUENCE_BLOCK: Final = SequenceBlock()
SEQUENCE_WOUNDS: Final = SequenceWounds()
SEQUENCE_KO: Final = SequenceKO()
END_TURN: Final = EndTurn()
START_TURN: Final = StartTurn()
TURN_READY: Final = TurnReady()
AFTER_OPENING: Final = AfterOpening()
CHECK_HAND_LIMIT: Final[tuple[CheckHandLimit, ...]] = (CheckHandLimit(0), CheckHandLimit(1))  # by seat

TASK_TYPES: Final[tuple[type[Task], ...]] = (
    ActionDone, ComboNext, SequenceStart, SequenceBlock, SequenceWounds, SequenceKO, RunOps, Take,
    CheckHandLimit, EndTurn, StartTurn, Move, Steps, KnockdownTest, TurnReady, RowPick, AfterOpening,
)
"""Each task type by its saved code."""

TASK_CODES: Final[dict[type[Task], int]] = {t: i for i, t in enumerate(TASK_TYPES)}


def task_data(task: Task) -> list[Any]:
    """A task as saved: ``[code, *fields]``."""
    return [TASK_CODES[type(task)], *task]


def task_from_data(data: list[Any] | tuple[Any, ...]) -> Task:
    """A task from its saved form (raises ValueError naming what is wrong)."""
    if not data or not isinstance(data[0], int) or not 0 <= data[0] < len(TASK_TYPES):
        raise ValueError(f"not a task: {list(data)!r}")
    kind = TASK_TYPES[data[0]]
    fields = kind._fields
    args = data[1:]
    if len(args) != len(fields):
        raise ValueError(f"task {kind.__name__} has {len(fields)} fields, got {list(args)!r}")
    types = kind.__annotations__  # strings in the plain build (postponed annotations), types when compiled
    values: list[Any] = []
    for f, v in zip(fields, args, strict=True):
        # two statements: mypyc types ``bool(v) if c else int(v)`` as int and would turn True into 1
        if types[f] in ("bool", bool):
            values.append(bool(v))
        else:
            values.append(int(v))
    return kind(*values)

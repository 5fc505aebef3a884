"""The rule steps waiting on Knockdown's task stack (``KnockdownState.tasks``, top last).

Every step that may stop for a player's choice is a task: the state's run loop pops
tasks until one of them sets a pending decision. A task is a small immutable record (:class:`TaskRecord`);
a saved state stores each as ``[code, *fields]`` with the codes below (they never change).
"""

from __future__ import annotations

from typing import Any, ClassVar, Final, final


class TaskRecord:
    """What every task has: its field values in order (``FIELDS``), equality and a
    ``repr`` from them, and pickling (states go to worker processes pickled).

    The tasks are slotted classes, not named tuples: the compiled build makes them native
    classes, built and read without Python code (a named tuple's ``__new__`` stays
    interpreted, and each of its fields is read through the type's attribute lookup).
    """

    __slots__ = ()
    FIELDS: ClassVar[tuple[str, ...]] = ()

    def values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, f) for f in self.FIELDS)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, TaskRecord) and other.values() == self.values()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.values()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{f}={getattr(self, f)!r}' for f in self.FIELDS)})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), self.values())


@final
class ActionDone(TaskRecord):
    """A turn action is over: count it, then the next action or the end of the turn."""

    __slots__ = ()


@final
class ComboNext(TaskRecord):
    """Back to the Combo decision (another Special Attack, a Dash, or the end)."""

    __slots__ = ()


@final
class SequenceStart(TaskRecord):
    """The Attack Sequence begins: Wound Pool, then the defender's Reactions."""

    __slots__ = ()


@final
class SequenceBlock(TaskRecord):
    """The defender may Block."""

    __slots__ = ()


@final
class SequenceWounds(TaskRecord):
    """Wounds land, then the effect runs."""

    __slots__ = ()


@final
class SequenceKO(TaskRecord):
    """A K.O. attack that hit may start a Knockdown Test."""

    __slots__ = ()


@final
class RunOps(TaskRecord):
    """Run effect program ``program`` from op ``pc`` on, for ``actor``."""

    FIELDS = ("program", "pc", "actor")
    __slots__ = FIELDS

    def __init__(self, program: int, pc: int, actor: int) -> None:
        self.program: Final = program
        self.pc: Final = pc
        self.actor: Final = actor


@final
class Take(TaskRecord):
    """Card design ``card`` goes into ``player``'s hand."""

    FIELDS = ("player", "card")
    __slots__ = FIELDS

    def __init__(self, player: int, card: int) -> None:
        self.player: Final = player
        self.card: Final = card


@final
class CheckHandLimit(TaskRecord):
    """``player`` discards down to their hand limit."""

    FIELDS = ("player",)
    __slots__ = FIELDS

    def __init__(self, player: int) -> None:
        self.player: Final = player


@final
class EndTurn(TaskRecord):
    """End-of-turn wounds, the turn limit, and the other fighter's turn."""

    __slots__ = ()


@final
class StartTurn(TaskRecord):
    """A new turn: refill the Attack Row, Stun, turn-start skills."""

    __slots__ = ()


@final
class Move(TaskRecord):
    """``mover`` moves to ``dest``; ``react`` lets the opponent answer with a Reaction first."""

    FIELDS = ("mover", "dest", "react")
    __slots__ = FIELDS

    def __init__(self, mover: int, dest: int, react: bool) -> None:
        self.mover: Final = mover
        self.dest: Final = dest
        self.react: Final = react


@final
class Steps(TaskRecord):
    """``actor`` moves ``mover`` up to ``left`` single steps (a Dash when ``dash``)."""

    FIELDS = ("mover", "left", "optional", "actor", "dash")
    __slots__ = FIELDS

    def __init__(self, mover: int, left: int, optional: bool, actor: int, dash: bool) -> None:
        self.mover: Final = mover
        self.left: Final = left
        self.optional: Final = optional
        self.actor: Final = actor
        self.dash: Final = dash


@final
class KnockdownTest(TaskRecord):
    """``tested`` takes a Knockdown Test started by ``attacker``."""

    FIELDS = ("tested", "attacker")
    __slots__ = FIELDS

    def __init__(self, tested: int, attacker: int) -> None:
        self.tested: Final = tested
        self.attacker: Final = attacker


@final
class TurnReady(TaskRecord):
    """The current fighter chooses their first action."""

    __slots__ = ()


@final
class RowPick(TaskRecord):
    """``player`` takes ``left`` cards from the Attack Row (the opening picks when ``opening``)."""

    FIELDS = ("player", "left", "opening")
    __slots__ = FIELDS

    def __init__(self, player: int, left: int, opening: bool) -> None:
        self.player: Final = player
        self.left: Final = left
        self.opening: Final = opening


@final
class AfterOpening(TaskRecord):
    """The opening picks are over: refill the row, shuffle in Candles, start the round."""

    __slots__ = ()


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

_FLAGS: Final = frozenset({"react", "optional", "dash", "opening"})
"""The fields that hold a bool (all others hold an int)."""


def task_data(task: Task) -> list[Any]:
    """A task as saved: ``[code, *fields]``."""
    return [TASK_CODES[type(task)], *task.values()]


def task_from_data(data: list[Any] | tuple[Any, ...]) -> Task:
    """A task from its saved form (raises ValueError naming what is wrong)."""
    if not data or not isinstance(data[0], int) or not 0 <= data[0] < len(TASK_TYPES):
        raise ValueError(f"not a task: {list(data)!r}")
    kind = TASK_TYPES[data[0]]
    fields = kind.FIELDS
    args = data[1:]
    if len(args) != len(fields):
        raise ValueError(f"task {kind.__name__} has {len(fields)} fields, got {list(args)!r}")
    values: list[Any] = []
    for f, v in zip(fields, args, strict=True):
        # two statements: mypyc types ``bool(v) if c else int(v)`` as int and would turn True into 1
        if f in _FLAGS:
            values.append(bool(v))
        else:
            values.append(int(v))
    return kind(*values)

"""Writing observation vectors by field name (what every game's encoder uses).

A game's :class:`~knockabout.core.plugins.ObservationEncoder` declares its fields; its
``encode`` makes a :class:`VectorWriter` over that declaration and writes each field by
name. Games derive theirs from :class:`ViewEncoder`, which reads the game's typed view
and writes the fields every game shares. The writer knows each field's offset and size, so a write that does not fit the
declaration (a one-hot index past the field, too many flags) raises instead of silently
shifting the rest of the vector, and the documented layout is the encoded one.

The vector is a stdlib ``array('f')`` (float32): core needs no numpy, and
``numpy.frombuffer(vector, dtype=numpy.float32)`` reads it without a copy.
"""

from __future__ import annotations

from abc import abstractmethod
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from knockabout.core.plugins import EncodedField, ObservationEncoder
from knockabout.core.view import DecisionView, OutcomeView, View

_ZEROS: dict[int, bytes] = {}


class Layout:
    """Offsets and sizes of a declaration's fields, looked up by name (made once per encoder)."""

    __slots__ = ("size", "slots")

    def __init__(self, fields: Sequence[EncodedField]) -> None:
        self.slots: dict[str, tuple[int, int]] = {}
        at = 0
        for f in fields:
            if f.name in self.slots:
                raise ValueError(f"observation field {f.name!r} is declared twice")
            if f.size <= 0:
                raise ValueError(f"observation field {f.name!r} has size {f.size}")
            self.slots[f.name] = (at, f.size)
            at += f.size
        self.size = at

    def writer(self) -> VectorWriter:
        return VectorWriter(self)


class VectorWriter:
    """Fills one observation vector (all zeros to start) field by field."""

    __slots__ = ("_slots", "vector")

    def __init__(self, layout: Layout) -> None:
        zeros = _ZEROS.get(layout.size)
        if zeros is None:
            zeros = _ZEROS[layout.size] = bytes(4 * layout.size)
        self.vector = array("f", zeros)
        self._slots = layout.slots

    def _slot(self, name: str, needed: int) -> int:
        at, size = self._slots[name]
        if needed > size:
            raise ValueError(f"observation field {name!r} holds {size} numbers, not {needed}")
        return at

    def one_hot(self, name: str, index: int | None, offset: int = 0) -> None:
        """Set one position of the field (None: leave it all zeros). ``offset`` shifts
        into a field that packs several one-hots (e.g. slot ``k`` of ``n`` values)."""
        if index is None:
            return
        at, size = self._slots[name]
        i = offset + index
        if not 0 <= i < size:
            raise ValueError(f"observation field {name!r}: index {i} outside its {size} positions")
        self.vector[at + i] = 1.0

    def hot(self, name: str, indices: Iterable[int]) -> None:
        """Set each of these positions of the field to 1."""
        at, size = self._slots[name]
        v = self.vector
        for i in indices:
            if not 0 <= i < size:
                raise ValueError(f"observation field {name!r}: index {i} outside its {size} positions")
            v[at + i] = 1.0

    def add(self, name: str, index: int, amount: float, offset: int = 0) -> None:
        """Add ``amount`` to one position of the field (the sum clipped to [0, 1])."""
        at, size = self._slots[name]
        i = offset + index
        if not 0 <= i < size:
            raise ValueError(f"observation field {name!r}: index {i} outside its {size} positions")
        x = self.vector[at + i] + amount
        self.vector[at + i] = 0.0 if x < 0.0 else 1.0 if x > 1.0 else x

    def flags(self, name: str, values: Iterable[bool], offset: int = 0) -> None:
        """A 1 where a value is true, from the field's start (plus ``offset``)."""
        vals = list(values)
        at = self._slot(name, offset + len(vals)) + offset
        v = self.vector
        for i, x in enumerate(vals):
            if x:
                v[at + i] = 1.0

    def scalar(self, name: str, value: float, scale: float, offset: int = 0) -> None:
        """``value / scale`` clipped to [0, 1]."""
        at = self._slot(name, offset + 1) + offset
        x = value / scale
        self.vector[at] = 0.0 if x < 0.0 else 1.0 if x > 1.0 else x

    def scalars(self, name: str, values: Iterable[float], scale: float, offset: int = 0) -> None:
        """Each value divided by ``scale``, clipped to [0, 1], from the field's start."""
        vals = list(values)
        at = self._slot(name, offset + len(vals)) + offset
        v = self.vector
        for i, value in enumerate(vals):
            x = value / scale
            v[at + i] = 0.0 if x < 0.0 else 1.0 if x > 1.0 else x

    def done(self) -> array[float]:
        return self.vector


@dataclass(frozen=True, slots=True)
class DecisionFields:
    """The pending decision as observation fields, declared and written alike by every
    game: ``decision_kind`` (one-hot over ``kinds``, when given), ``decider`` (one-hot:
    the seat that decides) and ``timed`` (when ``timed`` names what has a time limit)."""

    seats: int
    kinds: tuple[str, ...] = ()
    timed: str | None = None

    def __post_init__(self) -> None:
        if list(self.kinds) != sorted(self.kinds):
            raise ValueError(f"decision kinds must be given in sorted order: {self.kinds}")

    def fields(self) -> tuple[EncodedField, ...]:
        out = []
        if self.kinds:
            meaning = "one-hot: the pending decision's kind, in sorted order"
            out.append(EncodedField("decision_kind", len(self.kinds), meaning))
        out.append(EncodedField("decider", self.seats, "one-hot: the seat that decides"))
        if self.timed is not None:
            out.append(EncodedField("timed", 1, f"1: the decision has a time limit ({self.timed})"))
        return tuple(out)

    def write(self, w: VectorWriter, d: DecisionView | None) -> None:
        """Write decision ``d`` (None: nobody decides, the fields stay 0); a kind the
        declaration does not list is a :class:`ValueError` (the layout is out of date)."""
        if d is None:
            return
        if self.kinds:
            if d.kind not in self.kinds:
                raise ValueError(f"decision kind {d.kind!r} is not among the encoder's {self.kinds}")
            w.one_hot("decision_kind", self.kinds.index(d.kind))
        w.one_hot("decider", d.player)
        if self.timed is not None:
            w.flags("timed", (d.time_limit is not None,))


class EncodableView(Protocol):
    """What every game's view holds that the shared fields are written from."""

    @property
    def seat(self) -> int | None: ...
    @property
    def legal(self) -> tuple[str, ...] | None: ...
    @property
    def outcome(self) -> OutcomeView | None: ...


V = TypeVar("V", bound=EncodableView)


def framed_fields(seats: int, legal_scale: int, fields: Sequence[EncodedField]) -> tuple[EncodedField, ...]:
    """A game's own ``fields`` between the ones every game declares alike: ``seat`` first,
    ``legal_count``, ``over`` and ``payoff`` last (what :class:`ViewEncoder` writes)."""
    return (
        EncodedField("seat", seats, "one-hot: the seat looking"),
        *fields,
        EncodedField("legal_count", 1, f"the viewer's legal actions / {legal_scale} (0 when it does not decide)"),
        EncodedField("over", 1, "1: the game is over"),
        EncodedField("payoff", 1, "the viewer's payoff once the game is over"),
    )


class ViewEncoder(ObservationEncoder, Generic[V]):
    """An encoder that reads one game's typed view (its dataclass attributes).

    It declares and writes the fields every game has alike (:func:`framed_fields`):
    ``seat`` (one-hot: the seat looking), ``legal_count`` (the viewer's legal actions /
    ``legal_scale``), ``over`` and ``payoff``; :meth:`write` writes the game's own
    ``fields`` in between. A view of another type is refused with a :class:`TypeError`.
    """

    def __init__(self, view_type: type[V], *, seats: int, legal_scale: int, fields: Sequence[EncodedField]) -> None:
        self.view_type = view_type
        self.legal_scale = legal_scale
        self.fields = framed_fields(seats, legal_scale, fields)
        self._layout = Layout(self.fields)

    def view(self, view: View) -> V:
        """``view`` as this encoder's view type (:class:`TypeError` for another)."""
        if not isinstance(view, self.view_type):
            raise TypeError(f"{type(self).__name__} encodes {self.view_type.__name__}, not {type(view).__name__}")
        return view

    def encode(self, view: View) -> array[float]:
        v = self.view(view)
        w = self._layout.writer()
        seat = v.seat
        w.one_hot("seat", seat)
        self.write(w, v)
        if v.legal is not None:
            w.scalar("legal_count", len(v.legal), self.legal_scale)
        o = v.outcome
        if o is not None:
            w.flags("over", (True,))
            if seat is not None:
                w.scalar("payoff", o.payoffs[seat], 1)
        return w.done()

    @abstractmethod
    def write(self, w: VectorWriter, view: V) -> None:
        """Write the game's own fields from ``view``."""


def one_hot_index(value: object, choices: Sequence[object]) -> int | None:
    """The position of ``value`` in ``choices`` (None when it is not there)."""
    try:
        return choices.index(value)
    except ValueError:
        return None

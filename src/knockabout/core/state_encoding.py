"""Observations written straight from a game's state: the batched environments' fast path.

A game's :class:`~knockabout.core.plugins.ObservationEncoder` encodes the typed view a seat
gets from ``state.observe(seat)``. Building that view costs many times a step, so a game can
also declare a :class:`StateEncoder` (``Game.state_encoder()``): the same numbers, written
from the state's own fields for one seat, reading only what that seat may know. The two must
agree exactly — ``tests/envs/test_state_encoding.py`` checks it at random positions of every
game on both builds — so the no-leak guarantee of the view carries over.

A state encoder writes into a :class:`Scatter`: the position (within its row) and value of
each nonzero number of the rows being encoded, as raw int32 and float32 bytes (librt's
``BytesWriter``, mypyc's runtime library: native writes, no Python object per number), and
for each row its index and how many numbers it has. What stays the same over a match (a
line-up's printed edges, an arena's spaces) an encoder builds once as a :class:`Block` and
adds with one copy. The vector environment (``knockabout.envs.vector``) reads a batch's
bytes as numpy arrays and scatters them into its observation buffer in a few array
operations. This module is compiled in the compiled build (``knockabout.compiled``) and
imports no numpy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from librt.strings import BytesWriter, read_f32_le, read_i32_le, write_f32_le, write_i32_le
from mypy_extensions import mypyc_attr

if TYPE_CHECKING:
    from knockabout.core.encoding import DecisionFields
    from knockabout.core.plugins import ObservationEncoder
    from knockabout.core.protocol import State

POSITION_LIMIT: Final = 1 << 31
"""Positions and row indices are int32."""


class Block:
    """Numbers written once and added to many rows as they are (:meth:`Scatter.block`)."""

    positions: bytes
    values: bytes

    def __init__(self, positions: bytes, values: bytes) -> None:
        self.positions = positions
        self.values = values

    def __len__(self) -> int:
        return len(self.positions) // 4


class Scatter:
    """The nonzero numbers of the observation rows being encoded.

    :attr:`positions` (int32, within the row) and :attr:`values` (float32) hold the numbers
    in the order written, :attr:`rows` a pair ``(row index, count of numbers)`` (int32) per
    row, all little-endian. A row is written between :meth:`begin` and :meth:`end`. Every
    value is clipped to [0, 1] as :class:`~knockabout.core.encoding.VectorWriter` clips it
    and stored as the float32 it stores; a 0 is not written at all (rows start as zeros). A
    position may be written twice in a row only with the same value (numpy does not say which
    of two writes to one place wins).
    """

    positions: BytesWriter
    values: BytesWriter
    rows: BytesWriter
    row: int
    start: int

    def __init__(self) -> None:
        self.positions = BytesWriter()
        self.values = BytesWriter()
        self.rows = BytesWriter()
        self.row = 0
        self.start = 0

    def __len__(self) -> int:
        return len(self.positions) // 4

    def begin(self, row: int) -> None:
        """Start writing row ``row``."""
        self.row = row
        self.start = len(self.positions)

    def end(self) -> None:
        """Close the row begun last."""
        write_i32_le(self.rows, self.row)
        write_i32_le(self.rows, (len(self.positions) - self.start) // 4)

    def one(self, i: int) -> None:
        """A 1 at position ``i`` of the row."""
        write_i32_le(self.positions, i)
        write_f32_le(self.values, 1.0)

    def flag(self, i: int, on: bool) -> None:
        """A 1 at position ``i`` when ``on``."""
        if on:
            write_i32_le(self.positions, i)
            write_f32_le(self.values, 1.0)

    def ratio(self, i: int, num: int, den: int) -> None:
        """``num / den`` (``den`` > 0) clipped to [0, 1] at position ``i``: the float32 the
        view encoder stores for ``num / den``."""
        if num <= 0:
            return
        write_i32_le(self.positions, i)
        write_f32_le(self.values, 1.0 if num >= den else num / den)

    def value(self, i: int, x: float) -> None:
        """The float ``x`` clipped to [0, 1] at position ``i``."""
        if x <= 0.0:
            return
        write_i32_le(self.positions, i)
        write_f32_le(self.values, 1.0 if x > 1.0 else x)

    def block(self, b: Block) -> None:
        """Every number of ``b``, at its positions."""
        self.positions.write(b.positions)
        self.values.write(b.values)

    def take(self) -> Block:
        """Everything written so far as a :class:`Block` (building one: write, then take)."""
        return Block(self.positions.getvalue(), self.values.getvalue())

    def items(self) -> list[tuple[int, int, float]]:
        """Every ``(row, position, value)`` written, in order (for tests and tools; the vector
        environment reads the bytes with numpy)."""
        pos = self.positions.getvalue()
        val = self.values.getvalue()
        rows = self.rows.getvalue()
        out = []
        at = 0
        for k in range(0, len(rows), 8):
            row = read_i32_le(rows, k)
            for _ in range(read_i32_le(rows, k + 4)):
                out.append((row, read_i32_le(pos, at), read_f32_le(val, at)))
                at += 4
        return out


@mypyc_attr(allow_interpreted_subclasses=True)  # the generic fallback over a view encoder is plain
class StateEncoder:
    """One game's observation, written from the state for one seat (see the module text).

    It writes the fields every view encoder frames alike (``seat``, ``legal_count``,
    ``over``, ``payoff``; :func:`~knockabout.core.encoding.framed_fields`) and the pending
    decision's fields (:class:`~knockabout.core.encoding.DecisionFields`), and leaves the
    game's own fields to :meth:`write`. Offsets come from the view encoder's own declaration
    (:meth:`offset`), so both write the same layout.
    """

    size: int
    legal_scale: int
    at_seat: int
    at_legal: int
    at_over: int
    at_payoff: int
    at_kind: int
    at_decider: int
    at_timed: int
    kinds: dict[str, int]
    slots: dict[str, tuple[int, int]]

    def __init__(self, encoder: ObservationEncoder, legal_scale: int, decision: DecisionFields | None = None) -> None:
        slots: dict[str, tuple[int, int]] = {}
        for at, f in encoder.layout():
            slots[f.name] = (at, f.size)
        self.slots = slots
        self.size = encoder.size
        self.legal_scale = legal_scale
        self.at_seat = self.offset("seat")
        self.at_legal = self.offset("legal_count")
        self.at_over = self.offset("over")
        self.at_payoff = self.offset("payoff")
        self.kinds = {}
        self.at_kind = self.at_decider = self.at_timed = -1
        if decision is not None:
            self.kinds = {k: i for i, k in enumerate(decision.kinds)}
            self.at_kind = self.offset("decision_kind") if decision.kinds else -1
            self.at_decider = self.offset("decider")
            self.at_timed = self.offset("timed") if decision.timed is not None else -1

    def offset(self, name: str) -> int:
        """Where field ``name`` starts (a :class:`KeyError` naming it when it is not declared)."""
        slot = self.slots.get(name)
        if slot is None:
            raise KeyError(f"the observation declares no field {name!r}")
        return slot[0]

    def encode(self, state: State, seat: int, out: Scatter) -> None:
        """``seat``'s observation of ``state`` into the row ``out`` has begun: the numbers
        ``encoder.encode(state.observe(seat))`` holds."""
        out.one(self.at_seat + seat)
        self.write(state, seat, out)
        d = state.to_act()
        if d is not None:
            if self.at_decider >= 0:
                if self.at_kind >= 0:
                    kind = self.kinds.get(d.kind)
                    if kind is None:
                        raise ValueError(f"decision kind {d.kind!r} is not among the encoder's {sorted(self.kinds)}")
                    out.one(self.at_kind + kind)
                out.one(self.at_decider + d.player)
                if self.at_timed >= 0 and d.time_limit is not None:
                    out.one(self.at_timed)
            if d.player == seat:
                out.ratio(self.at_legal, len(state.legal_actions()), self.legal_scale)
        else:
            o = state.outcome()
            if o is not None:
                out.one(self.at_over)
                out.value(self.at_payoff, o.payoffs[seat])

    def write(self, state: State, seat: int, out: Scatter) -> None:
        """Write the game's own fields of ``seat``'s observation (games override this)."""
        raise NotImplementedError(f"{type(self).__name__} does not write its game's fields")

"""Typed views: what one seat (or a spectator) may see of a game, as a declared model.

Each game defines its view as frozen, slotted dataclasses that derive from :class:`View`.
``State.observe(seat)`` returns one; the wire form (:meth:`View.to_json`) and the JSON
Schema (:meth:`View.json_schema`, printed by ``knockabout schema GAME``) both come from
the same declaration through pydantic, so the browser, the terminal and the bots read
the same fields and a renderer that reads a field the schema lacks fails a test.

Dataclasses, not pydantic models, because building a view must stay cheap: bots build
one for every decision. Pydantic is used only to serialise and describe them
(a ``TypeAdapter`` per view class, made once).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Self

from pydantic import TypeAdapter

from knockabout.core.memo import BoundedCache

if TYPE_CHECKING:
    from knockabout.core.protocol import Decision, Outcome

_ADAPTERS: dict[type, TypeAdapter[Any]] = {}


def _adapter(cls: type) -> TypeAdapter[Any]:
    adapter = _ADAPTERS.get(cls)
    if adapter is None:
        adapter = _ADAPTERS[cls] = TypeAdapter(cls)
    return adapter


class View:
    """Base of every game's view dataclass (declare subclasses with
    ``@dataclass(frozen=True, slots=True, kw_only=True)``)."""

    __slots__ = ()

    game_id: ClassVar[str] = ""
    """The id of the game whose view this is (set on the top-level view class)."""

    def to_json(self) -> dict[str, Any]:
        """The view as JSON-able data, exactly the shape :meth:`json_schema` describes."""
        data: dict[str, Any] = _adapter(type(self)).dump_python(self, mode="json")
        return data

    @classmethod
    def from_json(cls, data: Any) -> Self:
        """The view :meth:`to_json` gave this data for (what a client of the server reads
        back from a message's ``view``); data of another shape is a pydantic ``ValidationError``."""
        view: Self = _adapter(cls).validate_python(data)
        return view

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        """The JSON Schema of this view (the contract every renderer reads by)."""
        schema: dict[str, Any] = _adapter(cls).json_schema(mode="serialization")
        return schema


@dataclass(frozen=True, slots=True, kw_only=True)
class DecisionView:
    """The pending decision as a view part (see :class:`~knockabout.core.protocol.Decision`)."""

    player: int
    kind: str
    time_limit: float | None
    timeout_action: str | None
    prompt: str


@dataclass(frozen=True, slots=True, kw_only=True)
class OutcomeView:
    """How a game ended, as a view part (see :class:`~knockabout.core.protocol.Outcome`)."""

    winners: tuple[int, ...]
    payoffs: tuple[float, ...]
    draw: bool
    reason: str



@dataclass(frozen=True, slots=True, kw_only=True)
class TableView(View):
    """Base of a game's top-level view: the facts every game's table shows (who is looking,
    the turn and its limit, the pending decision, the outcome), declared once so generic
    readers (bots, encoders, renderers) find them under the same names in every game."""

    seat: int | None
    """The viewer's seat (None: a spectator)."""
    turn: int
    max_turns: int
    """The turn limit (the game ends there)."""
    decision: DecisionView | None
    """The decision the table waits for (None once the game is over)."""
    outcome: OutcomeView | None
    """How the game ended (None while it runs)."""

_DECISION_VIEWS: BoundedCache[int, tuple[Decision, DecisionView]] = BoundedCache(10_000)


def decision_view(d: Decision) -> DecisionView:
    """The view part of decision ``d``; games that reuse their decision objects get the
    same part back each time (views are immutable)."""
    hit = _DECISION_VIEWS.get(id(d))
    if hit is not None and hit[0] is d:
        return hit[1]
    view = DecisionView(
        player=d.player,
        kind=d.kind,
        time_limit=d.time_limit,
        timeout_action=None if d.timeout_action is None else str(d.timeout_action),
        prompt=d.prompt,
    )
    return _DECISION_VIEWS.put(id(d), (d, view))[1]


def outcome_view(o: Outcome) -> OutcomeView:
    """The view part of outcome ``o``."""
    return OutcomeView(winners=o.winners, payoffs=o.payoffs, draw=o.draw, reason=o.reason)

"""What a game declares besides its rules: facts about it and its plug-ins.

Generic layers (bots, table, sim, cli, server, web shell) never name a game; whatever
differs per game they find through the :class:`~knockabout.core.protocol.Game` object:

* :class:`GameFacts` — the game's type, declared once (like OpenSpiel's ``GameType``):
  player counts, hidden information, chance, timed decisions, the decision kinds it
  can ask and the reasons a game can end for.
* :class:`HeuristicPlugin` — its rules-of-thumb bot and the search helpers that go with it.
* :class:`TerminalRenderer` — how ``knockabout play`` draws its views.
* challenge makers (:data:`Maker`) — decisions a person answers by solving a puzzle the
  table sets (Knockdown's tower).
* bot budgets — per-level ISMCTS iterations and simulated steps where the defaults
  do not suit.
* the web renderer — the ES module the browser table loads to draw its views.

Everything here is a declaration: core imports no game and no upper layer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from knockabout.core.actions import Action
from knockabout.core.bot import Bot, SeatView
from knockabout.core.rng import Rng

if TYPE_CHECKING:
    from rich.console import RenderableType

    from knockabout.core.protocol import Decision, State
    from knockabout.core.view import View


@dataclass(frozen=True)
class GameFacts:
    """A game's type, declared once and checked by the conformance suite."""

    min_players: int
    max_players: int
    default_players: int
    hidden_information: bool
    """True when some seat may not see everything (hands, a pile's order)."""
    chance: Literal["none", "seeded"]
    """``seeded``: shuffles and dice come from the state's own seeded RNG."""
    timed_decisions: bool
    """True when some decision has a time limit (its timeout action is applied when it runs out)."""
    decision_kinds: frozenset[str]
    """Every ``Decision.kind`` the game can ask."""
    outcome_reasons: frozenset[str] = frozenset()
    """Every ``Outcome.reason`` the game can give (a reason may carry a number, see
    :meth:`reason_key`)."""
    length_unit: Literal["turns", "decisions"] = "decisions"
    """How a game's length is counted in results: its own turn counter, or decisions."""

    def reason_key(self, reason: str) -> str:
        """The declared reason a concrete one comes from (numbers in parentheses dropped)."""
        return reason.split(" (", 1)[0]


RolloutPolicy = Callable[["State", Sequence[Action], Rng], Action]
RolloutValue = Callable[["State"], tuple[float, ...]]


@dataclass(frozen=True)
class HeuristicPlugin:
    """A game's rules-of-thumb bot and what search borrows from it.

    ``bot`` builds the ``easy`` level (deciding from its :class:`SeatView` only).
    ``rollout_policy`` is a cheap playout policy handed *sampled* states; it should
    decide as the deciding seat could. ``rollout_value`` with ``rollout_depth`` cuts
    playouts after that many actions and scores them. ``search_prior_visits`` gives the
    heuristic's pick that many virtual wins at the root of a search.
    """

    bot: Callable[[], Bot]
    rollout_policy: RolloutPolicy | None = None
    rollout_value: RolloutValue | None = None
    rollout_depth: int | None = None
    search_prior_visits: int = 0

    def __post_init__(self) -> None:
        if self.rollout_value is not None and (self.rollout_depth is None or self.rollout_depth < 0):
            raise TypeError("a heuristic with rollout_value needs rollout_depth (an int >= 0)")
        if self.search_prior_visits < 0:
            raise TypeError("search_prior_visits must be >= 0")


@dataclass(frozen=True)
class BotBudgets:
    """Per-level overrides of the ISMCTS budgets (iterations, simulated actions)."""

    iterations: Mapping[str, int] = field(default_factory=dict)
    steps: Mapping[str, int] = field(default_factory=dict)


class TerminalRenderer(Protocol):
    """Draws one game's views for the terminal. ``names`` are the seats' display names;
    ``seat`` is who looks (None: a spectator)."""

    def board(self, view: View, names: Sequence[str], seat: int | None) -> RenderableType:
        """Everything public: players, piles, the board, what is pending."""
        ...

    def hand(self, view: View, names: Sequence[str], seat: int) -> RenderableType:
        """What only ``seat`` may see (its hand, cards it knows in the pile)."""
        ...

    def action_label(self, text: str, view: View, names: Sequence[str]) -> str:
        """A short plain-words label for a legal action's text."""
        ...

    def help(self) -> RenderableType:
        """A short reference of the game's pieces and symbols (shown on '?')."""
        ...


@dataclass(frozen=True)
class Puzzle:
    """What a challenge maker builds: the payload the person sees, the one right answer,
    and the actions a pass and a fail become."""

    kind: str
    payload: dict[str, Any]
    solution: tuple[str, ...]
    pass_action: str
    fail_action: str
    rule: str = ""


Maker = Callable[["View", "Decision", Rng], Puzzle]
"""``maker(view, decision, rng)``: a puzzle for the deciding seat, from the table's own RNG."""

__all__ = [
    "BotBudgets",
    "GameFacts",
    "HeuristicPlugin",
    "Maker",
    "Puzzle",
    "RolloutPolicy",
    "RolloutValue",
    "SeatView",
    "TerminalRenderer",
]

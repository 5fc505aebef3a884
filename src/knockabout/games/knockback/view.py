"""What one seat (or a spectator) sees of a KNOCKBACK table: the typed view.

KNOCKBACK hides nothing once the line-ups are known: every seat and a spectator see
the same board, the score and each card with its edges as they lie on the grid. A
draft hides the hands: a seat sees its own hand and the cards it kept (``draft.hand``,
``draft.kept``), a spectator neither. A seat that decides also gets its legal actions.

The wire JSON (``view.to_json()``) and the JSON Schema (``KnockbackView.json_schema()``)
come from these declarations; the terminal renderer and the browser renderer read these
fields and no others.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal

from knockabout.core.memo import BoundedCache
from knockabout.core.view import TableView, decision_view, outcome_view
from knockabout.games.knockback.actions import LABELS
from knockabout.games.knockback.cards import SYMBOL_NAMES, CardFace, EdgeValues, Symbol
from knockabout.games.knockback.grid import DIRS, HALF, STRIDE, Dir
from knockabout.games.knockback.legal import edge_options
from knockabout.games.knockback.phases import DRAFT, EDGE, MIDDLE, PHASE_NAMES, SCORING_NAMES, SYMBOL, Phase, Scoring

if TYPE_CHECKING:
    from knockabout.games.knockback.state import KnockbackState


@dataclass(frozen=True, slots=True, kw_only=True)
class BoardEdges:
    """A card's edges as it lies on the board (north up): the second seat's cards are
    turned 180°, so their printed north faces board south."""

    N: EdgeValues
    E: EdgeValues
    S: EdgeValues
    W: EdgeValues

    def side(self, d: str) -> EdgeValues:
        """The edge on side ``d`` (``N``, ``E``, ``S`` or ``W``)."""
        match d:
            case "N":
                return self.N
            case "E":
                return self.E
            case "S":
                return self.S
            case "W":
                return self.W
        raise ValueError(f"not a side: {d!r} (expected N, E, S or W)")


@dataclass(frozen=True, slots=True, kw_only=True)
class CardView:
    """One card of the line-up: where it is and how it lies (public information)."""

    label: str
    """``A1``-``A3`` (first seat) or ``B1``-``B3`` (second seat)."""
    owner: int
    status: Literal["board", "hand", "out"]
    """On the grid, still to be placed this round, or knocked out."""
    exhausted: bool
    rotation: Literal[0, 180]
    """How far the card is turned on the board (its owner's side)."""
    card: CardFace
    board_edges: BoardEdges
    x: int | None = None
    """The card's cell (None unless it is on the board)."""
    y: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Activation:
    """The card being activated and the symbol it is taking."""

    card: str
    symbols: tuple[Symbol, ...]
    index: int
    """The symbol being taken (0-based)."""
    moved: int
    """Cells moved so far in this activation."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PunchView:
    """A punch on an exhausted card waiting for the attacker's choice of edge."""

    attacker: str
    target: str
    dir: Dir
    """The direction of the punch (from the attacker)."""
    attack: int
    sides: tuple[Dir, ...]
    """The target's edges that may take the punch."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DraftView:
    """A draft under way. ``hand``, ``kept`` and ``picked`` are the viewer's own (None
    for a spectator)."""

    pool: tuple[CardFace, ...]
    """Every card in the draft."""
    hand_sizes: tuple[int, ...]
    kept_counts: tuple[int, ...]
    hand: tuple[CardFace, ...] | None = None
    kept: tuple[CardFace, ...] | None = None
    picked: int | None = None
    """The first seat's pick this pass, shown to it while the second seat picks."""


@dataclass(frozen=True, slots=True, kw_only=True)
class KnockbackView(TableView):
    """One seat's view of a KNOCKBACK table (``seat`` None: a spectator's)."""

    game_id: ClassVar[str] = "knockback"

    game: Literal["knockback"] = "knockback"
    phase: Phase
    round: int
    scoring: Scoring
    best_of: int
    knockback: Literal["push", "whole_line"]
    knockout_on_tie: bool | None = None
    alternate_starts: bool | None = None
    """True when the seats take turns starting the rounds (a house rule); None: the loser of a
    round starts the next, as printed."""
    """True when a punch whose attack equals the heart knocks out (a house rule); None: only a
    higher attack does, as printed."""
    token: int | None
    """The seat the score token lies in front of (None: in the middle)."""
    wins: tuple[int, ...]
    """Rounds won per seat."""
    starter: int
    """The seat that places first this round."""
    current: int | None
    """Whose decision it is (None once the match is over)."""
    cards: tuple[CardView, ...]
    """The six cards of the line-ups (empty during a draft)."""
    activation: Activation | None
    punch: PunchView | None
    draft: DraftView | None
    legal: tuple[str, ...] | None = None
    """The viewer's legal actions when it is the one deciding, else None."""


# views are immutable, so equal parts are built once and shared
_EDGES: BoundedCache[tuple[tuple[int, ...], tuple[int, ...]], BoardEdges] = BoundedCache(10_000)
_CARD_VIEWS: BoundedCache[tuple[object, ...], CardView] = BoundedCache(50_000)


def _board_edges(atk: tuple[int, ...], hrt: tuple[int, ...]) -> BoardEdges:
    key = (atk, hrt)
    edges = _EDGES.get(key)
    if edges is None:
        e = [EdgeValues(attack=atk[d], heart=hrt[d]) for d in range(4)]
        edges = _EDGES.put(key, BoardEdges(N=e[0], E=e[1], S=e[2], W=e[3]))
    return edges


def card_view(s: KnockbackState, i: int) -> CardView:
    """Label ``i`` of the line-up as players see it (public information only)."""
    bit = 1 << i
    on = s.onboard & bit
    k = s.pos[i] if on else None
    key = (s.lab[i], i, on, s.placed & bit, s.exhausted & bit, k)
    view = _CARD_VIEWS.get(key)
    if view is None:
        view = _CARD_VIEWS.put(key, _build_card_view(s, i))
    return view


def _build_card_view(s: KnockbackState, i: int) -> CardView:
    on = bool(s.onboard >> i & 1)
    x = y = None
    if on:
        k = s.pos[i]
        x = (k + HALF) >> 32
        y = k - x * STRIDE
    return CardView(
        label=LABELS[i],
        owner=int(i >= 3),
        status="board" if on else ("out" if s.placed >> i & 1 else "hand"),
        exhausted=bool(s.exhausted >> i & 1),
        rotation=180 if i >= 3 else 0,
        card=s.lab[i].face,
        board_edges=_board_edges(s.atk[i], s.hrt[i]),
        x=x,
        y=y,
    )


def _draft(s: KnockbackState, player: int | None) -> DraftView:
    cards = s.cards
    pool = tuple(c.face for c in cards)
    sizes = tuple(len(h) for h in s.hands)
    kept = tuple(len(k) for k in s.kept)
    if player is None:
        return DraftView(pool=pool, hand_sizes=sizes, kept_counts=kept)
    return DraftView(
        pool=pool,
        hand_sizes=sizes,
        kept_counts=kept,
        hand=tuple(cards[i].face for i in s.hands[player]),
        kept=tuple(cards[i].face for i in s.kept[player]),
        picked=s.pick if player == 0 and s.pick >= 0 else None,
    )


def observe(s: KnockbackState, player: int | None) -> KnockbackView:
    """The view of ``player`` (None: a spectator) of state ``s``."""
    decision = s.to_act()
    phase = s.phase
    activation = punch = None
    if phase in (SYMBOL, EDGE):
        a = s.active
        activation = Activation(
            card=LABELS[a],
            symbols=tuple(SYMBOL_NAMES[x] for x in s.lab[a].symbols),
            index=s.sym,
            moved=s.moved,
        )
        if phase == EDGE:
            punch = PunchView(
                attacker=LABELS[a],
                target=LABELS[s.p_target],
                dir=DIRS[s.p_dir],
                attack=s.p_attack,
                sides=tuple(DIRS[d] for d in edge_options(s)),
            )
    r = s.result
    return KnockbackView(
        seat=player,
        phase=PHASE_NAMES[phase],
        round=s.round,
        turn=s.turn,
        max_turns=s.max_turns,
        scoring=SCORING_NAMES[s.scoring],
        best_of=s.best_of,
        knockback="whole_line" if s.whole_line else "push",
        knockout_on_tie=True if s.knockout_on_tie else None,
        alternate_starts=True if s.alternate_starts else None,
        token=None if s.token == MIDDLE else s.token,
        wins=tuple(s.wins),
        starter=s.starter,
        current=None if decision is None else s.current,
        decision=None if decision is None else decision_view(decision),
        cards=tuple(card_view(s, i) for i in range(len(s.lab))),
        activation=activation,
        punch=punch,
        draft=_draft(s, player) if phase == DRAFT else None,
        outcome=None if r is None else outcome_view(r),
        legal=tuple(a.text for a in s.legal_actions())
        if player is not None and decision is not None and decision.player == player
        else None,
    )

"""What one seat (or a spectator) sees of a Nak Muay table: the typed view.

:func:`observe` builds a :class:`NakMuayView` from a state; ``NakMuayState.observe``
calls it. Everything public is there for everyone; a seat also gets its hand, the pile
positions it knows exactly (seen with Scout, or where it hid a KO), the cards it is
scouting and, when it decides, its legal actions. A field a viewer may not see is
None (``hand`` for a spectator; the parts of :class:`Pending` that do not apply).

The wire JSON (``view.to_json()``) and the JSON Schema (``NakMuayView.json_schema()``)
come from these declarations; the terminal renderer, the heuristic bot and the browser
renderer read these fields and no others.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal

from knockabout.core.memo import BoundedCache
from knockabout.core.view import TableView, decision_view, outcome_view
from knockabout.games.nakmuay import cards as C
from knockabout.games.nakmuay.phases import (
    ATTACK_REACT,
    COUNTDOWN,
    HIDE_KO,
    KIND_MASK,
    KO_BLOCK,
    SCOUT_ORDER,
    SCOUT_TAKE,
    STEAL_PAIR,
    STEAL_TARGET,
    TRIPLE_NAME,
)

if TYPE_CHECKING:
    from knockabout.games.nakmuay.state import NakMuayState


@dataclass(frozen=True, slots=True, kw_only=True)
class Pending:
    """The reaction under way, as far as it is public; every field that does not apply
    is None (no reaction pending: all of them are).

    * an Attack waits for its target: ``attacker``, ``target``, ``value``;
    * a Countdown runs: ``attacker``, ``target``, ``countdown`` (True);
    * a drawn KO waits for its Block or its hiding place: ``drawer``, ``ko`` (True),
      ``draws_left`` (draws still owed after it);
    * a Scout is being resolved: ``scout`` (the seat), ``count`` (seen cards not yet
      taken or put back), and for the scout alone ``seen`` (those cards, top first);
    * a Clinch steal picks its victim: ``thief``, ``steal`` (``pair`` or ``triple``);
    * a Clinch triple names cards: ``thief``, ``target``, ``named`` (named so far).
    """

    attacker: int | None = None
    target: int | None = None
    value: int | None = None
    countdown: bool | None = None
    drawer: int | None = None
    ko: bool | None = None
    draws_left: int | None = None
    scout: int | None = None
    count: int | None = None
    seen: tuple[str, ...] | None = None
    thief: int | None = None
    steal: Literal["pair", "triple"] | None = None
    named: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class KnownCard:
    """A draw-pile card the viewer knows exactly: ``depth`` below the top (0: the top)."""

    depth: int
    card: str


@dataclass(frozen=True, slots=True, kw_only=True)
class NakMuayView(TableView):
    """One seat's view of a Nak Muay table (``seat`` None: a spectator's)."""

    game_id: ClassVar[str] = "nak-muay"

    game: Literal["nak-muay"] = "nak-muay"
    players: int
    end_turn: Literal["draw_after", "strict_end_turn"]
    countdown_seconds: float | None
    """The Countdown's window in seconds; None: its target has the table's time per move."""
    current: int
    """Whose turn it is."""
    direction: Literal["clockwise", "counterclockwise"]
    active: tuple[bool, ...]
    """Per seat: still in the fight."""
    hand_sizes: tuple[int, ...]
    draw_pile: int
    """Cards in the draw pile."""
    discard: tuple[str, ...]
    """The discard pile, bottom first (its last card is on top)."""
    ko_in_pile: int
    """KO cards in the draw pile (a KO waiting to be hidden is not counted)."""
    pending: Pending
    no_answers: dict[str, tuple[str, ...]]
    """Per seat (as a string) that answered "no" to a named card since it last gained a
    card: the cards it said it does not hold."""
    hand: tuple[str, ...] | None = None
    """The viewer's hand, in card order (None for a spectator)."""
    known_pile: tuple[KnownCard, ...] | None = None
    """The pile cards the viewer knows exactly, deepest first (None for a spectator)."""
    legal: tuple[str, ...] | None = None
    """The viewer's legal actions when it is the one deciding, else None."""


def _pending(s: NakMuayState, scouting: bool) -> Pending:
    phase = s.phase
    if phase == ATTACK_REACT:
        key: tuple[object, ...] = (phase, s.current, s.target, s.attack_value)
    elif phase == COUNTDOWN:
        key = (phase, s.current, s.target)
    elif phase in (KO_BLOCK, HIDE_KO):
        key = (KO_BLOCK, s.draw_player, s.draws_left)
    elif phase in (SCOUT_TAKE, SCOUT_ORDER):
        key = (SCOUT_TAKE, s.current, tuple(s.scout_cards) if scouting else len(s.scout_cards))
    elif phase == STEAL_TARGET:
        key = (phase, s.current, s.steal_kind)
    elif phase == TRIPLE_NAME:
        key = (phase, s.current, s.steal_target, s.named)
    else:
        return _NOTHING_PENDING
    pending = _PENDING.get(key)
    if pending is None:
        pending = _PENDING.put(key, _build_pending(s, scouting))
    return pending


def _build_pending(s: NakMuayState, scouting: bool) -> Pending:
    phase = s.phase
    if phase == ATTACK_REACT:
        return Pending(attacker=s.current, target=s.target, value=s.attack_value)
    if phase == COUNTDOWN:
        return Pending(attacker=s.current, target=s.target, countdown=True)
    if phase in (KO_BLOCK, HIDE_KO):
        return Pending(drawer=s.draw_player, ko=True, draws_left=s.draws_left)
    if phase in (SCOUT_TAKE, SCOUT_ORDER):
        seen = tuple(C.NAMES[k] for k in s.scout_cards) if scouting else None
        return Pending(scout=s.current, count=len(s.scout_cards), seen=seen)
    if phase == STEAL_TARGET:
        return Pending(thief=s.current, steal="pair" if s.steal_kind == STEAL_PAIR else "triple")
    named = s.named
    return Pending(
        thief=s.current, target=s.steal_target, named=tuple(C.NAMES[k] for k in C.NAMEABLE if named >> k & 1)
    )


def _known_card(depth: int, kind: int) -> KnownCard:
    card = _KNOWN.get((depth, kind))
    if card is None:
        card = _KNOWN[depth, kind] = KnownCard(depth=depth, card=C.NAMES[kind])
    return card


# views are immutable, so equal parts are built once and shared
_NOTHING_PENDING = Pending()
_PENDING: BoundedCache[tuple[object, ...], Pending] = BoundedCache(10_000)
_KNOWN: dict[tuple[int, int], KnownCard] = {}
_NAMES = C.NAMES
_KINDS = range(C.NUM_KINDS)


def known_pile(s: NakMuayState, player: int) -> list[tuple[int, int]]:
    """``(depth from top, kind)`` for every pile card ``player`` knows exactly, top last."""
    bit = 1 << (player + 4)
    top = len(s.pile) - 1
    return [(top - i, e & KIND_MASK) for i, e in enumerate(s.pile) if e & bit]


def observe(s: NakMuayState, player: int | None) -> NakMuayView:
    """The view of ``player`` (None: a spectator) of state ``s``."""
    d = s.to_act()
    absent = s.absent
    if player is None:
        hand = known = legal = None
    else:
        counts = s.hands[player]
        hand = tuple(_NAMES[k] for k in _KINDS for _ in range(counts[k]))
        known = tuple(_known_card(depth, k) for depth, k in known_pile(s, player))
        legal = tuple(a.text for a in s.legal_actions()) if d is not None and d.player == player else None
    r = s.result
    return NakMuayView(
        seat=player,
        players=s.n,
        turn=s.turn,
        max_turns=s.max_turns,
        end_turn="strict_end_turn" if s.strict else "draw_after",
        countdown_seconds=s.seconds,
        current=s.current,
        direction="clockwise" if s.direction == 1 else "counterclockwise",
        active=tuple(s.active),
        hand_sizes=tuple(s.sizes),
        draw_pile=len(s.pile),
        discard=tuple(_NAMES[k] for k in s.discard),
        ko_in_pile=s.in_play[C.KO] - (1 if s.limbo_ko else 0),
        decision=None if d is None else decision_view(d),
        pending=_pending(s, player is not None and player == s.current),
        no_answers={
            str(p): tuple(_NAMES[k] for k in C.NAMEABLE if absent[p] >> k & 1) for p in range(s.n) if absent[p]
        },
        outcome=None
        if r is None
        else outcome_view(r),
        hand=hand,
        known_pile=known,
        legal=legal,
    )

"""Knockdown's observation encoder: a seat's view as a fixed vector of numbers in [0, 1].

Built from the typed view's attributes (:class:`~knockabout.games.knockdown.presentation.view.KnockdownView`).
Seats are absolute (``f0_*`` is seat 0's fighter, ``f1_*`` seat 1's); ``seat`` says who
looks. Positions are the arena's grid coordinates (at most
:data:`GRID_W` x :data:`GRID_H`); cards are described by what they do (symbols, wounds,
type, range) rather than by name, so every box's cards share one encoding.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from knockabout.core.encoding import DecisionFields, VectorWriter, ViewEncoder, one_hot_index
from knockabout.core.memo import BoundedCache
from knockabout.core.plugins import EncodedField
from knockabout.core.view import View
from knockabout.games.knockdown.content.vocabulary import ARENA_RULES, SYMBOLS, TOKENS
from knockabout.games.knockdown.presentation.view import CardInfoView, KnockdownView, Pending, Space

GRID_W: Final = 9
GRID_H: Final = 3
CELLS: Final = GRID_W * GRID_H
KINDS: Final = tuple(sorted((
    "pay", "choose_card", "opening_pick", "token_count", "skill_draft", "blink", "combo", "reaction", "turn",
    "move_step", "block", "take_from_row", "tower_challenge", "knockdown", "skill_face_up",
)))
FIGHTERS: Final = ("driana", "james", "katie", "lost_knight", "maggot", "mistbearer", "puppy", "veroth", "xingo")
RANGES: Final = ("range 1", "range 1-2", "range 2", "projectile", "any range")
CARD_TYPES: Final = ("strike", "ability")
PURPOSES: Final = ("hand_limit", "discard", "reveal", "pick_revealed", "discard_for_tokens", "block_card")
ATTACK_TYPES: Final = ("strike", "ability", "reaction")
ROW: Final = 3
CARD: Final = len(SYMBOLS) + 3 + len(CARD_TYPES) + len(RANGES)
"""Numbers describing one card: its symbols, heavy / 3, light / 3, K.O., type, range."""
WOUNDS: Final = 18.0


def _fighter_fields(p: int) -> tuple[EncodedField, ...]:
    f = f"f{p}_"
    return (
        EncodedField(f + "fighter", len(FIGHTERS), f"one-hot: seat {p}'s fighter ({', '.join(FIGHTERS)})"),
        EncodedField(f + "x", GRID_W, f"one-hot: seat {p}'s column"),
        EncodedField(f + "y", GRID_H, f"one-hot: seat {p}'s row"),
        EncodedField(f + "wounds", 2, f"seat {p}'s heavy and light wounds / {WOUNDS:.0f}"),
        EncodedField(f + "tokens", len(TOKENS), f"seat {p}'s tokens per kind ({', '.join(TOKENS)}) / 6"),
        EncodedField(f + "hand_size", 1, f"seat {p}'s hand / 10"),
        EncodedField(f + "hand_limit", 1, f"seat {p}'s hand limit / 10"),
        EncodedField(f + "hand_cards", CARD, f"seat {p}'s hand cards' descriptions summed / 6 (see 'card')"),
        EncodedField(f + "skills", 2, f"seat {p}'s active skills / 2, hidden skills / 2"),
        EncodedField(f + "victories", 1, f"seat {p}'s victories / 3"),
        EncodedField(f + "specials", 1, f"seat {p}'s special attacks / 6"),
    )


DECISION: Final = DecisionFields(2, KINDS, timed="the tower")

FIELDS: Final = (
    EncodedField("round", 1, "round / 5"),
    EncodedField("turn", 1, "turn / max_turns"),
    EncodedField("tower_test", 1, "1: Knockdown Tests are the tower challenge (else dice)"),
    EncodedField("first", 2, "one-hot: the seat that played first this round"),
    EncodedField("current", 2, "one-hot: whose turn it is"),
    EncodedField("actions", 2, "actions done / 3, actions allowed / 3"),
    *DECISION.fields(),
    EncodedField("arena_rule", len(ARENA_RULES), f"one-hot: the arena's rule ({', '.join(ARENA_RULES)})"),
    EncodedField("arena_size", 2, f"arena width / {GRID_W}, height / {GRID_H}"),
    EncodedField("spaces", CELLS, "per grid cell (x + 9 y): 1 where the arena has a space"),
    EncodedField("candles", GRID_W, "per column: 1 where a candle stands"),
    EncodedField("traps", 2 * CELLS, "per owner seat, per grid cell: a trap"),
    *_fighter_fields(0),
    *_fighter_fields(1),
    EncodedField("row", ROW * CARD, "per Attack Row slot: the card's description (all 0: empty)"),
    EncodedField("deck", 1, "cards in the Attack deck / 40"),
    EncodedField("candles_in_deck", 1, "candle cards in the deck / 4"),
    EncodedField("discard", 1, "cards in the discard / 40"),
    EncodedField("contamination_left", 1, "contamination tokens left / 6"),
    EncodedField("pending_mover", 2, "one-hot: the seat moving (move steps, blink)"),
    EncodedField("pending_move", 3, "moves left / 5, optional, dash"),
    EncodedField("pending_blink", CELLS, "per grid cell: a space a blink may land on"),
    EncodedField("pending_purpose", len(PURPOSES), f"one-hot: why a card is chosen ({', '.join(PURPOSES)})"),
    EncodedField("pending_owner", 2, "one-hot: whose cards are chosen"),
    EncodedField("pending_left", 1, "cards still to choose / 5"),
    EncodedField("pending_revealed", 1, "revealed cards / 5"),
    EncodedField("pending_reaction", 3, "a reaction is offered: on the opponent's move, on being attacked; count / 3"),
    EncodedField("pending_pay", 2, "a special's cost is paid; for a reaction"),
    EncodedField("pending_tower", 2, "tower: the tested seat is the viewer, cubes / 18"),
    EncodedField("pending_token", len(TOKENS) + 1, "one-hot: the token being counted; how many are held / 6"),
    EncodedField("pending_chosen", 2, "per seat: has chosen in the skill draft"),
    EncodedField("pending_cards_left", 1, "row picks left / 3"),
    EncodedField("attack", 1, "1: an attack is being resolved"),
    EncodedField("attack_by", 2, "one-hot: the attacker"),
    EncodedField("attack_type", len(ATTACK_TYPES), "one-hot: strike, ability, reaction"),
    EncodedField("attack_wounds", 2, "the attack's heavy and light wounds / 3"),
    EncodedField("attack_flags", 2, "its effect was blocked; it was ignored"),
    EncodedField("draft", 4, "the viewer's skill draft: dealt / 3, kept / 2, received / 2, face up chosen"),
)
"""The game's own fields (:class:`ViewEncoder` adds ``seat`` before them and ``legal_count``,
``over`` and ``payoff`` after)."""


def _describe(card: CardInfoView) -> list[float]:
    """One card's description: its symbols, heavy / 3, light / 3, K.O., type, range."""
    out = [0.0] * CARD
    for sym in card.symbols:
        i = one_hot_index(sym, SYMBOLS)
        if i is not None:
            out[i] = 1.0
    n = len(SYMBOLS)
    out[n] = card.heavy / 3
    out[n + 1] = card.light / 3
    out[n + 2] = 1.0 if card.ko else 0.0
    t = one_hot_index(card.type, CARD_TYPES)
    if t is not None:
        out[n + 3 + t] = 1.0
    r = one_hot_index(card.range, RANGES)
    if r is not None:
        out[n + 3 + len(CARD_TYPES) + r] = 1.0
    return out


_DESCRIBED: BoundedCache[str, tuple[CardInfoView, list[float]]] = BoundedCache(1000)


def card_description(name: str, card: CardInfoView) -> list[float]:
    """:func:`_describe`, remembered per card name (and checked against the card); the
    state encoder (:mod:`.state_encoding`) reads the same numbers."""
    hit = _DESCRIBED.get(name)
    if hit is not None and (hit[0] is card or hit[0] == card):
        return hit[1]
    return _DESCRIBED.put(name, (card, _describe(card)))[1]


def _cell(x: int, y: int) -> int | None:
    return x + GRID_W * y if 0 <= x < GRID_W and 0 <= y < GRID_H else None


_CELLS: BoundedCache[tuple[tuple[int, int], ...], list[int | None]] = BoundedCache(100)


def _cells(spaces: Sequence[Space]) -> list[int | None]:
    """Each arena space's grid cell (None: off the grid), remembered per arena layout."""
    key = tuple((sp.x, sp.y) for sp in spaces)
    cells = _CELLS.get(key)
    if cells is None:
        cells = _CELLS.put(key, [_cell(x, y) for x, y in key])
    return cells


class KnockdownEncoder(ViewEncoder[KnockdownView]):
    def __init__(self) -> None:
        super().__init__(KnockdownView, seats=2, legal_scale=40, fields=FIELDS)

    def write(self, w: VectorWriter, v: KnockdownView) -> None:
        w.scalar("round", v.round, 5)
        w.scalar("turn", v.turn, v.max_turns)
        w.flags("tower_test", (v.knockdown_test == "tower",))
        w.one_hot("first", v.first)
        w.one_hot("current", v.current)
        w.scalars("actions", (v.actions_done, v.actions_allowed), 3)
        DECISION.write(w, v.decision)
        arena = v.arena
        spaces = arena.spaces
        cells = _cells(spaces)
        w.one_hot("arena_rule", one_hot_index(arena.rule, ARENA_RULES))
        w.scalars("arena_size", (arena.width / GRID_W, arena.height / GRID_H), 1)
        w.hot("spaces", (c for c in cells if c is not None))
        for col in arena.candles or ():
            w.one_hot("candles", col if 0 <= col < GRID_W else None)
        for trap in arena.traps:
            c = cells[trap.space]
            if c is not None:
                w.one_hot("traps", c, offset=trap.owner * CELLS)
        catalog = v.cards
        for f in v.fighters:
            p = "f0_" if f.seat == 0 else "f1_"
            w.one_hot(p + "fighter", one_hot_index(f.id, FIGHTERS))
            if 0 <= f.space < len(spaces):
                at = spaces[f.space]
                w.one_hot(p + "x", at.x if 0 <= at.x < GRID_W else None)
                w.one_hot(p + "y", at.y if 0 <= at.y < GRID_H else None)
            w.scalars(p + "wounds", (f.heavy, f.light), WOUNDS)
            w.scalars(p + "tokens", (f.tokens.get(t, 0) for t in TOKENS), 6)
            w.scalar(p + "hand_size", len(f.hand), 10)
            w.scalar(p + "hand_limit", f.hand_limit, 10)
            described = [card_description(name, catalog[name]) for name in f.hand if name in catalog]
            if described:
                w.scalars(p + "hand_cards", map(sum, zip(*described, strict=True)), 6)
            w.scalars(p + "skills", (len(f.skills), f.hidden_skills), 2)
            w.scalar(p + "victories", f.victories, 3)
            w.scalar(p + "specials", len(f.specials), 6)
        for i, name in enumerate(v.row[:ROW]):
            card = catalog.get(name) if name is not None else None
            if name is not None and card is not None:
                w.scalars("row", card_description(name, card), 1, i * CARD)
        w.scalar("deck", v.deck, 40)
        w.scalar("candles_in_deck", v.candles_in_deck, 4)
        w.scalar("discard", len(v.discard), 40)
        w.scalar("contamination_left", v.contamination_left, 6)
        self._pending(w, v.pending, spaces, v.seat)
        attack = v.attack
        if attack is not None:
            w.flags("attack", (True,))
            w.one_hot("attack_by", attack.by)
            w.one_hot("attack_type", one_hot_index(attack.type, ATTACK_TYPES))
            w.scalars("attack_wounds", (attack.heavy, attack.light), 3)
            w.flags("attack_flags", (attack.effect_blocked, attack.ignored))
        draft = v.draft
        if draft is not None:
            w.scalar("draft", len(draft.dealt), 3)
            w.scalar("draft", len(draft.kept or ()), 2, offset=1)
            w.scalar("draft", len(draft.received or ()), 2, offset=2)
            w.flags("draft", (draft.face_up is not None,), offset=3)

    @staticmethod
    def _pending(w: VectorWriter, pend: Pending, spaces: Sequence[Space], seat: int | None) -> None:
        if pend.mover is not None:
            w.one_hot("pending_mover", pend.mover)
        if pend.moves_left is not None:
            w.scalar("pending_move", pend.moves_left, 5)
            w.flags("pending_move", (bool(pend.optional), bool(pend.dash)), offset=1)
        if pend.spaces is not None:
            cells = _cells(spaces)
            for i in pend.spaces:
                if 0 <= i < len(cells):
                    w.one_hot("pending_blink", cells[i])
        if pend.purpose is not None:
            w.one_hot("pending_purpose", one_hot_index(pend.purpose, PURPOSES))
            w.one_hot("pending_owner", pend.owner)
            w.scalar("pending_left", pend.left or 0, 5)
            w.scalar("pending_revealed", len(pend.revealed or ()), 5)
        if pend.trigger is not None:
            w.flags("pending_reaction", (pend.trigger == "opponent_moves", pend.trigger == "attacked"))
            w.scalar("pending_reaction", len(pend.reactions or ()), 3, offset=2)
        if pend.special is not None:
            w.flags("pending_pay", (True, bool(pend.reaction)))
        if pend.cubes is not None:
            w.flags("pending_tower", (pend.tested == seat,))
            w.scalar("pending_tower", pend.cubes, WOUNDS, offset=1)
        if pend.token is not None:
            w.one_hot("pending_token", one_hot_index(pend.token, TOKENS))
            w.scalar("pending_token", pend.have or 0, 6, offset=len(TOKENS))
        if pend.chosen is not None:
            w.flags("pending_chosen", pend.chosen)
        if pend.cards_left is not None:
            w.scalar("pending_cards_left", pend.cards_left, 3)

    def potential(self, view: View) -> float:
        """The wound balance by the viewer's view: 0.5 even, towards 1 as the opponent
        carries more wounds than the viewer (heavy wounds count double)."""
        v = self.view(view)
        seat = v.seat
        if seat is None:
            return 0.5
        load = [2 * f.heavy + f.light for f in v.fighters]
        mine, theirs = load[seat], load[1 - seat]
        return float(0.5 + 0.5 * (theirs - mine) / (2 * WOUNDS))

"""Knockdown's observation written straight from the state (the batched environment's path).

The same numbers as :class:`~knockabout.games.knockdown.presentation.encoding.KnockdownEncoder` gives for
``state.observe(seat)``: the board, hands, wounds and tokens are open to both seats; of the
skill draft the seat sees only its own (what it was dealt, kept and passed). Each write
below names the view field the view encoder reads (:mod:`knockabout.games.knockdown.presentation.view`).

What never changes during a match (the arena's cells, the cards' descriptions, the
fighters) is worked out once per match setup (:class:`SetupNumbers`); the summed
descriptions of a hand once per hand, with the view encoder's own arithmetic.
"""

from __future__ import annotations

from typing import Any, Final

from knockabout.core.protocol import State
from knockabout.core.state_encoding import Block, Scatter, StateEncoder
from knockabout.games.knockdown.content.match import MatchSetup
from knockabout.games.knockdown.content.vocabulary import ARENA_RULES, TOKENS
from knockabout.games.knockdown.presentation import encoding as E
from knockabout.games.knockdown.presentation.encoding import DECISION, KnockdownEncoder, card_description
from knockabout.games.knockdown.presentation.view import ATTACK_PHASES as _ATTACK_PHASES
from knockabout.games.knockdown.presentation.view import card_catalog
from knockabout.games.knockdown.rules.phases import (
    BLINK,
    COUNT,
    DRAFT1,
    DRAFT2,
    FACEUP,
    OPENING,
    PAY,
    PAY_REACT,
    REACT,
    STEP,
    TOWER,
    Phase,
)
from knockabout.games.knockdown.rules.phases import (
    CARD as CARD_PHASE,
)
from knockabout.games.knockdown.rules.phases import ROW as ROW_PHASE
from knockabout.games.knockdown.rules.rounds import CANDLE
from knockabout.games.knockdown.state import KnockdownState

# names of other modules copied as this module's Final ones: compiled, a Final is read
# statically, any other name from the module's dictionary at every use (docs/speed.md)
CARD: Final[int] = E.CARD
CELLS: Final[int] = E.CELLS
GRID_W: Final[int] = E.GRID_W
GRID_H: Final[int] = E.GRID_H
ROW: Final[int] = E.ROW
N_TOKENS: Final = len(TOKENS)
WOUNDS: Final = 18
ATTACK_PHASES: Final[frozenset[Phase]] = _ATTACK_PHASES
_SETUPS_KEPT: Final = 512
_HANDS_KEPT: Final = 4096


class SetupNumbers:
    """What one match setup adds to the observations of the match: the numbers that never
    change (the arena, the fighters) as one block, the Attack Row's card descriptions as a
    block per card and slot, and the hands' summed descriptions as they are met."""

    setup: MatchSetup
    cells: list[int]
    """Per arena space, its grid cell ``x + 9 y`` (-1: off the grid)."""
    xs: list[int]
    """Per space, its column for the ``x`` one-hot (-1: off the grid)."""
    ys: list[int]
    fixed: Block
    """``arena_rule``, ``arena_size``, ``spaces``, each fighter's ``fighter`` and ``specials``."""
    descriptions: list[list[float] | None]
    """Per card design, the view encoder's description (None: not in the match's catalog)."""
    row: list[list[Block]]
    """Per card design, its description in each Attack Row slot (empty: not described)."""
    hands: dict[tuple[int, ...], Block]
    """Per seat and hand (``(seat, *design ids)``), the ``hand_cards`` numbers."""

    def __init__(self, setup: MatchSetup, enc: KnockdownStateEncoder) -> None:
        self.setup = setup
        arena = setup.arena
        out = Scatter()
        if arena.rule in ARENA_RULES:
            out.one(enc.arena_rule + ARENA_RULES.index(arena.rule))
        out.ratio(enc.arena_size, arena.width, GRID_W)
        out.ratio(enc.arena_size + 1, arena.height, GRID_H)
        self.cells = []
        self.xs = []
        self.ys = []
        for i in range(arena.size):
            x = arena.xs[i]
            y = arena.ys[i]
            on_x = 0 <= x < GRID_W
            on_y = 0 <= y < GRID_H
            cell = x + GRID_W * y if on_x and on_y else -1
            self.cells.append(cell)
            self.xs.append(x if on_x else -1)
            self.ys.append(y if on_y else -1)
            if cell >= 0:
                out.one(enc.spaces + cell)
        for p in range(2):
            fighter = setup.fighters[p].id
            if fighter in E.FIGHTERS:
                out.one(enc.fighter[p] + E.FIGHTERS.index(fighter))
            out.ratio(enc.specials[p], len(setup.specials[p]), 6)
        self.fixed = out.take()
        catalog = card_catalog(setup)
        self.descriptions = []
        self.row = []
        for c in setup.cards:
            view = catalog.get(c.name)
            desc = None if view is None else card_description(c.name, view)
            self.descriptions.append(desc)
            blocks = []
            if desc is not None:
                for slot in range(ROW):
                    out = Scatter()
                    for j in range(CARD):
                        out.value(enc.row + slot * CARD + j, desc[j])
                    blocks.append(out.take())
            self.row.append(blocks)
        self.hands = {}

    def hand(self, at: int, cards: list[int]) -> Block:
        """The ``hand_cards`` numbers of a hand, written from ``at``."""
        key = (at, *cards)
        found = self.hands.get(key)
        if found is None:
            described = [d for d in (self.descriptions[k] for k in cards) if d is not None]
            out = Scatter()
            if described:
                # the view encoder's arithmetic: each column summed by the builtin ``sum``
                # (called as an object: compiled, a typed ``sum`` would be an int), then / 6
                total: Any = sum
                for j, x in enumerate(map(total, zip(*described, strict=True))):
                    out.value(at + j, x / 6)
            found = out.take()
            if len(self.hands) >= _HANDS_KEPT:
                self.hands.clear()
            self.hands[key] = found
        return found


class KnockdownStateEncoder(StateEncoder):
    setups: dict[int, SetupNumbers]
    round: int
    turn: int
    tower_test: int
    first: int
    current: int
    actions: int
    arena_rule: int
    arena_size: int
    spaces: int
    candles: int
    traps: int
    fighter: list[int]
    fx: list[int]
    fy: list[int]
    wounds: list[int]
    tokens: list[int]
    hand_size: list[int]
    hand_limit: list[int]
    hand_cards: list[int]
    skills: list[int]
    victories: list[int]
    specials: list[int]
    row: int
    deck: int
    candles_in_deck: int
    discard: int
    contamination_left: int
    pending_mover: int
    pending_move: int
    pending_blink: int
    pending_purpose: int
    pending_owner: int
    pending_left: int
    pending_revealed: int
    pending_reaction: int
    pending_pay: int
    pending_tower: int
    pending_token: int
    pending_chosen: int
    pending_cards_left: int
    attack: int
    attack_by: int
    attack_type: int
    attack_wounds: int
    attack_flags: int
    draft: int

    def __init__(self) -> None:
        enc = KnockdownEncoder()
        super().__init__(enc, enc.legal_scale, DECISION)
        self.setups = {}
        at = self.offset
        self.round = at("round")
        self.turn = at("turn")
        self.tower_test = at("tower_test")
        self.first = at("first")
        self.current = at("current")
        self.actions = at("actions")
        self.arena_rule = at("arena_rule")
        self.arena_size = at("arena_size")
        self.spaces = at("spaces")
        self.candles = at("candles")
        self.traps = at("traps")
        self.fighter = [at(f"f{p}_fighter") for p in (0, 1)]
        self.fx = [at(f"f{p}_x") for p in (0, 1)]
        self.fy = [at(f"f{p}_y") for p in (0, 1)]
        self.wounds = [at(f"f{p}_wounds") for p in (0, 1)]
        self.tokens = [at(f"f{p}_tokens") for p in (0, 1)]
        self.hand_size = [at(f"f{p}_hand_size") for p in (0, 1)]
        self.hand_limit = [at(f"f{p}_hand_limit") for p in (0, 1)]
        self.hand_cards = [at(f"f{p}_hand_cards") for p in (0, 1)]
        self.skills = [at(f"f{p}_skills") for p in (0, 1)]
        self.victories = [at(f"f{p}_victories") for p in (0, 1)]
        self.specials = [at(f"f{p}_specials") for p in (0, 1)]
        self.row = at("row")
        self.deck = at("deck")
        self.candles_in_deck = at("candles_in_deck")
        self.discard = at("discard")
        self.contamination_left = at("contamination_left")
        self.pending_mover = at("pending_mover")
        self.pending_move = at("pending_move")
        self.pending_blink = at("pending_blink")
        self.pending_purpose = at("pending_purpose")
        self.pending_owner = at("pending_owner")
        self.pending_left = at("pending_left")
        self.pending_revealed = at("pending_revealed")
        self.pending_reaction = at("pending_reaction")
        self.pending_pay = at("pending_pay")
        self.pending_tower = at("pending_tower")
        self.pending_token = at("pending_token")
        self.pending_chosen = at("pending_chosen")
        self.pending_cards_left = at("pending_cards_left")
        self.attack = at("attack")
        self.attack_by = at("attack_by")
        self.attack_type = at("attack_type")
        self.attack_wounds = at("attack_wounds")
        self.attack_flags = at("attack_flags")
        self.draft = at("draft")

    def numbers(self, setup: MatchSetup) -> SetupNumbers:
        """The setup's numbers, worked out at its first observation."""
        found = self.setups.get(id(setup))
        if found is None or found.setup is not setup:
            if len(self.setups) >= _SETUPS_KEPT:
                self.setups.clear()
            found = self.setups[id(setup)] = SetupNumbers(setup, self)
        return found

    def write(self, state: State, seat: int, out: Scatter) -> None:
        assert isinstance(state, KnockdownState)
        s = state
        st = self.numbers(s.setup)
        out.ratio(self.round, s.round_no, 5)
        out.ratio(self.turn, s.turn, s.cfg[3])
        out.flag(self.tower_test, s.cfg[0] == "tower")
        out.one(self.first + s.first)
        out.one(self.current + s.current)
        out.ratio(self.actions, s.actions_done, 3)
        out.ratio(self.actions + 1, s.actions_allowed, 3)
        # the arena's rule, size and spaces, the fighters and their specials
        out.block(st.fixed)
        cells = st.cells
        if s.candle:
            ar = s.setup.arena
            for col in (ar.minx + s.candle - 1, ar.maxx - s.candle + 1):
                if 0 <= col < GRID_W:
                    out.one(self.candles + col)
        for m in s.traps:
            c = cells[m // 2]
            if c >= 0:
                out.one(self.traps + (m % 2) * CELLS + c)
        # the fighters
        for p in range(2):
            self._fighter(s, st, p, out)
        # the Attack Row and the piles
        row = s.row
        for i in range(min(ROW, len(row))):
            d = row[i]
            if d >= 0:
                blocks = st.row[d]
                if blocks:
                    out.block(blocks[i])
        deck = s.deck
        out.ratio(self.deck, len(deck), 40)
        out.ratio(self.candles_in_deck, deck.count(CANDLE), 4)
        out.ratio(self.discard, len(s.discard), 40)
        out.ratio(self.contamination_left, s.contam_left, 6)
        self._pending(s, seat, st, out)
        if s.atk_by >= 0 and s.phase in ATTACK_PHASES:
            out.one(self.attack)
            out.one(self.attack_by + s.atk_by)
            out.one(self.attack_type + s.atk_type)
            out.ratio(self.attack_wounds, s.atk_h, 3)
            out.ratio(self.attack_wounds + 1, s.atk_l, 3)
            out.flag(self.attack_flags, s.atk_blockfx)
            out.flag(self.attack_flags + 1, s.atk_void)
        # the seat's own skill draft
        at = self.draft
        out.ratio(at, len(s.dealt[seat]), 3)
        if s.keep1[seat] >= 0:
            out.ratio(at + 1, 2 if s.keep2[seat] >= 0 else 1, 2)
        out.ratio(at + 2, len(s.recv[seat]), 2)
        out.flag(at + 3, s.up[seat] >= 0)

    def _fighter(self, s: KnockdownState, st: SetupNumbers, p: int, out: Scatter) -> None:
        """The view's ``fighters[p]`` (but its fighter and specials: :attr:`SetupNumbers.fixed`)."""
        space = s.pos[p]
        if 0 <= space < len(st.cells):
            if st.xs[space] >= 0:
                out.one(self.fx[p] + st.xs[space])
            if st.ys[space] >= 0:
                out.one(self.fy[p] + st.ys[space])
        out.ratio(self.wounds[p], s.heavy[p], WOUNDS)
        out.ratio(self.wounds[p] + 1, s.light[p], WOUNDS)
        tokens = s.tokens[p]
        at = self.tokens[p]
        for t in range(min(N_TOKENS, len(tokens))):
            out.ratio(at + t, tokens[t], 6)
        hand = s.hands[p]
        out.ratio(self.hand_size[p], len(hand), 10)
        out.ratio(self.hand_limit[p], s.hand_limit(p), 10)
        if hand:
            out.block(st.hand(self.hand_cards[p], hand))
        active = len(s.active_skills(p))
        out.ratio(self.skills[p], active, 2)
        if s.keep2[p] >= 0:
            out.ratio(self.skills[p] + 1, 2 - active, 2)
        out.ratio(self.victories[p], s.victories[p], 3)

    def _pending(self, s: KnockdownState, seat: int, st: SetupNumbers, out: Scatter) -> None:
        """The view's ``pending`` part (``view._pending``)."""
        ph = s.phase
        pend = s.pend
        if ph is PAY:
            out.one(self.pending_pay)
            out.flag(self.pending_pay + 1, pend[0] == PAY_REACT)
        elif ph is STEP:
            out.one(self.pending_mover + pend[0])
            out.ratio(self.pending_move, pend[1], 5)
            out.flag(self.pending_move + 1, bool(pend[2]))
            out.flag(self.pending_move + 2, bool(pend[3]))
        elif ph is BLINK:
            out.one(self.pending_mover + pend[0])
            cells = st.cells
            for i in pend[2]:
                if 0 <= i < len(cells) and cells[i] >= 0:
                    out.one(self.pending_blink + cells[i])
        elif ph is CARD_PHASE:
            out.one(self.pending_purpose + pend[0])
            out.one(self.pending_owner + pend[1])
            out.ratio(self.pending_left, pend[3] or 0, 5)
            out.ratio(self.pending_revealed, len(pend[4]), 5)
        elif ph is REACT:
            out.one(self.pending_reaction + pend[0])
            out.ratio(self.pending_reaction + 2, len(pend[2]), 3)
        elif ph is TOWER:
            out.flag(self.pending_tower, pend[0] == seat)
            out.ratio(self.pending_tower + 1, pend[2], WOUNDS)
        elif ph is COUNT:
            out.one(self.pending_token + pend[1])
            out.ratio(self.pending_token + N_TOKENS, s.tokens[pend[0]][pend[1]], 6)
        elif ph is ROW_PHASE or ph is OPENING:
            out.ratio(self.pending_cards_left, pend[0], 3)
        elif ph is DRAFT1:
            out.flag(self.pending_chosen, s.keep1[0] >= 0)
            out.flag(self.pending_chosen + 1, s.keep1[1] >= 0)
        elif ph is DRAFT2:
            out.flag(self.pending_chosen, s.keep2[0] >= 0)
            out.flag(self.pending_chosen + 1, s.keep2[1] >= 0)
        elif ph is FACEUP:
            out.flag(self.pending_chosen, s.up[0] >= 0)
            out.flag(self.pending_chosen + 1, s.up[1] >= 0)

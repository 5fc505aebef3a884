"""A Knockdown player that plans the rest of its turn and scores the table a person would.

Hands and the table are open in Knockdown; only the deck order and the opponent's
hidden Skill card are not, so the bot plans on one sample of its view
(``view.sample``). For a decision of its own it tries the sequences of its next few
decisions (an action, the Special Attack, the payment, each step...) until the
opponent has to answer or the turn ends, and keeps the first decision of the best
line. Some decisions follow simple rules instead:

* Knockdown Test: start it when the chance that three dice fall short of the wound
  total is worth more than the light wounds a pass would wash away;
* the tower challenge: pass with the table's bot pass chance (the skill curve);
* the skill draft: keep the skill whose effect looks strongest on paper.

When the opponent must answer inside the bot's turn (a Block, a Reaction, a card to
discard), the plan assumes their best answer by the same score, one step deep.

The score of a table, from the bot's side: rounds won (far above the rest), wounds
(heavy count double), cards in hand, useful and harmful tokens, standing on a
candle's column, a little for standing where its attacks reach, and, for the fighter
ahead on wounds, a thinner deck (the round ends when it runs out).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import product
from typing import Final, cast

from knockabout.core.actions import Action
from knockabout.core.bot import Bot, SeatView
from knockabout.core.protocol import State
from knockabout.core.rng import Rng
from knockabout.games.knockdown import actions as A
from knockabout.games.knockdown.content.loader import Skill
from knockabout.games.knockdown.state import (
    DRAFT1,
    DRAFT2,
    FACEUP,
    KO,
    TK_AMMO,
    TK_CURSE,
    TK_FLAME,
    TK_MIST,
    TK_POISON,
    TK_POTION,
    TK_STUN,
    TOWER,
    KnockdownState,
)

ROUND: Final = 400.0
HEAVY: Final = 2.2
LIGHT: Final = 1.0
CARD: Final = 0.45
DECK: Final = 0.05
NODE_CAP: Final = 48  # nodes searched below each candidate action
DEPTH: Final = 5

TOKEN_VALUE: Final = {
    TK_CURSE: -0.6, TK_STUN: -1.5, TK_POISON: -1.0, TK_MIST: 0.5, TK_POTION: 1.2, TK_AMMO: 0.5, TK_FLAME: -2.0,
}
SKILL_VALUE: Final = {
    "pool_bonus": 3.0, "pool_reduction": 3.0, "block_bonus": 2.0, "hand_limit": 1.5, "range_bonus": 2.0,
    "extra_symbol": 1.5, "round_start": 1.5, "turn_start": 2.5,
}


def _dice_below(total: int) -> float:
    """The chance that 3 dice sum to less than ``total``."""
    hits = sum(1 for a, b, c in product(range(1, 7), repeat=3) if a + b + c < total)
    return hits / 216.0


def skill_value(sk: Skill) -> float:
    return sum(SKILL_VALUE.get(e.kind, 1.0) for e in sk.effects) + sk.initiative / 24.0


def evaluate(s: KnockdownState, me: int, victories: Sequence[int]) -> float:
    """The table's score for seat ``me`` (see the module text)."""
    if s.result is not None:
        return ROUND * 4 * (s.result.payoffs[me] - 0.5)
    opp = 1 - me
    gained = (s.victories[me] - victories[me]) - (s.victories[opp] - victories[opp])
    if gained:
        return ROUND * gained
    score = HEAVY * (s.heavy[opp] - s.heavy[me]) + LIGHT * (s.light[opp] - s.light[me])
    contam = s.setup.contamination
    for p, sign in ((me, 1.0), (opp, -1.0)):
        hand = s.hands[p]
        useful = sum(1 for d in hand if d != contam)
        score += sign * CARD * min(useful, 6)
        score += sign * -0.8 * (len(hand) - useful)
        toks = s.tokens[p]
        for t, v in TOKEN_VALUE.items():
            if toks[t]:
                score += sign * v * toks[t]
    cols = s.candle_columns()
    if cols is not None:
        x = s.setup.arena.xs[s.pos[me]]
        if x <= cols[0] or x >= cols[1]:
            score -= 1.8
        # the next candle moves one column in
        if x <= cols[0] + 1 or x >= cols[1] - 1:
            score -= 0.4
    # the round also ends when the deck runs out: the fighter ahead on wounds wants that
    lead = (s.heavy[opp] - s.heavy[me]) * 10 + (s.light[opp] - s.light[me])
    if lead:
        score -= DECK * len(s.deck) * (1 if lead > 0 else -1)
    dist = s.setup.arena.dist[s.pos[me]][s.pos[opp]]
    score -= 0.15 * abs(dist - 1)
    if s.setup.arena.dangerous[s.pos[me]]:
        score -= 0.5
    return score


class _Planner:
    def __init__(self, me: int, victories: Sequence[int]) -> None:
        self.me = me
        self.victories = tuple(victories)
        self.nodes = 0

    def reply(self, s: KnockdownState, p: int) -> Action:
        """The opponent's answer inside our turn (a block, a reaction, a card): their best one-step score."""
        legal = s.legal_actions()
        if len(legal) == 1:
            return legal[0]
        best_a = legal[0]
        best_v = -1e18
        for a in legal:
            self.nodes += 1
            c = s.clone()
            c.apply(a)
            v = evaluate(c, p, self.victories)
            if v > best_v:
                best_v, best_a = v, a
        return best_a

    def finish_turn(self, s: KnockdownState) -> KnockdownState:
        """Play the rest of our turn plainly (no free corridor or potion moves), so that a line cut
        short by the look-ahead is not scored as if the end of the turn never came."""
        s = s.clone()
        for _ in range(40):
            d = s.to_act()
            if d is None or s.current != self.me or s.phase in (KO, TOWER):
                break
            legal = s.legal_actions()
            if d.player != self.me:
                a = self.reply(s, d.player)
            else:
                plain = [a for a in legal if a not in _FREE]
                a = _plain_choice(s, plain or list(legal))
            s.apply(a)
        return s

    def value(self, s: KnockdownState, depth: int) -> float:
        d = s.to_act()
        while (d is not None and d.player != self.me and s.current == self.me and s.phase != TOWER
               and self.nodes < NODE_CAP):
            c = s.clone()
            c.apply(self.reply(s, d.player))
            s = c
            d = s.to_act()
        if d is None or d.player != self.me or s.phase in (KO, TOWER):
            return evaluate(s, self.me, self.victories)
        if depth == 0 or self.nodes >= NODE_CAP:
            return evaluate(self.finish_turn(s), self.me, self.victories)
        best = -1e18
        for a in s.legal_actions():
            self.nodes += 1
            c = s.clone()
            c.apply(a)
            v = self.value(c, depth - 1)
            if v > best:
                best = v
            if self.nodes >= NODE_CAP:
                break
        return best

    def choose(self, s: KnockdownState, legal: Sequence[Action]) -> Action:
        best_a = legal[0]
        best_v = -1e18
        for a in legal:
            self.nodes = 0  # each candidate gets the same look-ahead
            c = s.clone()
            c.apply(a)
            v = self.value(c, DEPTH - 1)
            if v > best_v:
                best_v, best_a = v, a
        return best_a


_FREE: Final[frozenset[Action]] = frozenset((*A.CORRIDOR, A.POTION))


def _plain_choice(s: KnockdownState, legal: Sequence[Action]) -> Action:
    """A quick, sensible default: the strongest attack that reaches, else end a Combo or stop moving,
    else the first choice."""
    me = s.current
    best: Action | None = None
    best_v = -1.0
    for a in legal:
        if a in A.ATTACK:
            card = s.setup.cards[s.row[A.INDEX[a]]]
            reach = card.hits and s.in_range(card.rng, s.pos[me], s.pos[1 - me], 0)
            v = (2 * card.heavy + card.light + 0.5) if reach else 0.0
            if v > best_v:
                best, best_v = a, v
    if best is not None:
        return best
    for a in (A.COMBO_END, A.STOP, A.DONE, A.KO_SKIP):
        if a in legal:
            return a
    return legal[0]


def ko_worth_it(s: KnockdownState, tested: int) -> bool:
    """Start the Knockdown Test when the knock-out chance outweighs the light wounds a pass washes away."""
    total = s.heavy[tested] + s.light[tested]
    p_fail = 1.0 - s.tower_pass_chance(total) if s.cfg[0] == "tower" else _dice_below(total)
    return p_fail * 20.0 > (1.0 - p_fail) * (s.light[tested] // 2) * LIGHT


class HeuristicBot(Bot):
    name = "heuristic"

    def describe(self) -> str:
        return "heuristic: plans the rest of its turn on a sample of its view and scores wounds, cards and tokens"

    def choose(self, view: SeatView, legal: Sequence[Action], rng: Rng) -> Action:
        if len(legal) == 1:
            return legal[0]
        s = cast(KnockdownState, view.sample(rng))
        me = view.player
        ph = s.phase
        if ph == TOWER:
            chance = s.tower_pass_chance(s.pend[2])
            return A.TOWER_PASS if rng.random() < chance else A.TOWER_FAIL
        if ph == KO:
            return A.KO_TEST if ko_worth_it(s, 1 - me) else A.KO_SKIP
        if ph in (DRAFT1, DRAFT2):
            offered = s.dealt[me] if ph == DRAFT1 else s.recv[me]
            values = [skill_value(s.setup.skills[i]) for i in offered]
            return A.SKILL[values.index(max(values))]
        if ph == FACEUP:
            v1 = skill_value(s.setup.skills[s.keep1[me]])
            v2 = skill_value(s.setup.skills[s.keep2[me]])
            return A.FACEUP[0 if v1 >= v2 else 1]
        return _Planner(me, s.victories).choose(s, legal)


def rollout_policy(state: State, legal: Sequence[Action], rng: Rng) -> Action:
    """A cheap playout policy for search: attack what reaches, close the distance, block the most,
    test a K.O. when it is likely; otherwise random."""
    s = cast(KnockdownState, state)
    d = s.to_act()
    if d is None:  # pragma: no cover - never asked when over
        return legal[0]
    kind = d.kind
    if kind == "turn":
        me = s.current
        best: Action | None = None
        best_v = 0.0
        a_pos, b_pos = s.pos[me], s.pos[1 - me]
        for a in legal:
            if a in A.ATTACK:
                card = s.setup.cards[s.row[A.INDEX[a]]]
                if card.hits and s.in_range(card.rng, a_pos, b_pos, 0):
                    v = 2 * card.heavy + card.light + (1 if card.effect else 0) + 0.5
                    if v > best_v:
                        best, best_v = a, v
        if best is not None:
            return best
        if A.COMBO in legal and rng.below(2) == 0:
            return A.COMBO
        dist = s.setup.arena.dist
        moves = [a for a in legal if a in A.MOVE]
        if moves and rng.below(3):
            nb = s.setup.arena.neighbors[a_pos]
            return min(moves, key=lambda a: dist[nb[A.INDEX[a]]][b_pos])
        return legal[rng.below(len(legal))]
    if kind == "knockdown":
        return A.KO_TEST if ko_worth_it(s, 1 - d.player) else A.KO_SKIP
    if kind == "tower_challenge":
        return A.TOWER_PASS if rng.random() < s.tower_pass_chance(s.pend[2]) else A.TOWER_FAIL
    if kind == "block":
        return legal[-1]
    if kind == "combo":
        specials = [a for a in legal if a in A.SPECIAL]
        if specials:
            return specials[rng.below(len(specials))]
        return A.COMBO_END if A.COMBO_END in legal and rng.below(2) else legal[rng.below(len(legal))]
    return legal[rng.below(len(legal))]


# ---------------------------------------------------------------- search support
ROLLOUT_DEPTH: Final = 0
"""ISMCTS playouts stop after this many actions and :func:`rollout_value` scores them.
0: no playout, every new leaf is scored by the estimate. Against `easy`, 300 iterations
with 4-action playouts won 3 of 6 matches; 1500 iterations with none won 5 of 6, at
about a tenth of the time a move of whole-match playouts."""

ROUND_SCALE: Final = 4.0
"""Table-score points per logit of the chance to win the round: fitted on 2,100 positions
of `easy` against `easy` (log-likelihood -0.60 a position; a heavy wound up, 2.2 points,
is then worth a 63 % round)."""

def _first_to(a: int, b: int) -> float:
    """The chance that a seat needing ``a`` more round wins gets them before its rival gets
    ``b``, each round even."""
    return sum(math.comb(a - 1 + k, k) * 0.5 ** (a + k) for k in range(b))


_MATCH: Final = {(n, v0, v1): _first_to(n - v0, n - v1) for n in (1, 2, 3) for v0 in range(n) for v1 in range(n)}
"""Seat 0's match chance by the rounds to win and the victories so far, later rounds even."""


def _match_chance(n: int, v0: int, v1: int) -> float:
    if v0 >= n:
        return 1.0
    if v1 >= n:
        return 0.0
    return _MATCH[(n, v0, v1)]


def rollout_value(state: State) -> tuple[float, float]:
    """Both seats' estimated match payoffs in an unfinished sampled state (for ISMCTS)."""
    s = cast(KnockdownState, state)
    if s.result is not None:
        return s.result.payoffs[0], s.result.payoffs[1]
    x = evaluate(s, 0, s.victories) / ROUND_SCALE
    p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))
    v0, v1 = s.victories
    n = s.cfg[5]
    v = p * _match_chance(n, v0 + 1, v1) + (1.0 - p) * _match_chance(n, v0, v1 + 1)
    return v, 1.0 - v

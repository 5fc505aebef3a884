"""A KNOCKBACK player that plans its whole turn and scores the board a person would.

Battle positions hide nothing, so a sample of the seat's view (``view.sample``) is
the true board. On its turn the bot tries every way to finish the turn (which card
to activate and, symbol by symbol, each move, punch, skip and edge choice, or
resting) and keeps the one whose final board scores best. Placement is scored the
same way; in a draft it keeps the card with the best raw numbers.

The score of a board, from the bot's side:

1. a round won or lost outweighs everything;
2. cards on the grid (10 each, mine minus theirs);
3. *danger*: my cards an enemy rested card could knock out on the opponent's coming
   turn, moving first if its symbols allow (-6 for the first, -1 for each more: the
   opponent moves next and knocks out one card at a time);
4. *chances*: enemy cards my rested cards could knock out the same way (+3, +0.5
   for each more);
5. rested cards of mine (+1 each) and exhausted enemy cards (+0.5 each);
6. a little for keeping my cards near the enemy (so a quiet board does not stall).

Anti-stall: when resting would change nothing (none of my cards is exhausted) and
no enemy card is in reach, two cautious bots would both pass until the turn limit.
On such a *stalled* turn a pass costs :data:`STALL` points, and the bot weighs danger
less (:data:`STALLED_DANGER`) and closing in on the enemy much more
(:data:`STALLED_NEAR`): it activates the card that best moves towards enemy cards or
threatens a punch next turn, accepting some risk. Resting to refresh exhausted cards
is untouched.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from typing import Final, cast

from knockabout.core.actions import Action
from knockabout.core.bot import Bot, SeatView
from knockabout.core.protocol import State
from knockabout.core.rng import Rng
from knockabout.games.knockback.actions import REST
from knockabout.games.knockback.cards import MOVE, PUNCH, Card
from knockabout.games.knockback.effects import attack_value, heart_value
from knockabout.games.knockback.grid import DELTA, OPP, coords
from knockabout.games.knockback.phases import BEST_OF, DRAFT, EDGE, MIDDLE, SPEED, SYMBOL, TURN
from knockabout.games.knockback.state import KnockbackState

ROUND: Final = 1000.0
CARD: Final = 10.0
DANGER: Final = 6.0
CHANCE: Final = 3.0
RESTED: Final = 1.0
TIRED_ENEMY: Final = 0.5
NEAR: Final = 0.2
NODE_CAP: Final = 4000
NOISE: Final = 1.5
"""Up to this many points of random preference between root choices, so the bot does
not play the same game twice (less than a card, about a rested card)."""
STALL: Final = 8.0
"""What a pure pass costs (see :func:`is_stalled`): more than walking one card into danger."""
STALLED_DANGER: Final = 3.0
"""The danger weight while the bot would otherwise pass: it accepts some risk to get going."""
STALLED_NEAR: Final = 2.0
"""The pull towards the enemy per cell on a stalled turn (ten times :data:`NEAR`) ..."""
STALLED_FAR: Final = 4
"""... counted up to this many cells, so closing in never outweighs a knockout."""


def card_value(c: Card) -> float:
    """How good a card looks on paper (for the draft)."""
    edges = sum(c.attack) + sum(c.heart)
    punches = sum(1 for s in c.symbols if s & PUNCH)
    return edges + 2.0 * len(c.symbols) + 1.5 * punches + 2.0 * len(c.effects)


def _weakest_heart(s: KnockbackState, t: int, d: int) -> int:
    """The heart a punch towards ``d`` meets on card ``t`` (its weakest choosable edge if exhausted)."""
    facing = OPP[d]
    if not s.exhausted >> t & 1:
        return heart_value(s, t, facing)
    tp = s.pos[t]
    grid = s.grid
    return min(heart_value(s, t, e) for e in range(4) if e == facing or tp + DELTA[e] not in grid)


def _reach(s: KnockbackState, i: int) -> dict[int, int]:
    """Cells card ``i`` could punch from on its next activation, with the steps it takes
    to get there: moves through empty cells before its last punching symbol."""
    syms = s.lab[i].symbols
    last = max(j for j, sym in enumerate(syms) if sym & PUNCH)
    k = sum(1 for sym in syms[:last] if sym & MOVE)
    here = s.pos[i]
    seen = {here: 0}
    frontier = [here]
    grid = s.grid
    for step in range(1, k + 1):
        nxt = []
        for c in frontier:
            for dd in DELTA:
                n = c + dd
                if n not in seen and n not in grid:
                    seen[n] = step
                    nxt.append(n)
        frontier = nxt
    return seen


def _threats(s: KnockbackState, i: int) -> int:
    """How many enemy cards card ``i`` could knock out on its next activation."""
    # Speed: this runs for every rested punching card in every evaluation of a search's
    # cut-off playouts. Rather than look around every cell card ``i`` can reach, look
    # at the (at most 4) cells around each enemy card (at most 3) and ask whether ``i``
    # reaches one: the same punches are tried, the values do not depend on the order.
    reach = _reach(s, i)
    pos = s.pos
    on = s.onboard
    enemies = range(0, 3) if i >= 3 else range(3, 6)
    saved = s.moved
    hits = 0
    try:
        for t in enemies:
            if not on >> t & 1:
                continue
            tp = pos[t]
            for d in range(4):
                steps = reach.get(tp - DELTA[d])  # punching towards d from that cell hits t
                if steps is None:
                    continue
                s.moved = steps
                if s.knocks_out(attack_value(s, i, t, d), _weakest_heart(s, t, d)):
                    hits += 1
                    break
    finally:
        s.moved = saved
    return hits


def evaluate(s: KnockbackState, me: int, round_no: int, wins: Sequence[int], stalled: bool = False) -> float:
    """The board's score for seat ``me`` (see the module text); ``stalled`` weighs it for a
    turn on which the bot would otherwise pass."""
    if s.result is not None:
        return ROUND * 10 * (s.result.payoffs[me] - 0.5)
    if s.round != round_no:
        gained = (s.wins[me] - wins[me]) - (s.wins[1 - me] - wins[1 - me])
        return ROUND * gained
    on = s.onboard
    pos = s.pos
    lab = s.lab
    score = 0.0
    mine_cells: list[int] = []
    theirs_cells: list[int] = []
    chances = dangers = 0
    for i in range(6):
        if not on >> i & 1:
            continue
        mine = (i >= 3) == (me == 1)
        rested = not s.exhausted >> i & 1
        if mine:
            score += CARD + (RESTED if rested else 0.0)
            mine_cells.append(pos[i])
        else:
            score -= CARD
            if not rested:
                score += TIRED_ENEMY
            theirs_cells.append(pos[i])
        if not rested or not any(sym & PUNCH for sym in lab[i].symbols):
            continue
        n = _threats(s, i)
        if mine:
            chances += n
        else:
            dangers += n
    # the opponent moves next and knocks out one card at most per activation
    if dangers:
        score -= (STALLED_DANGER if stalled else DANGER) + (dangers - 1)
    if chances:
        score += CHANCE + 0.5 * (chances - 1)
    if mine_cells and theirs_cells:
        best = min(
            abs(coords(a)[0] - coords(b)[0]) + abs(coords(a)[1] - coords(b)[1])
            for a in mine_cells
            for b in theirs_cells
        )
        score -= STALLED_NEAR * min(best, STALLED_FAR) if stalled else NEAR * best
    return score


def is_stalled(s: KnockbackState, me: int) -> bool:
    """Whether this is a stalled turn: resting would change nothing (none of my cards on
    the grid is exhausted) and no enemy card is in reach of any of my cards."""
    mine = 7 if me == 0 else 7 << 3
    if s.phase != TURN or s.exhausted & s.onboard & mine:
        return False
    return not any(
        s.onboard >> i & 1 and any(sym & PUNCH for sym in s.lab[i].symbols) and _threats(s, i)
        for i in range(6)
        if mine >> i & 1
    )


class HeuristicBot(Bot):
    """Plans the rest of its turn exhaustively and scores the resulting boards."""

    name = "heuristic"

    def __init__(self, noise: float = NOISE, stall: float = STALL) -> None:
        """``stall``: what a pass costs on a stalled turn (0 turns the anti-stall rule off)."""
        self.noise = noise
        self.stall = stall
        self._stalled = False
        self._stalled_turn: tuple[int, int, int] | None = None
        self._nodes = 0

    def describe(self) -> str:
        return "heuristic: tries every way to finish its turn and keeps the safest, most damaging board"

    def hint(self, view: SeatView, legal: Sequence[Action], rng: Rng) -> Action | None:
        """A move to start a search with (see :data:`SEARCH_PRIOR_VISITS`): this bot's pick
        on a stalled turn and through the activation it starts; None otherwise."""
        action = self.choose(view, legal, rng)
        return action if self._stalled else None

    def choose(self, view: SeatView, legal: Sequence[Action], rng: Rng) -> Action:
        if len(legal) == 1:
            return legal[0]
        s = view.sample(rng)
        assert isinstance(s, KnockbackState)
        me = view.player
        if s.phase == DRAFT:
            hand = s.hands[me]
            values = [card_value(s.cards[c]) + rng.random() * 0.01 for c in hand]
            return legal[max(range(len(legal)), key=lambda i: values[i])]
        self._nodes = 0
        # a stalled turn keeps its weights for every choice of the activation it starts
        turn = (s.round, s.turn, me)
        if s.phase == TURN:
            self._stalled = self.stall > 0 and is_stalled(s, me)
            self._stalled_turn = turn if self._stalled else None
        else:
            self._stalled = self._stalled_turn == turn
        round_no = s.round
        wins = list(s.wins)
        best = legal[0]
        best_v = float("-inf")
        for a in legal:
            c = s.clone()
            c.apply(a)
            v = self._best(c, me, round_no, wins) + rng.random() * self.noise
            if self._stalled and a is REST:
                v -= self.stall
            if v > best_v:
                best, best_v = a, v
        return best

    def _best(self, s: KnockbackState, me: int, round_no: int, wins: Sequence[int]) -> float:
        """The best score reachable by finishing my activation (if one is under way)."""
        self._nodes += 1
        if s.phase not in (SYMBOL, EDGE) or s.round != round_no or self._nodes > NODE_CAP:
            return evaluate(s, me, round_no, wins, self._stalled)
        best = float("-inf")
        for a in s.legal_actions():
            c = s.clone()
            c.apply(a)
            v = self._best(c, me, round_no, wins)
            if v > best:
                best = v
        return best


# ---------------------------------------------------------------- search support
ROLLOUT_DEPTH: Final = 0
"""ISMCTS playouts stop after this many actions and :func:`rollout_value` scores them.
0: no playout at all, every new leaf is scored by the estimate. Random playouts blunder
cards away and made the search weaker than this heuristic (it lost 4 of 5 matches to
`easy` with 40-action playouts, and won 6 of 6 with none)."""

SEARCH_PRIOR_VISITS: Final = 150
"""On a stalled turn (see :func:`is_stalled`) the ISMCTS levels start their search with
this heuristic's move holding 150 virtual wins (:meth:`HeuristicBot.hint`). Without it,
two `hard` bots rest until the turn limit (37 of 60 single-round matches ended drawn
that way): the search sees the danger of closing in, not the cost of a pass; the
anti-stall rule supplies that. Elsewhere the search is on its own."""

ROUND_SCALE: Final = 3.0
"""Board-score points per logit of the chance to win the round: fitted on 10,700
positions of `easy` against `easy` (log-likelihood -0.24 a position; a card up, 10
points, is then worth a 97 % round)."""


def round_chance(s: KnockbackState, me: int = 0) -> float:
    """Seat ``me``'s chance to win the round in play, from its board score (with the
    anti-stall weights on a quiet board, so that a search does not sit out the round)."""
    x = evaluate(s, me, s.round, s.wins, stalled=is_stalled(s, me)) / ROUND_SCALE
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


@cache
def _first_to(need0: int, need1: int) -> float:
    """Seat 0's chance to win ``need0`` rounds before seat 1 wins ``need1``, rounds even."""
    if need0 <= 0:
        return 1.0
    if need1 <= 0:
        return 0.0
    return 0.5 * (_first_to(need0 - 1, need1) + _first_to(need0, need1 - 1))


def _after_round(s: KnockbackState, winner: int) -> float:
    """Seat 0's match chance once the round in play goes to ``winner`` (later rounds even)."""
    if s.scoring == SPEED:
        return 1.0 - winner
    if s.scoring == BEST_OF:
        w0, w1 = s.wins[0] + (winner == 0), s.wins[1] + (winner == 1)
        return _first_to(s.need - w0, s.need - w1)
    # tug: the token ends the match on its owner's next round win, else moves to the middle
    if s.token == winner:
        return 1.0 - winner
    if s.token == MIDDLE:
        return 0.75 if winner == 0 else 0.25
    return 0.5


def _match_chance(s: KnockbackState, me: int) -> float:
    p = round_chance(s, me)
    seat0 = p * _after_round(s, me) + (1.0 - p) * _after_round(s, 1 - me)
    return seat0 if me == 0 else 1.0 - seat0


def rollout_value(state: State) -> tuple[float, float]:
    """Both seats' estimated match payoffs in an unfinished sampled state (for ISMCTS).

    Each seat's estimate comes from its own board score, so both prefer closing in on a
    quiet board (the anti-stall weights); the two need not add up to one."""
    s = cast(KnockbackState, state)
    if s.result is not None:
        return s.result.payoffs[0], s.result.payoffs[1]
    return _match_chance(s, 0), _match_chance(s, 1)

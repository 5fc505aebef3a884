"""A KNOCKBACK player that plans its whole turn and scores the board a person would.

Battle positions hide nothing, so a sample of the seat's view (``view.sample``) is
the true board. On its turn the bot tries every way to finish the turn (which card
to activate and, symbol by symbol, each move, punch, skip and edge choice, or
resting) and keeps the one whose final board scores best. Placement is scored the
same way; in a draft it keeps the card with the best raw numbers.

The score of a board, from the bot's side:

1. a round won or lost outweighs everything;
2. cards on the grid (10 each, mine minus theirs);
3. *danger*: each of my cards an enemy rested puncher next to it could knock out on
   the opponent's coming turn (-6 each; the opponent moves next);
4. *chances*: each enemy card one of my rested punchers next to it could knock out
   (+3 each);
5. rested cards of mine (+1 each) and exhausted enemy cards (+0.5 each);
6. a little for keeping my cards near the enemy (so a quiet board does not stall).
"""

from __future__ import annotations

from collections.abc import Sequence

from knockabout.bots.base import Bot, SeatView
from knockabout.core.actions import Action
from knockabout.core.rng import Rng
from knockabout.games.knockback.cards import PUNCH, Card
from knockabout.games.knockback.effects import attack_value, heart_value
from knockabout.games.knockback.state import DELTA, DRAFT, EDGE, OPP, SYMBOL, KnockbackState, coords

ROUND = 1000.0
CARD = 10.0
DANGER = 6.0
CHANCE = 3.0
RESTED = 1.0
TIRED_ENEMY = 0.5
NEAR = 0.2
NODE_CAP = 4000


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


def evaluate(s: KnockbackState, me: int, round_no: int, wins: Sequence[int]) -> float:
    """The board's score for seat ``me`` (see the module text)."""
    if s.result is not None:
        return ROUND * 10 * (s.result.payoffs[me] - 0.5)
    if s.round != round_no:
        gained = (s.wins[me] - wins[me]) - (s.wins[1 - me] - wins[1 - me])
        return ROUND * gained
    on = s.onboard
    grid = s.grid
    pos = s.pos
    lab = s.lab
    score = 0.0
    mine_cells: list[int] = []
    theirs_cells: list[int] = []
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
        here = pos[i]
        for d in range(4):
            t = grid.get(here + DELTA[d])
            if t is None or ((t >= 3) == (i >= 3)):
                continue
            if attack_value(s, i, t, d) > _weakest_heart(s, t, d):
                score += CHANCE if mine else -DANGER
    if mine_cells and theirs_cells:
        best = min(
            abs(coords(a)[0] - coords(b)[0]) + abs(coords(a)[1] - coords(b)[1])
            for a in mine_cells
            for b in theirs_cells
        )
        score -= NEAR * best
    return score


class HeuristicBot(Bot):
    """Plans the rest of its turn exhaustively and scores the resulting boards."""

    name = "heuristic"

    def describe(self) -> str:
        return "heuristic: tries every way to finish its turn and keeps the safest, most damaging board"

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
        round_no = s.round
        wins = list(s.wins)
        best = legal[0]
        best_v = float("-inf")
        for a in legal:
            c = s.clone()
            c.apply(a)
            v = self._best(c, me, round_no, wins) + rng.random() * 1e-3
            if v > best_v:
                best, best_v = a, v
        return best

    def _best(self, s: KnockbackState, me: int, round_no: int, wins: Sequence[int]) -> float:
        """The best score reachable by finishing my activation (if one is under way)."""
        self._nodes += 1
        if s.phase not in (SYMBOL, EDGE) or s.round != round_no or self._nodes > NODE_CAP:
            return evaluate(s, me, round_no, wins)
        best = float("-inf")
        for a in s.legal_actions():
            c = s.clone()
            c.apply(a)
            v = self._best(c, me, round_no, wins)
            if v > best:
                best = v
        return best

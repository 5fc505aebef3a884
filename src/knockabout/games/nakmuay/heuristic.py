"""A Nak Muay Knockout player made of rules a person would recognise.

It reads only its seat's view (:class:`~knockabout.games.nakmuay.view.NakMuayView`:
hand, public piles, hand sizes, what it saw with Scout or where it hid a KO, the table's
options) and works out the odds from it: the chance that the
next draws hold a KO is the number of KOs whose place it does not know over the
number of pile cards whose identity it does not know, position by position.

Rules, in the order they are tried on its turn:

1. *Countdown for the kill*: play a Countdown when the target probably cannot answer.
2. *A KO I know is on top*: make the next player draw it (Attack), or step around it
   (Dodge, Scout, Sweep).
3. *Scout before a risky draw* when there is no Block to save me.
4. *Attack when the KO odds are high*: the bigger the Attack, the more draws.
5. *Dodge a risky draw* with no Block in hand.
6. *Steal a Block* with a Clinch triple (name Block, then Dodge, then Countdown...).
7. *Steal from the biggest hand* with a Clinch pair.
8. Otherwise draw. Blocks are never spent except on a KO or as the last answer to a
   Countdown.

Reactions: Dodge an Attack when its draws would likely knock me out; answer a
Countdown with the cheapest card that works (a lone Clinch, then Dodge, then Block);
hide a blocked KO where the next opponent will draw it; after Scout keep the best card
and stack the rest so that a KO falls to an opponent; steal from the biggest hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations
from math import comb
from typing import Final

from knockabout.core.actions import Action
from knockabout.core.bot import Bot, SeatView
from knockabout.core.protocol import State
from knockabout.core.rng import Rng
from knockabout.games.nakmuay import actions as A
from knockabout.games.nakmuay import cards as C
from knockabout.games.nakmuay import phases as P
from knockabout.games.nakmuay.state import NakMuayState
from knockabout.games.nakmuay.view import NakMuayView, Pending

# How much a card in hand is worth to this player (to keep, to take, to ask for).
VALUE: Final[dict[int, float]] = {
    C.BLOCK: 10.0,
    C.DODGE: 7.0,
    C.COUNTDOWN: 6.0,
    C.ATTACK3: 5.0,
    C.ATTACK2: 4.0,
    C.SCOUT: 4.0,
    C.ATTACK1: 3.0,
    C.SWEEP: 2.0,
}
for _h in C.HOLDS:
    VALUE[_h] = 1.0

# Thresholds of the rules (probabilities).
COUNTDOWN_KILL: Final = 0.25
SCOUT_RISK: Final = 0.08
ATTACK_ODDS: Final = 0.25
DODGE_RISK: Final = 0.30
DODGE_ATTACK_RISK: Final = 0.10
NAME_ORDER: Final[tuple[int, ...]] = (C.BLOCK, C.DODGE, C.COUNTDOWN, C.ATTACK3, C.ATTACK2)
ANSWERS: Final[tuple[int, ...]] = (C.BLOCK, C.DODGE, *C.HOLDS)


def hypergeom_at_least(total: int, good: int, drawn: int, k: int) -> float:
    """P(at least ``k`` good items among ``drawn`` taken from ``total`` with ``good`` good)."""
    if k <= 0:
        return 1.0
    if drawn <= 0 or total <= 0 or good <= 0:
        return 0.0
    drawn = min(drawn, total)
    denom = comb(total, drawn)
    p = 0.0
    for j in range(k, min(good, drawn) + 1):
        p += comb(good, j) * comb(total - good, drawn - j) / denom
    return p


class Table:
    """What the seat can tell about the game, worked out from its observation
    (:meth:`from_observation`)."""

    def __init__(
        self,
        *,
        me: int,
        n: int,
        current: int,
        direction: int,
        active: list[bool],
        sizes: list[int],
        pile: int,
        kind: str,
        strict: bool,
        pending: Pending,
        hand: list[int],
        known: dict[int, int],
        seen: list[int],
        absent: dict[int, set[int]],
        discard: list[int],
        ko_in_pile: int,
    ) -> None:
        self.me = me
        self.n = n
        self.current = current
        self.direction = direction
        self.active = active
        self.sizes = sizes
        self.pile = pile
        self.kind = kind
        self.strict = strict
        """Every major action ends the turn with no draw (the ``strict_end_turn`` option)."""
        self.pending = pending
        self.hand = hand
        self.known = known
        self.seen = seen
        self.absent = absent
        # cards whose whereabouts this seat does not know (other hands, unknown pile slots)
        unknown = C.in_play_counts(n)
        for kind_ in range(C.NUM_KINDS):
            unknown[kind_] -= hand[kind_]
        for kind_ in discard:
            unknown[kind_] -= 1
        for kind_ in known.values():
            unknown[kind_] -= 1
        for kind_ in seen:
            unknown[kind_] -= 1
        if kind == "countdown_response" or pending.countdown:
            unknown[C.COUNTDOWN] -= 1  # the Countdown being played
        # KOs: those in the pile minus the ones I know the place of (or hold in view)
        kos = ko_in_pile - sum(1 for v in known.values() if v == C.KO) - sum(1 for v in seen if v == C.KO)
        self.ko_unknown = max(0, kos)
        unknown[C.KO] = self.ko_unknown
        self.unknown = [max(0, u) for u in unknown]
        self.slots_unknown = max(0, pile - len(known))

    @classmethod
    def from_observation(cls, obs: NakMuayView) -> Table:
        """The table as the seat ``obs.seat`` sees it (a seat's view, not a spectator's)."""
        if obs.seat is None:
            raise ValueError("the heuristic reads a seat's view, not a spectator's")
        k = C.KIND_BY_NAME
        hand = [0] * C.NUM_KINDS
        for name in obs.hand or ():
            hand[k[name]] += 1
        pending = obs.pending
        return cls(
            me=obs.seat,
            n=obs.players,
            current=obs.current,
            direction=1 if obs.direction == "clockwise" else -1,
            active=list(obs.active),
            sizes=list(obs.hand_sizes),
            pile=obs.draw_pile,
            kind=obs.decision.kind if obs.decision else "",
            strict=obs.end_turn == "strict_end_turn",
            pending=pending,
            hand=hand,
            known={e.depth: k[e.card] for e in obs.known_pile or ()},
            seen=[k[x] for x in pending.seen or ()],
            absent={int(p): {k[x] for x in names} for p, names in obs.no_answers.items()},
            discard=[k[name] for name in obs.discard],
            ko_in_pile=obs.ko_in_pile,
        )

    # -- who is where
    def next_active(self, p: int, direction: int | None = None) -> int:
        d = self.direction if direction is None else direction
        q = (p + d) % self.n
        while not self.active[q]:
            q = (q + d) % self.n
        return q

    def opponents(self) -> list[int]:
        return [p for p in range(self.n) if p != self.me and self.active[p]]

    def turn_order_after(self, p: int, count: int) -> list[int]:
        """The players whose turns come after ``p``'s, in order (cycling)."""
        out: list[int] = []
        q = p
        while len(out) < count:
            q = self.next_active(q)
            out.append(q)
        return out

    # -- odds
    def ko_chance_at(self, depth: int) -> float:
        """P(the card ``depth`` below the top is a KO), as far as this seat can tell."""
        if depth in self.known:
            return 1.0 if self.known[depth] == C.KO else 0.0
        if depth >= self.pile or not self.slots_unknown:
            return 0.0
        return self.ko_unknown / self.slots_unknown

    def knockout_risk(self, draws: int, blocks: int) -> float:
        """P(more KOs than ``blocks`` among the next ``draws`` cards)."""
        draws = min(draws, self.pile)
        fixed = sum(1 for d in range(draws) if self.known.get(d) == C.KO)
        blind = sum(1 for d in range(draws) if d not in self.known)
        return hypergeom_at_least(self.slots_unknown, self.ko_unknown, blind, blocks + 1 - fixed)

    def pool_for(self, p: int) -> tuple[int, list[int]]:
        """The unknown non-KO cards ``p``'s hand is drawn from (minus kinds they said 'no' to)."""
        banned = self.absent.get(p, set())
        counts = [0 if (k == C.KO or k in banned) else self.unknown[k] for k in range(C.NUM_KINDS)]
        return sum(counts), counts

    def chance_holds_none(self, p: int, kinds: Sequence[int]) -> float:
        """P(player ``p`` holds none of ``kinds``), their hand drawn from the unknown cards."""
        total, counts = self.pool_for(p)
        good = sum(counts[k] for k in kinds)
        h = self.sizes[p]
        if h == 0:
            return 1.0
        if total < h:
            total = h + good
        return 1.0 - hypergeom_at_least(total, good, h, 1)


class HeuristicBot(Bot):
    """Rules of thumb for Nak Muay Knockout; see the module text for the list.

    ``reason`` holds the name of the rule behind the last choice.
    """

    name = "heuristic"

    def __init__(self) -> None:
        self.reason = ""

    def describe(self) -> str:
        return "heuristic: Nak Muay rules of thumb (keep Blocks, dodge bad odds, scout, steal, hide KOs)"

    def choose(self, view: SeatView, legal: Sequence[Action], rng: Rng) -> Action:
        if len(legal) == 1:
            self.reason = "only move"
            return legal[0]
        obs = view.observation()
        if not isinstance(obs, NakMuayView):
            raise TypeError(f"the Nak Muay heuristic reads a NakMuayView, not {type(obs).__name__}")
        t = Table.from_observation(obs)
        by_text = {a.text: a for a in legal}
        strict = t.strict if t.kind in ("action", "hide_ko", "scout_order") else False
        text, self.reason = self._decide(t, by_text, strict)
        return by_text.get(text, legal[0])

    # ------------------------------------------------------------------ rules
    def _decide(self, t: Table, legal: dict[str, Action], strict: bool) -> tuple[str, str]:
        kind = t.kind
        if kind == "action":
            return self._turn(t, legal, strict)
        if kind == "attack_response":
            draws = 1 if t.pending.value is None else t.pending.value
            risk = t.knockout_risk(draws, t.hand[C.BLOCK])
            if "dodge" in legal and risk >= DODGE_ATTACK_RISK:
                return "dodge", "dodge an Attack when its draws would likely knock me out"
            return "take", "take the draws: the odds are fine"
        if kind == "countdown_response":
            return self._answer_countdown(t, legal)
        if kind == "hide_ko":
            return self._hide(t, legal, strict)
        if kind == "scout_take":
            return self._scout_take(t, legal)
        if kind == "scout_order":
            return self._scout_order(t, legal, strict)
        if kind == "sweep_direction":
            return self._direction(t)
        if kind == "steal_target":
            return f"target:{self._biggest_hand(t)}", "steal from the biggest hand"
        if kind == "triple_name":
            return self._name(t, legal)
        return next(iter(legal)), "no rule for this decision"

    def _turn(self, t: Table, legal: dict[str, Action], strict: bool) -> tuple[str, str]:
        hand = t.hand
        blocks = hand[C.BLOCK]
        target = t.next_active(t.me)
        top_ko = t.ko_chance_at(0)
        attacks = [k for k in (C.ATTACK1, C.ATTACK2, C.ATTACK3) if hand[k]]

        if "countdown" in legal:
            helpless = t.chance_holds_none(target, ANSWERS)
            if helpless >= COUNTDOWN_KILL:
                return "countdown", "countdown for the kill: the target probably cannot answer"

        if top_ko == 1.0:
            if attacks:
                return _attack(attacks[0]), "a KO I know is on top: make the next player draw it"
            if strict:
                for option in ("scout", "sweep", "dodge"):
                    if option in legal:
                        return option, "a KO I know is on top: any move skips my draw"
            if blocks == 0:
                for option in ("dodge", "scout", "sweep"):
                    if option in legal:
                        return option, "a KO I know is on top: step around it"

        if blocks == 0 and "scout" in legal and top_ko >= SCOUT_RISK and 0 not in t.known:
            return "scout", "scout before a risky draw"

        if attacks:
            for k in reversed(attacks):  # biggest first
                draws = C.ATTACK_VALUE[k]
                odds = t.knockout_risk(draws, 0)
                if odds >= ATTACK_ODDS and t.chance_holds_none(target, (C.BLOCK,)) > 0.2:
                    return _attack(k), "attack when the KO odds are high"

        if blocks == 0 and top_ko >= DODGE_RISK:
            if strict:
                for option in ("scout", "sweep", "countdown", "dodge"):
                    if option in legal:
                        return option, "a risky draw: any move skips it"
                if attacks:
                    return _attack(attacks[-1]), "a risky draw: any move skips it"
            if "dodge" in legal:
                return "dodge", "dodge a risky draw with no Block in hand"

        triples = [a for a in legal if a.startswith("triple:")]
        if triples and any(t.chance_holds_none(p, (C.BLOCK,)) < 0.9 for p in t.opponents()):
            return _cheapest_triple(t, triples), "steal a Block with a Clinch triple"

        pairs = [a for a in legal if a.startswith("pair:")]
        if pairs and max(t.sizes[p] for p in t.opponents()) >= 3:
            pairs.sort(key=lambda a: -hand[C.KIND_BY_NAME[a.split(":")[1]]])
            return pairs[0], "steal from the biggest hand with a Clinch pair"

        return "draw", "nothing better: draw"

    def _answer_countdown(self, t: Table, legal: dict[str, Action]) -> tuple[str, str]:
        clinches = [a for a in legal if a.startswith("clinch:")]
        if clinches:
            # a lone hold first, so pairs stay whole for stealing
            def held(a: str) -> int:
                return t.hand[C.KIND_BY_NAME[a.split(":")[1]]]

            clinches.sort(key=lambda a: (held(a) == 2, -held(a)))
            return clinches[0], "answer a Countdown with the cheapest card: a Clinch"
        if "dodge" in legal:
            return "dodge", "answer a Countdown with the cheapest card: Dodge"
        if "block" in legal:
            return "block", "answer a Countdown with the last resort: Block"
        return "no-response", "no answer to the Countdown"

    def _hide(self, t: Table, legal: dict[str, Action], strict: bool) -> tuple[str, str]:
        drawer = t.me if t.pending.drawer is None else t.pending.drawer
        left = t.pending.draws_left or 0
        order = [drawer] * left
        if drawer != t.current and not strict:
            order.append(t.current)  # the attacker still draws after my draws
        order += t.turn_order_after(t.current, 2 * t.n)
        for depth, who in enumerate(order):
            if who != t.me and f"hide:{depth}" in legal:
                return f"hide:{depth}", "hide the KO where the next opponent will draw it"
        deepest = max((a for a in legal if a.startswith("hide:")), key=lambda a: int(a.split(":")[1]))
        return deepest, "hide the KO as deep as it goes"

    def _scout_take(self, t: Table, legal: dict[str, Action]) -> tuple[str, str]:
        best, best_v = "", -1.0
        for i, k in enumerate(t.seen):
            text = f"scout-take:{i}"
            if text not in legal:
                continue
            v = VALUE.get(k, 0.0)
            if k in C.HOLDS and t.hand[k] == 1:
                v = 3.5  # completes a pair
            if v > best_v:
                best, best_v = text, v
        if not best:
            return "scout-take:none", "scout: only KOs, take nothing"
        return best, "scout: keep the best card"

    def _scout_order(self, t: Table, legal: dict[str, Action], strict: bool) -> tuple[str, str]:
        seen = t.seen
        drawers = ([] if strict else [t.me]) + t.turn_order_after(t.me, len(seen) + t.n)
        blocks = t.hand[C.BLOCK]
        best, best_score = "", float("-inf")
        for perm in permutations(range(len(seen))):
            text = "order:" + ",".join(str(i) for i in perm)
            if text not in legal:
                continue
            score = 0.0
            for pos, i in enumerate(perm):
                who = drawers[pos]
                if seen[i] == C.KO:
                    score += (-3.0 if blocks else -100.0) if who == t.me else 10.0 / (pos + 1)
                elif who == t.me:
                    score += VALUE.get(seen[i], 0.0) / (pos + 1)
            if score > best_score:
                best, best_score = text, score
        return best, "scout: stack the pile so a KO falls to an opponent"

    def _direction(self, t: Table) -> tuple[str, str]:
        ahead = t.next_active(t.me, t.direction)
        behind = t.next_active(t.me, -t.direction)
        if t.sizes[behind] > t.sizes[ahead]:
            return "reverse", "point play at the biggest hand"
        return "keep", "keep the direction"

    def _biggest_hand(self, t: Table) -> int:
        order = t.turn_order_after(t.me, t.n)
        return max((p for p in order if p != t.me), key=lambda p: t.sizes[p])

    def _name(self, t: Table, legal: dict[str, Action]) -> tuple[str, str]:
        target = -1 if t.pending.target is None else t.pending.target
        banned = t.absent.get(target, set())
        for k in NAME_ORDER:
            text = f"name:{C.NAMES[k]}"
            if text in legal and t.unknown[k] > 0 and k not in banned:
                return text, f"ask for a {C.TITLES[k]}"
        return "take-random", "nothing worth naming is left: take one at random"


def _attack(kind: int) -> str:
    return f"attack:{C.ATTACK_VALUE[kind]}"


def _cheapest_triple(t: Table, triples: list[str]) -> str:
    """The triple that breaks the fewest pairs."""

    def cost(text: str) -> int:
        return sum(1 for name in text.split(":")[1].split("+") if t.hand[C.KIND_BY_NAME[name]] == 2)

    return min(triples, key=cost)


# ---------------------------------------------------------------------------
# A cheap playout policy for search (ISMCTS rollouts).
#
# Search plays thousands of games to the end from *sampled* states (view.sample), so
# it may read a sample's fields directly; the rules below still use only what the
# deciding player would know in that sample (their own hand and public counts),
# never the order of the sampled pile, so playouts are not clairvoyant.


def rollout_policy(state: State, legal: Sequence[Action], rng: Rng) -> Action:
    """A quick, sensible move for whoever decides in a sampled Nak Muay state."""
    s = state
    if not isinstance(s, NakMuayState):
        return legal[rng.below(len(legal))]
    phase = s.phase
    if phase == P.COUNTDOWN:
        hand = s.hands[s.decider]
        for h in C.HOLDS:
            if hand[h] == 1:
                return A.CLINCH[h]
        for h in C.HOLDS:
            if hand[h]:
                return A.CLINCH[h]
        if hand[C.DODGE]:
            return A.DODGE
        if hand[C.BLOCK]:
            return A.BLOCK
        return A.NO_RESPONSE
    if phase == P.HIDE_KO:
        depth = s.draws_left + (1 if s.draw_player != s.current and s.strict else 0)
        return A.HIDE[min(depth, len(s.pile))]
    pile = len(s.pile) or 1
    density = s.in_play[C.KO] / pile
    if phase == P.ATTACK_REACT:
        hand = s.hands[s.decider]
        if A.DODGE in legal and not hand[C.BLOCK] and density * s.attack_value >= 0.15:
            return A.DODGE
        return A.TAKE
    if phase == P.ACTION and rng.below(4):
        hand = s.hands[s.current]
        if hand[C.COUNTDOWN] and rng.below(2):
            return A.COUNTDOWN
        if not hand[C.BLOCK] and density >= 0.3:
            if hand[C.DODGE]:
                return A.DODGE
            if hand[C.SCOUT]:
                return A.SCOUT
        for k in (C.ATTACK3, C.ATTACK2, C.ATTACK1):
            if hand[k] and density * C.ATTACK_VALUE[k] >= 0.25:
                return A.ATTACK[k]
        return A.DRAW
    return legal[rng.below(len(legal))]

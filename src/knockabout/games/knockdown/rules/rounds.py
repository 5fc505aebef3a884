"""Turns, rounds and the match: the Attack Row refill and the Candles, start and end of a
turn, the turn limit, winning a round (Knockdown Test or empty deck) and the next round."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from knockabout.core.events import Event, public
from knockabout.core.protocol import Outcome
from knockabout.games.knockdown.content.match import TK_FLAME, TK_POISON, TK_STUN
from knockabout.games.knockdown.rules.phases import BUSY, OVER
from knockabout.games.knockdown.rules.tasks import START_TURN, TURN_READY, RunOps

if TYPE_CHECKING:
    from knockabout.games.knockdown.state import KnockdownState

CANDLE: Final = -2
"""A Candle card in the deck (the Fading Menhir arena)."""


def refill(s: KnockdownState, ev: list[Event]) -> bool:
    """Fill the Attack Row to 4; False when the deck runs out first."""
    row = s.row
    deck = s.deck
    for i in range(4):
        while row[i] < 0:
            if not deck:
                return False
            d = deck.pop()
            if d == CANDLE:
                s.candle += 1
                ar = s.setup.arena
                ev.append(public("candle", count=s.candle, left=ar.minx + s.candle - 1,
                                 right=ar.maxx - s.candle + 1))
                continue
            row[i] = d
            ev.append(public("row_card", slot=i, card=s.setup.cards[d].name))
    return True


def shuffle_in_candles(s: KnockdownState, ev: list[Event]) -> None:
    if s.setup.candles:
        s.deck += [CANDLE] * s.setup.candles
        s.rng.shuffle(s.deck)
        ev.append(public("candles_shuffled", count=s.setup.candles))


def begin_round_tasks(s: KnockdownState) -> None:
    f = s.first
    s.current = f
    s.tasks.append(START_TURN)
    for p in (1 - f, f):
        for sid in reversed(s.active_skills(p)):
            for prog in reversed(s.setup.round_start[sid]):
                s.tasks.append(RunOps(prog, 0, p))


def start_turn(s: KnockdownState, ev: list[Event]) -> None:
    me = s.current
    s.turn += 1
    ev.append(public("turn", player=me, turn=s.turn, round=s.round_no))
    if not refill(s, ev):
        h, lt = s.heavy, s.light
        if h[0] != h[1]:
            w = 0 if h[0] < h[1] else 1
        elif lt[0] != lt[1]:
            w = 0 if lt[0] < lt[1] else 1
        else:
            w = me
        ev.append(public("deck_empty", winner=w))
        round_over(s, w, "deck", ev)
        return
    s.reacted = [0, 0]
    s.actions_done = 0
    s.actions_allowed = 2
    if s.tokens[me][TK_STUN]:
        s.tokens[me][TK_STUN] -= 1
        s.actions_allowed = 1
        ev.append(public("stunned", player=me))
    s.tasks.append(TURN_READY)
    for sid in reversed(s.active_skills(me)):
        for prog in reversed(s.setup.turn_start[sid]):
            s.tasks.append(RunOps(prog, 0, me))


def end_turn(s: KnockdownState, ev: list[Event]) -> None:
    me = s.current
    cols = s.candle_columns()
    if cols is not None:
        x = s.setup.arena.xs[s.pos[me]]
        if x <= cols[0] or x >= cols[1]:
            s.heavy[me] += 1
            ev.append(public("wounds", player=me, heavy=1, light=0, source="menhir"))
    toks = s.tokens[me]
    if toks[TK_POISON]:
        n = toks[TK_POISON]
        s.light[me] += n
        toks[TK_POISON] -= 1
        ev.append(public("wounds", player=me, heavy=0, light=n, source="poison"))
    if toks[TK_FLAME]:
        toks[TK_FLAME] = 0
        s.heavy[me] += 1
        ev.append(public("wounds", player=me, heavy=1, light=0, source="flame"))
    ev.append(public("end_turn", player=me))
    if s.turn >= s.cfg[3]:
        s.result = Outcome.shared((0, 1), 2, f"turn limit ({s.cfg[3]}) reached")
        s.decide(OVER, -1)
        s.tasks.clear()
        ev.append(public("game_over", winners=[0, 1], draw=True))
        return
    s.current = 1 - me
    s.tasks.append(START_TURN)


def round_over(s: KnockdownState, winner: int, reason: str, ev: list[Event]) -> None:
    s.tasks.clear()
    s.clear_attack()
    s.victories[winner] += 1
    ev.append(public("round_won", player=winner, round=s.round_no, reason=reason,
                     victories=list(s.victories)))
    if s.victories[winner] >= s.cfg[5]:  # rounds_to_win (2 as printed)
        s.result = Outcome.win(winner, 2, "knockdown" if reason == "knockdown" else "fewest wounds")
        s.decide(OVER, -1)
        ev.append(public("game_over", winners=[winner], draw=False))
        return
    loser = 1 - winner
    if not s.revealed[loser]:
        s.revealed[loser] = True
        s.refresh_symbols(loser)
        for sid in s.active_skills(loser)[1:]:
            ev.append(public("skill_revealed", player=loser, skill=s.setup.skills[sid].name,
                             initiative=s.setup.skills[sid].initiative))
    setup = s.setup
    s.round_no += 1
    s.first = loser
    s.heavy = [0, 0]
    s.light = [0, 0]
    s.hands = [[], []]
    s.tokens = [list(setup.start_tokens[0]), list(setup.start_tokens[1])]
    s.traps = []
    s.contam_left = setup.contamination_count
    s.pos = [setup.arena.starts[0], setup.arena.starts[1]]
    s.deck = list(setup.deck)
    s.rng.shuffle(s.deck)
    s.discard = []
    s.candle = 0
    s.row = [s.deck.pop() for _ in range(4)]
    ev.append(public("new_round", round=s.round_no, first=loser,
                     row=[setup.cards[d].name for d in s.row]))
    shuffle_in_candles(s, ev)
    begin_round_tasks(s)
    s.phase = BUSY

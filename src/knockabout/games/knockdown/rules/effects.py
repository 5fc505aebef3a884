"""The effect interpreter: every card, sheet and skill effect is a program of ops (see
:data:`..content.ops.Op`), and this is the one place that runs them.

An op that needs a decision (a step, a blink, a card to discard...) pushes the rest of its
program back on the task stack and stops; the program goes on after the answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, assert_never

from knockabout.core.events import Event, public
from knockabout.games.knockdown.content.match import TK_TRAP, TOKEN_INDEX
from knockabout.games.knockdown.content.ops import (
    BackwardOp,
    BlinkOp,
    CancelMoveOp,
    Cond,
    ContaminateOp,
    DiscardForTokensOp,
    DiscardOp,
    ForwardOp,
    HealOp,
    IgnoreAttackOp,
    PlaceTokenOp,
    PlaceTrapOp,
    RemoveTokenOp,
    RevealDiscardOp,
    SpendForStepsOp,
    StepOp,
    TakeFromRowOp,
    TransferWoundOp,
    WoundOp,
    WoundPerSymbolOp,
)
from knockabout.games.knockdown.content.vocabulary import SYMBOL_INDEX, TOKENS
from knockabout.games.knockdown.rules.hands import gain
from knockabout.games.knockdown.rules.phases import (
    BLINK,
    C_DISCARD,
    C_FOR_TOKENS,
    C_REVEAL,
    C_REVEAL_PICK,
    CARD,
    COUNT,
    BlinkPending,
    CardPending,
    CountPending,
)
from knockabout.games.knockdown.rules.tasks import RowPick, RunOps, Steps, Take

if TYPE_CHECKING:
    from knockabout.games.knockdown.state import KnockdownState


def _holds(s: KnockdownState, c: Cond | None, actor: int) -> bool:
    """Whether an op's condition holds (no condition: always)."""
    if c is None:
        return True
    who = actor if c.on == "self" else 1 - actor
    return (s.tokens[who][TOKEN_INDEX[c.has]] > 0) == c.present


def run_ops(s: KnockdownState, task: RunOps, ev: list[Event]) -> None:
    """Run the task's program from its op ``pc`` on for its actor, until it ends or waits for a decision."""
    prog, pc, actor = task.program, task.pc, task.actor
    ops = s.setup.programs[prog]
    opp = 1 - actor
    tasks = s.tasks
    arena = s.setup.arena
    while pc < len(ops):
        op = ops[pc]
        pc += 1
        if not _holds(s, op.when, actor):
            continue
        match op:
            case WoundOp():
                who = actor if op.target == "self" else opp
                s.heavy[who] += op.heavy
                s.light[who] += op.light
                ev.append(public("wounds", player=who, heavy=op.heavy, light=op.light, source="effect"))
            case WoundPerSymbolOp():
                syms = s.symtab[actor]
                want = -1 if op.symbol == "any" else SYMBOL_INDEX[op.symbol]
                count = sum(sum(1 for x in syms[d] if want < 0 or x == want) for d in s.hands[actor])
                n = count // op.per
                if n:
                    h, lt = (n, 0) if op.kind == "heavy" else (0, n)
                    s.heavy[opp] += h
                    s.light[opp] += lt
                    ev.append(public("wounds", player=opp, heavy=h, light=lt, source="effect"))
            case BackwardOp() | ForwardOp():
                backward = isinstance(op, BackwardOp)
                mover = opp if backward else actor
                for _ in range(op.steps):
                    di = s.away(s.pos[opp], s.pos[actor])  # the actor-to-opponent direction
                    nxt = arena.neighbors[s.pos[mover]][di]
                    if nxt < 0 or nxt == s.pos[1 - mover]:
                        break
                    s.place(mover, nxt, ev, "backward" if backward else "forward")
            case StepOp():
                mover = actor if op.who == "self" else opp
                tasks.append(RunOps(prog, pc, actor))
                tasks.append(Steps(mover, op.steps, op.optional, actor, False))
                return
            case BlinkOp():
                mover = actor if op.who == "self" else opp
                anchor = s.pos[actor] if op.anchor == "actor" else s.pos[mover]
                dist = arena.dist[anchor]
                cands = tuple(x for x in range(arena.size)
                              if op.min <= dist[x] <= op.max and x != s.pos[0] and x != s.pos[1])
                if cands:
                    tasks.append(RunOps(prog, pc, actor))
                    s.decide(BLINK, actor, BlinkPending(mover, 0, cands))
                    return
            case PlaceTokenOp():
                who = actor if op.on == "self" else opp
                n = gain(s, who, TOKEN_INDEX[op.token], op.count)
                if n:
                    ev.append(public("tokens", player=who, token=op.token, change=n))
            case RemoveTokenOp():
                who = actor if op.source == "self" else opp
                tok = TOKEN_INDEX[op.token]
                n = min(op.count, s.tokens[who][tok])
                if n:
                    s.tokens[who][tok] -= n
                    ev.append(public("tokens", player=who, token=op.token, change=-n))
            case DiscardOp():
                owner = actor if op.who == "self" else opp
                if s.hands[owner]:
                    chooser = owner if op.chooser == "owner" else actor
                    tasks.append(RunOps(prog, pc, actor))
                    s.decide(CARD, chooser, CardPending(C_DISCARD, owner, chooser, op.count, (), ()))
                    return
            case RevealDiscardOp():
                hand = s.hands[opp]
                if hand:
                    tasks.append(RunOps(prog, pc, actor))
                    if len(hand) <= op.reveal:
                        revealed = tuple(range(len(hand)))
                        ev.append(public("reveal", player=opp, card=", ".join(s.setup.cards[d].name for d in hand)))
                        s.decide(CARD, actor, CardPending(C_REVEAL_PICK, opp, actor, 1, revealed, ()))
                    else:
                        s.decide(CARD, opp, CardPending(C_REVEAL, opp, opp, op.reveal, (), (actor,)))
                    return
            case TakeFromRowOp():
                tasks.append(RunOps(prog, pc, actor))
                tasks.append(RowPick(actor, op.count, False))
                return
            case HealOp():
                h = min(op.heavy, s.heavy[actor])
                lt = min(op.light, s.light[actor])
                s.heavy[actor] -= h
                s.light[actor] -= lt
                if h or lt:
                    ev.append(public("heal", player=actor, heavy=h, light=lt))
            case SpendForStepsOp():
                tok = TOKEN_INDEX[op.token]
                if s.tokens[actor][tok]:
                    tasks.append(RunOps(prog, pc, actor))
                    s.decide(COUNT, actor, CountPending(actor, tok))
                    return
            case DiscardForTokensOp():
                sym = SYMBOL_INDEX[op.symbol]
                tok = TOKEN_INDEX[op.token]
                if any(sym in s.symtab[actor][d] for d in s.hands[actor]):
                    tasks.append(RunOps(prog, pc, actor))
                    s.decide(CARD, actor, CardPending(C_FOR_TOKENS, actor, actor, 99, (), (sym, tok)))
                    return
            case TransferWoundOp():
                for _ in range(op.count):
                    if s.heavy[actor]:
                        s.heavy[actor] -= 1
                        s.heavy[opp] += 1
                        ev.append(public("wound_moved", player=actor, to=opp, kind="heavy"))
                    elif s.light[actor]:
                        s.light[actor] -= 1
                        s.light[opp] += 1
                        ev.append(public("wound_moved", player=actor, to=opp, kind="light"))
            case PlaceTrapOp():
                mark = s.pos[actor] * 2 + actor
                if mark not in s.traps and len(s.traps) < s.setup.supply[TK_TRAP]:
                    s.traps.append(mark)
                    here = s.pos[actor]
                    ev.append(public("trap_set", player=actor, space=here, at=arena.labels[here]))
            case ContaminateOp():
                if s.contam_left > 0 and s.setup.contamination >= 0:
                    s.contam_left -= 1
                    tasks.append(RunOps(prog, pc, actor))
                    tasks.append(Take(opp, s.setup.contamination))
                    return
            case CancelMoveOp():
                s.move_cancel = True
            case IgnoreAttackOp():
                s.atk_void = True
            case _:
                assert_never(op)



def spend_tokens(s: KnockdownState, n: int, ev: list[Event]) -> None:
    """The answer to a ``spend_for_steps`` op (phase COUNT): spend ``n`` tokens, then that many steps."""
    actor, tok = s.pend
    s.tokens[actor][tok] -= n
    ev.append(public("tokens_spent", player=actor, token=TOKENS[tok], count=n))
    if n:
        s.tasks.append(Steps(actor, n, True, actor, False))

"""The legal answers to each pending Knockdown decision."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, assert_never

from knockabout.core.actions import Action
from knockabout.games.knockdown import actions as A
from knockabout.games.knockdown.content.match import TK_POTION
from knockabout.games.knockdown.rules.payments import can_pay, payments
from knockabout.games.knockdown.rules.phases import (
    BLINK,
    BLOCK,
    BUSY,
    C_BLOCK,
    C_FOR_TOKENS,
    C_REVEAL_PICK,
    CARD,
    COMBO,
    COUNT,
    DRAFT1,
    DRAFT2,
    FACEUP,
    KO,
    OPENING,
    OVER,
    PAY,
    REACT,
    ROW,
    STEP,
    TOWER,
    TURN,
)

if TYPE_CHECKING:
    from knockabout.games.knockdown.state import KnockdownState


def legal_actions(s: KnockdownState) -> tuple[Action, ...]:
    ph = s.phase
    # the commonest phases first; ``is`` on the members lets mypy check every phase is here
    if ph is TURN:
        return turn_actions(s)
    if ph is COMBO:
        return combo_actions(s)
    if ph is STEP:
        mover = s.pend[0]
        out = [A.MOVE[d] for d in free_dirs(s, mover)]
        if s.pend[2]:
            out.append(A.STOP)
        return tuple(out)
    if ph is PAY:
        _purpose, p, k = s.pend
        sp = s.setup.specials[p][k]
        hand = tuple(s.hands[p])
        table = s.symtab[p]
        return tuple([A.PAY[m] for m in payments(hand, tuple([table[d] for d in hand]), sp.slots)])
    if ph is CARD:
        return card_actions(s)
    if ph is BLOCK:
        return block_actions(s)
    if ph is ROW or ph is OPENING:
        return tuple(A.ROW[i] for i in range(4) if s.row[i] >= 0)
    if ph is REACT:
        return (*(A.REACT[k] for k in s.pend[2]), A.REACT_NONE)
    if ph is BLINK:
        return tuple(A.PLACE[x] for x in s.pend[2])
    if ph is KO:
        return (A.KO_TEST, A.KO_SKIP)
    if ph is TOWER:
        return (A.TOWER_PASS, A.TOWER_FAIL)
    if ph is COUNT:
        actor, tok = s.pend
        return A.COUNT[: min(s.tokens[actor][tok], A.MAX_COUNT) + 1]
    if ph is DRAFT1:
        return A.SKILL
    if ph is DRAFT2:
        return A.SKILL[:2]
    if ph is FACEUP:
        return A.FACEUP
    if ph is OVER or ph is BUSY:
        return ()
    assert_never(ph)


def free_dirs(s: KnockdownState, p: int) -> list[int]:
    """Directions ``p`` can step in: a space exists there and the opponent is not on it."""
    nb = s.setup.arena.neighbors[s.pos[p]]
    other = s.pos[1 - p]
    return [d for d in range(4) if nb[d] >= 0 and nb[d] != other]


def turn_actions(s: KnockdownState) -> tuple[Action, ...]:
    me = s.current
    out = [A.MOVE[d] for d in free_dirs(s, me)]
    out += [A.ATTACK[i] for i in range(4) if s.row[i] >= 0]
    if has_combo(s, me):
        out.append(A.COMBO)
    if not out:
        out.append(A.PASS)
    ar = s.setup.arena
    here = s.pos[me]
    if ar.corridors and here in ar.corridors:
        other = s.pos[1 - me]
        out += [A.CORRIDOR[x] for x in ar.corridors if x != here and x != other]
    if s.tokens[me][TK_POTION] and s.light[me]:
        out.append(A.POTION)
    return tuple(out)


def special_ready(s: KnockdownState, p: int, k: int) -> bool:
    """Whether ``p`` can pay Special Attack ``k`` (tokens and cards)."""
    sp = s.setup.specials[p][k]
    toks = s.tokens[p]
    for t, n in sp.token_cost:
        if toks[t] < n:
            return False
    hand = tuple(s.hands[p])
    table = s.symtab[p]
    return can_pay(hand, tuple([table[d] for d in hand]), sp.slots)


def has_combo(s: KnockdownState, p: int) -> bool:
    """Whether ``combo_options(s, p, 0)`` is not empty (a Combo can start).

    Speed: every turn's legal actions ask this, so it stops at the first option, looks
    for a Dash first (no search) and asks :func:`can_pay`, not for every payment.
    """
    syms = s.symtab[p]
    for d in s.hands[p]:
        if 3 in syms[d]:
            return True
    for _ in performable_specials(s, p, 0):
        return True
    return False


def performable_specials(s: KnockdownState, p: int, used: int) -> Iterator[int]:
    """The indexes of the Special Attacks ``p`` can perform now (not yet ``used`` in this
    Combo, in range, tokens and a payment at hand), in sheet order."""
    # the hot path of every legal-action query on a turn: special_ready inlined, the
    # hand's symbols read once for all Special Attacks and only when one needs them
    a, b = s.pos[p], s.pos[1 - p]
    bonus = -1
    hand_t: tuple[int, ...] | None = None
    hand_syms: tuple[tuple[int, ...], ...] = ()
    toks = s.tokens[p]
    for k, sp in enumerate(s.setup.specials[p]):
        if used >> k & 1 or sp.type == "reaction":
            continue
        if sp.hits:
            if bonus < 0:
                bonus = s.range_bonus(p)
            if not s.in_range(sp.rng, a, b, bonus):
                continue
        if sp.token_cost and any(toks[t] < n for t, n in sp.token_cost):
            continue
        if hand_t is None:
            hand_t = tuple(s.hands[p])
            syms = s.symtab[p]
            hand_syms = tuple([syms[d] for d in hand_t])
        if can_pay(hand_t, hand_syms, sp.slots):  # the payments are listed once one is chosen
            yield k


def combo_options(s: KnockdownState, p: int, used: int) -> list[Action]:
    """The Special Attacks (not yet ``used`` in this Combo) and Dashes ``p`` can perform."""
    out = [A.SPECIAL[k] for k in performable_specials(s, p, used)]
    hand = s.hands[p]
    syms = s.symtab[p]
    for i, d in enumerate(hand):
        if 3 in syms[d] and (i == 0 or hand[i - 1] != d):
            out.append(A.DASH[i])
    return out


def combo_actions(s: KnockdownState) -> tuple[Action, ...]:
    """The Combo's next Special Attack or Dash; ``combo:end`` once one is done (an empty Combo
    would be a Pass, which is offered only when no action is possible: docs/rules/knockdown.md)."""
    opts = combo_options(s, s.current, s.combo_used)
    if s.pend[0]:
        opts.append(A.COMBO_END)
    return tuple(opts)


def card_actions(s: KnockdownState) -> tuple[Action, ...]:
    purpose, owner, _chooser, _left, revealed, extra = s.pend
    hand = s.hands[owner]
    out: list[Action] = []
    if purpose == C_REVEAL_PICK:
        seen: set[int] = set()
        for i in revealed:
            if hand[i] not in seen:
                seen.add(hand[i])
                out.append(A.CARD[i])
        return tuple(out)
    seen = set()
    syms = s.symtab[owner]
    for i, d in enumerate(hand):
        if d in seen or i in revealed:
            continue
        if purpose == C_FOR_TOKENS and extra[0] not in syms[d]:
            continue
        if purpose == C_BLOCK and 2 not in syms[d]:
            continue
        seen.add(d)
        out.append(A.CARD[i])
    if purpose == C_FOR_TOKENS:
        out.append(A.DONE)
    return tuple(out)


def block_cards(s: KnockdownState, p: int) -> list[int]:
    """Hand positions of cards with a Block symbol, cheapest first (fewest symbols)."""
    syms = s.symtab[p]
    hand = s.hands[p]
    idx = [i for i, d in enumerate(hand) if 2 in syms[d]]
    idx.sort(key=lambda i: (len(syms[hand[i]]), hand[i], i))
    return idx


def block_options(s: KnockdownState, d: int, nblock: int) -> list[tuple[int, int]]:
    """(heavy, light) pairs a Block of ``nblock`` cards can ignore (something ignored)."""
    rest = len(s.hands[d]) - nblock
    bonus = s.setup.skill_sums(s.active_skills(d))[2]
    out = []
    for h in range(min(s.atk_h, rest // 2, A.MAX_BLOCK_HEAVY) + 1):
        lights = min(s.atk_l, rest - 2 * h + bonus)
        if h or lights:
            out.append((h, lights))
    return out


def block_actions(s: KnockdownState) -> tuple[Action, ...]:
    d = 1 - s.atk_by
    nb = len(block_cards(s, d))
    out = [A.BLOCK_NONE]
    out += [A.BLOCK_WOUNDS[h] for h, _ in block_options(s, d, 1)]
    if s.atk_fx:
        out.append(A.BLOCK_EFFECT)
        if nb >= 2:
            out += [A.BLOCK_BOTH[h] for h, _ in block_options(s, d, 2)]
    return tuple(out)


def reactions(s: KnockdownState, p: int, trigger: str) -> tuple[int, ...]:
    """The Reactions ``p`` can use now on ``trigger`` (in range, paid, not used this turn)."""
    out = []
    a, b = s.pos[p], s.pos[1 - p]
    for k, sp in enumerate(s.setup.specials[p]):
        if sp.trigger != trigger or s.reacted[p] >> k & 1:
            continue
        if not s.in_range(sp.rng, a, b, s.range_bonus(p)):
            continue
        if special_ready(s, p, k):
            out.append(k)
    return tuple(out)

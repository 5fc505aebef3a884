"""Search support: a full state sampled from what one seat knows (a determinization).

What a seat knows: its own hand, the discard pile, the pile positions it has seen or
placed, the cards it is scouting, hand sizes, and the cards other seats said "no" to
when asked. Everything else (other hands, the unknown pile positions, cards another
seat is scouting) is dealt again at random from the cards it cannot place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from knockabout.core.rng import Rng
from knockabout.games.nakmuay import cards as C
from knockabout.games.nakmuay.phases import KIND_MASK, SCOUT_ORDER, SCOUT_TAKE

if TYPE_CHECKING:
    from knockabout.games.nakmuay.state import NakMuayState


def determinize(state: NakMuayState, player: int, rng: Rng) -> NakMuayState:
    """A copy of ``state`` with every card ``player`` cannot place dealt anew from
    ``rng``, and its own RNG reseeded from ``rng``."""
    s = state.clone()
    s._legal = None
    bit = 1 << (player + 4)
    # cards whose identity the player knows
    unknown = list(state.in_play)
    for k in range(C.NUM_KINDS):
        unknown[k] -= state.hands[player][k]
    for k in state.discard:
        unknown[k] -= 1
    if state.limbo_ko:
        unknown[C.KO] -= 1
    if state.countdown_live:
        unknown[C.COUNTDOWN] -= 1
    for e in state.pile:
        if e & bit:
            unknown[e & KIND_MASK] -= 1
    scout_known = state.phase in (SCOUT_TAKE, SCOUT_ORDER) and state.current == player
    if scout_known:
        for k in state.scout_cards:
            unknown[k] -= 1
    assert min(unknown) >= 0, "determinize: card accounting broken"
    pool = [k for k in range(1, C.NUM_KINDS) for _ in range(unknown[k])]
    rng.shuffle(pool)
    # deal the other hands (most constrained first), honouring public "no" answers
    others = [p for p in range(state.n) if p != player and state.sizes[p]]
    if len(others) > 1:  # (a stable sort of one seat is that seat)
        others.sort(key=lambda p: -bin(state.absent[p]).count("1"))
    for p in others:
        need = state.sizes[p]
        banned = state.absent[p]
        hand = [0] * C.NUM_KINDS
        picked: list[int] = []
        rest: list[int] = []
        for k in pool:
            if len(picked) < need and not banned >> k & 1:
                picked.append(k)
            else:
                rest.append(k)
        if len(picked) < need:  # cannot honour every answer; fill anyway
            picked += rest[: need - len(picked)]
            rest = rest[need - len(picked) :]
        for k in picked:
            hand[k] += 1
        s.hands[p] = hand
        pool = rest
    pool += [C.KO] * unknown[C.KO]
    rng.shuffle(pool)
    pile = s.pile
    for i, e in enumerate(pile):
        if not e & bit:
            pile[i] = pool.pop() | (e & ~KIND_MASK)
    if not scout_known and s.scout_cards:
        s.scout_cards = [pool.pop() for _ in s.scout_cards]
    assert not pool, "determinize: slots and cards differ"
    s.rng = Rng(rng.next64())
    return s

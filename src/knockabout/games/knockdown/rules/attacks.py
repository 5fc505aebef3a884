"""The Attack Sequence: the Wound Pool (skills, Dangerous Edges), the defender's Reactions,
Mist, the Block, the wounds landing and the effect."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from knockabout.core.actions import Action
from knockabout.core.events import Event, public
from knockabout.games.knockdown import actions as A
from knockabout.games.knockdown.content.match import TK_MIST
from knockabout.games.knockdown.content.models import PoolBonus, PoolReduction
from knockabout.games.knockdown.rules import legal
from knockabout.games.knockdown.rules.hands import to_discard
from knockabout.games.knockdown.rules.phases import (
    BLOCK,
    C_BLOCK,
    CARD,
    REACT,
    TRIG_ATTACKED,
    CardPending,
    ReactPending,
)
from knockabout.games.knockdown.rules.tasks import SEQUENCE_BLOCK, SEQUENCE_KO, SEQUENCE_WOUNDS, RunOps

if TYPE_CHECKING:
    from knockabout.games.knockdown.state import KnockdownState

ATTACK_TYPES: Final[tuple[str, ...]] = ("strike", "ability", "reaction")
"""``atk_type`` values by name."""


def sequence_start(s: KnockdownState, ev: list[Event]) -> None:
    att = s.atk_by
    d = 1 - att
    src = s.atk_src
    if not s.atk_hits:
        s.tasks.append(SEQUENCE_WOUNDS)
        return
    h, lt = s.atk_h, s.atk_l
    arena = s.setup.arena
    adjacent = arena.dist[s.pos[att]][s.pos[d]] == 1
    typ = ATTACK_TYPES[s.atk_type]
    for sk in s.skills_of(att):
        for e in sk.effects:
            if isinstance(e, PoolBonus):
                if e.attack_type is not None and e.attack_type != typ:
                    continue
                if e.source is not None and (e.source == "card") != (src >= 0):
                    continue
                if e.adjacent is not None and e.adjacent != adjacent:
                    continue
                h += e.heavy
                lt += e.light
    if arena.dangerous[s.pos[d]] and adjacent:
        h += 1
        ev.append(public("dangerous_edge", player=d))
    for sk in s.skills_of(d):
        for e in sk.effects:
            if isinstance(e, PoolReduction) and (e.attack_type is None or e.attack_type == typ):
                h = max(0, h - e.heavy)
                lt = max(0, lt - e.light)
    s.atk_h, s.atk_l = h, lt
    ev.append(public("sequence", player=att, target=d, attack=s.attack_name(), heavy=h, light=lt))
    s.tasks.append(SEQUENCE_BLOCK)
    opts = legal.reactions(s, d, "attacked")
    if opts:
        s.decide(REACT, d, ReactPending(TRIG_ATTACKED, att, opts))


def sequence_block(s: KnockdownState, ev: list[Event]) -> None:
    if s.atk_void:
        ev.append(public("attack_ignored", player=1 - s.atk_by, attack=s.attack_name()))
        return
    s.tasks.append(SEQUENCE_WOUNDS)
    d = 1 - s.atk_by
    if s.tokens[d][TK_MIST] and s.atk_l:
        s.tokens[d][TK_MIST] -= 1
        s.atk_l -= 1
        ev.append(public("mist", player=d))
    if (s.atk_type == 0 and (s.atk_h or s.atk_l or s.atk_fx) and legal.block_cards(s, d)
            and len(legal.block_actions(s)) > 1):
        s.decide(BLOCK, d)


def block(s: KnockdownState, action: Action, ev: list[Event]) -> None:
    """The defender's answer to a Strike (phase BLOCK)."""
    d = 1 - s.atk_by
    if action is A.BLOCK_NONE:
        return
    if action is A.BLOCK_EFFECT:
        n, h, wound = 1, 0, False
    elif action in A.BLOCK_BOTH:
        n, h, wound = 2, A.INDEX[action], True
    else:
        n, h, wound = 1, A.INDEX[action], True
    lights = 0
    if wound:
        for hh, ll in legal.block_options(s, d, n):
            if hh == h:
                lights = ll
    fx = action is A.BLOCK_EFFECT or n == 2
    cands = legal.block_cards(s, d)
    hand = s.hands[d]
    if len({hand[i] for i in cands}) == 1 or len(cands) == n:
        apply_block(s, d, cands[:n], h, lights, fx, ev)
    else:
        s.decide(CARD, d, CardPending(C_BLOCK, d, d, n, (), (h, lights, fx)))


def block_card(s: KnockdownState, action: Action, ev: list[Event]) -> None:
    """Which card pays the Block (phase CARD, purpose BLOCK)."""
    _purpose, owner, chooser, left, revealed, extra = s.pend
    picked = (*revealed, A.INDEX[action])
    if len(picked) < left:
        s.decide(CARD, chooser, CardPending(C_BLOCK, owner, chooser, left, picked, extra))
    else:
        apply_block(s, owner, picked, extra[0], extra[1], extra[2], ev)


def apply_block(s: KnockdownState, d: int, idx: list[int] | tuple[int, ...], h: int, lights: int, fx: bool,
                ev: list[Event]) -> None:
    names = []
    for i in sorted(idx, reverse=True):
        c = s.hands[d].pop(i)
        to_discard(s, c)
        names.append(s.setup.cards[c].name)
    s.atk_h -= h
    s.atk_l -= lights
    if fx:
        s.atk_blockfx = True
    ev.append(public("block", player=d, cards=names, heavy=h, light=lights, effect=s.atk_blockfx))


def sequence_wounds(s: KnockdownState, ev: list[Event]) -> None:
    att = s.atk_by
    if s.atk_hits and (s.atk_h or s.atk_l):
        d = 1 - att
        s.heavy[d] += s.atk_h
        s.light[d] += s.atk_l
        ev.append(public("wounds", player=d, heavy=s.atk_h, light=s.atk_l, source=s.attack_name()))
    s.tasks.append(SEQUENCE_KO)
    if s.atk_fx and not s.atk_blockfx:
        s.tasks.append(RunOps(s.atk_fx, 0, att))


"""A Knockdown match that starts from an arranged position (what the tutorial plays).

The fighters, arena and skill set come from the table's options as in any match. The
arrangement says the rest by name: each fighter's face-up and face-down Skill card (the
draft is taken as done), where the fighters stand, their wounds and tokens, the cards in
each hand, the Attack Row, the top of the Attack deck (top first) and the discard pile, the
round, the victories, who started the round and whose turn begins. Every Attack card the
arrangement does not place (and the arena's Candle cards) is shuffled under the named top
from the seed, so the deck holds exactly what a real match's would.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from knockabout.games.knockdown.content.match import TOKEN_INDEX, MatchSetup
from knockabout.games.knockdown.content.vocabulary import TOKENS
from knockabout.games.knockdown.rules.phases import BUSY
from knockabout.games.knockdown.rules.rounds import CANDLE
from knockabout.games.knockdown.rules.tasks import START_TURN

if TYPE_CHECKING:
    from knockabout.games.knockdown.state import KnockdownState

Pair = tuple[int, int]


class KnockdownArrangement(BaseModel):
    """A match under way, by name (see the module)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    skills: tuple[tuple[str, str], tuple[str, str]] = Field(
        description="per seat: its face-up Skill card, then its face-down one")
    revealed: tuple[bool, bool] = Field((False, False), description="per seat: its face-down Skill is revealed")
    positions: tuple[str, str] | None = Field(None, description="per seat: its space (e.g. 'd2'); none: the starts")
    wounds: tuple[Pair, Pair] = Field(((0, 0), (0, 0)), description="per seat: (heavy, light) wounds")
    tokens: tuple[dict[str, int], dict[str, int]] | None = Field(
        None, description="per seat: its tokens by name; none: the fighters' starting tokens")
    hands: tuple[tuple[str, ...], tuple[str, ...]] = Field(((), ()), description="per seat: Attack cards in hand")
    row: tuple[str, str, str, str] = Field(description="the Attack Row, slot 1 to 4")
    deck_top: tuple[str, ...] = Field((), description="the top of the Attack deck, top card first")
    discard: tuple[str, ...] = ()
    victories: Pair = (0, 0)
    round: int = Field(1, ge=1)
    first: int = Field(0, ge=0, le=1, description="the seat that started this round")
    current: int = Field(0, ge=0, le=1, description="the seat whose turn begins")
    turn: int = Field(1, ge=1, description="the number of the turn that begins")


def _draft(s: KnockdownState, arr: KnockdownArrangement) -> None:
    """Each seat's two Skill cards as a finished draft would leave them: seat p kept its
    face-up card from its own three and its face-down card from the two passed to it."""
    names = [sk.name for sk in s.setup.skills]
    for seat, pair in enumerate(arr.skills):
        for i, name in enumerate(pair):
            if name not in names:
                raise ValueError(f"skills.{seat}.{i}: no Skill card {name!r} in this skill set "
                                 f"(known: {', '.join(names)})")
    up = [names.index(arr.skills[p][0]) for p in (0, 1)]
    down = [names.index(arr.skills[p][1]) for p in (0, 1)]
    used = up + down
    if len(set(used)) != 4:
        raise ValueError("skills: the four Skill cards must be different")
    spare = [i for i in range(len(names)) if i not in used]
    s.dealt = [sorted([up[p], down[1 - p], spare[p]]) for p in (0, 1)]
    s.keep1 = up
    s.recv = [[down[p], spare[1 - p]] for p in (0, 1)]
    s.keep2 = down
    s.up = [0, 0]
    s.revealed = list(arr.revealed)
    s.reveal_done = True
    for p in (0, 1):
        s.refresh_symbols(p)


def _cards(setup: MatchSetup, field: str, names: tuple[str, ...]) -> list[int]:
    out = []
    for i, name in enumerate(names):
        d = setup.card_index.get(name)
        if d is None or d not in setup.deck:
            deck = sorted({setup.cards[x].name for x in setup.deck})
            raise ValueError(f"{field}.{i}: no Attack card {name!r} in this deck (known: {', '.join(deck)})")
        out.append(d)
    return out


def arrange_match(s: KnockdownState, arr: KnockdownArrangement) -> KnockdownState:
    """Turn ``s``, a new match of the table's picks, into the arranged position, at the
    start of the ``current`` seat's turn. Errors are ``ValueError`` naming the field."""
    setup = s.setup
    _draft(s, arr)
    arena = setup.arena
    if arr.positions is not None:
        pos = []
        for seat, label in enumerate(arr.positions):
            if label not in arena.labels:
                raise ValueError(f"positions.{seat}: no space {label!r} in {arena.name} "
                                 f"(spaces: {', '.join(arena.labels)})")
            pos.append(arena.labels.index(label))
        if pos[0] == pos[1]:
            raise ValueError("positions: the two fighters cannot stand on one space")
        s.pos = pos
    hands = [_cards(setup, f"hands.{p}", arr.hands[p]) for p in (0, 1)]
    row = _cards(setup, "row", arr.row)
    top = _cards(setup, "deck_top", arr.deck_top)
    discard = _cards(setup, "discard", arr.discard)
    placed = Counter(hands[0] + hands[1] + row + top + discard)
    copies = Counter(setup.deck)
    for d, n in sorted(placed.items()):
        if n > copies[d]:
            raise ValueError(f"the deck has {copies[d]} {setup.cards[d].name}; the arrangement places {n}")
    rest = [d for d in sorted(copies) for _ in range(copies[d] - placed[d])] + [CANDLE] * setup.candles
    s.rng.shuffle(rest)
    s.deck = rest + top[::-1]  # the top card last
    s.row = row
    s.hands = [sorted(h) for h in hands]  # a hand is kept in card order
    s.discard = discard
    s.heavy = [arr.wounds[0][0], arr.wounds[1][0]]
    s.light = [arr.wounds[0][1], arr.wounds[1][1]]
    if arr.tokens is not None:
        s.tokens = [[0] * len(TOKENS), [0] * len(TOKENS)]
        for seat, given in enumerate(arr.tokens):
            for name, n in given.items():
                if name not in TOKEN_INDEX:
                    raise ValueError(f"tokens.{seat}.{name}: no such token (tokens: {', '.join(TOKENS)})")
                s.tokens[seat][TOKEN_INDEX[name]] = n
    if max(arr.victories) >= s.cfg[5]:
        raise ValueError(f"victories: a fighter with {s.cfg[5]} victories has already won the match "
                         f"(rounds_to_win={s.cfg[5]})")
    s.victories = list(arr.victories)
    s.round_no = arr.round
    s.first = arr.first
    s.current = arr.current
    s.turn = arr.turn - 1  # the turn about to begin counts itself
    s.tasks = [START_TURN]
    s.pend = ()
    s.phase = BUSY
    s._run([])  # the turn begins: "at the start of your turn" effects, then its first decision
    s._legal = None
    return s


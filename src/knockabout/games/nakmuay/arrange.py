"""A Nak Muay game that starts from an arranged deal (what the tutorial plays).

The arrangement names each hand, the top of the draw pile (top first), the discard pile,
who starts and the direction. Every other card of the game's deck (the 37 dealt cards and
the KOs and Countdowns for the player count) goes under the named top in a seeded
shuffle, so the position is one a real deal could give and the cards the view counts
(``ko_in_pile``, the pile's size) stay true.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from knockabout.games.nakmuay import cards as C

if TYPE_CHECKING:
    from knockabout.games.nakmuay.config import NakMuayConfig
    from knockabout.games.nakmuay.state import NakMuayState

CardName = Literal[
    "ko", "block", "attack+1", "attack+2", "attack+3", "countdown", "dodge", "scout", "sweep",
    "plum", "collar-tie", "underhook", "overhook", "body-lock",
]


class NakMuayArrangement(BaseModel):
    """Where the cards are when the game starts; the cards it does not place are shuffled
    under ``pile_top``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    hands: tuple[tuple[CardName, ...], ...] = Field(description="each seat's hand, in seat order")
    pile_top: tuple[CardName, ...] = Field((), description="the top of the draw pile, top card first")
    discard: tuple[CardName, ...] = Field((), description="the discard pile, bottom card first")
    first: int = Field(0, ge=0, description="the seat that takes the first turn")
    direction: Literal["clockwise", "counterclockwise"] = "clockwise"

    @field_validator("hands")
    @classmethod
    def _no_held_ko(cls, hands: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
        for seat, hand in enumerate(hands):
            if "ko" in hand:
                raise ValueError(f"seat {seat} holds a KO, and a KO is never held")
        return hands

    @field_validator("discard")
    @classmethod
    def _no_discarded_ko(cls, discard: tuple[str, ...]) -> tuple[str, ...]:
        if "ko" in discard:
            raise ValueError("a KO never goes to the discard pile")
        return discard


def arranged_state(cfg: NakMuayConfig, arr: NakMuayArrangement, seed: int) -> NakMuayState:
    """The state ``arr`` describes on a table of ``cfg`` (its errors are ``ValueError``
    naming the field)."""
    from knockabout.games.nakmuay.state import NakMuayState

    n = cfg.players
    if len(arr.hands) != n:
        raise ValueError(f"hands: give one hand per seat ({n}, not {len(arr.hands)})")
    if arr.first >= n:
        raise ValueError(f"first: there is no seat {arr.first} at a {n}-player table (seats are 0-{n - 1})")
    placed = Counter(C.KIND_BY_NAME[c] for part in (*arr.hands, arr.pile_top, arr.discard) for c in part)
    in_play = C.in_play_counts(n)
    for kind, count in sorted(placed.items()):
        if count > in_play[kind]:
            raise ValueError(f"a {n}-player game has {in_play[kind]} {C.TITLES[kind]} card(s); "
                             f"the arrangement places {count}")
    s = NakMuayState.deal(n, cfg.end_turn == "strict_end_turn", cfg.countdown_window(), cfg.max_turns, seed,
                          cfg.starting_block, cfg.hand_size)
    rest = [k for k in range(C.NUM_KINDS) for _ in range(in_play[k] - placed[k])]
    s.rng.shuffle(rest)
    s.pile = rest + [C.KIND_BY_NAME[c] for c in reversed(arr.pile_top)]  # top card last
    s.hands = [[0] * C.NUM_KINDS for _ in range(n)]
    for p, hand in enumerate(arr.hands):
        for c in hand:
            s.hands[p][C.KIND_BY_NAME[c]] += 1
    s.sizes = [len(h) for h in arr.hands]
    s.discard = [C.KIND_BY_NAME[c] for c in arr.discard]
    s.current = s.decider = arr.first
    s.direction = 1 if arr.direction == "clockwise" else -1
    return s

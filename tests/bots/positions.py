"""Hand-built Nak Muay positions with the full deck in play (cards conserved), for bot tests."""

from __future__ import annotations

from collections.abc import Sequence

from knockabout.games.nakmuay import cards as C
from knockabout.games.nakmuay import phases as P
from knockabout.games.nakmuay.state import NakMuayState


def k(name: str) -> int:
    return C.KIND_BY_NAME[name]


def build(
    hands: Sequence[Sequence[str]],
    *,
    top: Sequence[str] = (),
    known_top: int = 0,
    pile_size: int | None = None,
    current: int = 0,
    phase: int = P.ACTION,
    decider: int | None = None,
    out: Sequence[str] = (),
    strict: bool = False,
) -> NakMuayState:
    """A position where seat ``p`` holds ``hands[p]``.

    ``top`` lists the top cards of the draw pile, top first; the first ``known_top`` of
    them are known to ``current`` (as after a Scout). Every KO not in ``top`` is in the
    pile below them; other cards fill the pile up to ``pile_size`` and the rest are in
    the discard pile. ``out`` names cards that are neither in the pile nor discarded
    (a Countdown being answered, a KO being hidden, an Attack just played goes to the
    discard by itself).
    """
    n = len(hands)
    s = NakMuayState.deal(n, strict, 10.0, 500, seed=5)
    left = C.in_play_counts(n)
    s.hands = [[0] * C.NUM_KINDS for _ in range(n)]
    for p, h in enumerate(hands):
        for name in h:
            s.hands[p][k(name)] += 1
            left[k(name)] -= 1
    s.sizes = [len(h) for h in hands]
    for name in [*top, *out]:
        left[k(name)] -= 1
    assert min(left) >= 0, f"more cards placed than the deck has: {left}"
    kos = [C.KO] * left[C.KO]
    others = [kind for kind in range(1, C.NUM_KINDS) for _ in range(left[kind])]
    room = len(others) if pile_size is None else max(0, pile_size - len(top) - len(kos))
    body = others[:room] + kos  # the KOs sit just under the named top cards
    s.discard = others[room:]
    mark = 1 << (current + 4)
    s.pile = body + [k(name) | (mark if i < known_top else 0) for i, name in reversed(list(enumerate(top)))]
    s.current = current
    s.phase = phase
    s.decider = current if decider is None else decider
    s.active = [True] * n
    s.n_active = n
    s._legal = None
    return s

"""The check that a bot decides from its seat's view only, for any bot and game."""

from __future__ import annotations

from knockabout.core.bot import Bot, SeatView
from knockabout.core.protocol import State
from knockabout.core.rng import Rng


def checked_against_redeals(bot: Bot, s: State, steps: int, rng: Rng) -> int:
    """Plays ``s`` on by random moves for up to ``steps`` decisions and, at each, asserts that
    ``bot`` makes the same move in a re-deal of what the deciding seat cannot see (the same
    view); returns how many decisions were checked."""
    checked = 0
    for _ in range(steps):
        d = s.to_act()
        if d is None:
            break
        legal = s.legal_actions()
        mine = bot.choose(SeatView(s, d.player), legal, rng)
        other = s.determinize(d.player, rng)
        assert other.observe(d.player) == s.observe(d.player)
        assert bot.choose(SeatView(other, d.player), other.legal_actions(), rng) == mine
        checked += 1
        s.apply(legal[rng.below(len(legal))])
    return checked

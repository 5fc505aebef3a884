"""What each claim of the Nak Muay guide promises, as a check on a copy of the true state.

A check gets a clone of the state the guidance was given on, the deciding seat, one action
the claim names and a generator for the choices that follow (anyone's); it applies the
action, plays on as far as the claim reaches and fails when the promise does not hold.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from knockabout.core.events import Event
from knockabout.games.nakmuay import cards as C
from knockabout.games.nakmuay.phases import KIND_MASK
from knockabout.games.nakmuay.state import NakMuayState

DRAWS = ("drew", "draw_ko", "draw_nothing")


def _play(s: NakMuayState, rng: random.Random, until: Callable[[NakMuayState], bool], cap: int = 400) -> list[Event]:
    """Random legal actions (anyone's) until ``until(s)`` or the game is over."""
    out: list[Event] = []
    for _ in range(cap):
        if s.to_act() is None or until(s):
            break
        legal = s.legal_actions()
        out += s.apply(legal[rng.randrange(len(legal))])
    return out


def _rest_of_turn(s: NakMuayState, action: str, rng: random.Random) -> list[Event]:
    turn = s.turn
    return s.apply(action) + _play(s, rng, lambda t: t.turn != turn)


def _my_draws(events: list[Event], seat: int) -> list[Event]:
    return [e for e in events if e.type in DRAWS and e.data.get("player") == seat]


def _ko_on_top(s: NakMuayState) -> None:
    """Put a KO on top of the draw pile (one from inside it when there is one)."""
    for i, e in enumerate(s.pile):
        if e & KIND_MASK == C.KO:
            del s.pile[i]
            break
    s.pile.append(C.KO)


def avoids_draw(s: NakMuayState, seat: int, action: str, rng: random.Random, said: str) -> None:
    events = _rest_of_turn(s, action, rng)
    assert not _my_draws(events, seat), f"{action} was said to save the draw, but: {_my_draws(events, seat)}"


def still_draws(s: NakMuayState, seat: int, action: str, rng: random.Random, said: str) -> None:
    events = _rest_of_turn(s, action, rng)
    if s.to_act() is None or not s.active[seat]:
        return
    assert _my_draws(events, seat), f"{action} was said to be followed by a draw, but the turn ended without one"


def ko_knocks_out(s: NakMuayState, seat: int, action: str, rng: random.Random, said: str) -> None:
    _ko_on_top(s)
    s.apply(action)
    assert not s.active[seat], f"a KO drawn after {action} was said to knock the seat out"


def block_saves(s: NakMuayState, seat: int, action: str, rng: random.Random, said: str) -> None:
    _ko_on_top(s)
    s.apply(action)
    d = s.to_act()
    assert s.active[seat] and d is not None and d.player == seat and d.kind == "ko_block", d


def cancels_attack(s: NakMuayState, seat: int, action: str, rng: random.Random, said: str) -> None:
    events = s.apply(action)
    assert not _my_draws(events, seat)


def draws_n(s: NakMuayState, seat: int, action: str, rng: random.Random, said: str) -> None:
    n = s.attack_value

    def past(t: NakMuayState) -> bool:
        d = t.to_act()
        return d is None or d.player != seat or d.kind not in ("ko_block", "hide_ko")

    events = s.apply(action) + _play(s, rng, past)
    mine = _my_draws(events, seat)
    if not s.active[seat] or any(e.type == "draw_nothing" for e in mine):
        assert len(mine) <= n
        return
    assert len(mine) == n, f"taking Attack +{n} drew {len(mine)} cards"


def survives(s: NakMuayState, seat: int, action: str, rng: random.Random, said: str) -> None:
    s.apply(action)
    assert s.active[seat], f"{action} was said to keep the seat in"


def knocked_out(s: NakMuayState, seat: int, action: str, rng: random.Random, said: str) -> None:
    s.apply(action)
    assert not s.active[seat], f"{action} was said to knock the seat out"


def _first_draw(events: list[Event]) -> Event | None:
    return next((e for e in events if e.type in ("drew", "draw_ko")), None)


def ko_on_top(s: NakMuayState, seat: int, action: str, rng: random.Random, said: str) -> None:
    """The next card anyone draws is a KO (unless a shuffle or a Scout comes first)."""
    shuffles = ("sweep", "scout", "reshuffle")
    events = s.apply(action)
    while s.to_act() is not None and not any(e.type in DRAWS or e.type in shuffles for e in events):
        events += _play(s, rng, lambda t: False, cap=1)
    for e in events:
        if e.type in shuffles:
            return
        if e.type in ("drew", "draw_ko"):
            assert e.type == "draw_ko", f"the next card drawn after {action} was {e.data}"
            return


def redraws_ko(s: NakMuayState, seat: int, action: str, rng: random.Random, said: str) -> None:
    events = s.apply(action)
    first = _first_draw([e for e in events if e.data.get("player") == seat])
    assert first is not None and first.type == "draw_ko", f"after {action} the seat drew {first}"


def draws_first_listed(s: NakMuayState, seat: int, action: str, rng: random.Random, said: str) -> None:
    order = [int(i) for i in action.split(":")[1].split(",")]
    top = C.NAMES[s.scout_cards[order[0]]]
    first = _first_draw([e for e in s.apply(action) if e.data.get("player") == seat])
    assert first is not None, "no draw followed the Scout"
    got = "ko" if first.type == "draw_ko" else first.data["card"]
    assert got == top, f"drew {got}, the first card put back was {top}"


def steals_nothing(s: NakMuayState, seat: int, action: str, rng: random.Random, said: str) -> None:
    assert any(e.type == "steal_nothing" for e in s.apply(action))


CHECKS: dict[str, Callable[[NakMuayState, int, str, random.Random, str], None]] = {
    "avoids_draw": avoids_draw,
    "still_draws": still_draws,
    "ko_knocks_out": ko_knocks_out,
    "block_saves": block_saves,
    "cancels_attack": cancels_attack,
    "draws_n": draws_n,
    "survives": survives,
    "knocked_out": knocked_out,
    "ko_on_top": ko_on_top,
    "redraws_ko": redraws_ko,
    "draws_first_listed": draws_first_listed,
    "steals_nothing": steals_nothing,
}

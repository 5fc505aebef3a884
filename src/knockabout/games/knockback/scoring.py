"""How KNOCKBACK rounds end and a match is won.

A round ends when a seat has no card left on the grid or at the turn limit (the seat
with more cards on the grid wins it). The scoring option says what a round is worth:

* ``tug``: a round's winner takes the score token from the middle, or sends it back to
  the middle from the opponent; winning a round with the token in front of you wins;
* ``speed``: the first round decides the match;
* ``best_of``: the first to win a majority of ``best_of`` rounds.

At the round limit ``tug`` goes to whoever holds the token (none: drawn) and the others
to the most rounds won.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from knockabout.core.events import Event
from knockabout.core.protocol import Outcome
from knockabout.games.knockback.phases import BEST_OF, MIDDLE, OVER, PLACE, SPEED, TUG, TURN

if TYPE_CHECKING:
    from knockabout.games.knockback.state import KnockbackState


def end_turn(s: KnockbackState, ev: list[Event]) -> None:
    """The turn is over: the other seat's turn, or the round's end at the turn limit."""
    s.turn += 1
    if s.turn >= s.max_turns:
        on = s.onboard
        left = (bin(on & 7).count("1"), bin(on >> 3).count("1"))
        winner = -1 if left[0] == left[1] else int(left[1] > left[0])
        end_round(s, winner, f"turn limit ({s.max_turns}) reached", ev)
        return
    s.current ^= 1
    s.phase = TURN
    ev.append(Event("turn", {"player": s.current, "turn": s.turn}))


def end_round(s: KnockbackState, winner: int, reason: str, ev: list[Event]) -> None:
    """Round over (``winner`` -1: drawn): score it, end the match or set up the next round."""
    s.active = -1
    s.sym = 0
    s.moved = 0
    s.stay_ready = False
    if winner >= 0:
        s.wins[winner] += 1
    done = -2  # -2: match goes on; -1: drawn; else the match winner
    if s.scoring == SPEED:
        done = winner
    elif s.scoring == BEST_OF:
        if winner >= 0 and s.wins[winner] >= s.need:
            done = winner
    elif winner >= 0:
        if s.token == winner:
            done = winner
        elif s.token == MIDDLE:
            s.token = winner
        else:
            s.token = MIDDLE
    ev.append(Event("round_over", {"round": s.round, "winner": None if winner < 0 else winner, "reason": reason,
                                   "token": None if s.token == MIDDLE else s.token, "wins": list(s.wins)}))
    why = ""
    if done == -2 and s.round >= s.max_rounds:
        done = s.token if s.scoring == TUG else -1 if s.wins[0] == s.wins[1] else int(s.wins[1] > s.wins[0])
        why = f"round limit ({s.max_rounds}) reached"
    if done >= 0:
        how = {TUG: "won with the score token", SPEED: "won the round", BEST_OF: "won the most rounds"}
        s.result = Outcome.win(done, 2, why or how[s.scoring])
    elif done == -1:
        s.result = Outcome.shared((0, 1), 2, why or "drawn round")
    if s.result is not None:
        s.phase = OVER
        ev.append(Event("game_over", {"winners": list(s.result.winners), "draw": s.result.draw,
                                      "reason": s.result.reason}))
        return
    s.starter = (1 - winner) if winner >= 0 and not s.alternate_starts else (1 - s.starter)
    s.round += 1
    s.pos = [0] * 6
    s.grid = {}
    s.placed = s.onboard = s.exhausted = 0
    s.turn = 0
    s.phase = PLACE
    s.current = s.starter
    ev.append(Event("round_start", {"round": s.round, "starter": s.starter}))

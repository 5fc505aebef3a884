"""The K.O.: the attacker starts a Knockdown Test (dice, or the tower challenge) or lets it go;
failing it loses the round, passing it washes away half the light wounds."""

from __future__ import annotations

from typing import TYPE_CHECKING

from knockabout.core.actions import Action
from knockabout.core.events import Event, public
from knockabout.games.knockdown import actions as A
from knockabout.games.knockdown.rules.phases import TOWER, TOWER_SECONDS, TowerPending
from knockabout.games.knockdown.rules.rounds import round_over
from knockabout.games.knockdown.rules.tasks import KnockdownTest, RunOps

if TYPE_CHECKING:
    from knockabout.games.knockdown.state import KnockdownState

def ko_choice(s: KnockdownState, action: Action, ev: list[Event]) -> None:
    """The attacker's answer in phase KO."""
    att = s.atk_by
    if action is A.KO_TEST:
        ev.append(public("ko_test", player=att, target=1 - att))
        s.tasks.append(KnockdownTest(1 - att, att))
        s.tasks.append(RunOps(s.setup.ko_effect[att], 0, att))
    else:
        ev.append(public("ko_skip", player=att))


def knockdown_test(s: KnockdownState, tested: int, att: int, ev: list[Event]) -> None:
    if s.cfg[0] == "tower":
        cubes = s.heavy[tested] + s.light[tested]
        ev.append(public("tower_challenge", player=tested, cubes=cubes, seconds=TOWER_SECONDS))
        s.decide(TOWER, tested, TowerPending(tested, att, cubes))
        return
    rng = s.rng
    roll = [rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6)]
    knockdown_result(s, tested, att, sum(roll) >= s.heavy[tested] + s.light[tested], ev, roll)


def tower_result(s: KnockdownState, action: Action, ev: list[Event]) -> None:
    """The tested fighter's answer in phase TOWER (built in time or not)."""
    tested, att = s.pend[0], s.pend[1]
    knockdown_result(s, tested, att, action is A.TOWER_PASS, ev, roll=None)


def knockdown_result(s: KnockdownState, tested: int, att: int, passed: bool, ev: list[Event],
                roll: list[int] | None) -> None:
    total = s.heavy[tested] + s.light[tested]
    ev.append(public("test_result", player=tested, passed=passed, wounds=total, roll=roll))
    if passed:
        gone = s.light[tested] // 2
        s.light[tested] -= gone
        if gone:
            ev.append(public("recover", player=tested, light=gone))
        return
    round_over(s, att, "knockdown", ev)

"""Turn-based tables: a move time of hours or days, a bot moving for a person whose time
ran out, the Countdown answered as a move, the tower opened by the person, and the option
sets that cannot be played turn-based refused."""

from __future__ import annotations

from typing import Any

import pytest

from knockabout.core import ConfigError, Rng
from knockabout.core.registry import get_game
from knockabout.core.replay import replay
from knockabout.table import Seat, Table, TableError
from knockabout.table.table import OUT_OF_TIME, table_narration
from knockabout.table.turn_based import DAY, HOUR, check_move_time, move_time_text, turn_based_config
from tests.table.conftest import FakeClock, legal
from tests.table.towers import tower_actions

NAK = get_game("nak-muay")
KD = get_game("knockdown")
TB_TOWER = {"knockdown_test": "tower", "tower_timer": "when_opened"}


def people(n: int) -> list[Seat]:
    return [Seat("person", f"P{i}") for i in range(n)]


def nak_table(clock: FakeClock, seats: list[Seat] | None = None, **kw: Any) -> Table:
    seats = seats or people(2)
    cfg = turn_based_config(NAK, {"players": len(seats)})
    return Table(NAK, seats, cfg, 5, clock=clock, move_time=DAY, **kw)


def test_a_persons_decision_has_the_move_time() -> None:
    clock = FakeClock()
    t = nak_table(clock)
    d = t.decision()
    assert d is not None and d.time_limit is None
    assert t.time_limit() == DAY and t.deadline() == clock.now + DAY == t.next_due()
    clock.advance(DAY - 1)
    assert t.tick() == [] and t.version == 0
    assert t.time_left() == 1.0


def test_when_the_move_time_runs_out_a_bot_moves_for_the_person_and_says_so() -> None:
    clock = FakeClock()
    t = nak_table(clock)
    d = t.decision()
    assert d is not None
    clock.advance(DAY)
    [entry] = t.tick()[:1]
    assert entry.by == "out-of-time" and entry.seat == d.player
    for seat in (0, 1, None):  # the table says so, to everyone, just before the bot's move
        said = [e for _, e in t.updates_for(seat).events if e.type == OUT_OF_TIME]
        assert len(said) == 1 and said[0].data["player"] == d.player
    assert table_narration(said[0], t.names()) == f"P{d.player} ran out of time (1 day per move): a bot made " \
        "this move for them."
    assert t.seats[d.player].kind == "person" and not t.seats[d.player].away, "they keep the seat"
    nxt = t.decision()
    assert nxt is not None
    if nxt.player == d.player:  # their next decision: the whole move time again, their own move
        assert t.time_limit() == DAY and not t.bot_controls(d.player)
        t.act(d.player, legal(t)[0], t.version)


def test_a_driver_that_thinks_outside_the_table_finds_the_late_persons_move() -> None:
    clock = FakeClock()
    t = nak_table(clock)
    d = t.decision()
    assert d is not None
    clock.advance(DAY + 5)
    thought = t.think()  # the server's driver asks first, then ticks without thinking
    assert thought is not None
    thought.run()
    assert t.accept(thought)
    [entry] = t.tick(think=False)
    assert entry.by == "out-of-time" and entry.seat == d.player


def test_bots_keep_their_pace_on_a_turn_based_table() -> None:
    clock = FakeClock()
    seats = [Seat("bot", "B0", level="random"), Seat("bot", "B1", level="random")]
    t = Table(NAK, seats, turn_based_config(NAK, {}), 3, clock=clock, move_time=DAY, bot_pace=1.0)
    assert t.time_limit() is None and t.next_due() == clock.now + 1.0
    clock.advance(1.0)
    assert [e.by for e in t.tick()] == ["bot"]


def test_a_restart_keeps_the_move_time_actually_left() -> None:
    clock = FakeClock()
    t = nak_table(clock)
    clock.advance(10 * HOUR)
    again = Table(NAK, people(2), t.record.config, 5, clock=clock, move_time=DAY, actions=t.record.actions)
    again.resume_clock(14 * HOUR)
    assert again.time_left() == 14 * HOUR
    again.resume_clock(-5)
    assert again.tick()[0].by == "out-of-time", "ran out while the server was down: a bot moves at once"


def countdown_at_turn_based(clock: FakeClock) -> Table:
    for seed in range(300):
        t = Table(NAK, people(2), turn_based_config(NAK, {}), seed, clock=clock, move_time=DAY)
        rng = Rng(seed)
        for _ in range(400):
            d = t.decision()
            if d is None or d.kind == "countdown_response":
                break
            options = legal(t)
            pick = "countdown" if "countdown" in options else options[rng.below(len(options))]
            t.act(d.player, pick, t.version)
        d = t.decision()
        if d is not None and d.kind == "countdown_response":
            return t
    raise AssertionError("no seed reaches a Countdown")


def test_the_countdown_waits_for_its_targets_move() -> None:
    clock = FakeClock()
    t = countdown_at_turn_based(clock)
    d = t.decision()
    assert d is not None and d.time_limit is None and t.time_limit() == DAY
    assert t.updates_for(None).view.to_json()["countdown_seconds"] is None
    clock.advance(20 * HOUR)  # ten seconds are long gone: still their move
    assert t.tick() == []
    t.act(d.player, legal(t)[-1], t.version)
    assert t.log[-1].by == "person"


def test_a_late_countdown_target_gets_a_bot_answer() -> None:
    clock = FakeClock()
    t = countdown_at_turn_based(clock)
    d = t.decision()
    assert d is not None
    clock.advance(DAY)
    entry = t.tick()[0]
    assert entry.by == "out-of-time" and entry.seat == d.player


def kd_tower(clock: FakeClock, move_time: float | None = DAY) -> Table:
    seed, acts = tower_actions()
    return Table(KD, people(2), TB_TOWER, seed, clock=clock, actions=acts, move_time=move_time)


def test_the_tower_stays_closed_until_the_tested_person_opens_it() -> None:
    clock = FakeClock()
    t = kd_tower(clock)
    d = t.decision()
    assert d is not None and d.kind == "tower_challenge" and d.time_limit is None
    ch = t.updates_for(0).challenge
    assert ch is not None and ch["opened"] is False and ch["limit"] == 10.0
    assert "cubes" not in ch and "layout" not in ch and "left" not in ch, "nothing of the tower before it opens"
    with pytest.raises(TableError, match="open the challenge first"):
        t.answer(0, ["a2"], t.version)
    with pytest.raises(TableError, match="not your decision"):
        t.open_challenge(1, t.version)
    clock.advance(5 * HOUR)  # hours later, the seconds have not started
    t.open_challenge(0, t.version)
    ch = t.updates_for(0).challenge
    assert ch is not None and ch["opened"] is True and ch["left"] == 10.0 and ch["cubes"]
    with pytest.raises(TableError, match="open already"):
        t.open_challenge(0, t.version)
    clock.advance(3)
    right = [c["id"] for c in sorted(ch["cubes"], key=lambda c: c["place"])]
    entry = t.answer(0, right, t.version)
    assert entry.action == "tower:pass" and entry.by == "judged"


def test_an_opened_tower_fails_when_its_seconds_run_out() -> None:
    clock = FakeClock()
    t = kd_tower(clock)
    t.open_challenge(0, t.version)
    assert t.next_due() == clock.now + 10.0, "the opened tower's end, long before the move time"
    clock.advance(10.0)
    [entry, *_] = t.tick()
    assert entry.action == "tower:fail" and entry.by == "judged" and "ran out" in entry.verdict


def test_an_unopened_tower_whose_move_time_runs_out_is_taken_by_a_bot() -> None:
    clock = FakeClock()
    t = kd_tower(clock)
    clock.advance(DAY)
    entry = t.tick()[0]
    assert entry.by == "out-of-time" and entry.action in ("tower:pass", "tower:fail")
    assert t.updates_for(0).challenge is None


def test_the_tower_timer_does_not_change_the_game() -> None:
    seed, acts = tower_actions()
    timed = KD.new_state({"knockdown_test": "tower"}, seed)
    opened = KD.new_state(TB_TOWER, seed)
    for a in acts:
        timed.apply(a)
        opened.apply(a)
    same = {k: v for k, v in timed.observe(0).to_json().items() if k != "decision"}
    assert same == {k: v for k, v in opened.observe(0).to_json().items() if k != "decision"}
    assert timed.to_act().time_limit == 10.0 and opened.to_act().time_limit is None  # type: ignore[union-attr]
    assert replay(kd_tower(FakeClock()).record).to_act() == opened.to_act()
    # a saved state keeps the timer
    assert KD.state_from_dict(opened.to_dict()).to_act().time_limit is None  # type: ignore[union-attr]


@pytest.mark.parametrize(("game", "config", "words"), [
    (NAK, {"countdown": "seconds"}, "use countdown=move_time"),
    (NAK, {"countdown": "seconds", "countdown_seconds": 30}, "30 seconds"),
    (KD, {"knockdown_test": "tower", "tower_timer": "at_test"}, "tower_timer=when_opened"),
])
def test_option_sets_that_cannot_wait_a_day_are_refused(game: Any, config: dict[str, Any], words: str) -> None:
    with pytest.raises(ConfigError, match=words) as info:
        turn_based_config(game, config)
    assert str(info.value).startswith(f"{game.name} on a turn-based table: ")


def test_turn_based_tables_get_the_games_own_rules_unless_chosen_otherwise() -> None:
    assert turn_based_config(NAK, {"players": 3})["countdown"] == "move_time"
    assert turn_based_config(KD, {})["tower_timer"] == "when_opened"
    assert turn_based_config(KD, {"knockdown_test": "dice", "tower_timer": "at_test"})["knockdown_test"] == "dice"
    assert turn_based_config(get_game("knockback"), {}) == {}


def test_a_countdown_window_that_is_not_used_is_refused() -> None:
    with pytest.raises(ConfigError, match="set one or the other"):
        NAK.make_config({"countdown": "move_time", "countdown_seconds": 3})
    NAK.make_config({"countdown": "move_time", "countdown_seconds": 10})  # (the default, as records store it)


def test_move_times() -> None:
    assert check_move_time(HOUR) == HOUR and check_move_time(14 * DAY) == 14 * DAY
    for bad in (59.0, 30 * 60.0, 15 * DAY):
        with pytest.raises(ConfigError, match="from 1 hour to 14 days"):
            check_move_time(bad)
    assert move_time_text(DAY) == "1 day" and move_time_text(3 * DAY) == "3 days"
    assert move_time_text(12 * HOUR) == "12 hours" and move_time_text(90 * 60) == "90 minutes"

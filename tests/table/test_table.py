"""The live table: fan-out, refusals, clocks, fairness, seats, undo and resume."""

from __future__ import annotations

import pytest

from knockabout.core import IllegalActionError, Rng
from knockabout.core.events import Event
from knockabout.table import (
    NotYourDecisionError,
    Seat,
    StaleActionError,
    Table,
    TableError,
    UndoError,
)
from knockabout.table.table import UNDONE
from tests.table.conftest import FakeClock, all_events, full_state, legal


def people(n: int) -> list[Seat]:
    return [Seat("person", f"P{i}") for i in range(n)]


def play_random(table: Table, rng: Rng, until: object = None, cap: int = 2000) -> None:
    """People at every seat pick random legal actions until ``until(table)`` or the end."""
    for _ in range(cap):
        if table.over or (callable(until) and until(table)):
            return
        d = table.decision()
        assert d is not None
        options = legal(table)
        table.act(d.player, options[rng.below(len(options))], table.version)


def countdown_table(clock: FakeClock, seats: list[Seat], seed_from: int = 0, **kw: object) -> Table:
    """A table where the player to act may start a Countdown."""
    for seed in range(seed_from, seed_from + 200):
        t = Table("nak-muay", seats, {"players": len(seats), "countdown_seconds": 5}, seed, clock=clock, **kw)  # type: ignore[arg-type]
        rng = Rng(seed)
        play_random(t, rng, until=lambda tb: "countdown" in legal(tb))
        if not t.over:
            return t
    raise AssertionError("no seed reaches a Countdown")


def test_each_seat_sees_only_its_view_and_events() -> None:
    t = Table("nak-muay", people(3), {"players": 3}, seed=4)
    play_random(t, Rng(1))
    everything = all_events(t)
    assert everything, "a finished game has events"
    for seat in (0, 1, 2, None):
        up = t.updates_for(seat)
        mine = list(up.events)
        assert mine == [(s, e) for s, e in everything if e.visible(seat)], "exactly the visible events, in order"
        assert up.view == full_state(t).observe(seat)
        assert up.legal == () and up.challenge is None, "nobody decides in a finished game"
    spectator = t.updates_for(None).events
    assert all(e.visible_to is None for _, e in spectator)
    assert len(spectator) < len(everything), "private draws are withheld from spectators"
    assert t.updates_for(None).view.to_json().get("hand") is None


def test_an_update_carries_only_what_is_new_since_the_cursor() -> None:
    t = Table("nak-muay", people(3), {"players": 3}, seed=4)
    rng = Rng(3)
    seen: dict[int | None, list[tuple[int, object]]] = {s: [] for s in (0, 1, 2, None)}
    cursors: dict[int | None, int] = dict.fromkeys(seen, 0)
    for _ in range(40):
        d = t.decision()
        assert d is not None
        up = t.updates_for(d.player)
        assert up.my_decision and up.legal == tuple(a.text for a in full_state(t).legal_actions())
        assert all(t.updates_for(s).legal == () for s in (0, 1, 2, None) if s != d.player)
        t.act(d.player, up.legal[rng.below(len(up.legal))], t.version)
        for s in seen:
            new = t.updates_for(s, cursors[s])
            seen[s].extend(new.events)
            cursors[s] = new.cursor
    for s in seen:
        assert seen[s] == list(t.updates_for(s).events), "the pieces add up to the whole log, once each"


def test_stale_foreign_and_illegal_actions_change_nothing() -> None:
    t = Table("nak-muay", people(3), {"players": 3}, seed=2)
    d = t.decision()
    assert d is not None
    before = full_state(t).to_dict()
    other = (d.player + 1) % 3
    with pytest.raises(StaleActionError, match="chosen on state 5"):
        t.act(d.player, "draw", version=5)
    with pytest.raises(NotYourDecisionError, match="not your decision"):
        t.act(other, "draw", version=0)
    with pytest.raises(IllegalActionError):
        t.act(d.player, "keep", version=0)
    with pytest.raises(TableError, match="no seat 8"):  # (index 7: seats are counted from 1)
        t.act(7, "draw")
    assert full_state(t).to_dict() == before and t.version == 0 and not t.log
    t.act(d.player, "draw", version=0)
    assert t.version == 1


def test_no_action_after_the_game_ends() -> None:
    t = Table("nak-muay", people(2), {"players": 2}, seed=3)
    play_random(t, Rng(3))
    assert t.over and t.outcome() is not None
    with pytest.raises(TableError, match="game is over"):
        t.act(0, "draw")


def test_a_timed_decision_runs_out_into_its_default(clock: FakeClock) -> None:
    t = countdown_table(clock, people(3))
    attacker = t.decision().player  # type: ignore[union-attr]
    t.act(attacker, "countdown", t.version)
    d = t.decision()
    assert d is not None and d.time_limit == 5 and d.timeout_action is not None
    assert t.next_due() == pytest.approx(clock.now + 5)
    clock.advance(4.9)
    assert t.tick() == [] and t.time_left() == pytest.approx(0.1)
    clock.advance(0.2)
    done = t.tick()
    assert [(e.action, e.by, e.seat) for e in done] == [("no-response", "timeout", d.player)]
    assert not t.updates_for(None).view.to_json()["active"][d.player]


def test_a_person_without_a_clock_is_waited_for(clock: FakeClock) -> None:
    t = Table("nak-muay", people(2), {"players": 2}, seed=1, clock=clock)
    assert t.next_due() is None
    clock.advance(10_000)
    assert t.tick() == []


def test_bots_answer_timed_windows_after_the_same_delay_whatever_they_hold(clock: FakeClock) -> None:
    waits: dict[bool, set[float]] = {True: set(), False: set()}
    for seed in range(0, 400, 7):
        seats = [Seat("person", "me"), Seat("bot", "b1", "random"), Seat("bot", "b2", "random")]
        t = Table("nak-muay", seats, {"players": 3, "countdown_seconds": 10}, seed, clock=clock, bot_delay=2.0,
                  bot_pace=0.25)
        rng = Rng(seed)
        for _ in range(300):
            d = t.decision()
            if d is None:
                break
            if d.player == 0:
                options = legal(t)
                choice = "countdown" if "countdown" in options else options[rng.below(len(options))]
                t.act(0, choice, t.version)
                continue
            due = t.next_due()
            assert due is not None
            if d.time_limit is not None:
                has_answer = len(legal(t)) > 1
                waits[has_answer].add(round(due - clock.now, 6))
            clock.advance(due - clock.now - 0.01)
            assert t.tick() == [], "nothing happens before the bot is due"
            clock.advance(0.01)
            assert t.tick()
    assert waits[True] == {2.0} and waits[False] == {2.0}


def test_play_waits_for_empty_seats(clock: FakeClock) -> None:
    seats = [Seat("person", "a"), Seat("empty"), Seat("bot", "b", "random")]
    t = Table("nak-muay", seats, {"players": 3}, seed=5, clock=clock)
    assert not t.started and t.next_due() is None
    d = t.decision()
    assert d is not None
    with pytest.raises(TableError, match="not started"):
        t.act(d.player, "draw", 0)
    t.fill(1, "Bea")
    assert t.started and t.seats[1].name == "Bea"
    with pytest.raises(TableError, match="not free"):
        t.fill(1, "Cy")


def test_an_away_person_is_played_by_a_stand_in_until_back(clock: FakeClock) -> None:
    t = Table("nak-muay", people(2), {"players": 2}, seed=8, clock=clock, bot_pace=0.5)
    d = t.decision()
    assert d is not None
    t.set_away(d.player, True)
    clock.advance(0.5)
    done = t.tick()
    assert done and done[0].by == "stand-in" and done[0].seat == d.player
    for seat in (0, 1):
        t.set_away(seat, False)
    clock.advance(100)
    assert t.tick() == [], "once back, the person decides again"


def test_a_resumed_table_rebuilds_state_and_events() -> None:
    t = Table("nak-muay", people(3), {"players": 3}, seed=11)
    play_random(t, Rng(2), until=lambda tb: tb.version >= 25)
    again = Table("nak-muay", people(3), t.record.config, t.seed, actions=t.record.actions)
    assert full_state(again).to_dict() == full_state(t).to_dict() and again.version == t.version
    for seat in (0, 1, 2, None):
        assert again.updates_for(seat) == t.updates_for(seat)


def _steal_start(seed_range: range) -> Table:
    """A local table (one person vs bots) where the person can play a Clinch pair."""
    for seed in seed_range:
        seats = [Seat("person", "me"), Seat("bot", "b", "random"), Seat("bot", "c", "random")]
        t = Table("nak-muay", seats, {"players": 3}, seed, local=True)
        rng = Rng(seed)
        for _ in range(400):
            d = t.decision()
            if d is None:
                break
            if d.player != 0:
                t.tick()
                continue
            options = legal(t)
            if any(x.startswith("pair:") for x in options):
                return t
            t.act(0, options[rng.below(len(options))], t.version)
    raise AssertionError("no seed offers a Clinch pair")


def test_undo_takes_back_a_public_deterministic_step_exactly() -> None:
    t = _steal_start(range(100))
    before = full_state(t).to_dict()
    events_before = [t.updates_for(s) for s in (0, 1, 2, None)]
    pair = next(a for a in legal(t) if a.startswith("pair:"))
    entry = t.act(0, pair, t.version)
    assert entry.undoable
    assert t.can_undo(0)
    assert t.undo(0) == 1
    assert full_state(t).to_dict() == before
    after = [t.updates_for(s) for s in (0, 1, 2, None)]
    for was, now in zip(events_before, after, strict=True):
        assert (now.view, now.legal, now.decision, now.version) == (was.view, was.legal, was.decision, was.version)
        # everything the seat saw before, and one public line more: who took back how much
        assert now.events[:-1] == was.events
        assert now.events[-1] == (was.version, Event(UNDONE, {"player": 0, "steps": 1}))


def test_undo_never_crosses_a_draw_or_chance() -> None:
    t = _steal_start(range(100))
    pair = next(a for a in legal(t) if a.startswith("pair:"))
    t.act(0, pair, t.version)
    target = legal(t)[0]
    entry = t.act(0, target, t.version)  # a random card is stolen
    assert not entry.undoable
    with pytest.raises(UndoError, match="revealed information or used chance"):
        t.undo(0)
    assert t.log[-1] is entry


def test_undo_only_where_the_table_allows_it() -> None:
    t = Table("nak-muay", people(2), {"players": 2}, seed=1)
    d = t.decision()
    assert d is not None
    with pytest.raises(UndoError, match="this table does not allow undo"):
        t.undo(d.player)
    local = Table("nak-muay", people(2), {"players": 2}, seed=1, local=True)
    with pytest.raises(UndoError, match="nothing to undo"):
        local.undo(0)
    served = Table("nak-muay", people(2), {"players": 2}, seed=1, undo=True)  # a server's table that allows it
    with pytest.raises(UndoError, match="nothing to undo"):
        served.undo(0)


def _knockback(undo: bool = True) -> Table:
    """A server-like table (not local) of KNOCKBACK, whose steps are all public: a person and a bot."""
    return Table("knockback", [Seat("person", "me"), Seat("bot", "b", "random")], {}, 5, undo=undo)


def _person_moves(t: Table, n: int, rng: Rng) -> None:
    """The person makes ``n`` moves, the bot answering in between."""
    for _ in range(n):
        t.tick()
        d = t.decision()
        assert d is not None and d.player == 0
        options = legal(t)
        t.act(0, options[rng.below(len(options))], t.version)
    t.tick()


def test_undo_goes_back_to_exactly_the_state_a_replay_gives_step_after_step() -> None:
    t = _knockback()
    rng = Rng(3)
    _person_moves(t, 6, rng)
    seen = {}  # version -> what seat 0 was shown there
    for _ in range(4):
        version_before_undo = t.version
        assert t.can_undo(0)
        went = t.undo(0)
        assert t.version == version_before_undo - went
        assert t._state.to_dict() == full_state(t).to_dict()  # the kept state is the replayed one
        d = t.decision()
        assert d is not None and d.player == 0  # back at the person's decision
        up = t.updates_for(0)
        seen[t.version] = (up.view, up.legal)
    _person_moves(t, 1, rng)  # play goes on from there
    assert t._state.to_dict() == full_state(t).to_dict()


def test_an_undo_past_the_kept_states_replays_the_record(monkeypatch: pytest.MonkeyPatch) -> None:
    import knockabout.table.table as table_module

    monkeypatch.setattr(table_module, "KEPT_STATES", 1)
    t = _knockback()
    _person_moves(t, 3, Rng(4))
    assert len(t._before) == 1
    t.undo(0)
    t.undo(0)  # no state kept for this one: the record is replayed
    assert t._state.to_dict() == full_state(t).to_dict()
    d = t.decision()
    assert d is not None and d.player == 0


def test_a_table_without_undo_never_checks_a_step(monkeypatch: pytest.MonkeyPatch) -> None:
    import knockabout.table.table as table_module

    calls = []
    real = table_module.public_and_deterministic
    monkeypatch.setattr(table_module, "public_and_deterministic", lambda *a: calls.append(a) or real(*a))
    t = _knockback(undo=False)
    _person_moves(t, 3, Rng(4))
    assert calls == [] and not any(e.undoable for e in t.log) and not t.can_undo(0)
    t = _knockback()
    bots_first = Table("knockback", [Seat("bot", "b", "random"), Seat("person", "me")], {}, 5, undo=True)
    bots_first.tick()  # the bot's opening move, before any person moved: never checked
    assert calls == [] and not bots_first.log[0].undoable
    _person_moves(t, 1, Rng(4))
    assert calls and t.can_undo(0) and t.updates_for(0).can_undo and not t.updates_for(1).can_undo


def test_seat_count_must_match_the_game() -> None:
    with pytest.raises(TableError, match="2 seats given for a 3-player game"):
        Table("nak-muay", people(2), {"players": 3})


class _BrokenBot:
    name = "broken"

    def choose(self, view: object, legal: object, rng: object) -> object:
        raise RuntimeError("bot bug")


def test_a_failing_bot_never_freezes_the_table(clock: FakeClock) -> None:
    t = Table("nak-muay", [Seat("bot", "b1", "random"), Seat("bot", "b2", "random")], {"players": 2}, seed=1,
              clock=clock)
    t._bots = {0: _BrokenBot(), 1: _BrokenBot()}  # type: ignore[dict-item]
    done = t.tick()
    assert t.over and done, "every move fell back to a legal random action"

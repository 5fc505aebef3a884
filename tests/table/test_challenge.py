"""Judged decisions: the table sets the tower puzzle from its own generator, only a right
answer in time by the table's clock becomes tower:pass, and a person cannot claim it."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from knockabout.core.protocol import Decision
from knockabout.core.registry import get_game
from knockabout.core.replay import replay
from knockabout.core.rng import Rng
from knockabout.table import ChallengeError, Seat, Table, TableError, check_shape
from tests.table.conftest import FakeClock
from tests.table.towers import TOWER, tower_actions, tower_table


def solution(ch: dict[str, Any]) -> list[str]:
    return [c["id"] for c in sorted(ch["cubes"], key=lambda c: c["place"])]


def test_the_challenged_person_alone_gets_a_puzzle_of_all_their_wound_cubes(clock: FakeClock) -> None:
    t = tower_table(clock)
    ch = t.updates_for(0).challenge
    assert ch is not None and ch["kind"] == "tower" and ch["left"] == 10.0 and ch["limit"] == 10.0
    view = t.updates_for(0).view.to_json()
    fighter = view["fighters"][0]
    assert len(ch["cubes"]) == fighter["heavy"] + fighter["light"] == view["pending"]["cubes"]
    assert sorted(c["place"] for c in ch["cubes"]) == list(range(1, len(ch["cubes"]) + 1))
    assert sum(c["weight"] == "heavy" for c in ch["cubes"]) == fighter["heavy"]
    assert t.updates_for(1).challenge is None and t.updates_for(None).challenge is None
    clock.advance(4)
    assert t.updates_for(0).challenge["left"] == 6.0  # type: ignore[index]


def test_a_judged_seat_is_offered_no_actions_only_its_challenge(clock: FakeClock) -> None:
    t = tower_table(clock)
    up = t.updates_for(0)
    assert up.my_decision and up.challenge is not None
    assert up.legal == () and up.view.to_json()["legal"] is None, "tower:pass/fail are never taken from a person"
    assert {a.text for a in t._state.legal_actions()} == {"tower:pass", "tower:fail"}, "(the game's own, for bots)"
    # the guide still says what the challenge is, with no action to take
    assert up.guidance is not None and up.guidance.kind == "tower_challenge" and up.guidance.actions == ()
    assert up.guidance.prompt.title and up.guidance.prompt.why
    t.set_away(0, True)  # a stand-in bot plays the seat: the verdict is its to choose
    assert t.updates_for(0).legal == ("tower:pass", "tower:fail")
    t.set_away(0, False)
    clock.advance(5)
    t.answer(0, solution(t.updates_for(0).challenge or {}), t.version)
    after = t.updates_for(0)
    assert after.view.to_json()["legal"] == (list(after.legal) if after.my_decision else None)


def test_a_right_answer_in_time_records_a_judged_pass(clock: FakeClock) -> None:
    t = tower_table(clock)
    ch = t.updates_for(0).challenge
    assert ch is not None
    clock.advance(9.5)
    entry = t.answer(0, solution(ch), t.version)
    assert entry.action == "tower:pass" and entry.by == "judged" and entry.verdict.startswith("passed")
    assert any(e.type == "test_result" and e.data["passed"] for e in entry.events)
    assert t.updates_for(0).challenge is None


def test_a_wrong_order_fails_the_test(clock: FakeClock) -> None:
    t = tower_table(clock)
    ch = t.updates_for(0).challenge
    assert ch is not None
    right = solution(ch)
    wrong = right[1:2] + right[:1] + right[2:]
    entry = t.answer(0, wrong, t.version)
    assert entry.action == "tower:fail" and entry.by == "judged" and "wrong" in entry.verdict


def test_a_toppled_or_unfinished_tower_fails(clock: FakeClock) -> None:
    t = tower_table(clock)
    ch = t.updates_for(0).challenge
    assert ch is not None
    entry = t.answer(0, solution(ch)[:-1], t.version)
    assert entry.action == "tower:fail" and "unfinished" in entry.verdict


def test_a_right_answer_after_the_deadline_fails_by_the_table_clock(clock: FakeClock) -> None:
    t = tower_table(clock)
    ch = t.updates_for(0).challenge
    assert ch is not None
    clock.advance(10.2)  # the answer arrives before the table ticked the timeout
    entry = t.answer(0, solution(ch), t.version)
    assert entry.action == "tower:fail" and "late" in entry.verdict


def test_time_running_out_without_an_answer_fails(clock: FakeClock) -> None:
    t = tower_table(clock)
    assert t.next_due() == clock.now + 10
    clock.advance(10)
    done = t.tick()
    assert [(e.action, e.by) for e in done][:1] == [("tower:fail", "timeout")]


@pytest.mark.parametrize("claim", ["tower:pass", "tower:fail"])
def test_a_person_cannot_choose_the_verdict_directly(clock: FakeClock, claim: str) -> None:
    t = tower_table(clock)
    before = t.version
    with pytest.raises(TableError, match=r"cannot be chosen directly.*judges"):
        t.act(0, claim, t.version)
    assert t.version == before and t.updates_for(0).challenge is not None


@pytest.mark.parametrize("bad", [["zz"], "abc", [1, 2], None])
def test_a_malformed_answer_is_refused_and_changes_nothing(clock: FakeClock, bad: Any) -> None:
    t = tower_table(clock)
    ch = t.updates_for(0).challenge
    with pytest.raises(ChallengeError, match="nothing changed"):
        t.answer(0, bad, t.version)
    assert t.version == ch["version"] and t.updates_for(0).challenge == ch  # type: ignore[index]


def test_a_repeated_cube_is_refused(clock: FakeClock) -> None:
    t = tower_table(clock)
    ch = t.updates_for(0).challenge
    assert ch is not None
    first = solution(ch)[0]
    with pytest.raises(ChallengeError, match="twice"):
        t.answer(0, [first, first], t.version)


def test_answers_from_the_wrong_seat_or_a_stale_state_are_refused(clock: FakeClock) -> None:
    t = tower_table(clock)
    ch = t.updates_for(0).challenge
    assert ch is not None
    with pytest.raises(TableError, match="not your decision"):
        t.answer(1, solution(ch), t.version)
    with pytest.raises(TableError, match="stale"):
        t.answer(0, solution(ch), t.version - 1)
    assert t.updates_for(0).challenge == ch


def test_a_bot_still_chooses_the_verdict_itself_without_a_puzzle(clock: FakeClock) -> None:
    seed, acts = tower_actions(tested=1)
    t2 = Table("knockdown", [Seat("person", "Ann"), Seat("bot", "b", "random")], TOWER, seed, clock=clock,
               actions=acts)
    assert t2.decision().kind == "tower_challenge"  # type: ignore[union-attr]
    assert t2.challenge is None and t2.updates_for(1).challenge is None
    done = t2.tick()
    assert done and done[0].action in ("tower:pass", "tower:fail") and done[0].by == "bot"


def test_an_away_person_gets_no_puzzle_and_a_returning_one_gets_a_fresh_clock(clock: FakeClock) -> None:
    t = tower_table(clock)
    first = t.updates_for(0).challenge
    t.set_away(0, True)
    assert t.updates_for(0).challenge is None
    clock.advance(3)
    t.set_away(0, False)
    again = t.updates_for(0).challenge
    assert again is not None and again["id"] != first["id"] and again["left"] == 10.0  # type: ignore[index]


def test_the_puzzle_never_changes_the_game_or_its_replay(clock: FakeClock) -> None:
    a = tower_table(clock, challenge_seed=1)
    b = tower_table(clock, challenge_seed=2)
    ca, cb = a.updates_for(0).challenge, b.updates_for(0).challenge
    assert ca is not None and cb is not None and solution(ca) != solution(cb)
    assert replay(a.record).to_dict() == replay(b.record).to_dict()
    clock.advance(5)  # a person's pace
    a.answer(0, solution(ca), a.version)
    b.answer(0, solution(cb), b.version)
    assert a.record.actions == b.record.actions and a.record.actions[-1] == "tower:pass"
    assert replay(a.record).to_dict() == replay(b.record).to_dict()
    assert a.updates_for(0).view == replay(a.record).observe(0)


def test_a_local_table_cannot_undo_a_judged_answer_for_a_second_try(clock: FakeClock) -> None:
    seed, acts = tower_actions()
    t = Table("knockdown", [Seat("person", "Ann"), Seat("person", "Bo")], TOWER, seed,
              clock=clock, actions=acts, local=True)
    t.answer(0, [], t.version)
    assert not t.can_undo(0)


@pytest.fixture(scope="module")
def tower_positions() -> list[tuple[Any, Decision]]:
    """Real positions where a seat must build a tower: (that seat's view, the decision)."""
    game = get_game("knockdown")
    out = []
    for tested, first_seed in ((0, 0), (1, 0), (0, 40)):
        seed, acts = tower_actions(tested, first_seed)
        state = game.new_state(TOWER, seed)
        for a in acts:
            state.apply(a)
        d = state.to_act()
        assert d is not None and d.kind == "tower_challenge"
        out.append((state.observe(d.player), d))
    return out


def test_knockdown_declares_its_tower_as_a_challenge() -> None:
    makers = get_game("knockdown").challenges()
    assert set(makers) == {"tower_challenge"}
    assert all(not get_game(g).challenges() for g in ("nak-muay", "knockback"))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(which=st.integers(0, 2), seed=st.integers(0, 2**32))
def test_every_tower_puzzle_is_solvable(tower_positions: list[tuple[Any, Decision]], which: int, seed: int) -> None:
    view, decision = tower_positions[which]
    p = get_game("knockdown").challenges()["tower_challenge"](view, decision, Rng(seed))
    n = view.to_json()["pending"]["cubes"]
    ids = [c["id"] for c in p.payload["cubes"]]
    assert len(set(ids)) == max(1, n) and sorted(p.solution) == sorted(ids)
    assert check_shape(p, list(p.solution)) == list(p.solution)
    assert [c["id"] for c in sorted(p.payload["cubes"], key=lambda c: c["place"])] == list(p.solution)
    cols, rows = p.payload["grid"]
    assert cols * rows >= len(ids)
    lying = [tuple(xy) for xy in p.payload["layout"]]
    assert len(lying) == len(ids) and len(set(lying)) == len(lying), "two cubes lying on one spot"
    assert all(0 <= x < cols and 0 <= y < rows for x, y in lying)
    assert p.payload["reshuffle"] == (len(ids) >= 4)
    assert p.min_seconds_per_piece > 0


def test_the_puzzle_sends_only_what_a_person_sees_now(clock: FakeClock) -> None:
    """The numbered cubes and where they lie now; not the answer itself, nor where the cubes
    will lie after each pick (issue 14: a script read the order from the future layouts)."""
    t = tower_table(clock)
    ch = t.updates_for(0).challenge
    assert ch is not None
    assert set(ch) == {"id", "kind", "decision", "seat", "version", "opened", "left", "limit", "rule",
                       "min_seconds_per_piece", "cubes", "grid", "layout", "reshuffle"}
    assert all(set(c) == {"id", "weight", "place"} for c in ch["cubes"])
    assert len(ch["layout"]) == len(ch["cubes"]) and all(len(xy) == 2 for xy in ch["layout"])
    assert "solution" not in str(ch) and "layouts" not in ch


def test_a_right_answer_faster_than_a_person_fails_as_too_fast(clock: FakeClock) -> None:
    t = tower_table(clock)
    ch = t.updates_for(0).challenge
    assert ch is not None
    n = len(ch["cubes"])
    floor = ch["min_seconds_per_piece"] * n
    assert floor > 0
    clock.advance(floor * 0.9)  # a script that read the numbers
    entry = t.answer(0, solution(ch), t.version)
    assert entry.action == "tower:fail" and entry.by == "judged"
    assert "too fast for a person" in entry.verdict and f"{n} pieces" in entry.verdict


def test_a_right_answer_at_human_speed_passes(clock: FakeClock) -> None:
    t = tower_table(clock)
    ch = t.updates_for(0).challenge
    assert ch is not None
    clock.advance(ch["min_seconds_per_piece"] * len(ch["cubes"]) + 0.01)
    entry = t.answer(0, solution(ch), t.version)
    assert entry.action == "tower:pass" and entry.verdict.startswith("passed: right in")


def test_the_floor_is_the_puzzles_and_zero_means_none(clock: FakeClock) -> None:
    from knockabout.core.plugins import Puzzle
    from knockabout.table.challenge import Challenge

    fast = Puzzle(kind="k", payload={}, solution=("a", "b"), pass_action="p", fail_action="f")
    slow = Puzzle(kind="k", payload={}, solution=("a", "b"), pass_action="p", fail_action="f",
                  min_seconds_per_piece=1.0)
    for puzzle, passed in ((fast, True), (slow, False)):
        c = Challenge("c", 0, 0, "k", 0.0, 10.0, 10.0, puzzle)
        assert c.judge(["a", "b"], 1.5)[0] is passed
    assert Challenge("c", 0, 0, "k", 0.0, 10.0, 10.0, slow).judge(["a", "b"], 2.0)[0] is True
    with pytest.raises(ValueError, match="min_seconds_per_piece"):
        Puzzle(kind="k", payload={}, solution=(), pass_action="p", fail_action="f", min_seconds_per_piece=-1)

"""Every game's tutorial, played as a learner would: to the end with the expected moves,
every claim of every step checked against the engine, and every wrong move refused with
its correction and no change at all."""

from __future__ import annotations

from typing import Any

import pytest

from knockabout.core.registry import all_games
from knockabout.core.replay import GameRecord, replay
from knockabout.tutorial import MAX_STEPS, NEXT, Feedback, Lesson, load_scenario

GAMES = [g.id for g in all_games() if g.tutorial is not None]


def test_the_shipped_games_have_tutorials() -> None:
    assert sorted(GAMES) == ["knockback", "knockdown", "nak-muay"]


def _snapshot(lesson: Lesson) -> tuple[Any, ...]:
    """Everything that would show a change: the step, the record, the engine's state and
    the learner's whole update."""
    up = lesson.update()
    return (lesson.index, list(lesson.inputs), lesson.table.version, list(lesson.table.record.actions),
            replay(lesson.table.record).to_dict(), up.view.to_json(), up.legal, up.cursor)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_tutorial_plays_to_the_end_and_every_claim_holds(game_id: str) -> None:
    lesson = Lesson(game_id)
    assert 1 <= len(lesson.steps) <= MAX_STEPS
    seen_parts = set()
    while not lesson.done:
        step = lesson.step
        assert step is not None
        assert lesson.unmet_claims() == [], f"step {lesson.index + 1} {step.title!r}"
        if step.expect is not None:
            d = lesson.table.decision()
            assert d is not None and d.player == lesson.learner, f"step {lesson.index + 1}: not the learner's move"
            assert step.expect in lesson.update().legal
        if step.highlight:
            seen_parts.add(step.highlight)
        fb = lesson.give(step.expect or NEXT)
        if step.expect is not None:
            assert fb is not None and fb.kind == "explain"
            assert fb.text == (step.after or "")
    assert lesson.unmet_claims() == []
    assert lesson.panel()["done"] and lesson.panel()["finish"]["text"]
    # the lesson's table is a game like any other: its record (arrangement included) replays it
    rec = GameRecord.from_json(lesson.table.record.to_json())
    assert rec.arrangement == load_scenario(lesson.game).arrangement
    assert replay(rec).to_dict() == replay(lesson.table.record).to_dict()
    assert {"choices", "hand"} & seen_parts


def _wrong_inputs(lesson: Lesson) -> list[str]:
    step = lesson.step
    assert step is not None
    legal = list(lesson.update().legal)
    wrong = [a for a in legal if a != step.expect]
    if step.expect is not None:
        wrong.append(NEXT)
    elif legal:
        wrong.append(legal[0])
    return [*wrong, "no-such-move", ""]


@pytest.mark.parametrize("game_id", GAMES)
def test_a_wrong_move_at_any_step_is_corrected_and_changes_nothing(game_id: str) -> None:
    lesson = Lesson(game_id)
    while not lesson.done:
        step = lesson.step
        assert step is not None
        for bad in _wrong_inputs(lesson):
            before = _snapshot(lesson)
            fb = lesson.give(bad)
            assert fb is not None and fb.kind == "correction", (lesson.index, bad)
            assert fb.text.strip()
            if step.expect is not None and bad != NEXT and bad in step.corrections:
                assert fb.text == step.corrections[bad]
            elif step.expect is not None and bad != NEXT:
                assert fb.text == step.wrong
            assert lesson.panel()["feedback"] == {"kind": "correction", "text": fb.text}
            assert _snapshot(lesson) == before, f"{bad!r} at step {lesson.index + 1} changed the table"
        lesson.give(step.expect or NEXT)
    before = _snapshot(lesson)
    fb = lesson.give("draw")
    assert fb is not None and fb.kind == "correction" and _snapshot(lesson) == before


@pytest.mark.parametrize("game_id", GAMES)
def test_each_special_correction_names_a_real_move_other_than_the_expected_one(game_id: str) -> None:
    """A correction may answer a move the step does not offer (a learner can type any move
    in the terminal, e.g. an Attack against an Attack); it must be a move of the game."""
    lesson = Lesson(game_id)
    while not lesson.done:
        step = lesson.step
        assert step is not None
        for move in step.corrections:
            assert lesson.game.actions.parse(move).text == move, f"step {lesson.index + 1}: {move!r}"
            assert move != step.expect
            before = _snapshot(lesson)
            assert lesson.give(move) == Feedback("correction", step.corrections[move])
            assert _snapshot(lesson) == before
        lesson.give(step.expect or NEXT)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_lesson_table_never_runs_a_clock_or_a_bot(game_id: str) -> None:
    lesson = Lesson(game_id)
    assert all(s.kind == "person" for s in lesson.table.seats)
    while not lesson.done:
        step = lesson.step
        assert step is not None
        assert lesson.table.next_due() is None or lesson.table.time_left() == lesson.table.decision().time_limit
        assert lesson.table.tick() == []  # nothing happens by itself at a lesson's table
        lesson.give(step.expect or NEXT)

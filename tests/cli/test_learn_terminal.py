"""``knockabout learn`` driven through a pseudo-terminal, as a learner would: every game's
lesson from the first step to the last, choosing moves by their numbers on the list, with
a wrong move on the way that gets its correction."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pexpect
import pytest

from knockabout.core.registry import all_games
from knockabout.tutorial import Lesson, load_scenario

GAMES = [g.id for g in all_games() if g.tutorial is not None]
PROMPT = "Lesson > "


def spawn(args: list[str], tmp: Path) -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable, ["-m", "knockabout", "learn", *args], encoding="utf-8", timeout=30,
        dimensions=(60, 140),
        env={"TERM": "xterm-256color", "PYTHONPATH": str(Path(__file__).parents[2] / "src"), "HOME": str(tmp)},
    )


def send(child: pexpect.spawn, text: str) -> None:
    """Type a line and wait for its echo (the prompt is drawn again with it)."""
    child.send(text + "\r")
    child.expect(re.escape(PROMPT + text) + r"\r*\n")


def _number_of(screen: str, action: str) -> str:
    """The number the list shows for ``action`` (as a person reads it off the screen)."""
    found = re.findall(r"(\d+)\. [^\n]*?\[" + re.escape(action) + r"\]", screen)
    assert found, f"{action!r} is not on the list:\n{screen[-3000:]}"
    return found[-1]


@pytest.mark.parametrize("game_id", GAMES)
def test_the_lesson_plays_to_the_end_in_a_terminal(game_id: str, tmp_path: Path) -> None:
    scenario = load_scenario(Lesson(game_id).game)
    child = spawn([game_id, "--no-clear"], tmp_path)
    wrong_tried = False
    for i, step in enumerate(scenario.steps, 1):
        child.expect(PROMPT)
        screen = child.before
        assert f"step {i} of {len(scenario.steps)}" in screen
        assert "look here" in screen, f"step {i} frames no part of the screen"
        if step.expect is None:
            send(child, "")
            continue
        if not wrong_tried:  # a move that is not the step's: its correction, then the same step again
            send(child, "")
            child.expect(re.escape("This step waits for your move"))
            child.expect(PROMPT)
            wrong_tried = True
        send(child, _number_of(screen, step.expect))
    child.expect(re.escape(scenario.finish.title))
    child.expect("the lesson is over")
    child.expect(pexpect.EOF)


def test_quitting_a_lesson_asks_first(tmp_path: Path) -> None:
    child = spawn(["knockback", "--no-clear"], tmp_path)
    child.expect(PROMPT)
    child.send("q\r")
    child.expect(re.escape("Leave the lesson? [y/N]"))
    child.send("n\r")
    child.expect("Staying in the lesson")
    child.send("?\r")  # the game's own help
    child.expect(PROMPT)
    child.send("q\r")
    child.expect(re.escape("[y/N]"))
    child.send("y\r")
    child.expect("You left the lesson")
    child.expect(pexpect.EOF)


def test_a_game_without_a_lesson_is_one_clear_line(tmp_path: Path) -> None:
    child = spawn(["no-such-game"], tmp_path)
    child.expect("no-such-game")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus != 0

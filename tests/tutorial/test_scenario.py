"""Scenario files are validated on load like content: one clear error naming the field."""

from __future__ import annotations

import pytest

from knockabout.core.errors import ConfigError, ContentError
from knockabout.core.protocol import Game
from knockabout.core.registry import get_game
from knockabout.tutorial import MAX_STEPS, Check, parse_scenario
from knockabout.tutorial.claims import failures, matches
from knockabout.tutorial.scenario import load_scenario, tutorial_file

NAK = get_game("nak-muay")
HEAD = '''
title = "t"
names = ["A", "B"]
config = { players = 2 }
arrangement = { hands = [["block"], ["dodge"]] }
[finish]
title = "done"
text = "over"
'''
STEP = '''
[[steps]]
title = "s"
text = "read"
'''


def _parse(text: str) -> object:
    return parse_scenario(NAK, text, "lesson.toml")


def test_a_small_scenario_parses() -> None:
    sc = _parse(HEAD + STEP + STEP.replace('"read"', '"draw now"') + 'expect = "draw"\nwrong = "draw"\n')
    assert len(sc.steps) == 2 and sc.steps[1].expect == "draw"  # type: ignore[attr-defined]


@pytest.mark.parametrize(("text", "names"), [
    ("title = [", "not valid TOML"),
    (HEAD, "steps: Field required"),
    (HEAD + STEP + 'expect = "draw"\n', "steps.0: a step that expects a move needs `wrong`"),
    (HEAD + STEP + 'after = "x"\n', "steps.0: a step without `expect`"),
    (HEAD + STEP + 'highlight = "Hand!"\n', "steps.0.highlight: String should match pattern"),
    (HEAD + STEP + 'colour = "red"\n', "steps.0.colour: Extra inputs are not permitted"),
    (HEAD + STEP * (MAX_STEPS + 1), f"steps: Tuple should have at most {MAX_STEPS} items"),
    (HEAD + STEP + 'checks = [{ on = "view", path = "/hand", equals = 1, length = 1 }]\n',
     "steps.0.checks.0: give exactly one of equals, contains, excludes, length (got equals, length)"),
    (HEAD + STEP + 'checks = [{ on = "mind", equals = 1 }]\n', "steps.0.checks.0.on: Input should be"),
    (HEAD.replace('["block"]', '["blok"]') + STEP, "hands.0.0: Input should be"),
    (HEAD.replace('["block"]', '["ko"]') + STEP, "hands: seat 0 holds a KO"),
    (HEAD.replace('players = 2', 'players = 9') + STEP, "config: nak-muay: invalid configuration: players"),
    (HEAD.replace('["A", "B"]', '["A", "B", "C"]') + STEP, "names: the table has 2 seats, and 3 names are given"),
    (HEAD.replace('names = ["A", "B"]', 'names = ["A", "B"]\nlearner = 2') + STEP, "learner: there is no seat 2"),
])
def test_a_broken_scenario_is_one_error_naming_the_field(text: str, names: str) -> None:
    with pytest.raises(ContentError) as exc:
        _parse(text)
    message = str(exc.value)
    assert message.startswith("lesson.toml: ")
    assert names in message
    assert "\n" not in message


def test_the_shipped_scenario_is_found_in_the_games_own_package() -> None:
    path = tutorial_file(NAK)
    assert path is not None and path.name == "tutorial.toml" and path.parent.name == "nakmuay"
    assert load_scenario(NAK) is load_scenario(NAK)  # loaded once


def test_a_game_without_a_tutorial_or_an_arrangement_says_so() -> None:
    class Bare(type(NAK)):  # type: ignore[misc]
        tutorial = None

    with pytest.raises(ContentError, match="Nak Muay Knockout has no tutorial yet"):
        load_scenario(Bare())
    with pytest.raises(ConfigError, match="nak-muay: this game cannot start from an arranged position"):
        Game.arrange(NAK, {}, {"hands": []})


def test_matching_and_checks() -> None:
    assert matches({"type": "draw", "player": 0, "extra": 1}, {"type": "draw", "player": 0})
    assert not matches({"type": "draw", "player": 1}, {"type": "draw", "player": 0})
    assert not matches(1, True) and not matches(True, 1) and matches(False, False)
    assert matches(("a", "b"), ["a", "b"]) and not matches(("a",), ["a", "b"])
    src = {"view": {"hand": ["block", "dodge"], "n": 2, "words": "hello there", "map": {"1": ["x"]}}, "legal": []}

    def ok(**kw: object) -> bool:
        return not failures([Check.model_validate(kw)], src)

    assert ok(path="/hand", contains="block") and not ok(path="/hand", contains="scout")
    assert ok(path="/hand", excludes="scout") and not ok(path="/hand", excludes="dodge")
    assert ok(path="/hand", length=2) and ok(path="/n", equals=2) and not ok(path="/n", equals=3)
    assert ok(path="/words", contains="there") and ok(path="/map", contains="1") and ok(path="/map/1", equals=["x"])
    assert ok(on="legal", length=0) and ok(on="legal", equals=[])
    assert not ok(path="/missing", equals=1)
    assert not ok(path="/n", contains=2)  # a number holds nothing
    (line,) = failures([Check(path="/hand", contains="scout")], src)
    assert line == "view/hand contains 'scout': found ['block', 'dodge']"

"""Tutorials: a game's scripted lesson (a scenario file in its package) and the runner that
plays it through a real :class:`~knockabout.table.Table`. Generic: no game is named here."""

from knockabout.tutorial.lesson import NEXT, Feedback, Lesson
from knockabout.tutorial.scenario import MAX_STEPS, PARTS, Check, Scenario, Step, load_scenario, parse_scenario

__all__ = ["MAX_STEPS", "NEXT", "PARTS", "Check", "Feedback", "Lesson", "Scenario", "Step", "load_scenario",
           "parse_scenario"]

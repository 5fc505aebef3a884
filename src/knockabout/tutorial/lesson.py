"""A tutorial being taken: a scripted table and where the learner is in its steps.

A :class:`Lesson` seats the scenario's names at a :class:`~knockabout.table.Table` that
starts from the scenario's arrangement (``Game.arrange``), so every move goes through the
same engine, the same checked entry point and the same redaction as a real game. The
learner's screen is built from :meth:`Lesson.update` (the table's update for the learner's
seat) like any seat's; the other seats are played by the scenario's script.

The learner answers a step with :meth:`Lesson.act` (the step's expected move) or
:meth:`Lesson.next` (a step that is only read). Anything else is refused with the step's
short correction and changes nothing. Clocks do not run at a lesson's table: a timed
decision waits for the learner (its step says how long it would be at a real table).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from knockabout.core.errors import ContentError, KnockaboutError
from knockabout.core.protocol import Game
from knockabout.core.registry import get_game
from knockabout.core.replay import replay
from knockabout.table import Seat, Table, Update
from knockabout.tutorial.claims import failures
from knockabout.tutorial.scenario import Scenario, Step, load_scenario

NEXT = "next"
"""What a step read without a move waits for (also the input that closes it)."""
READ_FIRST = "Read this step first, then press Next: it does not ask for a move yet."
WAITS_FOR_MOVE = "This step waits for your move: the step above says which."
OVER = "The lesson is over."


def _stopped() -> float:
    """The lesson table's clock: it never moves, so no timed decision runs out."""
    return 0.0


@dataclass(frozen=True)
class Feedback:
    """What the learner is told after an input: a ``correction`` (nothing changed; try
    again) or an ``explain`` (the move was made: what happened and why)."""

    kind: Literal["correction", "explain"]
    text: str

    def to_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "text": self.text}


class Lesson:
    """One learner taking one game's tutorial (see the module)."""

    def __init__(self, game: Game[Any] | str, scenario: Scenario | None = None) -> None:
        self.game = get_game(game) if isinstance(game, str) else game
        self.scenario = scenario if scenario is not None else load_scenario(self.game)
        sc = self.scenario
        self.learner = sc.learner
        self.table = Table(self.game, [Seat("person", name=n) for n in sc.names], sc.config, sc.seed,
                           arrangement=sc.arrangement, clock=_stopped)
        self.index = 0
        self.feedback: Feedback | None = None
        self.inputs: list[str] = []
        """Every accepted input so far (move texts and ``next``): replaying them gives this lesson."""
        self._mark = 0  # the table's event cursor before the last accepted input

    # ------------------------------------------------------------------ facts
    @property
    def steps(self) -> tuple[Step, ...]:
        return self.scenario.steps

    @property
    def step(self) -> Step | None:
        """The step the learner is on (None once the lesson is over)."""
        return self.steps[self.index] if self.index < len(self.steps) else None

    @property
    def done(self) -> bool:
        return self.index >= len(self.steps)

    def update(self) -> Update:
        """Everything the learner may see (with every event so far): the table's own update."""
        return self.table.updates_for(self.learner)

    def panel(self) -> dict[str, Any]:
        """The step panel as JSON-able data: where the learner is, what to read and where to
        look, whether a move or Next is awaited, and the last feedback."""
        step = self.step
        fin = self.scenario.finish
        return {
            "title": self.scenario.title,
            "index": self.index,
            "total": len(self.steps),
            "step": None if step is None else {
                "title": step.title, "text": step.text, "highlight": step.highlight,
                "waits": "move" if step.expect is not None else NEXT,
            },
            "feedback": None if self.feedback is None else self.feedback.to_dict(),
            "done": self.done,
            "finish": {"title": fin.title, "text": fin.text} if self.done else None,
        }

    # ------------------------------------------------------------------ inputs
    def next(self) -> Feedback | None:
        """Close a step that is only read. Refused (a correction) on a step that waits for a move."""
        step = self.step
        if step is None:
            return self._refuse(OVER)
        if step.expect is not None:
            return self._refuse(WAITS_FOR_MOVE)
        self._mark = self.table.updates_for(self.learner).cursor
        self.index += 1
        self.inputs.append(NEXT)
        self.feedback = None
        return None

    def act(self, text: str) -> Feedback:
        """The learner's move. The step's expected move is made (and the script's answers
        after it), and the step's explanation comes back; any other input is refused with
        the step's correction and changes nothing."""
        step = self.step
        if step is None:
            return self._refuse(OVER)
        if step.expect is None:
            return self._refuse(READ_FIRST)
        typed = text.strip()
        try:
            move = self.game.actions.parse(typed).text
        except KnockaboutError:
            move = typed
        if move != step.expect:
            return self._refuse(step.corrections.get(move) or step.wrong or WAITS_FOR_MOVE)
        where = f"step {self.index + 1} ({step.title!r})"
        self._mark = self.table.updates_for(self.learner).cursor
        try:
            self.table.act(self.learner, move, self.table.version)
        except KnockaboutError as exc:
            raise ContentError(f"{self.game.id} tutorial, {where}: the expected move {move!r} fails: {exc}") from None
        for scripted in step.opponent:
            d = self.table.decision()
            if d is None or d.player == self.learner:
                whose = "the game is over" if d is None else "the learner decides"
                raise ContentError(f"{self.game.id} tutorial, {where}: scripted move {scripted!r}: {whose}")
            try:
                self.table.act(d.player, scripted, self.table.version)
            except KnockaboutError as exc:
                raise ContentError(
                    f"{self.game.id} tutorial, {where}: scripted move {scripted!r} fails: {exc}") from None
        self.index += 1
        self.inputs.append(move)
        self.feedback = Feedback("explain", step.after) if step.after else None
        return self.feedback or Feedback("explain", "")

    def give(self, text: str) -> Feedback | None:
        """One input as a person gives it: ``next`` closes a read step, anything else is a move."""
        if text.strip().lower() == NEXT:
            return self.next()
        return self.act(text)

    def _refuse(self, text: str) -> Feedback:
        self.feedback = Feedback("correction", text)
        return self.feedback

    # ------------------------------------------------------------------ claims
    def sources(self) -> dict[str, Any]:
        """What a :class:`~knockabout.tutorial.scenario.Check` may read, as JSON data. The
        engine's full state comes from replaying the table's record (the table keeps its
        own state private), which gives the very same state."""
        up = self.table.updates_for(self.learner, self._mark)
        outcome = up.outcome
        return {
            "view": up.view.to_json(),
            "state": replay(self.table.record).to_dict(),
            "legal": list(up.legal),
            "decision": None if up.decision is None else up.decision.to_dict(),
            "events": [{"type": e.type, **dict(e.data)} for _, e in up.events],
            "outcome": None if outcome is None else outcome.to_dict(),
        }

    def unmet_claims(self) -> list[str]:
        """The claims shown now that do not hold: the last step's ``after_checks`` (its
        explanation is on screen) and the current step's ``checks`` (or the finish's)."""
        out = []
        src = self.sources()
        prev = self.steps[self.index - 1] if self.index > 0 else None
        if prev is not None and prev.expect is not None:
            out += [f"step {self.index} after: {f}" for f in failures(prev.after_checks, src)]
        step = self.step
        checks = self.scenario.finish.checks if step is None else step.checks
        label = "finish" if step is None else f"step {self.index + 1}"
        out += [f"{label}: {f}" for f in failures(checks, src)]
        return out

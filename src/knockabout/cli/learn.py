"""``knockabout learn``: a game's tutorial in the terminal.

The lesson (:class:`~knockabout.tutorial.Lesson`) seats the learner at a real table that
starts from the tutorial's arranged deal; the screen is ``knockabout play``'s own
(:class:`~knockabout.cli.play.TerminalGame`: the log, the board, the hand, the decision in
words and the numbered moves), with the step underneath it and the part the step speaks
about framed in yellow. The learner types a move's number or text, or Enter to go on when
the step only has something to read; any other move gets the step's short correction and
changes nothing.
"""

from __future__ import annotations

from typing import Final

import typer
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from knockabout.cli.errors import friendly_errors
from knockabout.cli.play import QUIT_WORDS, LineReader, Quit, TerminalGame
from knockabout.core.registry import get_game
from knockabout.table import Update
from knockabout.tutorial import NEXT, Lesson

SCREEN_PART: Final[dict[str, str]] = {
    "prompt": "prompt", "choices": "choices", "hand": "hand", "board": "board", "log": "log",
    "players": "board", "timer": "timer", "rules": "rules",
}
"""Where each screen part a step may name is drawn in the terminal (the players are on the
board; a part of a game's own board is the board)."""
HELP_WORDS: Final = ("?", "h", "help")


class LessonScreen(TerminalGame):
    """``knockabout play``'s screen for the learner, with the lesson's step under it."""

    def __init__(self, lesson: Lesson, console: Console, reader: LineReader, *, clear: bool = True) -> None:
        super().__init__(lesson.table, console, reader, clear=clear)
        self.lesson = lesson
        self.learner = lesson.learner
        self.at_screen = lesson.learner
        self.hotseat = False
        self.opening = f"{lesson.scenario.title}: the table is set for the lesson."

    # -- drawing
    def target(self) -> str | None:
        """The screen part the current step frames."""
        step = self.lesson.step
        if step is None or step.highlight is None:
            return None
        return SCREEN_PART.get(step.highlight, "board")

    def show(self, part: str, renderable: RenderableType) -> None:
        if part == self.target():
            renderable = Panel(renderable, title="▶ look here", title_align="left", border_style="bold yellow")
        self.console.print(renderable)

    def screen(self, seat: int) -> Update:
        up = super().screen(seat)
        d = up.decision
        if d is not None and d.player == seat and d.time_limit is not None:
            self.show("timer", Text(f"⏱ {d.time_limit:g} seconds to answer at a real table; "
                                    "in this lesson the clock waits for you.", style="bold"))
        self.show("rules", Text("Type ? for the cards and symbols, q to leave the lesson.", style="dim"))
        self.console.print(self.step_panel())
        return up

    def step_panel(self) -> RenderableType:
        """The step: how far the learner is, what the last move did, the rule, what to do."""
        lesson = self.lesson
        panel = lesson.panel()
        parts: list[RenderableType] = []
        fb = lesson.feedback
        if fb is not None and fb.kind == "explain" and fb.text:
            parts.append(Text("✓ " + fb.text, style="green"))
        step = lesson.step
        if step is None:
            fin = lesson.scenario.finish
            parts.append(Text(fin.text))
            return Panel(Group(*parts), title=f"{lesson.scenario.title} · {fin.title}", title_align="left",
                         border_style="bold green")
        parts.append(Text(step.text))
        if step.expect is None:
            parts.append(Text("Press Enter for the next step.", style="bold cyan"))
        else:
            parts.append(Text("Your move: type its number from the list (or its text in brackets).", style="bold cyan"))
        title = f"Lesson · step {panel['index'] + 1} of {panel['total']} · {step.title}"
        return Panel(Group(*parts), title=title, title_align="left", border_style="cyan")

    # -- the loop
    def run(self) -> None:
        lesson = self.lesson
        while not lesson.done:
            up = self.screen(self.learner)
            while not self._answer(up):
                pass
        self.at_screen = self.learner
        self.screen(self.learner)
        self.console.print(Rule("the lesson is over"))

    def _answer(self, up: Update) -> bool:
        """Read one input and give it to the lesson; True when the step changed (redraw)."""
        got = (self.reader.read(lambda _left: "Lesson > ") or "").strip()
        low = got.lower()
        if low in QUIT_WORDS:
            self._leave_lesson()
            return False
        if low in HELP_WORDS:
            self.console.print(self.renderer.help())
            return False
        if not got:
            got = NEXT
        elif got.isdigit():
            offered = self.offered(up) if up.my_decision else []
            i = int(got)
            if not 1 <= i <= len(offered):
                span = f"choose 1-{len(offered)}" if offered else "this step has no moves to choose from"
                self.console.print(Text(f"{got} is not on the list: {span}.", style="red"))
                return False
            got = offered[i - 1]
        before = self.lesson.index
        fb = self.lesson.give(got)
        if fb is not None and fb.kind == "correction":
            self.console.print(Text(fb.text, style="bold yellow"))
            return False
        return self.lesson.index != before

    def _leave_lesson(self) -> None:
        got = (self.reader.read(lambda _left: "Leave the lesson? [y/N] > ") or "").strip().lower()
        if got in ("y", "yes"):
            raise Quit
        self.console.print(Text("Staying in the lesson.", style="dim"))


def learn(
    game: str = typer.Argument("nak-muay", help="game id (see `knockabout games`)"),
    clear: bool = typer.Option(True, "--clear/--no-clear", help="clear the screen between steps"),
) -> None:
    console = Console(highlight=False)
    with friendly_errors():
        lesson = Lesson(get_game(game))
    console.print(Rule(f"{lesson.scenario.title}: {len(lesson.steps)} steps. Enter goes on, ? shows help, q leaves."))
    try:
        LessonScreen(lesson, console, LineReader(), clear=clear).run()
    except (Quit, EOFError, KeyboardInterrupt):
        console.print(Text("\nYou left the lesson. Run it again any time: knockabout learn " + lesson.game.id,
                           style="yellow"))

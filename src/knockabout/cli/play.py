"""``knockabout play``: a live game in the terminal, people (hotseat) and bots at one table.

Each person sees the board, their own hand, a numbered list of legal actions and the
log of what they may know. Timed decisions (a reaction window) tick down on the
prompt line and run out for real into the decision's default action. A judged decision
(a dexterity test) shows the table's puzzle instead of actions: the person types the
answer (the pieces in order) before the table's clock runs out. With several
people at one screen, the screen is cleared and handed over between them, so nobody
sees another's hand.
"""

from __future__ import annotations

import math
import os
import secrets
import select
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import typer
from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from knockabout.cli.errors import fail, friendly_errors
from knockabout.cli.options import parse_options
from knockabout.cli.render import TerminalRenderer, renderer_for
from knockabout.core.errors import KnockaboutError
from knockabout.core.events import Event
from knockabout.core.registry import get_game
from knockabout.core.replay import GameRecord
from knockabout.table import Seat, Table, Update, default_names, parse_seats
from knockabout.table.table import table_narration

LOG_LINES = 12
QUIT_WORDS = ("q", "quit", "exit")
CLEAR = "\x1b[2J\x1b[3J\x1b[H"


class Quit(Exception):
    """The person asked to leave the table."""


class LineReader:
    """Reads one line with an optional deadline, redrawing the prompt (and its
    ticking clock) as it goes. On a terminal it reads key by key; otherwise line by line."""

    def __init__(self, stream: IO[str] | None = None, out: IO[str] | None = None) -> None:
        self.stream = stream or sys.stdin
        self.out = out or sys.stdout
        try:
            self.tty = self.stream.isatty()
        except (AttributeError, ValueError):
            self.tty = False

    def read(
        self,
        prompt: Callable[[float | None], str],
        deadline: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> str | None:
        """The line typed, or None when the deadline passed first."""
        if self.tty:
            return self._read_tty(prompt, deadline, clock)
        left = None if deadline is None else deadline - clock()
        self.out.write(prompt(left))
        self.out.flush()
        wait = None if left is None else max(0.0, left)
        ready, _, _ = select.select([self.stream], [], [], wait)
        if not ready:
            self.out.write("\n")
            return None
        line = self.stream.readline()
        if line == "":
            raise EOFError
        return line.strip()

    def _read_tty(
        self, prompt: Callable[[float | None], str], deadline: float | None, clock: Callable[[], float]
    ) -> str | None:
        import termios
        import tty

        fd = self.stream.fileno()
        old = termios.tcgetattr(fd)
        buf = ""
        drawn = None
        try:
            tty.setcbreak(fd)
            while True:
                left = None if deadline is None else deadline - clock()
                if left is not None and left <= 0:
                    self.out.write("\n")
                    self.out.flush()
                    return None
                line = prompt(left) + buf
                if line != drawn:
                    self.out.write("\r\x1b[2K" + line)
                    self.out.flush()
                    drawn = line
                ready, _, _ = select.select([fd], [], [], 0.1 if left is not None else None)
                if not ready:
                    continue
                chunk = os.read(fd, 1024).decode(errors="ignore")
                for ch in chunk:
                    if ch in "\r\n":
                        self.out.write("\r\x1b[2K" + prompt(left) + buf + "\n")
                        self.out.flush()
                        return buf.strip()
                    if ch in ("\x7f", "\b"):
                        buf = buf[:-1]
                    elif ch == "\x03":
                        raise KeyboardInterrupt
                    elif ch == "\x04" and not buf:
                        raise EOFError
                    elif ch.isprintable():
                        buf += ch
        finally:
            termios.tcsetattr(fd, termios.TCSADRAIN, old)


def _numbers(count: int) -> str:
    """The numbers a person may type for ``count`` listed moves: ``1-5``, or ``1`` alone."""
    return "1" if count == 1 else f"1-{count}"


def _seconds(left: float | None) -> str:
    return "" if left is None else f"\x1b[1;97;41m ⏱ {max(0, math.ceil(left))}s \x1b[0m "


class TerminalGame:
    """Runs one :class:`Table` in the terminal until the game ends."""

    def __init__(
        self,
        table: Table,
        console: Console,
        reader: LineReader,
        *,
        clear: bool = True,
        renderer: TerminalRenderer | None = None,
    ) -> None:
        self.table = table
        self.console = console
        self.reader = reader
        self.clear = clear
        self.renderer = renderer or renderer_for(table.game)
        self.names = table.names()
        self.people = table.persons()
        self.hotseat = len(self.people) > 1
        self.at_screen: int | None = self.people[0] if len(self.people) == 1 else None
        self.shown = 0  # the table's event cursor: what the screen has narrated so far
        first = table.first_player
        self.opening = None if first is None else f"The cards are dealt: {self.names[first]} goes first."
        """The log's first line (None: none)."""

    # -- output
    def _wipe(self) -> None:
        if self.clear:
            self.console.file.write(CLEAR)
            self.console.file.flush()

    def _line(self, ev: Event) -> Text | None:
        own = table_narration(ev, self.names)  # the table's own events (an undo)
        text = own if own is not None else self.table.game.narrate(ev, self.names)
        if not text:
            return None
        style = {"turn": "bold", "eliminated": "bold red", "game_over": "bold green", "countdown": "bold magenta",
                 "undone": "bold yellow"}
        return Text(text, style=style.get(ev.type, ""))

    def _lines(self, events: list[Event]) -> list[Text]:
        """Narration of the events, dropping "X draws a card" right before the drawer's
        own "X drew <card>" line."""
        out = []
        for i, ev in enumerate(events):
            nxt = events[i + 1] if i + 1 < len(events) else None
            if ev.type == "draw" and nxt is not None and nxt.type == "drew" and nxt.data.get("player") == ev.data.get(
                "player"
            ):
                continue
            line = self._line(ev)
            if line is not None:
                out.append(line)
        return out

    def narrate_new(self) -> None:
        """Print the events since the last call that the person at the screen may see."""
        up = self.table.updates_for(self.at_screen, self.shown)
        for line in self._lines([ev for _, ev in up.events]):
            self.console.print(line)
        self.shown = up.cursor

    def screen(self, seat: int) -> Update:
        """The whole screen for the person at ``seat``, drawn from the table's update for
        that seat (and nothing else); returns that update. Each part of it (``log``,
        ``board``, ``hand``, ``prompt``, ``choices``) is drawn by :meth:`show`."""
        self._wipe()
        t = self.table
        up = t.updates_for(seat)
        view = up.view
        header = f"{t.game.name} · {self.names[seat]}"
        self.console.print(Rule(Text(header)))  # (a name is text, never markup)
        lines = self._lines([ev for _, ev in up.events])
        if self.opening:
            lines.insert(0, Text(self.opening, style="dim"))
        lines = lines[-LOG_LINES:]
        if lines:
            self.show("log", Panel(Text("\n").join(lines), title="log", title_align="left", border_style="dim"))
        self.show("board", self.renderer.board(view, self.names, seat))
        self.show("hand", self.renderer.hand(view, self.names, seat))
        d = up.decision
        challenge = up.challenge
        if d is not None and d.player == seat:
            self.show("prompt", self._prompt(up))
        if d is not None and d.player == seat and challenge is not None:
            self.console.print(self._challenge_view(challenge))
        elif d is not None and d.player == seat:
            g = up.guidance
            if g is not None:
                labels = [(a.action, a.label, a.detail) for a in g.actions]
            else:
                labels = [(a, self.renderer.action_label(a, view, self.names), "") for a in up.legal]
            items = [
                Text(f"{i:>2}. ") + Text(words) + Text(f"  [{a}]", style="dim")
                + (Text("\n    " + detail.replace("\n", "\n    "), style="dim") if detail else Text(""))
                for i, (a, words, detail) in enumerate(labels, 1)
            ]
            self.show("choices", Columns(items, column_first=True, padding=(0, 3)) if len(items) > 12
                      else Group(*items))
        self.shown = up.cursor
        return up

    def show(self, part: str, renderable: RenderableType) -> None:
        """Draw one part of the screen (a lesson frames the part its step speaks about)."""
        self.console.print(renderable)

    def _prompt(self, up: Update) -> RenderableType:
        """The decision in words: the guide's title, its line of why and its hints (else
        the decision's own prompt)."""
        g = up.guidance
        if g is None:
            if up.decision is not None and up.decision.prompt:
                return Text(up.decision.prompt, style="bold")
            return Group()
        line = Text(g.prompt.title, style="bold")
        line.append(f"  {g.prompt.why}", style="")
        return Group(line, *(Text(f"Hint: {h.text}", style="italic cyan") for h in g.hints))

    @staticmethod
    def offered(up: Update) -> list[str]:
        """The actions listed (numbered from 1), in the guide's order when there is one."""
        return [a.action for a in up.guidance.actions] if up.guidance is not None else list(up.legal)

    # -- the loop
    def run(self) -> None:
        t = self.table
        n = len(self.names)
        self.console.print(
            Rule(f"{t.game.name} — {n} players. Type ? for help, u to undo, q to quit.")
        )
        t.restart_clock()
        while not t.over:
            d = t.decision()
            assert d is not None
            if t.bot_controls(d.player):
                self._wait_for_bot(d.time_limit is not None, d.player)
                t.tick()
                self.narrate_new()
                continue
            if self.hotseat and d.player != self.at_screen:
                self._done_looking(d.player)
                if not self._hand_over(d.player):
                    continue
            self.at_screen = d.player
            self._turn(d.player)
        self._finish()

    def _wait_for_bot(self, timed: bool, seat: int) -> None:
        t = self.table
        due = t.next_due()
        if due is None:
            return
        while (now := t.clock()) < due:
            if timed:
                left = t.time_left()
                self.console.file.write(f"\r\x1b[2K{_seconds(left)}{self.names[seat]} may answer…")
                self.console.file.flush()
            time.sleep(min(0.1, max(0.0, due - now)))
        if timed:
            self.console.file.write("\r\x1b[2K")
            self.console.file.flush()

    def _done_looking(self, seat: int) -> None:
        """Let the person at the screen read what happened before the screen goes to the
        next person (skipped when the next person's clock is already running)."""
        if self.at_screen is None or self.table.deadline() is not None:
            return

        def prompt(left: float | None) -> str:
            return f"{self.names[self.at_screen or 0]}: press Enter, then pass the screen to {self.names[seat]} > "

        while (got := (self.reader.read(prompt) or "").strip()) and got.lower() not in QUIT_WORDS:
            self._not_a_move(got, f"it is {self.names[seat]}'s turn now")
        if got.lower() in QUIT_WORDS:
            self._leave()

    def _not_a_move(self, typed: str, why: str) -> None:
        """Text typed at a hand-over prompt, which takes only Enter: say it was not played."""
        self.console.print(Text(f"{typed!r} was not played: {why}. Press Enter (or q to quit).", style="yellow"))

    def _hand_over(self, seat: int) -> bool:
        """Clear the screen and wait for the next person (the clock keeps running).
        False when their time ran out meanwhile."""
        self._wipe()
        self.at_screen = None
        self.console.print(Rule("hand over"))
        self.console.print(Text(f"Pass the screen to {self.names[seat]}.", style="bold"))
        if self.table.deadline() is not None:
            self.console.print(Text("A timed decision is waiting: the clock is running!", style="bold red"))

        def prompt(left: float | None) -> str:
            return f"{_seconds(left)}{self.names[seat]}, press Enter when ready > "

        got = self.reader.read(prompt, self.table.deadline(), self.table.clock)
        while got is not None and got.strip() and got.strip().lower() not in QUIT_WORDS:
            self._not_a_move(got.strip(), "your board is not shown yet")
            got = self.reader.read(prompt, self.table.deadline(), self.table.clock)
        if got is not None and got.strip().lower() in QUIT_WORDS:
            self._leave()
        self.at_screen = seat
        if got is None:
            self.table.tick()
            self.console.print(Text("Time is up!", style="bold red"))
            self.narrate_new()
            return False
        return True

    def _challenge_view(self, challenge: dict[str, Any]) -> RenderableType:
        draw = getattr(self.renderer, "challenge", None)
        if draw is not None:
            shown: RenderableType = draw(challenge)
            return shown
        return Text(f"{challenge.get('rule', '')}\n{challenge}")

    def _challenge_turn(self, seat: int) -> None:
        """A judged decision: the person types the answer; the table judges it by its clock."""
        t = self.table
        version = t.version
        while t.version == version and not t.over:

            def prompt(left: float | None) -> str:
                return f"{_seconds(left)}Type the ids in order, bottom first [q quit] > "

            got = self.reader.read(prompt, t.deadline(), t.clock)
            if got is None:
                t.tick()
                self.console.print(Text("Time is up!", style="bold red"))
                self.narrate_new()
                return
            if got.strip().lower() in QUIT_WORDS:
                self._leave()
                continue
            if got.strip().lower() in ("?", "h", "help"):
                self.console.print(self.renderer.help())
                continue
            picks = got.replace(",", " ").lower().split()
            if not picks:
                continue
            try:
                entry = t.answer(seat, picks, version)
            except KnockaboutError as exc:
                self.console.print(Text(f"Not an answer: {exc}", style="red"))
                continue
            ok = entry.verdict.startswith("passed")
            self.console.print(Text(f"The table judged: {entry.verdict}", style="bold green" if ok else "bold red"))
            self.narrate_new()

    def _turn(self, seat: int) -> None:
        t = self.table
        up = self.screen(seat)
        if up.challenge is not None:
            self._challenge_turn(seat)
            return
        version = t.version
        legal = self.offered(up)
        while t.version == version and not t.over:
            dl = t.deadline()

            extra = ", u undo" if t.can_undo(seat) else ""

            def prompt(left: float | None, count: int = len(legal), extra: str = extra) -> str:
                return f"{_seconds(left)}Your move [{_numbers(count)}, action, ? help{extra}, q quit] > "

            got = self.reader.read(prompt, dl, t.clock)
            if got is None:
                t.tick()
                self.console.print(Text("Time is up!", style="bold red"))
                self.narrate_new()
                return
            choice = self._choice(got, legal, seat)
            if choice is None:
                continue
            try:
                t.act(seat, choice, version)
            except KnockaboutError as exc:
                self.console.print(Text(f"Not possible: {exc}", style="red"))
                continue
            self.narrate_new()

    def _choice(self, got: str, legal: list[str], seat: int) -> str | None:
        word = got.strip()
        if not word:
            return None
        low = word.lower()
        if low in QUIT_WORDS:
            self._leave()
            return None
        if low in ("?", "h", "help"):
            self.console.print(self.renderer.help())
            return None
        if low in ("u", "undo"):
            try:
                self.table.undo(seat)  # the log says so ("... took back N steps")
            except KnockaboutError as exc:
                self.console.print(Text(str(exc), style="red"))
            return None
        if word.isdigit():
            i = int(word)
            if 1 <= i <= len(legal):
                return legal[i - 1]
            self.console.print(Text(f"{word} is not on the list: choose {_numbers(len(legal))}.", style="red"))
            return None
        return word

    def _leave(self) -> None:
        """Ask before leaving (the game cannot be picked up again); raises :class:`Quit` on yes.
        A running clock keeps running meanwhile; when it runs out the answer counts as no."""
        t = self.table

        def prompt(left: float | None) -> str:
            return f"{_seconds(left)}Leave the table? This game ends here and cannot be resumed [y/N] > "

        got = self.reader.read(prompt, t.deadline(), t.clock)
        if got is not None and got.strip().lower() in ("y", "yes"):
            raise Quit
        self.console.print(Text("Staying at the table.", style="dim"))

    def _finish(self) -> None:
        t = self.table
        self.at_screen = self.people[0] if len(self.people) == 1 else None
        self.narrate_new()
        self.console.print(Rule("game over"))
        final = t.updates_for(None, self.shown)
        self.console.print(self.renderer.board(final.view, self.names, None))
        out = final.outcome
        if out is not None:
            if out.draw:
                self.console.print(
                    Text(f"Draw among {', '.join(self.names[w] for w in out.winners)} ({out.reason}).", style="bold")
                )
            else:
                self.console.print(Text(f"{self.names[out.winners[0]]} wins! ({out.reason})", style="bold green"))
        self.console.print(Text(f"Seed {t.seed}: play the same deal again with --seed {t.seed}.", style="dim"))


def build_table(
    game_id: str,
    players: int | None,
    seats_text: str | None,
    names_text: str | None,
    seed: int,
    options: list[str],
    *,
    bot_delay: float,
    pace: float,
) -> Table:
    """The table ``knockabout play`` runs (checked; errors are one clear line)."""
    g = get_game(game_id)
    cfg: dict[str, Any] = parse_options(options)
    words = [w.strip() for w in seats_text.split(",")] if seats_text else []
    has_players = "players" in g.config_model.model_fields
    if players is None:
        players = len(words) if words else (3 if has_players and g.min_players <= 3 <= g.max_players else g.min_players)
    if has_players:
        cfg.setdefault("players", players)
    if not words:
        words = ["me"] + ["random"] * (players - 1)
    if len(words) != players:
        raise KnockaboutError(f"--seats names {len(words)} seats but the game has {players} players")
    seats: list[Seat] = parse_seats(words, g.id)
    if any(s.kind == "empty" for s in seats):
        raise KnockaboutError("a terminal game has no free seats: use me (a person) or a bot level for each seat")
    if not any(s.kind == "person" for s in seats):
        raise KnockaboutError("no person at the table: put 'me' in --seats (or watch bots with knockabout demo)")
    if names_text:
        given = [x.strip() for x in names_text.split(",")]
        if len(given) != players:
            raise KnockaboutError(f"--names gives {len(given)} names for {players} seats")
        for s, name in zip(seats, given, strict=True):
            s.name = name
    default_names(seats)
    return Table(g, seats, cfg, seed, local=True, bot_delay=bot_delay, bot_pace=pace)


def play(
    game: str = typer.Argument("nak-muay", help="game id (see `knockabout games`)"),
    players: int | None = typer.Option(None, "--players", "-p", min=1, help="number of players"),
    seats: str | None = typer.Option(
        None, "--seats", help="comma-separated seats: me (a person; several for hotseat) or a bot level: "
        "random, easy, medium, hard, or learned where the game ships a trained network (see `knockabout games`)"
    ),
    names: str | None = typer.Option(None, "--names", help="comma-separated display names, one per seat"),
    seed: int | None = typer.Option(None, "--seed", "-s", help="seed of the deal (random when left out)"),
    option: list[str] = typer.Option([], "--option", "-o", help="table option key=value, e.g. countdown_seconds=5"),
    bot_delay: float = typer.Option(
        2.0, "--bot-delay", min=0.0, help="seconds a bot takes to answer a timed window, whatever it holds"
    ),
    pace: float = typer.Option(0.7, "--pace", min=0.0, help="seconds between bot moves"),
    clear: bool = typer.Option(True, "--clear/--no-clear", help="clear the screen between turns"),
    record: Path | None = typer.Option(None, "--record", help="write the replay record here at the end"),
) -> None:
    console = Console(highlight=False)
    if seed is None:
        seed = secrets.randbelow(1_000_000)
    with friendly_errors():
        table = build_table(game, players, seats, names, seed, option, bot_delay=bot_delay, pace=pace)
    runner = TerminalGame(table, console, LineReader(), clear=clear)
    try:
        runner.run()
    except (Quit, EOFError, KeyboardInterrupt):
        console.print(Text("\nYou left the table.", style="yellow"))
        console.print(Text(f"Seed {seed}: play the same deal again with --seed {seed}.", style="dim"))
        if record is None:
            raise typer.Exit(0) from None
    if record is not None:
        try:
            kept = GameRecord(**{**table.record.__dict__, "names": table.names()})
            record.write_text(kept.to_json(indent=1), encoding="utf-8")
        except OSError as exc:
            raise fail(f"cannot write the record to {record}: {exc.strerror}") from None
        console.print(f"Record written to {record} (replay it with: knockabout replay {record}).", markup=False)

"""``knockabout play`` driven through a pseudo-terminal, as a person would."""

from __future__ import annotations

import io
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pexpect
import pytest
from rich.console import Console
from typer.testing import CliRunner

from knockabout.cli.main import app
from knockabout.cli.play import LineReader, Quit, TerminalGame, build_table
from knockabout.core import GameRecord, Rng, replay
from knockabout.core.events import Event
from knockabout.core.view import View
from knockabout.table import Table, Update

PROMPT = re.compile(r"Your move \[1(?:-(\d+))?, action")  # ([1, ...] when one move is offered)
END = re.compile(r"wins! \(|Draw among")


def spawn(args: list[str], tmp: Path) -> pexpect.spawn:
    child = pexpect.spawn(
        sys.executable,
        ["-m", "knockabout", "play", *args],
        encoding="utf-8",
        timeout=30,
        dimensions=(50, 140),
        env={"TERM": "xterm-256color", "PYTHONPATH": str(Path(__file__).parents[2] / "src"), "HOME": str(tmp)},
    )
    return child


def answer(child: pexpect.spawn, choice: str) -> None:
    child.send(choice + "\r")
    child.expect(re.escape("> " + choice) + r"\r*\n")


def test_a_scripted_person_plays_a_whole_game_against_bots(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    child = spawn(
        ["nak-muay", "--players", "3", "--seats", "me,random,random", "--seed", "21", "--pace", "0",
         "--bot-delay", "0", "-o", "countdown_seconds=120", "--record", str(record)],
        tmp_path,
    )
    rng = Rng(5)
    moves = 0
    while True:
        i = child.expect([PROMPT, END])
        if i == 1:
            break
        count = int(child.match.group(1) or 1)
        answer(child, str(1 + rng.below(count)))
        moves += 1
    child.expect("Record written")
    child.expect(pexpect.EOF)
    assert moves >= 1
    state = replay(GameRecord.load(record))
    assert state.outcome() is not None, "the recorded game is finished"


def _first_seed_where(found: Callable[[Any, list[str]], str | None], seeds: int) -> tuple[int, int, str]:
    """The first 3-player seed where a person who always takes the first listed action meets
    a decision ``found(decision, legal)`` names an action for: (seed, moves made before it, that action)."""
    for seed in range(seeds):
        t = build_table("nak-muay", 3, "me,random,random", None, seed, [], bot_delay=0, pace=0)
        mine = 0
        while not t.over:
            d = t.decision()
            assert d is not None
            if d.player != 0:
                t.tick()
                continue
            legal = list(t.updates_for(0).legal)
            action = found(d, legal)
            if action is not None:
                return seed, mine, action
            t.act(0, legal[0], t.version)
            mine += 1
    raise AssertionError("no seed found")


def _seed_where_a_countdown_hits_me() -> tuple[int, int]:
    """A seed where a person who always takes the first listed action faces a Countdown."""
    seed, mine, _ = _first_seed_where(lambda d, legal: legal[0] if d.kind == "countdown_response" else None, 200)
    return seed, mine


def _first_moves_played(tmp_path: Path, seed: int, moves: int, countdown: float) -> Any:
    """A 3-player game against two random bots at ``seed``, its first ``moves`` moves made
    by answering 1 each time."""
    child = spawn(
        ["nak-muay", "--players", "3", "--seats", "me,random,random", "--seed", str(seed), "--pace", "0",
         "--bot-delay", "0", "-o", f"countdown_seconds={countdown:g}"],
        tmp_path,
    )
    for _ in range(moves):
        child.expect(PROMPT)
        answer(child, "1")
    return child


def test_the_countdown_ticks_and_runs_out_for_real(tmp_path: Path) -> None:
    seed, before = _seed_where_a_countdown_hits_me()
    child = _first_moves_played(tmp_path, seed, before, countdown=2)
    child.expect("before the time runs out")
    child.expect(PROMPT)
    started = time.monotonic()
    child.expect("⏱ 1s")  # the clock visibly ticks down
    child.expect("Time is up!")
    waited = time.monotonic() - started
    child.expect("does not answer the Countdown in time")
    assert 1.0 <= waited <= 6.0
    child.sendcontrol("c")
    child.expect(pexpect.EOF)


def _hotseat(tmp_path: Path) -> Any:
    """A hot-seat table: Ann and Bo share this terminal against a random bot."""
    return spawn(
        ["nak-muay", "--players", "3", "--seats", "me,me,random", "--names", "Ann,Bo,Cy", "--seed", "3",
         "--pace", "0", "--bot-delay", "0", "-o", "countdown_seconds=120"],
        tmp_path,
    )


def test_hotseat_hands_over_the_screen_without_showing_hands(tmp_path: Path) -> None:
    child = _hotseat(tmp_path)
    handovers = 0
    done_looking = 0
    for _ in range(8):
        i = child.expect([r"Pass the screen to (Ann|Bo)", PROMPT, END, r"press Enter, then pass the screen to"])
        if i == 2:
            break
        if i == 3:
            done_looking += 1
            child.send("\r")
            continue
        if i == 0:
            handovers += 1
            assert "\x1b[2J" in child.before, "the screen is cleared before the hand-over"
            child.expect("press Enter when ready")
            assert "Your hand" not in child.before
            child.send("\r")
            child.expect("Your hand")
            continue
        answer(child, "1")
    assert handovers >= 2 and done_looking >= 1, "after acting, a person reads the result before handing over"
    child.send("q\r")
    child.expect(re.escape("Leave the table? This game ends here and cannot be resumed [y/N]"))
    child.send("y\r")
    child.expect("You left the table")
    child.expect(pexpect.EOF)


def test_a_move_typed_at_a_hand_over_prompt_is_said_not_to_be_played(tmp_path: Path) -> None:
    child = _hotseat(tmp_path)
    seen = set()
    for _ in range(12):
        i = child.expect([r"press Enter when ready", PROMPT, END, r"press Enter, then pass the screen to"])
        if i == 2:
            break
        if i == 1:
            answer(child, "1")
            continue
        typed = "2" if i == 0 else "1"
        child.send(f"{typed}\r")
        why = "your board is not shown yet" if i == 0 else "turn now"
        child.expect(re.escape(f"'{typed}' was not played: ") + ".*" + re.escape(why))
        child.expect("press Enter when ready" if i == 0 else "press Enter, then pass the screen to")
        child.send("\r")
        child.expect(r" > \r*\n")  # (the prompt drawn once more as Enter ends it)
        seen.add(i)
        if seen == {0, 3}:
            break
    assert seen == {0, 3}, "both hand-over prompts were met"
    child.send("q\r")  # (at the next prompt, whichever it is: q still leaves)
    child.expect(re.escape("[y/N]"))
    child.send("y\r")
    child.expect(pexpect.EOF)


runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nak-muay", "--seats", "me,wizard,random"], "unknown seat 'wizard'"),
        (["nak-muay", "--players", "3", "--seats", "me,random"], "--seats names 2 seats but the game has 3"),
        (["nak-muay", "--seats", "random,random"], "no person at the table"),
        (["nak-muay", "--seats", "me,open"], "no free seats"),
        (["nak-muay", "-o", "countdown_seconds=-1"], "countdown_seconds"),
        (["chess"], "unknown game 'chess'"),
    ],
)
def test_bad_play_arguments_give_one_clear_line(args: list[str], message: str) -> None:
    r = runner.invoke(app, ["play", *args])
    assert r.exit_code == 2
    assert message in r.output
    assert "Traceback" not in r.output


def _seed_where_i_can_play_a_clinch_pair() -> tuple[int, int, str]:
    return _first_seed_where(lambda d, legal: next((a for a in legal if a.startswith("pair:")), None), 300)


def test_a_typed_action_can_be_taken_back_with_undo(tmp_path: Path) -> None:
    seed, before, pair = _seed_where_i_can_play_a_clinch_pair()
    child = _first_moves_played(tmp_path, seed, before, countdown=120)
    child.expect(PROMPT)
    answer(child, pair)  # the action's text works as well as its number
    child.expect("Clinch: whom to rob")
    child.expect(r"Your move \[1(-\d+)?, action, \? help, u undo, q quit\]")
    answer(child, "u")
    child.expect(r"took back 1 step\.")
    child.expect("Your turn  Play one card")
    child.expect(PROMPT)
    child.send("q\r")
    child.expect("Leave the table?")
    child.send("y\r")
    child.expect(pexpect.EOF)


def test_q_asks_before_leaving_and_no_keeps_the_game(tmp_path: Path) -> None:
    child = spawn(
        ["nak-muay", "--players", "2", "--seats", "me,random", "--seed", "4", "--pace", "0",
         "--bot-delay", "0", "-o", "countdown_seconds=120"],
        tmp_path,
    )
    child.expect(PROMPT)
    child.send("q\r")
    child.expect(re.escape("Leave the table? This game ends here and cannot be resumed [y/N]"))
    assert "You left the table" not in child.before
    child.send("n\r")
    child.expect("Staying at the table")
    child.expect(PROMPT)  # the same decision is asked again: nothing was lost
    answer(child, "1")
    child.expect([PROMPT, END])
    child.send("quit\r")
    child.expect("Leave the table?")
    child.send("yes\r")
    child.expect("You left the table")
    child.expect(re.escape("Seed 4: play the same deal again with --seed 4."))
    child.expect(pexpect.EOF)


class _Scripted(LineReader):
    """Answers every prompt with the first listed action (no terminal needed)."""

    def __init__(self) -> None:
        super().__init__(io.StringIO(), io.StringIO())

    def read(self, prompt: Any, deadline: float | None = None, clock: Any = None) -> str | None:
        return "1"


class _SpyRenderer:
    """Draws nothing; remembers every view it was handed."""

    def __init__(self) -> None:
        self.views: list[View] = []

    def board(self, view: View, names: Any, seat: int | None) -> str:
        self.views.append(view)
        return ""

    def hand(self, view: View, names: Any, seat: int) -> str:
        self.views.append(view)
        return ""

    def action_label(self, text: str, view: View, names: Any) -> str:
        self.views.append(view)
        return text

    def help(self) -> str:
        return ""


def test_the_terminal_shows_only_what_the_tables_updates_give(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every view the terminal draws and every event it narrates came out of
    ``Table.updates_for`` (for the person at the screen), and its action list is the update's."""
    updates: list[Update] = []
    original = Table.updates_for

    def recording(self: Table, seat: int | None, cursor: int = 0) -> Update:
        up = original(self, seat, cursor)
        updates.append(up)
        return up

    monkeypatch.setattr(Table, "updates_for", recording)
    table = build_table("nak-muay", 3, "me,random,random", None, 8, [], bot_delay=0, pace=0)
    narrated: list[Event] = []
    game = table.game
    real_narrate = game.narrate

    def narrate(ev: Event, names: Any) -> str | None:
        narrated.append(ev)
        return real_narrate(ev, names)

    monkeypatch.setattr(game, "narrate", narrate)
    spy = _SpyRenderer()
    out = io.StringIO()
    TerminalGame(table, Console(file=out, width=120), _Scripted(), clear=False, renderer=spy).run()
    assert table.over and spy.views and narrated
    given_views = {id(u.view) for u in updates}
    assert all(id(v) in given_views for v in spy.views), "a view drawn that no update gave"
    given_events = {id(e) for u in updates for _, e in u.events}
    assert all(id(e) in given_events for e in narrated), "an event narrated that no update gave"
    assert all(u.seat in (0, None) for u in updates), "the terminal only ever asked for its person's updates"
    for u in updates:
        assert all(e.visible(u.seat) for _, e in u.events)
    listed = re.findall(r"\b\d+\. (\S.*?)  \[([^\]\s]+)\]", out.getvalue())
    assert listed and {a for _, a in listed} <= {a for u in updates for a in u.legal}
    # the words are the guidance the updates gave, not the renderer's
    said = {(g.label, g.action) for u in updates if u.guidance is not None for g in u.guidance.actions}
    assert set(listed) <= said


class _Typed(LineReader):
    """Types the given lines in turn, then "1" at every prompt; keeps every prompt shown."""

    def __init__(self, *lines: str) -> None:
        super().__init__(io.StringIO(), io.StringIO())
        self.lines = list(lines)
        self.prompts: list[str] = []

    def read(self, prompt: Any, deadline: float | None = None, clock: Any = None) -> str | None:
        self.prompts.append(prompt(None))
        return self.lines.pop(0) if self.lines else "1"


def test_a_refused_move_names_seats_from_1_and_offers_this_decisions_moves() -> None:
    table = build_table("knockback", 2, "me,random", None, 3, [], bot_delay=0, pace=0)
    out = io.StringIO()
    reader = _Typed("warp", "rest", "q", "y")  # not an action; an action of another decision; leave
    with pytest.raises(Quit):
        TerminalGame(table, Console(file=out, width=200), reader, clear=False).run()
    text = out.getvalue()
    unknown = next(line for line in text.splitlines() if "'warp'" in line)
    assert "legal now: place:A1:" in unknown and "keep:" not in unknown, unknown
    illegal = next(line for line in text.splitlines() if "'rest'" in line)
    assert "of seat 1;" in illegal and "legal: place:A1:" in illegal, illegal
    assert "player 0" not in text and "seat 0" not in text


def test_a_single_move_is_offered_as_1_not_1_to_1() -> None:
    table = build_table("nak-muay", 2, "me,random", None, 0, [], bot_delay=0, pace=0)
    reader = _Typed()
    TerminalGame(table, Console(file=io.StringIO(), width=120), reader, clear=False).run()
    assert any(p.startswith("Your move [1, action") for p in reader.prompts), reader.prompts
    assert not any("[1-1," in p for p in reader.prompts)

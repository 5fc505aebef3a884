"""``knockabout balance GAME``: the content balance matrix of any game with a balance plug-in
(KNOCKBACK's packs, Knockdown's fighters); ``knockabout balance compare``: A/B of two
content versions on the same deals."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markdown import Markdown
from typer.core import TyperGroup

from knockabout.bots.levels import check_level
from knockabout.cli import runs
from knockabout.cli.errors import friendly_errors
from knockabout.cli.options import parse_options
from knockabout.core.errors import ConfigError
from knockabout.core.registry import get_game
from knockabout.sim import balance as runner
from knockabout.sim import balance_tables, html_report
from knockabout.sim.balance_run import BalanceRun, BalanceSpec, block_size, content_digest, run_balance, run_identity
from knockabout.sim.content_ab import compare_lines, guess_game, paired_changes, version_options
from knockabout.sim.executor import Executor, make_executor
from knockabout.sim.results import ResultsError


class _RunByDefault(TyperGroup):
    """``balance GAME …`` is ``balance run GAME …``; ``balance compare …`` is the A/B."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:  # ctx: typer's own click Context
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h"):
            args = ["run", *args]
        return super().parse_args(ctx, args)


app = typer.Typer(
    cls=_RunByDefault,
    no_args_is_help=True,
    help="Balance matrix of KNOCKBACK packs or Knockdown fighters, bot against bot; A/B of content versions.",
)

BOT = typer.Option("easy", "--bot", "-b", help="bot level on both sides: random, easy, medium, hard")
GAMES = typer.Option(4, "--games", "-n", min=1, help="matches per ordered pairing (each seat order)")
SEED = typer.Option(1, "--seed", help="base seed; the same seed and level give the same matches")
OPTION = typer.Option([], "--option", "-o", help="a balance option key=value (repeatable)")


@app.command("run", short_help="The balance matrix of a game (the default: `balance GAME ...` runs it).")
def balance(
    game: str = typer.Argument(..., help="a game with a balance plug-in: knockback (packs), knockdown (fighters)"),
    bot: str = BOT,
    games: int = GAMES,
    seed: int = SEED,
    workers: int | None = runs.WORKERS,
    backend: str = runs.BACKEND,
    address: str | None = runs.ADDRESS,
    option: list[str] = OPTION,
    scoring: str | None = typer.Option(None, "--scoring", help="knockback: tug, speed or best_of (--option scoring=)"),
    pack_files: list[Path] = typer.Option([], "--pack-file", help="knockback: an extra pack file or folder"),
    boxes: list[str] = typer.Option([], "--box", help="knockdown: a box to include (default: all)"),
    merged: bool = typer.Option(False, "--merged", help="knockdown: mix the boxes instead of one by one"),
    out: Path | None = typer.Option(None, "--out", help="also write the report (Markdown) to this file"),
    html: Path | None = typer.Option(None, "--html", help="write the designer's report (one HTML file, plots inline)"),
    tables: Path | None = typer.Option(None, "--tables", help="write the report's numbers to FILE (.csv or .json)"),
    save: Path | None = typer.Option(None, "--save", help="save every match to FILE.json (reopen: knockabout report)"),
    until: float | None = runs.UNTIL_CI,
    max_games: int = typer.Option(400, "--max-games", help="with --until-ci: matches per ordered pairing at most"),
    resume: Path | None = runs.RESUME,
    checkpoint: Path | None = runs.CHECKPOINT,
) -> None:
    """Play every entrant (pack, fighter) against every other, both seat orders, with the same
    bot level on both sides; print the win-rate matrix, each one's rate against the field with
    a 95 % interval, the first-player edge, and the game's own tables. The options a game's
    run takes are its balance plug-in's (``--option key=value``; ``--scoring``, ``--pack-file``,
    ``--box`` and ``--merged`` are shorthands for the options of that name); the plug-in
    refuses any other."""
    console = Console(highlight=False)
    with friendly_errors():
        check_level(bot)
        g = get_game(game)
        options = _options(option, scoring, pack_files, boxes, merged)
        runner.groups(g.id, options)  # bad options: one clear line before anything starts
        width = runs.until_ci(until)
        stop = None if width is None else (width, max_games)
        if stop is not None and max_games < 1:
            raise ConfigError(f"--max-games must be at least 1, not {max_games}")
        spec = BalanceSpec(g.id, options, games, bot, seed)
        with make_executor(backend, workers, address) as ex:
            result = _play(spec, ex, stop, resume, checkpoint, console)
        report(result, console, out=out, html=html, tables=tables, save=save)


def _play(spec: BalanceSpec, ex: Executor, stop: tuple[float, int] | None, resume: Path | None,
          checkpoint: Path | None, console: Console, label: str = "") -> BalanceRun:
    g = get_game(spec.game)
    identity = run_identity(spec, stop, block_size(spec.games if stop is None else stop[1]))
    ck, keep = runs.open_checkpoint("balance", g.id, identity, content_digest(g.id, spec.options), resume, checkpoint)
    title = f"{label or g.name}, {spec.bot} v {spec.bot} ({ex.describe()})"
    bar = runs.progress_bar(console, title, "matches", stop is not None)
    with runs.run_errors(console, ck, keep), bar as tick:
        return run_balance(spec, ex, ck, until=stop, progress=tick)


def report(result: BalanceRun, console: Console, *, out: Path | None = None, html: Path | None = None,
           tables: Path | None = None, save: Path | None = None) -> None:
    """Print a balance run's report and write the files asked for."""
    game = str(result.meta["game"])
    parts = [runner.report(game, group, pairs) for group, pairs in zip(result.groups, result.pairs, strict=True)]
    until = result.meta.get("until_ci")
    if until:
        parts.append("\n".join(_until_lines(until)))
    for part in parts:
        console.print(Markdown(part))
        console.print()
    plugin = runner.plugin_for(get_game(game))
    data = [
        balance_tables.tables(group, [m for p in pairs for m in p.matches], plugin.entrant_kind, plugin.label)
        for group, pairs in zip(result.groups, result.pairs, strict=True)
    ]
    if out is not None:
        try:
            out.write_text("\n\n".join(parts) + "\n", encoding="utf-8")
        except OSError as exc:
            raise ResultsError(f"cannot write {out}: {exc.strerror}") from None
        console.print(f"report written to {out}")
    if html is not None:
        text = html_report.balance_page(result.meta, data)
        try:
            html.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise ResultsError(f"cannot write {html}: {exc.strerror}") from None
        console.print(f"HTML report written to {html}")
    if tables is not None:
        balance_tables.write_tables(tables, data, result.meta)
        console.print(f"report numbers written to {tables}")
    if save is not None:
        result.save(save)
        console.print(f"every match saved to {save}; reopen with: knockabout report {save} --html report.html")


def _until_lines(until: dict[str, Any]) -> list[str]:
    """The sequential run's stopping line and its intervals, as Markdown."""
    state = "reached" if until["reached"] else "NOT reached (the --max-games cap came first)"
    lines = [
        f"--until-ci ±{100 * until['width']:g} pts {state} after {until['rounds']} matches a pairing, at look "
        f"{until['look']}: alpha-spending puts this look's intervals at level {100 * (1 - until['alpha']):.3f}%, "
        "which keeps each a valid 95 % interval whatever look the run stopped at.",
        "",
        "| rate | value | sequential 95 % interval |",
        "|---|---|---|",
    ]
    lines += [f"| {label} | {100 * rate:.1f}% | {100 * lo:.1f}–{100 * hi:.1f}% |"
              for label, rate, lo, hi in until["intervals"]]
    return lines


@app.command("compare", short_help="A/B of two content versions on the same deals and bot seeds.")
def compare(
    a: str = typer.Option(..., "--a", help="content version A: a file or folder (e.g. the shipped content)"),
    b: str = typer.Option(..., "--b", help="content version B: a file or folder (e.g. your tuned copy)"),
    game: str | None = typer.Option(None, "--game", help="the game (default: the one whose plug-in loads --a)"),
    bot: str = BOT,
    games: int = GAMES,
    seed: int = SEED,
    workers: int | None = runs.WORKERS,
    backend: str = runs.BACKEND,
    address: str | None = runs.ADDRESS,
    option: list[str] = OPTION,
    out: Path | None = typer.Option(None, "--out", help="also write the comparison (Markdown) to this file"),
) -> None:
    """Play the same balance run (same pairings, deals and bot seeds) under content versions A
    and B, and report each entrant's change with its paired 95 % interval. What a version is
    (a file, a folder) is the game's balance plug-in's; ``-o key=value`` options hold for
    both runs (e.g. the entrants to play)."""
    console = Console(highlight=False)
    with friendly_errors():
        check_level(bot)
        gid = get_game(game).id if game is not None else guess_game(a)
        base = parse_options(option)
        opts_a = {**base, **version_options(gid, a)}
        opts_b = {**base, **version_options(gid, b)}
        runner.groups(gid, opts_a)
        runner.groups(gid, opts_b)
        with make_executor(backend, workers, address) as ex:
            run_a = _play(BalanceSpec(gid, opts_a, games, bot, seed), ex, None, None, None, console, f"A: {a}")
            run_b = _play(BalanceSpec(gid, opts_b, games, bot, seed), ex, None, None, None, console, f"B: {b}")
        meta = {"a": a, "b": b, "bot": bot, "seed": seed, "games": games}
        text = "\n".join(compare_lines(paired_changes(run_a, run_b), meta))
        console.print(Markdown(text))
        if out is not None:
            try:
                out.write_text(text + "\n", encoding="utf-8")
            except OSError as exc:
                raise ResultsError(f"cannot write {out}: {exc.strerror}") from None
            console.print(f"comparison written to {out}")


def _options(
    pairs: list[str], scoring: str | None, pack_files: list[Path], boxes: list[str], merged: bool
) -> dict[str, Any]:
    """The run's options: ``-o key=value`` pairs, plus the shorthand flags that were given."""
    options = parse_options(pairs)
    if scoring is not None:
        options["scoring"] = scoring
    if pack_files:
        options["pack_files"] = [*_listed(options.get("pack_files")), *(str(p) for p in pack_files)]
    if boxes:
        options["boxes"] = [*_listed(options.get("boxes")), *boxes]
    if merged:
        options["merged"] = True
    return options


def _listed(value: object) -> list[str]:
    """An option given as a list or as text with commas, as a list."""
    if value is None:
        return []
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]

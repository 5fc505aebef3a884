"""``knockabout balance GAME``: the content balance matrix of any game with a balance plug-in
(a matrix of the entrants it declares: packs, fighters…); ``knockabout balance compare``: A/B
of two content versions on the same deals. What options a run takes is each game's balance
plug-in's: they are given as ``-o key=value``, and this command's help and shell completion
list them from the plug-ins."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markdown import Markdown
from typer.core import TyperCommand, TyperGroup

from knockabout.bots.levels import check_level
from knockabout.cli import runs
from knockabout.cli.errors import friendly_errors
from knockabout.cli.options import parse_options
from knockabout.core.errors import ConfigError
from knockabout.core.registry import game_ids, get_game
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


def _plugin_options() -> dict[str, dict[str, str]]:
    """Each registered game with a balance plug-in -> its options (name -> one line of help)."""
    out: dict[str, dict[str, str]] = {}
    for gid in game_ids():
        try:
            plugin = runner.plugin_for(get_game(gid))
        except ConfigError:  # no balance plug-in
            continue
        out[gid] = dict(plugin.options)
    return out


class _ListsGameOptions(TyperCommand):
    """A command whose help ends with every game's balance options, read from the plug-ins
    when the help is shown (so a plug-in game's options are listed like the shipped ones)."""

    @property
    def epilog(self) -> str:
        lines = [self._epilog] if self._epilog else []
        for gid, options in _plugin_options().items():
            lines.append(f"Options of {gid} (-o key=value): "
                         + "; ".join(f"{k}: {h}" for k, h in sorted(options.items())) + ".")
        return "\n\n".join(lines)

    @epilog.setter
    def epilog(self, value: str | None) -> None:
        self._epilog = value or ""


def _complete_option(ctx: Any, incomplete: str) -> list[tuple[str, str]]:
    """Shell completion of ``-o``: the option names of the game on the command line (all
    games' before one is given), as ``key=``."""
    game = ctx.params.get("game")
    known = _plugin_options()
    names = known.get(game, {}) if game in known else {k: v for opts in known.values() for k, v in opts.items()}
    return [(f"{k}=", h) for k, h in sorted(names.items()) if k.startswith(incomplete)]


app = typer.Typer(
    cls=_RunByDefault,
    no_args_is_help=True,
    help="Balance matrix of a game's entrants (packs, fighters), bot against bot; A/B of content versions.",
)

BOT = typer.Option("easy", "--bot", "-b", help="bot level on both sides: random, easy, medium, hard")
GAMES = typer.Option(4, "--games", "-n", min=1, help="matches per ordered pairing (each seat order)")
SEED = typer.Option(1, "--seed", help="base seed; the same seed and level give the same matches")
OPTION = typer.Option(
    [], "--option", "-o", autocompletion=_complete_option,
    help="a balance option key=value (repeatable; a list as a,b); each game's are listed below",
)


@app.command("run", cls=_ListsGameOptions,
             short_help="The balance matrix of a game (the default: `balance GAME ...` runs it).")
def balance(
    game: str = typer.Argument(..., help="a game with a balance plug-in (see the options below)"),
    bot: str = BOT,
    games: int = GAMES,
    seed: int = SEED,
    workers: int | None = runs.WORKERS,
    backend: str = runs.BACKEND,
    address: str | None = runs.ADDRESS,
    option: list[str] = OPTION,
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
    run takes are its balance plug-in's (``-o key=value``, listed at the end of this help);
    the plug-in refuses any other."""
    console = Console(highlight=False)
    with friendly_errors():
        check_level(bot)
        g = get_game(game)
        options = parse_options(option)
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
        console.print(f"report written to {out}", markup=False)
    if html is not None:
        text = html_report.balance_page(result.meta, data)
        try:
            html.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise ResultsError(f"cannot write {html}: {exc.strerror}") from None
        console.print(f"HTML report written to {html}", markup=False)
    if tables is not None:
        balance_tables.write_tables(tables, data, result.meta)
        console.print(f"report numbers written to {tables}", markup=False)
    if save is not None:
        result.save(save)
        console.print(f"every match saved to {save}; reopen with: knockabout report {save} --html report.html",
                      markup=False)


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
            console.print(f"comparison written to {out}", markup=False)

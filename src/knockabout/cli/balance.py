"""``knockabout balance GAME``: the content balance matrix of any game with a balance plug-in
(a matrix of the entrants it declares: packs, fighters…); ``knockabout balance compare``: A/B
of two content versions on the same deals. What options a run takes is each game's balance
plug-in's: they are given as ``-o key=value``, and this command's help and shell completion
list them from the plug-ins."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from typer.core import TyperCommand, TyperGroup

from knockabout.bots.levels import check_level
from knockabout.cli import runs
from knockabout.cli.errors import friendly_errors
from knockabout.cli.options import parse_options
from knockabout.core.errors import ConfigError
from knockabout.core.registry import game_ids, get_game
from knockabout.sim import balance as runner
from knockabout.sim import balance_tables, html_report
from knockabout.sim.ablation import AblationSpec, ablation_lines, effects_from, plan_ablation, run_ablation
from knockabout.sim.balance_run import BalanceRun, BalanceSpec, block_size, content_digest, run_balance, run_identity
from knockabout.sim.content_ab import compare_lines, guess_game, paired_changes, version_options
from knockabout.sim.executor import Executor, make_executor
from knockabout.sim.results import write_results_file
from knockabout.sim.runner import ProgressFn


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
GAME = typer.Argument(..., help="a game with a balance plug-in (see the options below)")
OUT = typer.Option(None, "--out", help="also write the report (Markdown) to this file")
TABLES = typer.Option(None, "--tables", help="write the report's numbers to FILE (.csv or .json)")


@app.command("run", cls=_ListsGameOptions,
             short_help="The balance matrix of a game (the default: `balance GAME ...` runs it).")
def balance(
    game: str = GAME,
    bot: str = BOT,
    games: int = GAMES,
    seed: int = SEED,
    workers: int | None = runs.WORKERS,
    backend: str = runs.BACKEND,
    address: str | None = runs.ADDRESS,
    option: list[str] = OPTION,
    out: Path | None = OUT,
    html: Path | None = typer.Option(None, "--html", help="write the designer's report (one HTML file, plots inline)"),
    tables: Path | None = TABLES,
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


@contextmanager
def _tune_bar(console: Console, description: str, budget: int | None) -> Iterator[ProgressFn]:
    """The search's bar: games played (out of the games budget, when there is one), time,
    and the trial with the best distance from the goal so far."""
    columns = (TextColumn("{task.description}"), BarColumn(), TextColumn("{task.fields[count]}"),
               TimeElapsedColumn(), TextColumn("{task.fields[note]}"))
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(description, total=budget, count="", note="")

        def tick(done: int, total: int, note: str) -> None:
            bar.update(task, completed=done, count=f"{done}/{total} games" if total else f"{done} games", note=note)

        yield tick


def _piece(folder: Path | None, name: str, resume: bool) -> tuple[Path | None, Path | None]:
    """``(resume, checkpoint)`` of one run of a pair kept in ``folder``: resumed from its
    file when resuming and the file is there, else started in it (nothing: not kept)."""
    if folder is None:
        return None, None
    path = folder / f"{name}.jsonl"
    return (path, None) if resume and path.is_file() else (None, path)


def report(result: BalanceRun, console: Console, *, out: Path | None = None, html: Path | None = None,
           tables: Path | None = None, save: Path | None = None) -> None:
    """Print a balance run's report and write the files asked for."""
    game = str(result.meta["game"])
    parts = [runner.report(game, group, pairs) for group, pairs in zip(result.groups, result.pairs, strict=True)]
    until = result.meta.get("until_ci")
    if until:
        parts.append("\n".join(_until_lines(until)))
    plugin = runner.plugin_for(get_game(game))
    effects = effects_from(result.meta)
    data = [
        balance_tables.tables(group, [m for p in pairs for m in p.matches], plugin.entrant_kind, plugin.label,
                              effects)
        for group, pairs in zip(result.groups, result.pairs, strict=True)
    ]
    if effects:
        usage = {(t.title, c.entrant, c.card): (c.diff, c.diff_low, c.diff_high) for t in data for c in t.cards}
        parts.append("\n".join([
            "Each card's effect on winning, by paired ablation (its owner's rate with the card minus its rate "
            "on the same deals with the game's neutral stand-in), beside what the usage statistics say (the "
            "side's rate in the matches where it played the card, minus its average: a correlation).",
            "",
            *ablation_lines(effects, usage, plugin.entrant_kind),
        ]))
    for part in parts:
        console.print(Markdown(part))
        console.print()
    if out is not None:
        write_results_file(out, "\n\n".join(parts) + "\n")
        console.print(f"report written to {out}", markup=False)
    if html is not None:
        write_results_file(html, html_report.balance_page(result.meta, data))
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


@app.command("ablate", cls=_ListsGameOptions,
             short_help="Each card's effect on winning: the same matches with the card replaced by a stand-in.")
def ablate(
    game: str = GAME,
    bot: str = BOT,
    games: int = GAMES,
    seed: int = SEED,
    card: list[str] = typer.Option(
        [], "--card", "-c", help="only this card (its name), or the cards of this entrant (repeatable; default: all)"
    ),
    workers: int | None = runs.WORKERS,
    backend: str = runs.BACKEND,
    address: str | None = runs.ADDRESS,
    option: list[str] = OPTION,
    out: Path | None = OUT,
    html: Path | None = typer.Option(None, "--html", help="write the designer's report, effects included (HTML)"),
    tables: Path | None = TABLES,
    save: Path | None = typer.Option(None, "--save", help="save every match and the effects to FILE.json"),
    resume: Path | None = runs.RESUME,
    checkpoint: Path | None = runs.CHECKPOINT,
) -> None:
    """Measure each card's effect on winning: play its owners' matches (the balance run's
    pairings, deals and bot seeds) once as they are and once with that card replaced by the
    game's neutral stand-in; the effect is the owner's rate with the card minus its rate
    without it on the same deals, with a paired 95 % interval. Printed beside the usage
    statistics (which only say how often a side won when it played the card)."""
    console = Console(highlight=False)
    with friendly_errors():
        g = get_game(game)
        spec = AblationSpec(g.id, parse_options(option), games, bot, seed, tuple(card))
        with tempfile.TemporaryDirectory(prefix="knockabout-ablate-") as work:
            plan = plan_ablation(spec, Path(work))
            ck, keep = runs.open_checkpoint("ablation", g.id, plan.identity, plan.content, resume, checkpoint)
            with make_executor(backend, workers, address) as ex:
                title = f"{g.name}: {len(plan.cards)} cards ablated, {bot} v {bot} ({ex.describe()})"
                bar = runs.progress_bar(console, title, "matches", False)
                with runs.run_errors(console, ck, keep), bar as tick:
                    result = run_ablation(plan, ex, ck, tick)
        report(result, console, out=out, html=html, tables=tables, save=save)


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
    checkpoint: Path | None = typer.Option(
        None, "--checkpoint", help="keep both runs' checkpoints in folder DIR (a.jsonl, b.jsonl)"
    ),
    resume: Path | None = typer.Option(
        None, "--resume", help="continue the comparison whose checkpoints are in folder DIR (give the same options)"
    ),
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
        if resume is not None and not resume.is_dir():
            raise ConfigError(f"--resume names the folder of a comparison's checkpoints; {resume} is not a folder")
        kept = resume or checkpoint
        with make_executor(backend, workers, address) as ex:
            run_a = _play(BalanceSpec(gid, opts_a, games, bot, seed), ex, None,
                          *_piece(kept, "a", resume is not None), console, f"A: {a}")
            run_b = _play(BalanceSpec(gid, opts_b, games, bot, seed), ex, None,
                          *_piece(kept, "b", resume is not None), console, f"B: {b}")
        meta = {"a": a, "b": b, "bot": bot, "seed": seed, "games": games}
        text = "\n".join(compare_lines(paired_changes(run_a, run_b), meta))
        console.print(Markdown(text))
        if out is not None:
            write_results_file(out, text + "\n")
            console.print(f"comparison written to {out}", markup=False)


@app.command("tune", cls=_ListsGameOptions,
             short_help="Propose the fewest edits that bring every entrant and the first player within the band.")
def tune(
    game: str = GAME,
    out: Path = typer.Option(..., "--out", help="folder for the proposal, its diff, the report and the study"),
    bot: str = BOT,
    games: int = typer.Option(4, "--games", "-n", min=1, help="matches per ordered pairing in each trial"),
    seed: int = SEED,
    band: float = typer.Option(5.0, "--band", help="every entrant within 50 ± BAND % against the field"),
    edge: float = typer.Option(5.0, "--edge", help="each first player within 50 ± EDGE %"),
    only: list[str] = typer.Option(
        [], "--only", help="an entrant whose numbers may change (repeatable; default: those outside the band at first)"
    ),
    max_edits: int = typer.Option(3, "--max-edits", help="numbers one candidate may change at most"),
    max_step: int = typer.Option(0, "--max-step", help="how far one edit may move a number (0: anywhere)"),
    edit_cost: float = typer.Option(1.0, "--edit-cost", help="what one changed number costs, in points"),
    step_cost: float = typer.Option(0.1, "--step-cost", help="what moving a number one step costs, in points"),
    budget_games: int | None = typer.Option(None, "--budget-games", help="stop once the search has played this many "
                                            "games (all sessions)"),
    budget_minutes: float = typer.Option(30.0, "--budget-minutes", help="stop this session after this many minutes"),
    confirm_games: int | None = typer.Option(
        None, "--confirm-games", help="matches per ordered pairing of the confirmation (default 4x --games; 0: none)"
    ),
    confirm_bot: str | None = typer.Option(None, "--confirm-bot", help="bot level of the confirmation (default --bot)"),
    confirm_seed: int | None = typer.Option(None, "--confirm-seed", help="its base seed (default: --seed + 1000)"),
    workers: int | None = runs.WORKERS,
    backend: str = runs.BACKEND,
    address: str | None = runs.ADDRESS,
    option: list[str] = OPTION,
    resume: Path | None = typer.Option(None, "--resume", help="continue the search whose study is FILE"),
    checkpoint: Path | None = typer.Option(None, "--checkpoint", help="keep the study in FILE (default: OUT/study.db)"),
) -> None:
    """Search the numbers the content models mark tunable (attack, heart, wounds, ranges,
    costs…) with Optuna's TPE for the fewest edits that put every entrant within the band
    and the first player within the edge; every candidate plays the same deals. Writes
    OUT/proposal (a content version), OUT/proposal.diff and OUT/report.md, with a paired
    confirmation on other seeds. The study (OUT/study.db) keeps every trial: Ctrl+C or a
    spent time budget, then --resume, goes on from there."""
    from knockabout.sim.tune import TuneInterrupted, Tuner, TuneSpec, report_lines

    console = Console(highlight=False)
    with friendly_errors():
        g = get_game(game)
        if confirm_bot is not None:
            check_level(confirm_bot)
        spec = TuneSpec(g.id, parse_options(option), games, bot, seed, band / 100, edge / 100, tuple(only),
                        max_edits, max_step, edit_cost / 100, step_cost / 100)
        study = resume or checkpoint or out / "study.db"
        kind = runner.plugin_for(g).entrant_kind
        with tempfile.TemporaryDirectory(prefix="knockabout-tune-") as work, make_executor(
            backend, workers, address
        ) as ex:
            tuner = Tuner(spec, Path(work))
            t0 = time.perf_counter()
            bar = _tune_bar(console, f"tuning {g.id}", budget_games)
            try:
                with bar as tick:
                    result = tuner.run(ex, study, resume=resume is not None, budget_games=budget_games,
                                       budget_seconds=60 * budget_minutes, progress=tick)
            except TuneInterrupted as exc:
                console.print(f"interrupted: {exc.trials} trials kept in {exc.study}.", highlight=False, markup=False)
                console.print(f"Resume with: {runs.resume_command(exc.study)}", highlight=False, soft_wrap=True,
                              markup=False)
                raise typer.Exit(130) from None
            seconds = time.perf_counter() - t0
        work_files = tuner.files
        proposal = None
        confirmation = None
        if result.best.edits:
            out.mkdir(parents=True, exist_ok=True)
            base = work_files.write(out / "base", {})
            changed = work_files.edited(result.best.edits)
            proposal = work_files.write(out / "proposal", changed)
            (out / "proposal.diff").write_text(work_files.diff(changed), encoding="utf-8")
            n = 4 * games if confirm_games is None else confirm_games
            if n > 0:
                cbot = confirm_bot or bot
                cseed = seed + 1000 if confirm_seed is None else confirm_seed
                plugin = runner.plugin_for(g)
                rest = dict(tuner.content.options)
                opts_a = {**rest, **plugin.version_options(str(base))}
                opts_b = {**rest, **plugin.version_options(str(proposal))}
                with make_executor(backend, workers, address) as ex:
                    run_a = _play(BalanceSpec(g.id, opts_a, n, cbot, cseed), ex, None,
                                  *_piece(out / "confirm", "a", True), console, "confirm: as it was")
                    run_b = _play(BalanceSpec(g.id, opts_b, n, cbot, cseed), ex, None,
                                  *_piece(out / "confirm", "b", True), console, "confirm: the proposal")
                confirmation = (run_a, run_b)
        text = "\n".join(report_lines(tuner, result, kind, seconds=seconds, study=study, proposal=proposal,
                                      confirmation=confirmation))
        out.mkdir(parents=True, exist_ok=True)
        (out / "report.md").write_text(text + "\n", encoding="utf-8")
        console.print(Markdown(text))
        console.print(f"report written to {out / 'report.md'}", markup=False)

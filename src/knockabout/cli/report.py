"""``knockabout report FILE…``: reopen saved results — sim results (and compare several) or
a balance run saved with ``balance --save`` — and write the designer's HTML report and the
report's numbers."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from knockabout.cli import balance as balance_cmd
from knockabout.cli.errors import friendly_errors
from knockabout.cli.sim import _interval, _pct, render, render_until
from knockabout.core.errors import ConfigError
from knockabout.sim import html_report
from knockabout.sim.balance_run import BalanceRun, is_balance_file
from knockabout.sim.report import compare, summarize
from knockabout.sim.results import SimResults, write_results_file


def _balance_run(path: Path) -> BalanceRun | None:
    """The balance run saved in ``path``, or None when it holds something else."""
    if path.suffix.lower() != ".json":
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError, UnicodeDecodeError):
        return None  # SimResults.load reports what is wrong with it
    return BalanceRun.from_dict(data, str(path)) if is_balance_file(data) else None


def report(
    files: list[Path] = typer.Argument(..., help="results of `knockabout sim --out` or `knockabout balance --save`"),
    bootstrap: int = typer.Option(200, "--bootstrap", help="bootstrap resamples for rating intervals"),
    html: Path | None = typer.Option(None, "--html", help="write the HTML report (plots inline) of the one FILE"),
    tables: Path | None = typer.Option(None, "--tables", help="balance results: write the numbers (.csv or .json)"),
) -> None:
    """Reopen saved results; with several sim files, compare their win rates."""
    console = Console(highlight=False)
    with friendly_errors():
        if (html is not None or tables is not None) and len(files) != 1:
            raise ConfigError("--html and --tables report on one results file; give just one")
        run = _balance_run(files[0])
        if run is not None:
            if len(files) > 1:
                raise ConfigError(f"{files[0]} holds a balance run; report balance runs one at a time")
            balance_cmd.report(run, console, html=html, tables=tables)
            return
        if tables is not None:
            raise ConfigError("--tables is for balance results (saved with `knockabout balance --save`)")
        summaries = []
        for f in files:
            results = SimResults.load(f)
            s = summarize(results, bootstrap=bootstrap)
            render(s, console, title=f"{f}: {s.game}, {s.players} players")
            render_until(results.meta.get("until_ci"), console)
            summaries.append(s)
            if html is not None:
                write_results_file(html, html_report.sim_page(s, [g.length for g in results.games]))
                console.print(f"HTML report written to {html}", markup=False)
        if len(summaries) > 1:
            t = Table(title="comparison (win rate, 95% Wilson)")
            t.add_column("bot / seat")
            for f in files:
                t.add_column(str(f), justify="right")
            t.add_column("change", justify="right")
            for line in compare(summaries):
                cells = ["—" if r is None else f"{_pct(r.rate)} ({_interval(r)})" for r in line.rates]
                first, last = line.rates[0], line.rates[-1]
                change = "" if first is None or last is None else f"{100 * (last.rate - first.rate):+.1f} pts"
                t.add_row(line.label, *cells, change)
            console.print(t)

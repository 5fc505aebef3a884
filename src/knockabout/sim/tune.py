"""Proposing edits that balance a game's content: ``knockabout balance tune``.

The goal: every entrant (pack, fighter) within ``0.5 ± band`` against the field and each
group's first player within ``0.5 ± edge``, with as few changed numbers as possible.

**The search space.** The numbers the content models mark tunable
(:mod:`knockabout.sim.variants`), restricted to those that belong to the entrants
outside the band in a first, baseline run (or to the entrants named with ``only``): an
entrant that is already balanced keeps its numbers. A *candidate* is up to ``max_edits``
edits, each one of those numbers set to another value its file accepts.

**The objective** (smaller is better) is the distance from the goal, in points: the sum
over entrants of how far each rate lies outside the band, plus how far each group's
first-player rate lies outside its band, plus ``edit_cost`` points per changed number and
``step_cost`` per step it moves (so of two proposals that do as well, the one with fewer
and smaller changes wins).
A candidate is measured by a balance run of its content with the same deals and bot
seeds for every candidate (common random numbers: two candidates differ only by their
content, not by their luck), and only the groups it touches are played again.

**The optimiser** is Optuna's TPE sampler (multivariate, grouped), because the space is
made of choices (which number to change) and small whole numbers (to what: at most
``max_step`` accepted values away from where it is, so a proposal stays near the designer's
numbers), it is
conditional (a value exists only when its number is chosen), and the budget is a few
hundred noisy evaluations at most. CMA-ES fits continuous spaces with one fixed set of
dimensions and a population of evaluations per step; it cannot say "change nothing here",
and "fewest edits" is exactly that. The first trial is the baseline itself.

**Budgets and resuming.** A search stops when its budget of games (over all sessions)
or of time (this session) is spent. Every trial is kept in the study's SQLite file as it
finishes (Optuna's RDB storage); a session stopped by Ctrl+C or its time budget goes on
from there with ``--resume``. The file also holds what identifies the search (game,
options, bots, seeds, goal, content digest): resuming another search is one clear error.

**The proposal** is the best finished trial (ties: fewer edits). Because the trials all
played the same deals, the proposal fits those deals a little; a *confirmation run*
plays base and proposal again on other seeds with ``balance compare``'s paired
comparison, and that is what the report trusts.
"""

from __future__ import annotations

import hashlib
import json
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from knockabout.bots.levels import check_level
from knockabout.core.errors import ConfigError
from knockabout.core.plugins import EntrantGroup
from knockabout.core.registry import get_game
from knockabout.sim.balance import groups as plan_groups
from knockabout.sim.balance import plugin_for
from knockabout.sim.balance_run import BalanceRun, BalanceSpec, run_balance
from knockabout.sim.executor import Executor
from knockabout.sim.runner import ProgressFn, RunInterrupted
from knockabout.sim.variants import ContentFiles, Edit, Tunable

if TYPE_CHECKING:
    import optuna

STUDY = "knockabout-tune"
INSTALL = "balance tune searches with Optuna, which is not installed: pip install 'knockabout[tune]'"


@dataclass(frozen=True)
class TuneSpec:
    """A search: the balance run each candidate is measured by, and the goal."""

    game: str
    options: Mapping[str, Any]
    games: int
    """Matches per ordered pairing in each candidate's run."""
    bot: str
    seed: int = 1
    band: float = 0.05
    """Every entrant's rate against the field within ``0.5 ± band``."""
    edge: float = 0.05
    """Each group's first-player rate within ``0.5 ± edge``."""
    only: tuple[str, ...] = ()
    """The entrants whose numbers may change (empty: those outside the band at first)."""
    max_edits: int = 3
    """The most numbers one proposal may change."""
    max_step: int = 0
    """How far one edit may move a number, in its accepted values (0: anywhere)."""
    edit_cost: float = 0.01
    """What one changed number costs, in the objective's units (0.01: one point)."""
    step_cost: float = 0.001
    """What moving a number by one costs on top (0.001: a tenth of a point), so that of two
    proposals that do as well the one nearer the designer's numbers wins."""


@dataclass
class Measure:
    """What a candidate's run says: each entrant's rate, each group's first-player rate."""

    rates: dict[str, float] = field(default_factory=dict)
    """``"group|entrant"`` -> rate against the field."""
    first: dict[str, float] = field(default_factory=dict)
    """group title -> the first player's rate."""
    games: int = 0

    def violation(self, band: float, edge: float) -> float:
        out = sum(max(0.0, abs(r - 0.5) - band) for r in self.rates.values())
        return out + sum(max(0.0, abs(f - 0.5) - edge) for f in self.first.values())

    def outside(self, band: float) -> list[str]:
        return [k.split("|", 1)[1] for k, r in self.rates.items() if abs(r - 0.5) > band]


def measure(run: BalanceRun) -> Measure:
    """Rates against the field and first-player rates of a balance run, by group."""
    out = Measure()
    for group, pairs in zip(run.groups, run.pairs, strict=True):
        pts: dict[str, list[float]] = {}
        first = n = 0.0
        for p in pairs:
            for m in p.matches:
                for seat, e in enumerate((m.a, m.b)):
                    cell = pts.setdefault(e, [0.0, 0.0])
                    cell[0] += m.payoffs[seat]
                    cell[1] += 1
                first += m.payoffs[m.metrics.first]
                n += 1
        for e in group.entrants:
            if e in pts:
                out.rates[f"{group.title}|{e}"] = pts[e][0] / pts[e][1]
        out.first[group.title] = first / n if n else 0.5
        out.games += int(n)
    return out


@dataclass
class Trial:
    """One finished candidate."""

    number: int
    edits: list[Edit]
    objective: float
    measure: Measure


@dataclass
class TuneResult:
    """The search's state: the space, the baseline, the trials so far and the best."""

    space: list[Tunable]
    baseline: Trial
    trials: list[Trial]
    games: int
    """Games played by the search in all its sessions."""
    stopped: str
    """Why this session stopped."""
    out_of_budget: bool = False
    """It stopped because a budget (games or time) was spent, not because the goal was met."""

    @property
    def best(self) -> Trial:
        return min(self.trials, key=lambda t: (round(t.objective, 9), len(t.edits), t.number))


class TuneInterrupted(Exception):
    """Ctrl+C stopped the search; finished trials are in the study."""

    def __init__(self, study: Path, trials: int) -> None:
        super().__init__(f"interrupted with {trials} trials kept in {study}")
        self.study = study
        self.trials = trials


def _optuna() -> Any:
    try:
        import optuna
    except ImportError:
        raise ConfigError(INSTALL) from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    return optuna


class Tuner:
    """A search over one game's content; :meth:`run` plays trials until a budget is spent."""

    def __init__(self, spec: TuneSpec, workdir: Path) -> None:
        check_level(spec.bot, spec.game)
        if spec.games < 1:
            raise ConfigError(f"the number of matches a pairing must be at least 1, not {spec.games}")
        if spec.max_edits < 1 or spec.max_step < 0:
            raise ConfigError(f"--max-edits must be at least 1 and --max-step at least 0, not {spec.max_edits} "
                              f"and {spec.max_step}")
        if not 0 < spec.band < 0.5 or not 0 < spec.edge < 0.5:
            raise ConfigError("the band and the edge are half-widths in points, between 0 and 50")
        self.spec = spec
        self.game = get_game(spec.game)
        self.plugin = plugin_for(self.game)
        plan_groups(self.game.id, spec.options)  # bad options: one clear error first
        self.content = self.plugin.content(spec.options)
        self.files = ContentFiles(self.content)
        self.workdir = workdir
        self.all = self.files.tunables()
        self.base_groups = self._groups({}, "base")

    def identity(self) -> dict[str, Any]:
        s = self.spec
        return {
            "game": self.game.id, "rules_version": self.game.rules_version, "options": dict(s.options),
            "bot": s.bot, "seed": s.seed, "games": s.games, "band": s.band, "edge": s.edge, "only": list(s.only),
            "max_edits": s.max_edits, "max_step": s.max_step, "edit_cost": s.edit_cost,
            "step_cost": s.step_cost,
        }

    def digest(self) -> str:
        h = hashlib.sha256(f"{self.game.id}\0{self.game.content_hash()}".encode())
        for name in sorted(self.files.text):
            h.update(f"\0{name}\0".encode() + self.files.text[name].encode())
        return h.hexdigest()

    def _groups(self, changed: Mapping[str, str], name: str) -> list[EntrantGroup]:
        folder = self.files.write(self.workdir / name, changed)
        options = {**self.content.options, **self.plugin.version_options(str(folder))}
        return plan_groups(self.game.id, options)

    def _play(self, groups: Sequence[EntrantGroup], executor: Executor, progress: ProgressFn | None) -> Measure:
        spec = BalanceSpec(self.game.id, {}, self.spec.games, self.spec.bot, self.spec.seed)
        return measure(run_balance(spec, executor, groups=list(groups), progress=progress))

    def evaluate(self, edits: Sequence[Edit], number: int, executor: Executor, baseline: Measure | None,
                 progress: ProgressFn | None = None) -> Measure:
        """A candidate's rates: its touched groups played, the others as in the baseline."""
        if not edits or baseline is None:
            return self._play(self.base_groups, executor, progress)
        changed = self.files.edited(edits)
        groups = self._groups(changed, f"trial-{number}")
        owners = set()
        for e in edits:
            owners |= set(next(t.owners for t in self.all if (t.file, t.path) == (e.file, e.path)))
        touched = [k for k, g in enumerate(self.base_groups) if not owners or owners & set(g.entrants)]
        played = self._play([groups[k] for k in touched], executor, progress)
        out = Measure(dict(baseline.rates), dict(baseline.first), played.games)
        out.rates.update(played.rates)
        out.first.update(played.first)
        return out

    def space(self, baseline: Measure) -> list[Tunable]:
        """The numbers the search may change: those of ``only``, else of the entrants
        outside the band in the baseline."""
        wanted = set(self.spec.only) or set(baseline.outside(self.spec.band))
        return [t for t in self.all if t.owners and wanted & set(t.owners)] if wanted else []

    def objective(self, m: Measure, edits: Sequence[Edit]) -> float:
        moved = 0
        for e in edits:
            t = next(t for t in self.all if (t.file, t.path) == (e.file, e.path))
            moved += abs(t.values.index(e.value) - t.values.index(t.value))
        s = self.spec
        return m.violation(s.band, s.edge) + s.edit_cost * len(edits) + s.step_cost * moved

    def run(
        self,
        executor: Executor,
        study_path: Path,
        *,
        resume: bool = False,
        budget_games: int | None = None,
        budget_seconds: float | None = None,
        progress: Callable[[int, int, str], None] | None = None,
    ) -> TuneResult:
        """Play trials until a budget is spent (raises :class:`TuneInterrupted` on Ctrl+C)."""
        optuna = _optuna()
        storage = f"sqlite:///{study_path}"
        identity = {**self.identity(), "content": self.digest()}
        if resume:
            if not study_path.is_file():
                raise ConfigError(f"{study_path}: no such study to resume")
            try:
                study = optuna.load_study(study_name=STUDY, storage=storage, sampler=self._sampler(optuna))
            except KeyError:
                raise ConfigError(f"{study_path} holds no knockabout tuning study") from None
            theirs = study.user_attrs.get("identity")
            if theirs != json.loads(json.dumps(identity)):
                diff = next((k for k in identity if (theirs or {}).get(k) != identity[k]), "content")
                raise ConfigError(f"{study_path} is the study of another search ({diff} differs); give the same "
                                  "options as the search that wrote it")
        else:
            if study_path.exists():
                raise ConfigError(f"{study_path} exists; continue it with --resume or choose another file")
            study_path.parent.mkdir(parents=True, exist_ok=True)
            study = optuna.create_study(study_name=STUDY, storage=storage, sampler=self._sampler(optuna),
                                        direction="minimize")
            study.set_user_attr("identity", identity)
        t0 = time.perf_counter()
        base = study.user_attrs.get("baseline")
        try:
            if base is None:
                if progress:
                    progress(0, 0, "baseline")
                m = self.evaluate([], 0, executor, None)
                base = {"rates": m.rates, "first": m.first, "games": m.games}
                study.set_user_attr("baseline", base)
            baseline = Measure(dict(base["rates"]), dict(base["first"]), int(base["games"]))
            space = self.space(baseline)
            study.set_user_attr("space", [t.key for t in space])
            by_key = {t.key: t for t in space}
            keys = ["none", *by_key]
            games = baseline.games + sum(int(t.user_attrs.get("games", 0)) for t in study.trials)
            best = f"at first {100 * self.objective(baseline, []):.1f} pts off"
            stopped = "the goal is met at the start" if not space else ""
            out_of_budget = False
            while not stopped:
                if budget_games is not None and games >= budget_games:
                    stopped, out_of_budget = f"the budget of {budget_games} games is spent", True
                    break
                if budget_seconds is not None and time.perf_counter() - t0 >= budget_seconds:
                    stopped, out_of_budget = f"the time budget ({budget_seconds / 60:g} min) is spent", True
                    break
                if not [t for t in study.trials if t.state.is_finished()]:
                    study.enqueue_trial({f"edit{k}": "none" for k in range(self.spec.max_edits)})
                trial = study.ask()
                edits = self._suggest(trial, keys, by_key)
                if progress:
                    progress(games, budget_games or 0, f"trial {trial.number} ({len(edits)} edits), {best}")
                try:
                    m = baseline if not edits else self.evaluate(edits, trial.number, executor, baseline)
                except ConfigError as exc:  # two edits the content refuses together
                    trial.set_user_attr("refused", str(exc))
                    study.tell(trial, state=optuna.trial.TrialState.FAIL)
                    continue
                except BaseException:
                    study.tell(trial, state=optuna.trial.TrialState.FAIL)
                    raise
                played = 0 if not edits else m.games
                games += played
                trial.set_user_attr("games", played)
                trial.set_user_attr("edits", [[e.file, list(e.path), e.value] for e in edits])
                trial.set_user_attr("rates", m.rates)
                trial.set_user_attr("first", m.first)
                study.tell(trial, self.objective(m, edits))
                best = f"best {100 * study.best_value:.1f} pts off"
                if m.violation(self.spec.band, self.spec.edge) == 0 and len(edits) <= 1:
                    stopped = "the goal is met with at most one edit"
        except (KeyboardInterrupt, RunInterrupted):
            done = len([t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE])
            raise TuneInterrupted(study_path, done) from None
        return self._result(study, space, baseline, games, stopped, out_of_budget)

    def _sampler(self, optuna: Any) -> Any:
        return optuna.samplers.TPESampler(seed=self.spec.seed, multivariate=True, group=True,
                                          n_startup_trials=10, constant_liar=False)

    def _suggest(self, trial: optuna.Trial, keys: list[str], by_key: Mapping[str, Tunable]) -> list[Edit]:
        chosen: dict[str, Edit] = {}
        for k in range(self.spec.max_edits):
            key = trial.suggest_categorical(f"edit{k}", keys)
            if key == "none" or key in chosen:
                continue
            t = by_key[key]
            now = t.values.index(t.value)
            step = self.spec.max_step or len(t.values)
            lo, hi = max(0, now - step), min(len(t.values) - 1, now + step)
            i = trial.suggest_int(f"value {key}", lo, hi)
            if t.values[i] != t.value:
                chosen[key] = Edit(t.file, t.path, t.values[i])
        return list(chosen.values())

    def _result(self, study: Any, space: list[Tunable], baseline: Measure, games: int, stopped: str,
                out_of_budget: bool = False) -> TuneResult:
        base = Trial(-1, [], self.objective(baseline, []), baseline)
        trials = [base]
        for t in study.trials:
            if t.state.name != "COMPLETE":
                continue
            edits = [Edit(f, tuple(p), int(v)) for f, p, v in t.user_attrs.get("edits", [])]
            m = Measure(dict(t.user_attrs.get("rates", {})), dict(t.user_attrs.get("first", {})),
                        int(t.user_attrs.get("games", 0)))
            trials.append(Trial(t.number, edits, float(t.value), m))
        return TuneResult(space, base, trials, games, stopped or "stopped", out_of_budget)

    def label(self, edit: Edit) -> str:
        t = next((t for t in self.all if (t.file, t.path) == (edit.file, edit.path)), None)
        return f"{t.label}: {t.value} → {edit.value}" if t is not None else f"{edit.file}: {edit.path} → {edit.value}"

    def proposal(self, result: TuneResult, folder: Path) -> tuple[dict[str, str], str]:
        """Write the best trial's content as a version into ``folder``; its changed files
        and their diff against the content the search started from."""
        changed = self.files.edited(result.best.edits) if result.best.edits else {}
        self.files.write(folder, changed)
        return changed, self.files.diff(changed)


def trial_dict(t: Trial) -> dict[str, Any]:
    """A trial as plain data (for a JSON report)."""
    return {"number": t.number, "objective": t.objective, "edits": [asdict(e) for e in t.edits],
            "rates": t.measure.rates, "first": t.measure.first, "games": t.measure.games}


def _who(key: str) -> str:
    group, entrant = key.split("|", 1)
    return f"{entrant} ({group})" if group else entrant


def confirmed_lines(was: Measure, now: Measure, spec: TuneSpec, kind: str) -> str:
    """The verdict of the confirmation run, first thing under the proposal: a search on few
    matches a pairing fits its own deals' luck, and a designer should hear at once when
    other deals do not back it, and what to do then."""
    before, after = was.violation(spec.band, spec.edge), now.violation(spec.band, spec.edge)
    out_before, out_after = len(was.outside(spec.band)), len(now.outside(spec.band))
    where = (f"on the confirmation's other deals the distance from the goal goes {100 * before:.1f} → "
             f"{100 * after:.1f} points, and {out_before} → {out_after} {kind}s stay outside the band")
    if after < before and out_after <= out_before:
        return f"**Confirmed:** {where}."
    return (f"**Not confirmed — do not apply it as it is:** {where}. The search fitted the luck of its own deals "
            f"({spec.games} matches per ordered pairing); search again with more, e.g. `--games {4 * spec.games}` "
            "and a larger `--budget-minutes`, or check a change by hand with `knockabout balance compare`.")


def report_lines(tuner: Tuner, result: TuneResult, kind: str, *, seconds: float, study: Path,
                 proposal: Path | None, confirmation: tuple[BalanceRun, BalanceRun] | None) -> list[str]:
    """The search's report as Markdown: the search, the proposal, its rates on the
    search's deals, and the paired confirmation on other seeds when it was run."""
    from knockabout.sim.content_ab import compare_lines, paired_changes
    from knockabout.sim.matrix import pct
    from knockabout.sim.stats import wilson

    s = tuner.spec
    best = result.best
    done = [t for t in result.trials if t.number >= 0]
    owners = sorted({o for t in result.space for o in t.owners})
    lines = [
        f"# Tuning {tuner.game.name}",
        "",
        f"Goal: every {kind} within {100 * (0.5 - s.band):g}–{100 * (0.5 + s.band):g} % against the field, each "
        f"first player within {100 * (0.5 - s.edge):g}–{100 * (0.5 + s.edge):g} %, with the fewest changed numbers "
        f"(a change costs {100 * s.edit_cost:g} points, each step it moves {100 * s.step_cost:g}). Each candidate: "
        f"{s.bot} v {s.bot}, {s.games} matches per ordered pairing, seed {s.seed}, the same deals for every one.",
        "",
        f"Search: {len(done)} trials, {result.games} games in all; this session {seconds:.0f} s; stopped because "
        f"{result.stopped}. Study: {study}.",
        f"Searched {len(result.space)} numbers of: {', '.join(owners) or 'nothing (every entrant within the band)'}.",
        "",
    ]
    if not best.edits:
        lines += ["No candidate did better than the content as it is: no edit is proposed."]
        if result.out_of_budget and result.space:
            lines += ["", f"The search stopped on its budget after {len(done)} trials over "
                      f"{len(result.space)} numbers: too few to say that no edit would help. Go on with the "
                      "same command and "
                      f"`--resume {study}` and a larger `--budget-minutes` (or fewer `--games` a trial, "
                      "at the cost of noisier trials)."]
        return lines
    lines += [f"## Proposed edits ({len(best.edits)}), trial {best.number}", ""]
    lines += [f"- {tuner.label(e)}" for e in best.edits]
    if confirmation is not None:
        lines += ["", confirmed_lines(measure(confirmation[0]), measure(confirmation[1]), s, kind)]
    if proposal is not None:
        lines += ["", f"The changed content version: `{proposal}`; the diff: `{proposal.parent / 'proposal.diff'}`."]
    lines += [
        "",
        "## On the search's deals",
        "",
        f"| {kind} | before | proposal |",
        "|---|---|---|",
    ]
    for key, before in result.baseline.measure.rates.items():
        after = best.measure.rates.get(key, before)
        lines.append(f"| {_who(key)} | {100 * before:.1f}% | {100 * after:.1f}% |")
    for title, before in result.baseline.measure.first.items():
        after = best.measure.first.get(title, before)
        lines.append(f"| first player{f' ({title})' if title else ''} | {100 * before:.1f}% | {100 * after:.1f}% |")
    lines += ["", f"Distance from the goal: {100 * result.baseline.measure.violation(s.band, s.edge):.1f} points "
              f"before, {100 * best.measure.violation(s.band, s.edge):.1f} with the proposal."]
    if confirmation is None:
        lines += ["", "No confirmation run (`--confirm-games 0`): confirm with `knockabout balance compare` before "
                  "trusting these numbers, which the search fitted to its own deals."]
        return lines
    run_a, run_b = confirmation
    meta = {"a": "as it was", "b": "the proposal", "bot": run_b.meta["bot"], "seed": run_b.meta["seed"],
            "games": run_b.meta["games"]}
    lines += ["", "## Confirmation on other deals", "", *compare_lines(paired_changes(run_a, run_b), meta), ""]
    lines += [f"| {kind} | proposal | 95 % interval | within the band |", "|---|---|---|---|"]
    rates = measure(run_b)
    for group, pairs in zip(run_b.groups, run_b.pairs, strict=True):
        for e in group.entrants:
            pts = sum(m.payoffs[0] if m.a == e else m.payoffs[1] for p in pairs for m in p.matches if e in (m.a, m.b))
            n = sum(1 for p in pairs for m in p.matches if e in (m.a, m.b))
            if not n:
                continue
            ok = "yes" if abs(pts / n - 0.5) <= s.band else "no"
            name = _who(f"{group.title}|{e}")
            lines.append(f"| {name} | {100 * pts / n:.1f}% | {pct(wilson(pts, n))} | {ok} |")
    lines += [""]
    was = measure(run_a)
    for title, f in rates.first.items():
        lines.append(f"First player{f' ({title})' if title else ''}: {100 * was.first[title]:.1f}% before, "
                     f"{100 * f:.1f}% with the proposal.")
    return lines

"""Long runs: the executor backends give identical results, checkpoints resume to the same
result and refuse another run's file, and ``--until-ci`` stops with honest intervals."""

from __future__ import annotations

import importlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

from knockabout.core.errors import ConfigError, KnockaboutError
from knockabout.sim import sequential
from knockabout.sim.balance_run import BalanceSpec, run_balance
from knockabout.sim.checkpoint import Checkpoint, CheckpointError
from knockabout.sim.executor import InlineExecutor, PoolExecutor, make_executor
from knockabout.sim.runner import RunInterrupted
from knockabout.sim.tournament import DealBlock, SimSpec, Until, block_for, play_block, run, run_identity

SPEC = SimSpec("nak-muay", players=2, games=60, seed=4, bots=("easy", "random"))


def _keys(res: Any) -> list[Any]:
    return [g.outcome_key() for g in res.games]


def test_every_backend_and_block_size_gives_the_same_games() -> None:
    inline = run(SPEC, executor=InlineExecutor())
    with PoolExecutor(2) as pool:
        pooled = run(SPEC, executor=pool)
        small_blocks = run(SPEC, executor=pool, chunk=2)
    assert _keys(inline) == _keys(pooled) == _keys(small_blocks)
    assert [g.index for g in pooled.games] == list(range(60))
    assert pooled.meta["backend"] == "process pool" and pooled.meta["workers"] == 2


def test_balance_is_the_same_on_every_backend(tiny_games: None) -> None:
    spec = BalanceSpec("tiny-duel", {}, 5, "random", seed=3)
    one = run_balance(spec, InlineExecutor())
    with PoolExecutor(2) as pool:
        two = run_balance(spec, pool)
    assert _without_seconds(one) == _without_seconds(two)
    assert [len(p.matches) for p in two.pairs[0]] == [5] * 6


def _without_seconds(run: Any) -> Any:
    groups = run.to_dict()["groups"]
    for g in groups:
        for p in g["pairs"]:
            p.pop("seconds")
    return groups


def test_bad_backend_flags_are_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ConfigError, match="--backend must be one of auto, inline, process, ray, not 'mpi'"):
        make_executor("mpi", 1)
    with pytest.raises(ConfigError, match="--workers must be at least 1, not 0"):
        make_executor("process", 0)
    with pytest.raises(ConfigError, match="--address names a Ray cluster; use it with --backend ray"):
        make_executor("process", 2, "127.0.0.1:6379")
    real = importlib.import_module

    def no_ray(name: str, *args: Any) -> Any:
        if name == "ray":
            raise ImportError("No module named 'ray'")
        return real(name, *args)

    monkeypatch.setattr(importlib, "import_module", no_ray)
    with pytest.raises(ConfigError, match=r"needs Ray, which is not installed: pip install 'knockabout\[cluster\]'"):
        make_executor("ray", 2)


def test_an_unreachable_ray_address_is_one_clear_error() -> None:
    pytest.importorskip("ray")
    with pytest.raises(ConfigError, match=r"no Ray cluster answers at 127\.0\.0\.1:9 .*ray start --head"):
        make_executor("ray", None, "127.0.0.1:9")
    with pytest.raises(ConfigError, match="--address must look like HOST:PORT"):
        make_executor("ray", None, "nowhere")


def _checkpoint(path: Path, spec: SimSpec = SPEC, content: str = "c1") -> Checkpoint:
    return Checkpoint(path, "sim", run_identity(spec, None, block_for(spec, None)), content)


def test_a_resumed_run_gives_the_same_result_as_an_uninterrupted_one(tmp_path: Path) -> None:
    whole = run(SPEC)
    path = tmp_path / "run.jsonl"
    ck = _checkpoint(path)
    ck.start(fresh=True)
    calls = {"n": 0}

    class StopsAfterThree(InlineExecutor):
        def run(self, fn: Any, items: Any) -> Any:
            for i, item in enumerate(items):
                if calls["n"] == 3:
                    raise KeyboardInterrupt  # what Ctrl+C does in the middle of a run
                calls["n"] += 1
                yield i, fn(item)

    with pytest.raises(RunInterrupted) as info:
        run(SPEC, executor=StopsAfterThree(), checkpoint=ck)
    assert info.value.units_done == 3 and info.value.checkpoint == path
    assert len(path.read_text().splitlines()) == 1 + 3  # the first line, then one per finished unit
    with path.open("a") as f:
        f.write('{"unit": 7, "data": [{"ind')  # a line cut short by a kill is played again
    again = Checkpoint.resume(path, "sim", run_identity(SPEC, None, block_for(SPEC, None)), "c1")
    assert sorted(again.done) == [0, 1, 2]
    played: list[Any] = []

    class Counting(InlineExecutor):
        def run(self, fn: Any, items: Any) -> Any:
            played.extend(items)
            yield from super().run(fn, items)

    again.start(fresh=False)
    resumed = run(SPEC, executor=Counting(), checkpoint=again)
    again.close()
    assert _keys(resumed) == _keys(whole)
    assert len(played) == len(resumed.games) // 2 - 3  # blocks of one deal: only the unfinished ones


def test_a_checkpoint_of_another_run_or_content_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    ck = _checkpoint(path)
    ck.start(fresh=True)
    ck.add(0, play_block(SPEC, DealBlock(0, 1, 2)))
    ck.close()
    other = SimSpec("nak-muay", players=2, games=60, seed=5, bots=("easy", "random"))
    with pytest.raises(CheckpointError, match=r"checkpoint of another run \(seed is 4 there, 5 here\)"):
        Checkpoint.resume(path, "sim", run_identity(other, None, block_for(other, None)), "c1")
    with pytest.raises(CheckpointError, match="written with other game content"):
        Checkpoint.resume(path, "sim", run_identity(SPEC, None, block_for(SPEC, None)), "c2")
    with pytest.raises(CheckpointError, match="checkpoint of a sim run, not of a balance run"):
        Checkpoint.resume(path, "balance", {}, "c1")
    junk = tmp_path / "junk.jsonl"
    junk.write_text("hello\n")
    with pytest.raises(CheckpointError, match="is not a knockabout checkpoint"):
        Checkpoint.resume(junk, "sim", {}, "c1")
    with pytest.raises(CheckpointError, match="cannot read checkpoint"):
        Checkpoint.resume(tmp_path / "missing.jsonl", "sim", {}, "c1")


def test_the_looks_grow_geometrically_and_spend_at_most_alpha() -> None:
    assert list(sequential.looks(10, 50)) == [10, 15, 23, 35, 50]
    assert list(sequential.looks(10, 50, step=4)) == [12, 20, 32, 48, 50]
    assert sum(sequential.look_alpha(k) for k in range(1, 10_000)) < 0.05
    assert sequential.z_for(0.05) == pytest.approx(1.96, abs=1e-3)


def test_the_spent_intervals_hold_at_every_look_at_once() -> None:
    """Whatever rule decides when to stop, the stopped interval is honest if the intervals
    of all looks together miss the true rate at most 5 % of the time. With the spent alpha
    they do; plain 95 % intervals at every look miss far more often. Seeded, pure Python."""
    rng = random.Random(7)
    p, runs = 0.3, 300
    schedule = list(sequential.looks(20, 5000))

    def some_look_misses(spend: bool) -> float:
        misses = 0
        for _ in range(runs):
            flips: list[tuple[float, int]] = []
            missed = False
            for look, n in enumerate(schedule, 1):
                flips += [(float(rng.random() < p), 1) for _ in range(n - len(flips))]
                est = sequential.estimate("x", flips, sequential.look_alpha(look) if spend else 0.05)
                missed = missed or not est.low <= p <= est.high
            misses += missed
        return misses / runs

    assert some_look_misses(spend=True) <= 0.05
    assert some_look_misses(spend=False) > 0.15


def test_the_interval_counts_a_deal_not_a_game_when_games_of_a_deal_agree() -> None:
    assert sequential.design_effect([(1.0, 2)] * 4) == 1.0  # seat orders split every deal: no less information
    assert sequential.design_effect([(2.0, 2), (0.0, 2), (2.0, 2), (0.0, 2)]) == pytest.approx(2.0 * 4 / 3)
    wide = sequential.estimate("x", [(2.0, 2), (0.0, 2)] * 20, 0.05)
    plain = sequential.estimate("x", [(1.0, 1), (0.0, 1)] * 40, 0.05)
    assert wide.half_width > plain.half_width


def test_until_ci_stops_when_every_interval_is_narrow_enough_on_any_backend() -> None:
    spec = SimSpec("nak-muay", players=2, games=1, seed=2, bots=("easy", "random"))
    until = Until(0.08, 4000)
    one = run(spec, until=until)
    with PoolExecutor(2) as pool:
        two = run(spec, executor=pool, until=until)
    info = one.meta["until_ci"]
    assert info["reached"] and _keys(one) == _keys(two) and info == two.meta["until_ci"]
    assert all(hi - lo <= 2 * 0.08 for _, _, lo, hi in info["intervals"])
    assert {label for label, *_ in info["intervals"]} >= {"easy", "random", "seat 1", "seat 2"}
    assert len(one.games) < 4000  # it stopped before the cap
    capped = run(spec, until=Until(0.001, 40))
    assert not capped.meta["until_ci"]["reached"] and len(capped.games) == 40


def test_balance_until_ci_covers_every_entrant_and_the_first_player(tiny_games: None) -> None:
    spec = BalanceSpec("tiny-duel", {}, 1, "random", seed=3)
    res = run_balance(spec, InlineExecutor(), until=(0.1, 300))
    info = res.meta["until_ci"]
    labels = {label for label, *_ in info["intervals"]}
    assert labels == {"aces (Tiny decks)", "even (Tiny decks)", "steps (Tiny decks)", "first player (Tiny decks)"}
    assert info["reached"] and all(hi - lo <= 0.2 for _, _, lo, hi in info["intervals"])
    assert res.meta["games"] == info["rounds"] == len(res.pairs[0][0].matches) < 300
    json.dumps(res.to_dict())  # the results file is plain JSON


def test_a_run_error_in_a_worker_is_the_error_itself() -> None:
    bad = SimSpec("nak-muay", players=2, games=2, seed=1, bots=("nope",))
    with pytest.raises(KnockaboutError, match="nope"):
        run(bad)

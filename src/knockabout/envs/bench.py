"""How fast the PettingZoo environment runs, beside the raw protocol and PettingZoo's
own Leduc Hold'em, measured in one process (``knockabout bench --envs``).

Three loops of random legal play, each dealing seeded games back to back, run in
interleaved slices (:data:`SLICES`) so that other work on the machine slows them alike:

* ``raw``: the protocol alone — ``legal_actions()``, a random pick, ``apply()``;
* ``step``: the AEC environment's ``step()``, the pick made from the environment's
  legal codes (``legal_action_codes()``) — what stepping costs on top of the rules;
* ``last+step``: the full PettingZoo loop an agent runs — ``last()`` (the observation
  encoded and the mask built), a random pick from the mask, ``step()``.

* ``batched``: the batched environment (:class:`~knockabout.envs.vector.VectorEnv`,
  :data:`BATCH` games): one ``step()`` of every game, observations and masks included,
  each action drawn from its game's mask with numpy — counted in agent steps (one per game
  per call).

Leduc Hold'em (``pettingzoo.classic.leduc_holdem_v4``, which needs ``rlcard`` and
``pygame``) runs the ``last+step`` loop; None when it cannot be imported. pgx's Leduc
Hold'em (``pgx.make("leduc_holdem")``, JAX on the CPU, the ``envs-bench-pgx`` extra) runs
batched like ours: :data:`BATCH` games, actions drawn from the legal-action mask inside the
jitted step, automatic resets; None without pgx.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from knockabout.core.registry import get_game
from knockabout.core.rng import Rng
from knockabout.envs.pettingzoo import env
from knockabout.envs.vector import VectorEnv

BATCH = 256
"""Games per batched step (the issue's measure: batch 256)."""


@dataclass(frozen=True)
class EnvBench:
    game: str
    players: int
    raw_steps_per_s: float
    step_per_s: float
    last_step_per_s: float
    leduc_last_step_per_s: float | None
    batch: int = BATCH
    batched_per_s: float = 0.0
    """Agent steps/s of the batched environment (observations and masks included)."""
    pgx_leduc_per_s: float | None = None
    """Agent steps/s of pgx's batched Leduc Hold'em on the CPU (None: pgx not installed)."""
    per_cpu_s: dict[str, float] | None = None
    """Each loop's steps per second of CPU time (``raw``, ``step``, ``last``, ``batched``,
    ``leduc``, ``pgx``): what a loaded machine slows less than wall time."""

    @property
    def step_share(self) -> float:
        """``step`` as a share of ``raw``."""
        return self.step_per_s / self.raw_steps_per_s

    @property
    def last_step_share(self) -> float:
        return self.last_step_per_s / self.raw_steps_per_s


class _Loop:
    """A measured loop that can be run in slices (steps and seconds add up across them)."""

    def __init__(self, body: Any) -> None:
        self.body = body
        self.steps = 0
        self.seconds = 0.0
        self.cpu_seconds = 0.0
        self.seed = 0

    def run(self, seconds: float) -> None:
        clock = time.perf_counter
        cpu = time.process_time()
        start = clock()
        end = start + seconds
        while clock() < end:
            self.steps += self.body(self.seed)
            self.seed += 1
        self.seconds += clock() - start
        self.cpu_seconds += time.process_time() - cpu

    @property
    def rate(self) -> float:
        """Steps per second of wall time."""
        return self.steps / self.seconds if self.seconds else 0.0

    @property
    def cpu_rate(self) -> float:
        """Steps per second of the process's CPU time (all its threads: JAX's too)."""
        return self.steps / self.cpu_seconds if self.cpu_seconds else 0.0


def raw_game(game_id: str, players: int) -> Any:
    """One random game through the protocol: ``legal_actions()``, a pick, ``apply()``."""
    g = get_game(game_id)
    rng = Rng(1)

    def body(seed: int) -> int:
        s = g.new_state({}, seed, players=players)
        steps = 0
        while s.to_act() is not None:
            legal = s.legal_actions()
            s.apply(legal[rng.below(len(legal))])
            steps += 1
        return steps

    return body


def step_game(e: Any) -> Any:
    """One game of ``step()`` with picks from ``legal_action_codes()``."""
    rng = Rng(1)

    def body(seed: int) -> int:
        e.reset(seed=seed)
        steps = 0
        while True:
            agent = e.agent_selection
            if e.terminations[agent] or e.truncations[agent]:
                return steps
            codes = e.legal_action_codes()
            e.step(codes[rng.below(len(codes))])
            steps += 1

    return body


def last_step_game(e: Any) -> Any:
    """One game of the standard loop: ``last()``, a pick from the observation's mask, ``step()``."""
    rng = Rng(1)

    def body(seed: int) -> int:
        e.reset(seed=seed)
        steps = 0
        for _agent in e.agent_iter():
            obs, _r, term, trunc, _info = e.last()
            if term or trunc:
                e.step(None)
                continue
            codes = np.flatnonzero(obs["action_mask"])
            e.step(int(codes[rng.below(len(codes))]))
            steps += 1
        return steps

    return body


def random_legal(mask: np.ndarray[Any, Any], rng: np.random.Generator) -> np.ndarray[Any, Any]:
    """One action code per row of a batch of masks, uniform among the row's legal codes
    (every row has at least one), in a few array operations."""
    counts = mask.sum(axis=1)
    legal = np.flatnonzero(mask)
    starts = np.cumsum(counts) - counts
    pick = (rng.random(len(counts)) * counts).astype(np.int64)
    return legal[starts + pick] % mask.shape[1]  # type: ignore[no-any-return]


def batched_game(game_id: str, players: int, batch: int = BATCH) -> Any:
    """One batched step of ``batch`` games, random legal actions from the masks: ``batch``
    agent steps per call (the body's seed is not used: the games deal themselves)."""
    e = VectorEnv(game_id, batch=batch, seed=0, players=players)
    _obs, mask, _seat = e.reset()
    rng = np.random.default_rng(1)
    state = {"mask": mask}

    def body(_seed: int) -> int:
        _o, state["mask"], _r, _d, _s = e.step(random_legal(state["mask"], rng))
        return batch

    return body


def pgx_leduc(batch: int = BATCH) -> Any | None:
    """A batched step of pgx's Leduc Hold'em on the CPU (jitted, warmed up), or None when
    pgx (and JAX) cannot be imported."""
    try:
        import jax
        import jax.numpy as jnp
        import pgx
        from pgx.experimental import auto_reset
    except ImportError:
        return None
    game = pgx.make("leduc_holdem")
    step = jax.vmap(auto_reset(game.step, game.init))

    def raw_tick(state: Any, key: Any) -> tuple[Any, Any]:
        pick, keys, key = jax.random.split(key, 3)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        actions = jax.random.categorical(pick, logits, axis=-1)
        return step(state, actions, jax.random.split(keys, batch)), key

    # jax.jit called, not used as a decorator: without JAX installed its type is unknown
    tick = jax.jit(raw_tick)
    key = jax.random.PRNGKey(0)
    key, sub = jax.random.split(key)
    box = {"state": jax.jit(jax.vmap(game.init))(jax.random.split(sub, batch)), "key": key}
    tick(box["state"], box["key"])[0].observation.block_until_ready()  # compile before timing

    def body(_seed: int) -> int:
        box["state"], box["key"] = tick(box["state"], box["key"])
        box["state"].observation.block_until_ready()
        return batch

    return body


def leduc_env() -> Any | None:
    """PettingZoo's Leduc Hold'em, or None when its dependencies are missing."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        from pettingzoo.classic import leduc_holdem_v4
    except ImportError:
        return None
    return leduc_holdem_v4.env()


def last_step_rate(e: Any, seconds: float) -> float:
    """Steps per second of the standard loop on any AEC environment."""
    loop = _Loop(last_step_game(e))
    loop.run(seconds)
    return loop.rate


SLICES = 10
"""Each loop runs in this many slices, the loops taking turns, so a machine whose load
changes during the run slows them all alike."""


def bench_env(
    game_id: str, seconds: float = 2.0, players: int | None = None, leduc: bool = True, batch: int = BATCH,
    pgx: bool = True,
) -> EnvBench:
    """Measure one game's loops (``seconds`` each, interleaved) and, in the same run, Leduc's
    (PettingZoo's, and pgx's batched one when installed)."""
    g = get_game(game_id)
    n = g.facts.default_players if players is None else players
    loops = {
        "raw": _Loop(raw_game(game_id, n)),
        "step": _Loop(step_game(env(game_id, players=n))),
        "last": _Loop(last_step_game(env(game_id, players=n))),
        "batched": _Loop(batched_game(game_id, n, batch)),
    }
    other = leduc_env() if leduc else None
    if other is not None:
        loops["leduc"] = _Loop(last_step_game(other))
    batched_leduc = pgx_leduc(batch) if pgx else None
    if batched_leduc is not None:
        loops["pgx"] = _Loop(batched_leduc)
    for _ in range(SLICES):
        for loop in loops.values():
            loop.run(seconds / SLICES)
    return EnvBench(
        game=game_id,
        players=n,
        raw_steps_per_s=loops["raw"].rate,
        step_per_s=loops["step"].rate,
        last_step_per_s=loops["last"].rate,
        leduc_last_step_per_s=loops["leduc"].rate if "leduc" in loops else None,
        batch=batch,
        batched_per_s=loops["batched"].rate,
        pgx_leduc_per_s=loops["pgx"].rate if "pgx" in loops else None,
        per_cpu_s={name: loop.cpu_rate for name, loop in loops.items()},
    )

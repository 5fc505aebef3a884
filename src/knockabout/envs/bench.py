"""How fast the PettingZoo environment runs, beside the raw protocol and PettingZoo's
own Leduc Hold'em, measured in one process (``knockabout bench --envs``).

Three loops of random legal play, each dealing seeded games back to back, run in
interleaved slices (:data:`SLICES`) so that other work on the machine slows them alike:

* ``raw``: the protocol alone — ``legal_actions()``, a random pick, ``apply()``;
* ``step``: the AEC environment's ``step()``, the pick made from the environment's
  legal codes (``legal_action_codes()``) — what stepping costs on top of the rules;
* ``last+step``: the full PettingZoo loop an agent runs — ``last()`` (the observation
  encoded and the mask built), a random pick from the mask, ``step()``.

Leduc Hold'em (``pettingzoo.classic.leduc_holdem_v4``, which needs ``rlcard`` and
``pygame``) runs the ``last+step`` loop; None when it cannot be imported.
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


@dataclass(frozen=True)
class EnvBench:
    game: str
    players: int
    raw_steps_per_s: float
    step_per_s: float
    last_step_per_s: float
    leduc_last_step_per_s: float | None

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
        self.seed = 0

    def run(self, seconds: float) -> None:
        clock = time.perf_counter
        start = clock()
        end = start + seconds
        while clock() < end:
            self.steps += self.body(self.seed)
            self.seed += 1
        self.seconds += clock() - start

    @property
    def rate(self) -> float:
        return self.steps / self.seconds if self.seconds else 0.0


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


def bench_env(game_id: str, seconds: float = 2.0, players: int | None = None, leduc: bool = True) -> EnvBench:
    """Measure one game's loops (``seconds`` each, interleaved) and, in the same run, Leduc's."""
    g = get_game(game_id)
    n = g.facts.default_players if players is None else players
    loops = [
        _Loop(raw_game(game_id, n)),
        _Loop(step_game(env(game_id, players=n))),
        _Loop(last_step_game(env(game_id, players=n))),
    ]
    other = leduc_env() if leduc else None
    if other is not None:
        loops.append(_Loop(last_step_game(other)))
    for _ in range(SLICES):
        for loop in loops:
            loop.run(seconds / SLICES)
    return EnvBench(
        game=game_id,
        players=n,
        raw_steps_per_s=loops[0].rate,
        step_per_s=loops[1].rate,
        last_step_per_s=loops[2].rate,
        leduc_last_step_per_s=loops[3].rate if other is not None else None,
    )

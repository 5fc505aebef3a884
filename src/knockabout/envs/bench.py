"""How fast the PettingZoo environment runs, beside the raw protocol and PettingZoo's
own Leduc Hold'em, measured in one process (``knockabout bench --envs``).

Three loops of random legal play, each dealing seeded games back to back:

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


def raw_steps(game_id: str, players: int, seconds: float) -> float:
    g = get_game(game_id)
    rng = Rng(1)
    steps = games = 0
    clock = time.perf_counter
    start = clock()
    end = start + seconds
    while clock() < end:
        s = g.new_state({}, games, players=players)
        while s.to_act() is not None:
            legal = s.legal_actions()
            s.apply(legal[rng.below(len(legal))])
            steps += 1
        games += 1
    return steps / (clock() - start)


def step_loop(e: Any, seconds: float) -> float:
    """``step()`` with picks from ``legal_action_codes()``."""
    rng = Rng(1)
    steps = seed = 0
    clock = time.perf_counter
    start = clock()
    end = start + seconds
    while clock() < end:
        e.reset(seed=seed)
        seed += 1
        while True:
            agent = e.agent_selection
            if e.terminations[agent] or e.truncations[agent]:
                break
            codes = e.legal_action_codes()
            e.step(codes[rng.below(len(codes))])
            steps += 1
    return steps / (clock() - start)


def last_step_loop(e: Any, seconds: float) -> float:
    """The standard loop: ``last()``, a random pick from the observation's mask, ``step()``."""
    rng = Rng(1)
    steps = seed = 0
    clock = time.perf_counter
    start = clock()
    end = start + seconds
    while clock() < end:
        e.reset(seed=seed)
        seed += 1
        for _agent in e.agent_iter():
            obs, _r, term, trunc, _info = e.last()
            if term or trunc:
                e.step(None)
                continue
            codes = np.flatnonzero(obs["action_mask"])
            e.step(int(codes[rng.below(len(codes))]))
            steps += 1
    return steps / (clock() - start)


def leduc_env() -> Any | None:
    """PettingZoo's Leduc Hold'em, or None when its dependencies are missing."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        from pettingzoo.classic import leduc_holdem_v4
    except ImportError:
        return None
    return leduc_holdem_v4.env()


def bench_env(game_id: str, seconds: float = 2.0, players: int | None = None, leduc: bool = True) -> EnvBench:
    """Measure one game's loops (``seconds`` each) and, in the same run, Leduc's."""
    g = get_game(game_id)
    n = g.facts.default_players if players is None else players
    raw = raw_steps(game_id, n, seconds)
    step = step_loop(env(game_id, players=n), seconds)
    last = last_step_loop(env(game_id, players=n), seconds)
    other = leduc_env() if leduc else None
    return EnvBench(
        game=game_id,
        players=n,
        raw_steps_per_s=raw,
        step_per_s=step,
        last_step_per_s=last,
        leduc_last_step_per_s=None if other is None else last_step_loop(other, seconds),
    )

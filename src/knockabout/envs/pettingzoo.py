"""Any registered game as a PettingZoo AEC environment (``pip install knockabout[rl]``).

>>> from knockabout.envs.pettingzoo import env
>>> e = env("nak-muay", players=3)
>>> e.reset(seed=1)
>>> for agent in e.agent_iter():
...     obs, reward, termination, truncation, info = e.last()
...     action = None if termination or truncation else e.action_space(agent).sample(obs["action_mask"])
...     e.step(action)

* **Agents** are ``player_0`` … ``player_{n-1}``, one per seat. The agent selected is
  always the seat the game asks to decide — on its own turn, and equally for a reaction
  on another player's turn, a Countdown answer or a tower decision: every decision is an
  ordinary agent turn. A timed decision's timeout is one more legal action
  (``Decision.timeout_action``, e.g. Nak Muay's ``no-response``); the environment has no
  clock. ``infos[agent]`` carries the decision's ``kind`` and, when timed, its
  ``time_limit`` and ``timeout_action`` code.
* **Observations** are ``{"observation": float32[size], "action_mask": int8[actions]}``
  built from that seat's own view only (``Game.encoder()``; the layout is in
  docs/envs.md). The mask is all zeros for a seat that is not deciding.
* **Actions** are the game's action codes (``Discrete(len(game.actions))``); an action
  outside the mask raises :class:`~knockabout.core.errors.IllegalActionError` naming it
  and what is legal, and changes nothing.
* **Rewards** come from the outcome, given to every seat when the game ends:
  ``(n * payoff - 1) / (n - 1)`` (a sole winner 1, each loser ``-1/(n-1)``, an even draw 0).
  ``shaped_rewards=True`` adds potential-based shaping ``scale * (Φ(after) - Φ(before))``
  for every seat after every step, Φ being the game's ``encoder().potential(view)`` from
  that seat's view (off by default; its sum over a game is ``scale * (Φ(end) - Φ(start))``).
* Every seat terminates together when the game ends (a knocked-out Nak Muay seat simply
  stops being selected). ``max_steps`` truncates a game after that many decisions.
* ``reset(seed=s)`` deals the game seeded ``s``; ``reset()`` without a seed deals the next
  seed (``s + 1``, ...), so a seeded environment replays exactly.
* ``render_mode="ansi"``: :meth:`render` returns the game's terminal rendering of the
  board as a spectator sees it (see :mod:`knockabout.envs.render`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from knockabout.core.protocol import Decision, Game, State
from knockabout.envs.observation import MaskArray, SeatObserver, action_for, seat_rewards
from knockabout.envs.options import EnvOptions, Seeds, Table
from knockabout.envs.render import render_for

Obs = dict[str, np.ndarray[Any, Any]]


class KnockaboutAEC(AECEnv[str, Obs, int]):
    """One game of one knockabout game, seat by seat (see the module documentation)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's own declaration
        "render_modes": ["ansi"],
        "name": "knockabout",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str | Game[Any],
        *,
        players: int | None = None,
        config: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        shaped_rewards: bool = False,
        shaping_scale: float = 1.0,
        max_steps: int | None = None,
    ) -> None:
        super().__init__()
        self.table = Table.check(game, config, players)
        self.options = EnvOptions(render_mode, shaped_rewards, shaping_scale, max_steps).check(
            self.metadata["render_modes"]
        )
        self.game = self.table.game
        self.players = self.table.players
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"knockabout_{self.game.id}"}
        self.observer = SeatObserver(self.game)
        self.possible_agents = [f"player_{p}" for p in range(self.players)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        obs_space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0.0, 1.0, (self.observer.size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (self.observer.actions,), np.int8),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: gymnasium.spaces.Discrete(self.observer.actions) for a in self.possible_agents}
        self._seeds = Seeds()
        self.seed_used = 0
        self.state: State = self.table.deal(0)
        self._steps = 0
        self._potentials: list[float] = []
        self._by_code = tuple(self.game.actions)
        self._paid = False

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the AEC protocol --------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.seed_used = self._seeds.take(seed)
        self.state = self.table.deal(self.seed_used)
        self._steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._paid = False
        if self.options.shaped_rewards:
            self._potentials = [self.observer.potential(self.state, p) for p in range(self.players)]
        self._select()

    def observe(self, agent: str) -> Obs:
        seat = self._seat[agent]
        return {
            "observation": self.observer.vector(self.state, seat),
            "action_mask": self.observer.mask(self.state, seat),
        }

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for a seat that is done")
        state = self.state
        o = self.options
        state.apply(action_for(self.game, self._by_code, action))
        self._steps += 1
        self._cumulative_rewards[agent] = 0.0
        if self._paid:
            self._clear_rewards()
            self._paid = False
        d = state.to_act()
        if d is not None and not o.shaped_rewards and (o.max_steps is None or self._steps < o.max_steps):
            # the common case: nothing is paid, the next seat decides
            self.infos[agent] = {}
            self._select_seat(d)
            return
        if o.shaped_rewards:
            now = [self.observer.potential(state, p) for p in range(self.players)]
            for p, a in enumerate(self.agents):
                self.rewards[a] = o.shaping_scale * (now[p] - self._potentials[p])
            self._potentials = now
            self._paid = True
        outcome = state.outcome()
        if outcome is not None:
            for a, r in zip(self.agents, seat_rewards(outcome.payoffs), strict=True):
                self.rewards[a] += r
                self.terminations[a] = True
            self._paid = True
        elif o.max_steps is not None and self._steps >= o.max_steps:
            for a in self.agents:
                self.truncations[a] = True
        self._select()
        if self._paid:
            self._accumulate_rewards()

    def action_mask(self, agent: str) -> MaskArray:
        """``agent``'s legal actions as an int8 mask, without encoding its observation
        (the same mask ``observe(agent)["action_mask"]`` holds)."""
        return self.observer.mask(self.state, self._seat[agent])

    def legal_action_codes(self) -> list[int]:
        """The codes the selected agent may play now (empty once the game is over)."""
        return [a.code for a in self.state.legal_actions()]

    def _select_seat(self, d: Decision) -> None:
        agent = self.possible_agents[d.player]
        self.agent_selection = agent
        if d.time_limit is None:
            self.infos[agent] = {"kind": d.kind}
        else:
            self.infos[agent] = {
                "kind": d.kind,
                "time_limit": d.time_limit,
                "timeout_action": None if d.timeout_action is None else d.timeout_action.code,
            }

    def _select(self) -> None:
        for a in self.agents:
            self.infos[a] = {}
        d = self.state.to_act()
        if d is None or any(self.truncations.values()):
            # the game is over: every seat steps once more with None, in seat order
            self.agent_selection = self.agents[0]
            return
        self._select_seat(d)

    def render(self) -> str | None:
        return render_for(self.render_mode, self.game, self.state)

    def close(self) -> None:
        pass


def env(game: str | Game[Any], **options: Any) -> KnockaboutAEC:
    """A PettingZoo AEC environment for ``game`` (an id or a Game); options as
    :class:`KnockaboutAEC` takes them (``players``, ``config``, ``render_mode``,
    ``shaped_rewards``, ``shaping_scale``, ``max_steps``)."""
    return KnockaboutAEC(game, **options)


raw_env = env

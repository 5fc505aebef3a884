"""Any registered game as a single-agent Gymnasium environment (``pip install knockabout[rl]``).

Importing this module registers ``knockabout/<Name>-v0`` for every registered game with
an observation encoder, the name made from the game's id (``nak-muay`` -> ``NakMuay``)::

    import gymnasium as gym
    import knockabout.envs.gymnasium  # registers the ids
    # or, without the import: gym.make("knockabout.envs.gymnasium:knockabout/NakMuay-v0")
    env = gym.make("knockabout/NakMuay-v0", opponents="easy", players=3)

(Gymnasium 1.0 dropped its ``gymnasium.envs`` entry-point plug-ins, so no package can make
its ids known to ``gym.make`` without being imported; the ``module:id`` form above imports
it.)

One seat learns (``seat``: a seat number, or ``"rotate"`` for seat ``seed % players``);
every other seat is a knockabout bot of level ``opponents`` (``random``, ``easy``,
``medium``, ``hard``), played with its own seeded RNG so an episode replays exactly from
its seed. ``step`` applies the learner's action, then lets the bots decide until the
learner is asked again (for a reaction, a Countdown answer, a tower decision as much as
for a turn) or the game ends.

* observation: the learner's encoded view, float32 in [0, 1] (docs/envs.md has the layout);
* ``info["action_mask"]`` and :meth:`KnockaboutGym.action_masks` (what sb3-contrib's
  MaskablePPO reads): int8, 1 for each legal action code;
* reward: the learner's outcome reward ``(n * payoff - 1) / (n - 1)`` when the game ends,
  plus optional potential-based shaping (``shaped_rewards``, as in the PettingZoo env);
* an illegal action ends the episode as a loss (reward -1, ``info["illegal_action"]``):
  Gymnasium's contract is that ``step`` takes any action of ``action_space``, and its
  own checker (``check_env``) samples actions without the mask. ``illegal_action="raise"``
  instead raises :class:`~knockabout.core.errors.IllegalActionError` and changes nothing
  (for finding a bug in an agent that should only pick masked actions);
* ``max_steps`` truncates after that many learner decisions;
* a deal that ends before the learner is asked anything (its seat knocked out on the
  bots' turns) cannot be an episode: ``reset`` deals the next seed instead
  (``info["seed"]`` says which deal is being played).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import gymnasium
import numpy as np

from knockabout.bots.levels import check_level, make_bot
from knockabout.core.bot import Bot, SeatView
from knockabout.core.errors import ConfigError
from knockabout.core.protocol import Game, State
from knockabout.core.registry import all_games
from knockabout.core.rng import Rng, mix_seed
from knockabout.envs.observation import FloatArray, MaskArray, SeatObserver, action_for, seat_rewards
from knockabout.envs.options import EnvOptions, Seeds, Table
from knockabout.envs.render import render_for


def env_name(game_id: str) -> str:
    """The Gymnasium id of a game: ``knockabout/`` + its id in CamelCase + ``-v0``."""
    return "knockabout/" + "".join(part.capitalize() for part in game_id.replace("_", "-").split("-")) + "-v0"


class KnockaboutGym(gymnasium.Env[FloatArray, np.int64]):
    """One learning seat against knockabout bots (see the module documentation)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 - Gymnasium's own declaration

    def __init__(
        self,
        game: str | Game[Any],
        *,
        opponents: str = "random",
        seat: int | Literal["rotate"] = 0,
        players: int | None = None,
        config: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        shaped_rewards: bool = False,
        shaping_scale: float = 1.0,
        illegal_action: Literal["raise", "lose"] = "lose",
        max_steps: int | None = None,
    ) -> None:
        self.table = Table.check(game, config, players)
        self.options = EnvOptions(render_mode, shaped_rewards, shaping_scale, max_steps).check(
            self.metadata["render_modes"]
        )
        self.game = self.table.game
        self.players = self.table.players
        self.opponents = check_level(opponents, self.game.id)
        if illegal_action not in ("raise", "lose"):
            raise ConfigError(f"illegal_action must be 'raise' or 'lose', not {illegal_action!r}")
        if seat != "rotate" and not (isinstance(seat, int) and 0 <= seat < self.players):
            raise ConfigError(f"seat must be 'rotate' or a seat number 0..{self.players - 1} (got {seat!r})")
        self.seat_option = seat
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.observer = SeatObserver(self.game)
        self.observation_space = gymnasium.spaces.Box(0.0, 1.0, (self.observer.size,), np.float32)
        self.action_space = gymnasium.spaces.Discrete(self.observer.actions)
        self._seeds = Seeds()
        self.seed_used = 0
        self.seat = 0
        self.state: State = self.table.deal(0)
        self._bots: list[Bot | None] = []
        self._rngs: list[Rng] = []
        self._steps = 0
        self._potential = 0.5
        self._by_code = tuple(self.game.actions)

    # -- gymnasium ---------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[FloatArray, dict[str, Any]]:
        super().reset(seed=seed)
        for _ in range(1000):
            self._deal(self._seeds.take(seed))
            seed = None
            if not self.state.is_over:
                break
        else:
            raise ConfigError(f"{self.game.id}: 1000 deals in a row ended before seat {self.seat} was asked anything")
        if self.options.shaped_rewards:
            self._potential = self.observer.potential(self.state, self.seat)
        return self._obs(), self._info()

    def _deal(self, seed: int) -> None:
        """Deal ``seed`` and let the bots play up to the learner's first decision."""
        self.seed_used = seed
        self.seat = seed % self.players if self.seat_option == "rotate" else int(self.seat_option)
        self.state = self.table.deal(seed)
        self._bots = [None if p == self.seat else make_bot(self.opponents, self.game.id) for p in range(self.players)]
        self._rngs = [Rng(mix_seed(seed, p + 1)) for p in range(self.players)]
        self._steps = 0
        self._play_bots()

    def step(self, action: int | np.integer[Any]) -> tuple[FloatArray, float, bool, bool, dict[str, Any]]:
        if self.state.is_over:
            raise ConfigError("the episode is over: call reset() before step()")
        chosen = action_for(self.game, self._by_code, action)
        if self.illegal_action == "lose" and chosen not in self.state.legal_actions():
            info = self._info()
            info["illegal_action"] = chosen.text
            return self._obs(), -1.0, True, False, info
        self.state.apply(chosen)
        self._steps += 1
        self._play_bots()
        reward = 0.0
        if self.options.shaped_rewards:
            now = self.observer.potential(self.state, self.seat)
            reward += self.options.shaping_scale * (now - self._potential)
            self._potential = now
        outcome = self.state.outcome()
        terminated = outcome is not None
        if outcome is not None:
            reward += seat_rewards(outcome.payoffs)[self.seat]
        truncated = not terminated and self.options.max_steps is not None and self._steps >= self.options.max_steps
        return self._obs(), reward, terminated, truncated, self._info()

    def action_masks(self) -> MaskArray:
        """The learner's legal actions as an int8 mask (all zeros once the game is over)."""
        return self.observer.mask(self.state, self.seat)

    def render(self) -> str | None:
        return render_for(self.render_mode, self.game, self.state, self.seat)

    # -- inside --------------------------------------------------------------------
    def _play_bots(self) -> None:
        state = self.state
        while (d := state.to_act()) is not None and d.player != self.seat:
            bot = self._bots[d.player]
            assert bot is not None
            state.apply(bot.choose(SeatView(state, d.player), state.legal_actions(), self._rngs[d.player]))

    def _obs(self) -> FloatArray:
        return self.observer.vector(self.state, self.seat)

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.action_masks(), "seat": self.seat, "seed": self.seed_used}
        d = self.state.to_act()
        if d is not None:
            info["kind"] = d.kind
        outcome = self.state.outcome()
        if outcome is not None:
            info["payoffs"] = list(outcome.payoffs)
        return info


def register_envs() -> list[str]:
    """Register ``knockabout/<Name>-v0`` for every registered game with an encoder; the ids."""
    ids = []
    for game in all_games():
        if game.encoder() is None:
            continue
        name = env_name(game.id)
        if name not in gymnasium.registry:
            # (the spec says the default: every game's plain gym.make passes check_env)
            gymnasium.register(id=name, entry_point=f"{__name__}:KnockaboutGym",
                               kwargs={"game": game.id, "illegal_action": "lose"})
        ids.append(name)
    return ids


ENV_IDS = register_envs()

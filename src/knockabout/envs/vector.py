"""Many games of one game stepped in one call, into preallocated numpy buffers.

>>> from knockabout.envs.vector import VectorEnv
>>> env = VectorEnv("nak-muay", batch=256, seed=0)   # the game's options as keywords
>>> obs, mask, seat = env.reset()                    # (B, size) float32, (B, actions) bool, (B,) int64
>>> obs, mask, reward, done, seat = env.step(actions)  # actions: (B,) codes, legal by the mask

* Each row is the game the seat to act sees: ``obs[i]`` is exactly
  ``encoder.encode(state.observe(seat[i]))`` of game ``i`` (the game's observation encoder,
  the same vector as the PettingZoo, Gymnasium and OpenSpiel environments give), written
  straight from the state by the game's :class:`~knockabout.core.state_encoding.StateEncoder`
  when it declares one (all three games do), else through the view.
* ``mask[i]`` is True for each legal action code of game ``i``'s pending decision.
* ``reward[i]`` is for the seat that acted in game ``i``: 0 until the game ends, then its
  outcome reward ``(n * payoff - 1) / (n - 1)``. A game that ends sets ``done[i]`` and is
  dealt again in place: the row, mask and seat are already the new deal's.
  :attr:`VectorEnv.final_rewards` holds every seat's reward of each game that just ended,
  and :attr:`VectorEnv.final_obs` the acting seat's last observation of it.
* Seeds are per game: game ``i``'s ``k``-th deal is seeded ``seed + i + k * batch``
  (:attr:`VectorEnv.seeds`), so a game can be replayed on its own
  (``knockabout.core.Match(game, config, seed)``).
* The buffers are the environment's own and are overwritten by the next call: copy what
  must outlive it.
* A batch with an action that is not legal in its game raises
  :class:`~knockabout.core.errors.IllegalActionError` naming the game, the action and what
  is legal; a value that is not an action code :class:`~knockabout.core.errors.ActionParseError`;
  either way no game moves.

:class:`GymVectorEnv` offers the same as a Gymnasium vector environment (same-step
autoreset). Method and speed: docs/envs.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from knockabout.core.batch import BatchStepper
from knockabout.core.errors import ActionParseError, ConfigError
from knockabout.core.plugins import ObservationEncoder
from knockabout.core.protocol import Game, State
from knockabout.core.state_encoding import Scatter, StateEncoder
from knockabout.envs.observation import encoder_of
from knockabout.envs.options import Table

FloatArray = npt.NDArray[np.float32]
BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]


class ViewStateEncoder(StateEncoder):
    """The fallback for a game that declares no state encoder: it builds the seat's view and
    encodes it with the game's observation encoder (slower; the same numbers)."""

    def __init__(self, encoder: ObservationEncoder) -> None:
        self.view_encoder = encoder
        self.size = encoder.size

    def encode(self, state: State, seat: int, out: Scatter) -> None:
        for i, x in enumerate(self.view_encoder.encode(state.observe(seat))):
            if x:
                out.value(i, x)


def state_encoder_of(game: Game[Any]) -> StateEncoder:
    """The game's state encoder, or the view-building fallback (a :class:`KnockaboutError`
    when the game declares no observation encoder at all)."""
    fast = game.state_encoder()
    return fast if fast is not None else ViewStateEncoder(encoder_of(game))


def scatter_into(rows: npt.NDArray[np.float32], out: Scatter) -> None:
    """Write what ``out`` holds into ``rows`` (a 2-d float32 buffer, zeros where nothing is
    written)."""
    flat = rows.reshape(-1)
    index = np.frombuffer(out.rows.getvalue(), "<i4").reshape(-1, 2)
    starts = np.repeat(index[:, 0].astype(np.int64) * rows.shape[1], index[:, 1])
    flat[starts + np.frombuffer(out.positions.getvalue(), "<i4")] = np.frombuffer(out.values.getvalue(), "<f4")


def encode_row(encoder: StateEncoder, state: State, seat: int) -> FloatArray:
    """One seat's observation through a state encoder, as a fresh float32 vector."""
    out = Scatter()
    out.begin(0)
    encoder.encode(state, seat, out)
    out.end()
    rows: FloatArray = np.zeros((1, encoder.size), dtype=np.float32)
    scatter_into(rows, out)
    row: FloatArray = rows[0]
    return row


class VectorEnv:
    """``batch`` games of one game, stepped together (see the module documentation)."""

    def __init__(
        self,
        game: str | Game[Any],
        batch: int = 256,
        seed: int = 0,
        *,
        players: int | None = None,
        config: Mapping[str, Any] | None = None,
        **options: Any,
    ) -> None:
        if isinstance(batch, bool) or not isinstance(batch, int) or batch < 1:
            raise ConfigError(f"batch must be a whole number of games, at least 1 (got {batch!r})")
        self.table = Table.check(game, {**(config or {}), **options}, players)
        self.game = self.table.game
        self.players = self.table.players
        self.batch = batch
        self.seed = int(seed)
        self.encoder = state_encoder_of(self.game)
        self.size = self.encoder.size
        self.actions = len(self.game.actions)
        self._stepper = BatchStepper(
            self.game, self.game.make_config(self.table.config), self.players, batch, self.encoder
        )
        self.obs: FloatArray = np.zeros((batch, self.size), dtype=np.float32)
        self.mask: BoolArray = np.zeros((batch, self.actions), dtype=np.bool_)
        self.reward: FloatArray = np.zeros(batch, dtype=np.float32)
        self.done: BoolArray = np.zeros(batch, dtype=np.bool_)
        self.seat: IntArray = np.zeros(batch, dtype=np.int64)
        self.final_rewards: FloatArray = np.zeros((batch, self.players), dtype=np.float32)
        self.final_obs: FloatArray = np.zeros((batch, self.size), dtype=np.float32)
        self._mask_flat = self.mask.reshape(-1)
        self._dealt = False

    @property
    def seeds(self) -> IntArray:
        """Each game's current deal (its seed)."""
        return np.array(self._stepper.seeds, dtype=np.int64)

    @property
    def games_finished(self) -> int:
        """Games that have ended since the last :meth:`reset`."""
        return self._stepper.finished

    def states(self) -> list[State]:
        """The games themselves (for inspection; changing one breaks the environment)."""
        return list(self._stepper.states)

    def reset(self, seed: int | None = None) -> tuple[FloatArray, BoolArray, IntArray]:
        """Deal every game (from ``seed``, else the environment's): ``(obs, mask, seat)``."""
        if seed is not None:
            self.seed = int(seed)
        self._stepper.reset(self.seed)
        self._dealt = True
        self.reward.fill(0.0)
        self.done.fill(False)
        self._fill()
        return self.obs, self.mask, self.seat

    def step(self, actions: Any) -> tuple[FloatArray, BoolArray, FloatArray, BoolArray, IntArray]:
        """One action code per game: ``(obs, mask, reward, done, seat)``."""
        if not self._dealt:
            raise ConfigError("call reset() before step()")
        codes = np.asarray(actions)
        if codes.shape != (self.batch,) or not np.issubdtype(codes.dtype, np.integer):
            raise ActionParseError(
                f"{self.game.id}: actions must be {self.batch} integer action codes, one per game"
                f" (got shape {codes.shape}, dtype {codes.dtype})"
            )
        st = self._stepper
        st.step(codes.tolist())
        self.reward[:] = st.reward
        self.done[:] = st.done
        if st.ended:
            ended = np.array(st.ended, dtype=np.int64)
            self.final_rewards[ended] = [st.final[i] for i in st.ended]
            self.final_obs[ended] = 0.0
            scatter_into(self.final_obs, st.final_scatter)
        self._fill()
        return self.obs, self.mask, self.reward, self.done, self.seat

    def _fill(self) -> None:
        st = self._stepper
        self.obs.fill(0.0)
        scatter_into(self.obs, st.scatter)
        self.mask.fill(False)
        self._mask_flat[np.frombuffer(st.legal.getvalue(), "<i4")] = True
        self.seat[:] = st.seat


class GymVectorEnv(gymnasium.vector.VectorEnv[FloatArray, IntArray, Any]):
    """:class:`VectorEnv` as a Gymnasium vector environment (``num_envs`` games).

    Every sub-environment is one game, seen by whichever seat acts: the observation is that
    seat's, the action its move, the reward its own (self-play; ``infos["seat"]`` says which
    seat it is). Resets are Gymnasium's same-step autoreset: a game that ends returns
    ``terminated`` and its reward together with the next deal's first observation, and
    ``infos["final_obs"]`` (with the mask ``infos["_final_obs"]``) holds the acting seat's
    last observation of the game that ended, ``infos["final_rewards"]`` every seat's reward.
    ``infos["action_mask"]`` (and :meth:`action_masks`) is the legal-action mask of the
    observation returned. There is no truncation (each game's rules end it).
    ``reset(seed=s)`` deals game ``i`` with seed ``s + i``, as Gymnasium seeds its vector
    environments. Arrays are copies unless ``copy=False`` (then they are the environment's
    own buffers, overwritten by the next call).
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 - Gymnasium's declaration

    def __init__(
        self,
        game: str | Game[Any],
        num_envs: int = 256,
        seed: int = 0,
        *,
        players: int | None = None,
        config: Mapping[str, Any] | None = None,
        copy: bool = True,
        **options: Any,
    ) -> None:
        self.env = VectorEnv(game, batch=num_envs, seed=seed, players=players, config=config, **options)
        self.num_envs = num_envs
        self.copy = copy
        self.single_observation_space = gymnasium.spaces.Box(0.0, 1.0, (self.env.size,), np.float32)
        self.single_action_space = gymnasium.spaces.Discrete(self.env.actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._truncated: BoolArray = np.zeros(num_envs, dtype=np.bool_)

    def _out(self, a: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return a.copy() if self.copy else a

    def action_masks(self) -> BoolArray:
        """The legal-action mask of the last observation returned."""
        return self._out(self.env.mask)

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[FloatArray, dict[str, Any]]:
        if isinstance(seed, list):
            if seed and seed[0] is not None and any(s != seed[0] + i for i, s in enumerate(seed)):
                raise ConfigError("the games are seeded s, s + 1, ...: give one seed (the first game's)")
            seed = seed[0] if seed else None
        obs, mask, seat = self.env.reset(seed)
        return self._out(obs), {"action_mask": self._out(mask), "seat": self._out(seat)}

    def step(
        self, actions: IntArray
    ) -> tuple[FloatArray, FloatArray, BoolArray, BoolArray, dict[str, Any]]:
        e = self.env
        obs, mask, reward, done, seat = e.step(actions)
        infos: dict[str, Any] = {"action_mask": self._out(mask), "seat": self._out(seat)}
        if done.any():
            infos["final_obs"] = e.final_obs.copy()
            infos["_final_obs"] = done.copy()
            infos["final_rewards"] = e.final_rewards.copy()
            infos["_final_rewards"] = done.copy()
        return self._out(obs), self._out(reward), self._out(done), self._truncated.copy(), infos

"""The ``learned`` bot level: a network trained by self-play, run with numpy alone.

A game that ships a trained network names its file in ``Game.learned_policy`` (a file in
the game's own package, found with :mod:`importlib.resources` wherever it is installed).
The file is a numpy ``.npz`` archive (``np.load(..., allow_pickle=False)``) holding:

* ``hidden.0.weight``, ``hidden.0.bias``, ``hidden.1.weight``, ... — the hidden layers,
  each ``(out, in)`` float32 weights and ``(out,)`` biases, each followed by tanh;
* ``policy.weight``, ``policy.bias`` — one logit per action code of the game;
* ``value.weight``, ``value.bias`` — the value of the position for the seat to act;
* ``meta`` — a JSON text: the game id, its rules version, the observation size and the
  number of actions it was trained for, and how (method, agent steps, players, options).

``examples/selfplay_ppo.py --export`` writes it from a training checkpoint; nothing here
needs PyTorch. The network's only input is the seat's own observation: the game's
observation encoder (the vector the research environments give) applied to
:meth:`SeatView.observation`, the seat's typed view, so nothing hidden can reach it. The bot
plays the legal action with the highest logit (an exact tie is broken with the bot's
seeded :class:`~knockabout.core.rng.Rng`), so a seeded game replays the same way.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from knockabout.core.actions import Action
from knockabout.core.bot import Bot, SeatView
from knockabout.core.errors import KnockaboutError
from knockabout.core.plugins import ObservationEncoder
from knockabout.core.protocol import Game
from knockabout.core.registry import get_game
from knockabout.core.rng import Rng

FloatArray = npt.NDArray[np.float32]


class PolicyNetwork:
    """A tanh MLP with a policy head and a value head, from a ``.npz`` file (module doc)."""

    def __init__(self, hidden: Sequence[tuple[FloatArray, FloatArray]], policy: tuple[FloatArray, FloatArray],
                 value: tuple[FloatArray, FloatArray], meta: dict[str, Any]) -> None:
        self.hidden = list(hidden)
        self.policy = policy
        self.value_head = value
        self.meta = meta
        self.size = int((hidden[0][0] if hidden else policy[0]).shape[1])
        self.actions = int(policy[0].shape[0])

    @classmethod
    def load(cls, path: Path) -> PolicyNetwork:
        """Read a network file; anything that is not one is a :class:`KnockaboutError` naming
        the file and what is wrong."""
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {k: np.asarray(data[k]) for k in data.files}
        except (OSError, ValueError) as exc:
            raise KnockaboutError(f"{path}: not a learned network file ({exc})") from None
        try:
            meta = json.loads(str(arrays.pop("meta")))
            hidden: list[tuple[FloatArray, FloatArray]] = []
            while f"hidden.{len(hidden)}.weight" in arrays:
                i = len(hidden)
                hidden.append((arrays.pop(f"hidden.{i}.weight").astype(np.float32),
                               arrays.pop(f"hidden.{i}.bias").astype(np.float32)))
            policy = (arrays.pop("policy.weight").astype(np.float32), arrays.pop("policy.bias").astype(np.float32))
            value = (arrays.pop("value.weight").astype(np.float32), arrays.pop("value.bias").astype(np.float32))
        except KeyError as exc:
            raise KnockaboutError(f"{path}: a learned network file without {exc.args[0]!r}") from None
        if any(w.ndim != 2 for w, _ in [*hidden, policy, value]):
            raise KnockaboutError(f"{path}: a layer's weights are not a matrix")
        net = cls(hidden, policy, value, meta)
        widths = [net.size] + [w.shape[0] for w, _ in hidden]
        inputs = widths[:-1] + [widths[-1]] * 2  # each hidden layer's, then both heads'
        for (w, b), width in zip([*hidden, policy, value], inputs, strict=True):
            if w.ndim != 2 or w.shape[1] != width or b.shape != (w.shape[0],):
                raise KnockaboutError(f"{path}: the layers' shapes do not chain ({w.shape} after width {width})")
        if value[0].shape[0] != 1:
            raise KnockaboutError(f"{path}: the value head gives {value[0].shape[0]} numbers, not 1")
        return net

    def _body(self, obs: FloatArray) -> FloatArray:
        h = obs
        for w, b in self.hidden:
            h = np.tanh(h @ w.T + b)
        return h

    def logits(self, obs: FloatArray) -> FloatArray:
        """One logit per action code for an observation (or a batch of them, one per row)."""
        w, b = self.policy
        out: FloatArray = self._body(obs) @ w.T + b
        return out

    def value(self, obs: FloatArray) -> FloatArray:
        """The value the network gives the position for the seat to act, in [-1, 1] or near."""
        w, b = self.value_head
        out: FloatArray = (self._body(obs) @ w.T + b)[..., 0]
        return out


def policy_file(game: Game[Any]) -> Path | None:
    """Where the game's shipped network is (in its own package), or None when it ships none."""
    # (read with a default: a compiled build whose protocol module predates the attribute
    # would otherwise fail on every game that does not set it)
    name: str | None = getattr(game, "learned_policy", None)
    if name is None:
        return None
    path = game.folder / name
    return path if path.is_file() else None


def has_learned_policy(game_id: str) -> bool:
    """Whether the game ships a trained network (and so offers the ``learned`` level)."""
    return policy_file(get_game(game_id)) is not None


@cache
def _network(game_id: str) -> tuple[PolicyNetwork, ObservationEncoder]:
    game = get_game(game_id)
    path = policy_file(game)
    if path is None:
        raise KnockaboutError(
            f"the learned level is not available for {game.name}: no trained network ships with it yet"
        )
    encoder = game.encoder()
    if encoder is None:
        raise KnockaboutError(f"{game.id}: a learned network ships but the game declares no observation encoder")
    net = PolicyNetwork.load(path)
    if net.size != encoder.size or net.actions != len(game.actions):
        raise KnockaboutError(
            f"{path}: the network reads {net.size} numbers and scores {net.actions} actions, but {game.id} "
            f"encodes {encoder.size} and has {len(game.actions)} (retrain it for this rules version)"
        )
    return net, encoder


class LearnedBot(Bot):
    """Plays the legal action the game's shipped network scores highest."""

    name = "learned"

    def __init__(self, game_id: str) -> None:
        self.network, self.encoder = _network(game_id)

    def observe(self, view: SeatView) -> FloatArray:
        """The network's input: the seat's own observation (its typed view, encoded)."""
        return np.frombuffer(self.encoder.encode(view.observation()), dtype=np.float32)

    def choose(self, view: SeatView, legal: Sequence[Action], rng: Rng) -> Action:
        if len(legal) == 1:
            return legal[0]
        logits = self.network.logits(self.observe(view))
        scores = logits[[a.code for a in legal]]
        best = np.flatnonzero(scores == scores.max())
        return legal[int(best[0] if len(best) == 1 else best[rng.below(len(best))])]

    def describe(self) -> str:
        m = self.network.meta
        trained = m.get("trained", {})
        steps = trained.get("steps")
        how = f", {steps:,} agent steps of self-play" if isinstance(steps, int) else ""
        return f"learned: a network trained by {trained.get('method', 'self-play')}{how}"

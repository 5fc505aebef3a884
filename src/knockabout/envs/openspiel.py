"""Every registered game as an OpenSpiel Python game (``pip install knockabout[openspiel]``).

Importing this module registers ``knockabout_<id>`` (dashes become underscores, e.g.
``knockabout_nak_muay``) for every registered game with an observation encoder::

    import pyspiel
    import knockabout.envs.openspiel  # registers the games
    game = pyspiel.load_game("knockabout_nak_muay", {"players": 3, "seed": 7})

Declarations (:func:`game_type`): sequential dynamics; ``SAMPLED_STOCHASTIC`` chance —
shuffles and dice are drawn inside the rules from the state's own seeded RNG, so there
are no chance nodes, and the n-th :meth:`new_initial_state` of a game object deals seed
``seed + n`` (:meth:`KnockaboutSpielGame.state_for_seed` deals a given one); imperfect
information when the game's facts say some seat may not see everything; zero-sum
terminal utilities ``(n * payoff - 1) / (n - 1)`` (a sole winner 1, each loser
``-1/(n-1)``, an even draw 0).

Information states and observations are the seat's typed view: the tensor is the game's
encoder output (the same vector as the PettingZoo and Gymnasium observations), the string
the view itself. A view holds everything the seat knows that matters to the rules; it is
not a perfect-recall history (two histories that leave a seat knowing the same things
give the same information state), which is what ISMCTS keys its nodes on anyway.
:meth:`KnockaboutSpielState.resample_from_infostate` deals a full state consistent with
the seat's view (the game's ``determinize``), seeded from the probability sampler.
Options: ``players``, ``seed`` and ``config`` (the game's options as JSON text).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from knockabout.core.errors import ConfigError
from knockabout.core.protocol import Game, State
from knockabout.core.registry import all_games, get_game
from knockabout.core.rng import Rng, mix_seed
from knockabout.envs.observation import SeatObserver, action_for, seat_rewards
from knockabout.envs.options import Table

MAX_GAME_LENGTH = 100_000
"""An upper bound on decisions per game that OpenSpiel asks for (each game's own turn
limits end it far earlier)."""


def short_name(game_id: str) -> str:
    """The OpenSpiel name of a game: ``knockabout_`` + its id with ``_`` for ``-``."""
    return "knockabout_" + game_id.replace("-", "_")


def game_type(game: Game[Any]) -> pyspiel.GameType:
    """The OpenSpiel declaration of a knockabout game, from its facts."""
    facts = game.facts
    return pyspiel.GameType(
        short_name=short_name(game.id),
        long_name=f"knockabout {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.DETERMINISTIC if facts.chance == "none"
                     else pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC),
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if facts.hidden_information
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=facts.max_players,
        min_num_players=facts.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": facts.default_players, "seed": 0, "config": "{}"},
    )


def view_string(view: object) -> str:
    """A view as text (its dataclass repr, or its JSON): equal exactly when the views are."""
    if dataclasses.is_dataclass(view):
        return repr(view)
    to_json = getattr(view, "to_json")  # noqa: B009 - every View has it
    return json.dumps(to_json(), sort_keys=True, separators=(",", ":"))


class KnockaboutSpielGame(pyspiel.Game):
    """One knockabout game as an OpenSpiel game."""

    def __init__(self, game: Game[Any], params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.knockabout = game
        try:
            config = json.loads(str(params.get("config", "{}")))
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{short_name(game.id)}: config must be JSON text ({exc})") from None
        if not isinstance(config, dict):
            raise ConfigError(f"{short_name(game.id)}: config must be a JSON object, not {config!r}")
        self.table = Table.check(game, config, int(params.get("players", game.facts.default_players)))
        self.config = self.table.config
        self.players = self.table.players
        self.seed = int(params.get("seed", 0))
        self._dealt = 0
        self.observer = SeatObserver(game)
        self.by_code = tuple(game.actions)
        n = self.players
        info = pyspiel.GameInfo(
            num_distinct_actions=len(game.actions),
            max_chance_outcomes=0,
            num_players=n,
            min_utility=-1.0 / (n - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(
            game_type(game), info, {"players": n, "seed": self.seed, "config": json.dumps(self.config)}
        )

    def new_initial_state(self) -> KnockaboutSpielState:
        """The next deal: seed ``seed``, then ``seed + 1``, ..."""
        state = self.state_for_seed(self.seed + self._dealt)
        self._dealt += 1
        return state

    def state_for_seed(self, seed: int) -> KnockaboutSpielState:
        """The game dealt with exactly this seed (for paired-seed comparisons)."""
        return KnockaboutSpielState(self, self.table.deal(seed))

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Mapping[str, Any] | None = None
    ) -> ViewObserver:
        if params:
            raise ConfigError(f"{short_name(self.knockabout.id)}: observer parameters are not supported ({params})")
        return ViewObserver(self.observer)


class KnockaboutSpielState(pyspiel.State):
    """One position; wraps a knockabout :class:`~knockabout.core.protocol.State`."""

    def __init__(self, game: KnockaboutSpielGame, state: State) -> None:
        super().__init__(game)
        self._held = _Held(game, state)

    @property
    def inner(self) -> State:
        """The knockabout state."""
        return self._held.state

    # -- the OpenSpiel protocol ------------------------------------------------------
    def current_player(self) -> int:
        d = self.inner.to_act()
        return int(pyspiel.PlayerId.TERMINAL) if d is None else d.player

    def _legal_actions(self, player: int) -> list[int]:
        d = self.inner.to_act()
        if d is None or d.player != player:
            return []
        return sorted(a.code for a in self.inner.legal_actions())

    def _apply_action(self, action: int) -> None:
        g = self._held.game
        self.inner.apply(action_for(g.knockabout, g.by_code, action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.inner.game.actions[int(action)].text

    def is_terminal(self) -> bool:
        return self.inner.is_over

    def returns(self) -> list[float]:
        outcome = self.inner.outcome()
        if outcome is None:
            return [0.0] * self.inner.num_players
        return seat_rewards(outcome.payoffs)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> KnockaboutSpielState:
        """A full state consistent with everything ``player_id`` knows, its hidden cards
        dealt from a seed drawn with ``probability_sampler``."""
        seed = int(float(probability_sampler()) * 2**62) if callable(probability_sampler) else 0
        rng = Rng(mix_seed(seed, len(self.history())))
        sampled: KnockaboutSpielState = self.clone()  # keeps OpenSpiel's history
        sampled._held = _Held(self._held.game, self.inner.determinize(player_id, rng))
        return sampled

    def information_state_string(self, player: int | None = None) -> str:
        return view_string(self.inner.observe(self._player(player)))

    def observation_string(self, player: int | None = None) -> str:
        return self.information_state_string(player)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        return list(self._held.game.observer.vector(self.inner, self._player(player)))

    def observation_tensor(self, player: int | None = None) -> list[float]:
        return self.information_state_tensor(player)

    def _player(self, player: int | None) -> int:
        if player is None:
            player = self.current_player()
        if not 0 <= player < self.inner.num_players:
            raise ConfigError(f"no seat {player} at this table of {self.inner.num_players}")
        return player

    def __str__(self) -> str:
        d = self.inner.to_act()
        return f"{self.inner.game.id} after {len(self.history())} actions: " + (
            "over" if d is None else f"seat {d.player} decides {d.kind}"
        )


class _Held:
    """What an OpenSpiel state holds on the Python side. OpenSpiel clones a Python state
    by deep-copying its attributes (keeping the history on its own side); this makes
    that copy the knockabout state's own fast ``clone()`` and shares the game."""

    __slots__ = ("game", "state")

    def __init__(self, game: KnockaboutSpielGame, state: State) -> None:
        self.game = game
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.game, self.state.clone())


class ViewObserver:
    """OpenSpiel's PyObserver over the game's encoder: the tensor is the encoded view."""

    def __init__(self, observer: SeatObserver) -> None:
        self._observer = observer
        self.tensor = np.zeros(observer.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: KnockaboutSpielState, player: int) -> None:
        self.tensor[:] = self._observer.vector(state.inner, player)

    def string_from(self, state: KnockaboutSpielState, player: int) -> str:
        return view_string(state.inner.observe(player))


def _init_for(game_id: str) -> Any:
    def __init__(self: KnockaboutSpielGame, params: Mapping[str, Any] | None = None) -> None:
        KnockaboutSpielGame.__init__(self, get_game(game_id), params)

    return __init__


def register_games() -> list[str]:
    """Register ``knockabout_<id>`` for every registered game with an encoder; the names."""
    names = []
    registered = set(pyspiel.registered_names())
    for game in all_games():
        if game.encoder() is None:
            continue
        name = short_name(game.id)
        if name not in registered:
            # a class per game, as OpenSpiel's own Python games register
            cls = type(
                "".join(p.capitalize() for p in game.id.split("-")) + "SpielGame",
                (KnockaboutSpielGame,),
                {"__init__": _init_for(game.id), "__module__": __name__},
            )
            pyspiel.register_game(game_type(game), cls)
        names.append(name)
    return names


GAME_NAMES = register_games()

"""The OpenSpiel registration: OpenSpiel's random-simulation check, its ISMCTS and MCTS
playing whole games of every game, and information states that a resampled state keeps."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts
from open_spiel.python.bots import uniform_random

from knockabout.core.registry import get_game
from knockabout.envs.openspiel import GAME_NAMES, game_type, short_name
from tests.envs.positions import GAMES

# short games keep OpenSpiel's checks (which clone and re-check every step) fast
SHORT = {"knockback": {"max_turns": 24}, "knockdown": {"max_turns": 12}}


def _load(game_id: str, config_extra: dict[str, object] | None = None, **params: object) -> pyspiel.Game:
    config = json.dumps({**SHORT.get(game_id, {}), **(config_extra or {})})
    return pyspiel.load_game(short_name(game_id), {"config": config, **params})


def test_each_game_is_registered() -> None:
    assert set(GAME_NAMES) == {short_name(g) for g in GAMES}
    assert "knockabout_nak_muay" in pyspiel.registered_names()


@pytest.mark.parametrize("game_id", ["nak-muay", "knockdown", "knockback"])
def test_the_game_type_follows_the_facts(game_id: str) -> None:
    game = _load(game_id)
    t = game.get_type()
    facts = get_game(game_id).facts
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    hidden = t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert hidden == facts.hidden_information
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (t.min_num_players, t.max_num_players) == (facts.min_players, facts.max_players)
    assert game.num_distinct_actions() == len(get_game(game_id).actions)
    assert game.information_state_tensor_size() == get_game(game_id).encoder().size  # type: ignore[union-attr]


@pytest.mark.parametrize(("game_id", "players"), [("nak-muay", 2), ("nak-muay", 5), ("knockdown", 2), ("knockback", 2)])
def test_openspiel_random_simulation(game_id: str, players: int) -> None:
    pyspiel.random_sim_test(_load(game_id, players=players), num_sims=2, serialize=False, verbose=False)


def test_deals_follow_the_seed_and_differ() -> None:
    game = _load("nak-muay", seed=5)
    first, second = game.new_initial_state(), game.new_initial_state()
    assert first.information_state_string(0) != second.information_state_string(0)
    again = _load("nak-muay", seed=5).new_initial_state()
    assert again.information_state_string(0) == first.information_state_string(0)
    assert game.state_for_seed(5).information_state_string(0) == first.information_state_string(0)


# KNOCKBACK hides something only while a draft deals the line-ups
HIDING = {"knockback": {"lineup": "draft4"}}


@pytest.mark.parametrize("game_id", ["nak-muay", "knockdown", "knockback"])
def test_resampling_keeps_the_information_state(game_id: str) -> None:
    game = _load(game_id, HIDING.get(game_id), seed=2)
    state = game.new_initial_state()
    rs = np.random.RandomState(0)
    differs = 0
    hands_differ = 0
    for _ in range(40):
        if state.is_terminal():
            break
        p = state.current_player()
        sampled = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert sampled.information_state_string(p) == state.information_state_string(p)
        assert sampled.information_state_tensor(p) == state.information_state_tensor(p)
        assert sampled.legal_actions() == state.legal_actions() and sampled.history() == state.history()
        differs += sampled.inner.to_dict() != state.inner.to_dict()
        hands_differ += sampled.inner.observe(1 - p) != state.inner.observe(1 - p)
        state.apply_action(int(rs.choice(state.legal_actions())))
    assert differs > 0
    assert hands_differ > 0, "a resample re-deals what the seat cannot see"


def _play_with(game: pyspiel.Game, bot: pyspiel.Bot, seat: int, rs: np.random.RandomState) -> list[float]:
    state = game.new_initial_state()
    while not state.is_terminal():
        action = bot.step(state) if state.current_player() == seat else int(rs.choice(state.legal_actions()))
        assert action in state.legal_actions()
        state.apply_action(action)
    returns = state.returns()
    assert sum(returns) == pytest.approx(0.0)
    return list(returns)


@pytest.mark.parametrize("game_id", ["nak-muay", "knockdown", "knockback"])
def test_openspiel_ismcts_plays_a_whole_game(game_id: str) -> None:
    """Every game declares imperfect information, so OpenSpiel's ISMCTS takes each of them."""
    game = _load(game_id, seed=1)
    rs = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=4, random_state=rs)
    _play_with(game, bot, 0, rs)


def test_openspiel_mcts_plays_a_whole_game() -> None:
    """OpenSpiel's MCTS searches the true state (it sees hidden cards), but plays through
    the registration all the same."""
    game = _load("knockback", seed=1)
    rs = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=4, evaluator=evaluator, random_state=rs)
    _play_with(game, bot, 1, rs)


@pytest.mark.parametrize("game_id", ["nak-muay", "knockdown", "knockback"])
def test_openspiels_evaluation_tool_plays_every_game(game_id: str) -> None:
    """``evaluate_bots`` (OpenSpiel's own match runner) with its MCTS and uniform random
    bots (its ISMCTS bot has no ``restart_at``, which the runner needs)."""
    game = _load(game_id, seed=3)
    rs = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bots = [mcts.MCTSBot(game, uct_c=2.0, max_simulations=4, evaluator=evaluator, random_state=rs),
            uniform_random.UniformRandomBot(1, rs)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rs)
    assert len(returns) == 2 and sum(returns) == pytest.approx(0.0)


def test_a_game_without_hidden_information_is_declared_perfect_information() -> None:
    game = get_game("knockback")
    open_facts = dataclasses.replace(game.facts, hidden_information=False)
    open_game = type("OpenKnockback", (type(game),), {"facts": open_facts})()
    assert game_type(open_game).information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert game_type(game).information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(Exception, match="config must be JSON"):
        pyspiel.load_game("knockabout_nak_muay", {"config": "{oops"})
    with pytest.raises(Exception, match="config must be a JSON object"):
        pyspiel.load_game("knockabout_nak_muay", {"config": "[1]"})
    with pytest.raises(Exception, match="players must be"):
        pyspiel.load_game("knockabout_knockdown", {"players": 4})

"""The Knockdown heuristic bot: legal, sensible, and better than chance."""

from __future__ import annotations

from knockabout.bots import RandomBot, SeatView, make_bot
from knockabout.core import Rng
from knockabout.games.knockdown import GAME
from knockabout.games.knockdown.heuristic import HeuristicBot, ko_worth_it, rollout_policy
from tests.games.knockdown.helpers import arrange, fresh, kind, play, ready


def _duel(bots: list, seed: int) -> tuple[float, float]:  # type: ignore[type-arg]
    s = GAME.new_state({}, seed)
    rng = Rng(seed)
    while (d := s.to_act()) is not None:
        a = bots[d.player].choose(SeatView(s, d.player), s.legal_actions(), rng)
        assert a in s.legal_actions()
        s.apply(a)
    out = s.outcome()
    assert out is not None
    return out.payoffs[0], out.payoffs[1]


def test_the_heuristic_is_the_games_plug_in_and_has_a_rollout_policy() -> None:
    plugin = GAME.heuristic()
    assert plugin.bot is HeuristicBot and plugin.rollout_policy is rollout_policy
    assert isinstance(make_bot("easy", "knockdown"), HeuristicBot)


def test_the_heuristic_beats_random_play() -> None:
    score = 0.0
    for seed in range(4):
        h, r = HeuristicBot(), RandomBot()
        p = _duel([h, r] if seed % 2 == 0 else [r, h], seed)
        score += p[0] if seed % 2 == 0 else p[1]
    assert score >= 3.0


def test_the_heuristic_takes_an_attack_that_wounds_over_one_that_misses() -> None:
    s = ready(fresh())
    me = s.current
    arrange(s, at=((3, 1), (4, 1)), hands=([], []), row=["Spinning Heel", "Parry", "High Punch", "Healing Draught"])
    a = HeuristicBot().choose(SeatView(s, me), s.legal_actions(), Rng(1))
    assert a.text == "attack:2", "High Punch reaches for a heavy wound; Spinning Heel needs range 2"


def test_the_heuristic_starts_a_knockdown_test_only_when_it_may_end_the_round() -> None:
    s = ready(fresh())
    me = s.current
    arrange(s, at=((3, 1), (4, 1)), hands=([], []), row=["High Kick", "Jab", "Jab", "Jab"])
    play(s, "attack:0")
    assert kind(s) == "knockdown"
    assert not ko_worth_it(s, 1 - me), "2 wounds: three dice always reach"
    s.heavy[1 - me] = 10
    assert ko_worth_it(s, 1 - me)


def test_ismcts_searches_knockdown_through_the_protocol_with_the_rollout_policy() -> None:
    from knockabout.bots.ismcts import ISMCTSBot

    policy = GAME.heuristic().rollout_policy
    bot = ISMCTSBot(iterations=12, max_steps=6000, rollout="policy", policy=policy, label="t")
    s = ready(fresh(), skills=True)
    me = s.current
    arrange(s, at=((3, 1), (4, 1)), hands=([], []), row=["High Punch", "Parry", "Jab", "Healing Draught"])
    a = bot.choose(SeatView(s, me), s.legal_actions(), Rng(2))
    assert a in s.legal_actions()


def test_heuristic_bots_finish_corridor_matches_without_endless_free_moves() -> None:
    for fighters, seed in ((["james", "katie"], 1), (["puppy", "james"], 5)):
        s = GAME.new_state({"boxes": ["nemesis"], "fighters": fighters}, seed)
        rng = Rng(seed * 31 + 7)
        bots = [HeuristicBot(), HeuristicBot()]
        steps = 0
        while (d := s.to_act()) is not None and steps < 3000:
            s.apply(bots[d.player].choose(SeatView(s, d.player), s.legal_actions(), rng))
            steps += 1
        assert s.outcome() is not None, f"{fighters} seed {seed}: still playing after {steps} decisions"


def test_search_playouts_are_cut_and_scored_by_the_match_estimate() -> None:
    from knockabout.bots.ismcts import ISMCTSBot
    from knockabout.games.knockdown.heuristic import ROLLOUT_DEPTH, rollout_value

    plugin = GAME.heuristic()
    assert (plugin.rollout_value, plugin.rollout_depth) == (rollout_value, ROLLOUT_DEPTH)
    hard = make_bot("hard", "knockdown")
    assert isinstance(hard, ISMCTSBot) and hard.evaluator is rollout_value
    s = ready(fresh())
    v, w = rollout_value(s)
    assert 0.0 < v < 1.0 and abs(v + w - 1) < 1e-12
    s.heavy[1] += 3  # the opponent takes three heavy wounds
    assert rollout_value(s)[0] > v
    s.victories = [1, 0]  # a round up is worth more still
    up = rollout_value(s)[0]
    assert up > 0.75
    s.victories = [0, 1]
    assert rollout_value(s)[0] < up - 0.4

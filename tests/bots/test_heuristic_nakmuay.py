"""The Nak Muay heuristic bot follows its rules of thumb, from its seat's view only."""

from __future__ import annotations

import pytest

from knockabout.core.bot import SeatView
from knockabout.core.rng import Rng
from knockabout.games.nakmuay import GAME
from knockabout.games.nakmuay import cards as C
from knockabout.games.nakmuay import phases as P
from knockabout.games.nakmuay.heuristic import HeuristicBot, Table, hypergeom_at_least, rollout_policy
from knockabout.games.nakmuay.state import NakMuayState
from tests.bots.positions import build


def choose(s: NakMuayState, seat: int | None = None) -> str:
    d = s.to_act()
    assert d is not None
    p = d.player if seat is None else seat
    return HeuristicBot().choose(SeatView(s, p), s.legal_actions(), Rng(3)).text


def attacked(value: int, mine: list[str], pile_size: int) -> NakMuayState:
    s = build([["attack+1"], mine], pile_size=pile_size, current=0, phase=P.ATTACK_REACT, decider=1)
    s.target = 1
    s.attack_value = value
    return s


def test_the_game_declares_its_heuristic_plugin() -> None:
    plugin = GAME.heuristic()
    assert plugin.bot is HeuristicBot
    assert plugin.rollout_policy is rollout_policy
    assert isinstance(plugin.bot(), HeuristicBot)


def test_reads_the_end_turn_option_from_the_view_without_sampling() -> None:
    s = build([["sweep"], ["plum"]], strict=True)

    class NoSamples(SeatView):
        def sample(self, rng: Rng) -> NakMuayState:
            raise AssertionError("the heuristic should read the option from its view")

    assert Table.from_observation(s.observe(0)).strict
    assert not Table.from_observation(build([["sweep"], ["plum"]]).observe(0)).strict
    HeuristicBot().choose(NoSamples(s, 0), s.legal_actions(), Rng(1))


def test_table_needs_a_seat_view() -> None:
    s = build([["sweep"], ["plum"]])
    with pytest.raises(ValueError, match="spectator"):
        Table.from_observation(s.observe(None))


def test_answers_a_countdown_with_a_clinch_and_keeps_the_block() -> None:
    s = build([["attack+1"], ["block", "dodge", "plum", "sweep"]], current=0, phase=P.COUNTDOWN, decider=1,
              out=["countdown"])
    s.target = 1
    s.countdown_live = True
    assert choose(s) == "clinch:plum"


def test_answers_a_countdown_with_dodge_before_block() -> None:
    s = build([["attack+1"], ["block", "dodge", "sweep"]], current=0, phase=P.COUNTDOWN, decider=1,
              out=["countdown"])
    s.target = 1
    s.countdown_live = True
    assert choose(s) == "dodge"


def test_spends_a_block_on_a_countdown_only_as_the_last_answer() -> None:
    s = build([["attack+1"], ["block", "sweep"]], current=0, phase=P.COUNTDOWN, decider=1, out=["countdown"])
    s.target = 1
    s.countdown_live = True
    assert choose(s) == "block"


def test_dodges_an_attack_when_the_ko_odds_of_the_draws_are_high() -> None:
    # 2 KOs among 5 unknown pile cards, three draws, no Block: very likely out
    assert choose(attacked(3, ["dodge", "sweep"], pile_size=5)) == "dodge"


def test_takes_an_attack_when_the_ko_odds_are_low() -> None:
    # 2 KOs among 30 cards and a single draw
    assert choose(attacked(1, ["dodge", "sweep"], pile_size=30)) == "take"


def test_scouts_before_a_risky_draw_without_a_block() -> None:
    s = build([["scout", "sweep", "plum"], ["dodge"]], pile_size=8)
    assert choose(s) == "scout"


def test_just_draws_when_a_block_covers_the_risk() -> None:
    s = build([["scout", "block", "sweep"], ["dodge", "plum"]], pile_size=8)
    assert choose(s) == "draw"


def test_makes_the_next_player_draw_a_ko_it_knows_is_on_top() -> None:
    s = build([["attack+2", "attack+1", "block"], ["dodge"]], top=["ko"], known_top=1, pile_size=30)
    assert choose(s) == "attack:1"


def test_hides_a_blocked_ko_on_top_for_the_next_player() -> None:
    s = build([["sweep"], ["plum"]], pile_size=20, current=0, phase=P.HIDE_KO, out=["ko"])
    s.draw_player = 0
    s.draws_left = 0
    s.limbo_ko = True
    assert choose(s) == "hide:0"


def test_hides_a_ko_drawn_from_an_attack_under_its_own_remaining_draws() -> None:
    # seat 1 was attacked for 3, drew a KO first and blocked it: two draws remain, then the attacker draws
    s = build([["sweep"], ["plum"]], pile_size=20, current=0, phase=P.HIDE_KO, decider=1, out=["ko"])
    s.draw_player = 1
    s.draws_left = 2
    s.limbo_ko = True
    assert choose(s) == "hide:2"


def test_steals_from_the_biggest_hand() -> None:
    s = build([["sweep"], ["plum", "dodge"], ["scout", "sweep", "attack+1", "attack+2", "plum"]],
              current=0, phase=P.STEAL_TARGET)
    s.steal_kind = P.STEAL_PAIR
    assert choose(s) == "target:2"


def test_a_triple_steal_asks_for_a_block_first() -> None:
    s = build([["sweep"], ["dodge", "attack+1"]], current=0, phase=P.TRIPLE_NAME)
    s.steal_target = 1
    assert choose(s) == "name:block"


def test_a_triple_steal_does_not_ask_for_a_card_that_cannot_be_there() -> None:
    # seat 0 holds all six Blocks, so asking for one is pointless
    s = build([["block"] * 6, ["dodge", "attack+1"]], current=0, phase=P.TRIPLE_NAME)
    s.steal_target = 1
    assert choose(s) == "name:dodge"


def test_after_a_scout_stacks_a_ko_where_the_opponent_draws_it() -> None:
    s = build([["sweep"], ["plum"]], pile_size=20, current=0, phase=P.SCOUT_ORDER, out=["ko", "dodge"])
    s.scout_cards = [C.KO, C.DODGE]
    # default rules: I draw next (the top), the opponent after me
    assert choose(s) == "order:1,0"


def test_after_a_scout_keeps_the_best_card() -> None:
    s = build([["sweep"], ["plum"]], pile_size=20, current=0, phase=P.SCOUT_TAKE, out=["ko", "sweep", "block"])
    s.scout_cards = [C.KO, C.SWEEP, C.BLOCK]
    assert choose(s) == "scout-take:2"


def test_plays_the_countdown_when_the_target_has_no_cards() -> None:
    s = build([["countdown", "sweep", "scout"], []], pile_size=25)
    s.sizes[1] = 0
    assert choose(s) == "countdown"


def test_reads_the_ko_odds_from_the_observation_only() -> None:
    s = build([["sweep"], ["plum"]], top=["ko", "sweep"], known_top=1, pile_size=12)
    t = Table.from_observation(s.observe(0))
    assert t.ko_chance_at(0) == 1.0
    # the other KO is somewhere among the 11 cards seat 0 does not know
    assert abs(t.ko_chance_at(1) - 1 / 11) < 1e-12
    # seat 1 knows no position: 2 KOs over 12 cards
    assert abs(Table.from_observation(s.observe(1)).ko_chance_at(0) - 2 / 12) < 1e-12


def test_hypergeometric_odds() -> None:
    assert hypergeom_at_least(10, 2, 1, 1) == 0.2
    assert abs(hypergeom_at_least(10, 2, 2, 1) - (1 - (8 * 7) / (10 * 9))) < 1e-12
    assert hypergeom_at_least(10, 0, 5, 1) == 0.0


def test_rollout_policy_answers_a_countdown_when_it_can() -> None:
    s = build([["attack+1"], ["block", "plum"]], current=0, phase=P.COUNTDOWN, decider=1, out=["countdown"])
    s.target = 1
    s.countdown_live = True
    assert rollout_policy(s, s.legal_actions(), Rng(1)).text == "clinch:plum"


def test_rollout_policy_hides_a_ko_for_the_next_drawer() -> None:
    s = build([["sweep"], ["plum"]], pile_size=20, current=0, phase=P.HIDE_KO, decider=1, out=["ko"])
    s.draw_player = 1
    s.draws_left = 2
    s.limbo_ko = True
    assert rollout_policy(s, s.legal_actions(), Rng(1)).text == "hide:2"

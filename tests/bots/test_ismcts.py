"""ISMCTS: sees only the seat's information, is reproducible, finds obvious wins, plays every game."""

from __future__ import annotations

import gc
from collections.abc import Sequence

import pytest

from knockabout.bots.ismcts import ISMCTSBot
from knockabout.bots.random_bot import RandomBot
from knockabout.core.actions import Action
from knockabout.core.bot import SeatView
from knockabout.core.protocol import State
from knockabout.core.registry import game_ids, get_game
from knockabout.core.rng import Rng
from knockabout.games.nakmuay import cards as C
from knockabout.games.nakmuay.state import NakMuayState
from tests.bots.positions import build


def _midgame(seed: int = 4, steps: int = 6) -> NakMuayState:
    g = get_game("nak-muay")
    s = g.new_state({"players": 2}, seed)
    rng = Rng(seed)
    for _ in range(steps):
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    assert isinstance(s, NakMuayState)
    return s


def _swap_hidden(s: NakMuayState, me: int) -> NakMuayState:
    """The same position with one of the opponent's cards swapped for a different unseen pile card."""
    other = 1 - me
    t = s.clone()
    mark = 1 << (me + 4)
    theirs = [k for k in range(C.NUM_KINDS) if t.hands[other][k]]
    for i, e in enumerate(t.pile):
        kind = e & 15
        if e & mark or kind == C.KO:
            continue
        for mine in theirs:
            if mine != kind:
                t.pile[i] = mine | (e & ~15)
                t.hands[other][mine] -= 1
                t.hands[other][kind] += 1
                t._legal = None
                return t
    raise AssertionError("no hidden card to swap")


def test_two_games_differing_only_in_hidden_cards_get_the_same_decision() -> None:
    s = _midgame()
    d = s.to_act()
    assert d is not None
    me = d.player
    t = _swap_hidden(s, me)
    assert t.hands != s.hands or t.pile != s.pile
    assert s.observe(me) == t.observe(me)
    picks = []
    for state in (s, t):
        bot = ISMCTSBot(iterations=150)
        action = bot.choose(SeatView(state, me), state.legal_actions(), Rng(11))
        picks.append((action.text, bot.last.visits))
    assert picks[0] == picks[1]


def test_search_does_not_change_the_state_it_looks_at() -> None:
    s = _midgame()
    before = s.to_dict()
    d = s.to_act()
    assert d is not None
    ISMCTSBot(iterations=50).choose(SeatView(s, d.player), s.legal_actions(), Rng(1))
    assert s.to_dict() == before


def test_an_iteration_budget_is_reproducible() -> None:
    s = _midgame(seed=9, steps=4)
    d = s.to_act()
    assert d is not None
    runs = []
    for _ in range(2):
        bot = ISMCTSBot(iterations=120)
        runs.append((bot.choose(SeatView(s, d.player), s.legal_actions(), Rng(5)).text, bot.last.visits))
    assert runs[0] == runs[1]
    assert sum(runs[0][1].values()) == 120


def test_a_step_budget_stops_the_search_early() -> None:
    s = _midgame(seed=9, steps=4)
    d = s.to_act()
    assert d is not None
    bot = ISMCTSBot(iterations=10_000, max_steps=300)
    bot.choose(SeatView(s, d.player), s.legal_actions(), Rng(5))
    assert 1 <= bot.last.iterations < 300


@pytest.mark.parametrize("rollout", ["random", "mast", "policy"])
def test_finds_the_countdown_that_wins_on_the_spot(rollout: str) -> None:
    # the opponent has no cards, so a Countdown cannot be answered
    s = build([["countdown", "sweep", "scout", "attack+1", "plum"], []], pile_size=25)
    s.sizes[1] = 0
    heuristic = get_game("nak-muay").heuristic()
    assert heuristic is not None
    bot = ISMCTSBot(iterations=300, rollout=rollout, policy=heuristic.rollout_policy)
    assert bot.choose(SeatView(s, 0), s.legal_actions(), Rng(2)).text == "countdown"
    assert bot.last.values["countdown"] == 1.0


def test_makes_the_opponent_draw_a_ko_it_saw_on_top() -> None:
    # seat 0 knows the top card is a KO and the opponent's only card cannot stop it
    s = build([["attack+1", "sweep", "scout", "plum"], ["attack+2"]], top=["ko"], known_top=1, pile_size=25)
    bot = ISMCTSBot(iterations=400)
    assert bot.choose(SeatView(s, 0), s.legal_actions(), Rng(2)).text == "attack:1"


def test_a_forced_move_needs_no_search() -> None:
    s = build([["sweep"], ["plum"]], pile_size=20)
    s.phase = 2  # KO_BLOCK: block is the only move
    s.hands[0][C.BLOCK] += 1
    s.hands[0][C.SWEEP] -= 1
    s._legal = None
    bot = ISMCTSBot(iterations=100)
    assert bot.choose(SeatView(s, 0), s.legal_actions(), Rng(1)).text == "block"
    assert bot.last.iterations == 0


def test_needs_a_budget() -> None:
    with pytest.raises(ValueError, match="budget"):
        ISMCTSBot(iterations=None, time_ms=None)


@pytest.mark.parametrize("game_id", game_ids())
def test_plays_every_registered_game_through_the_protocol(game_id: str) -> None:
    g = get_game(game_id)
    s = g.new_state(None, 3)
    rng = Rng(3)
    bot = ISMCTSBot(iterations=8, max_steps=4000)
    for _ in range(4):
        d = s.to_act()
        if d is None:
            break
        legal = s.legal_actions()
        action = bot.choose(SeatView(s, d.player), legal, rng)
        assert action in legal
        s.apply(action)


def test_a_rollout_depth_and_an_evaluator_go_together() -> None:
    with pytest.raises(ValueError, match="together"):
        ISMCTSBot(iterations=10, rollout_depth=5)
    with pytest.raises(ValueError, match="together"):
        ISMCTSBot(iterations=10, evaluator=lambda s: (0.5, 0.5))
    with pytest.raises(ValueError, match="at least 0"):
        ISMCTSBot(iterations=10, evaluator=lambda s: (0.5, 0.5), rollout_depth=-1)


def test_a_cut_playout_is_scored_by_the_evaluator() -> None:
    # depth 0: every playout stops right after expansion, so the evaluator alone decides;
    # it pays seat 0 only in states where seat 0 has played its Sweep
    s = build([["sweep", "scout", "block", "attack+1"], ["plum"]], pile_size=20)
    calls: list[int] = []

    def evaluator(state: State) -> tuple[float, ...]:
        assert isinstance(state, NakMuayState)
        calls.append(1)
        return (1.0, 0.0) if state.hands[0][C.SWEEP] == 0 else (0.0, 1.0)

    bot = ISMCTSBot(iterations=60, evaluator=evaluator, rollout_depth=0)
    assert bot.choose(SeatView(s, 0), s.legal_actions(), Rng(1)).text == "sweep"
    assert bot.last.values["sweep"] == 1.0
    assert bot.last.values["draw"] == 0.0
    assert len(calls) == 60
    assert "cut at 0 actions" in bot.describe()


class _Hinter(RandomBot):
    """A prior that names ``move`` as its hint, or declines (None)."""

    def __init__(self, move: str | None) -> None:
        self.move = move

    def hint(self, view: SeatView, legal: Sequence[Action], rng: Rng) -> Action | None:
        return None if self.move is None else next(a for a in legal if a.text == self.move)


def test_a_prior_hint_seeds_the_root_and_a_declined_hint_does_not() -> None:
    s = build([["sweep", "scout", "block", "attack+1"], ["plum"]], pile_size=20)
    seeded = ISMCTSBot(iterations=20, prior=_Hinter("scout"), prior_visits=500)
    assert seeded.choose(SeatView(s, 0), s.legal_actions(), Rng(1)).text == "scout"
    assert seeded.last.visits["scout"] >= 500
    free = ISMCTSBot(iterations=20, prior=_Hinter(None), prior_visits=500)
    free.choose(SeatView(s, 0), s.legal_actions(), Rng(1))
    assert max(free.last.visits.values()) <= 20


def test_the_cyclic_collector_is_paused_while_searching_and_resumed_however_it_ends() -> None:
    s = _midgame()
    seen: list[bool] = []

    def evaluator(state: State) -> tuple[float, ...]:
        seen.append(gc.isenabled())
        if len(seen) == 30:
            raise RuntimeError("an evaluator that fails mid-search")
        return (0.5, 0.5)

    assert gc.isenabled()
    bot = ISMCTSBot(iterations=20, evaluator=evaluator, rollout_depth=0)
    bot.choose(SeatView(s, s.current), s.legal_actions(), Rng(1))
    assert seen and not any(seen)
    assert gc.isenabled()
    bot = ISMCTSBot(iterations=50, evaluator=evaluator, rollout_depth=0)
    with pytest.raises(RuntimeError, match="fails mid-search"):
        bot.choose(SeatView(s, s.current), s.legal_actions(), Rng(1))
    assert gc.isenabled()
    # a caller that had paused it itself finds it still paused
    gc.disable()
    try:
        ISMCTSBot(iterations=5, evaluator=lambda st: (0.5, 0.5), rollout_depth=0).choose(
            SeatView(s, s.current), s.legal_actions(), Rng(1))
        assert not gc.isenabled()
    finally:
        gc.enable()

"""Observation encoders: the declared layout is the encoded one, every number in [0, 1],
and nothing a seat may not know reaches its vector or mask (the leak test)."""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from knockabout.core.encoding import Layout, VectorWriter, ViewEncoder, one_hot_index
from knockabout.core.plugins import EncodedField
from knockabout.core.registry import get_game
from knockabout.core.rng import Rng
from knockabout.core.view import OutcomeView, View
from knockabout.envs.layout import layout_table
from knockabout.envs.observation import SeatObserver, seat_rewards
from tests.envs.positions import GAMES, configs, tables, walk

DOCS = Path(__file__).parents[2] / "docs" / "envs.md"


def test_every_built_in_game_declares_an_encoder() -> None:
    assert {"nak-muay", "knockdown", "knockback"} <= set(GAMES)


@pytest.mark.parametrize(("game_id", "players"), tables())
def test_vectors_fill_the_declared_layout_within_bounds(game_id: str, players: int) -> None:
    enc = get_game(game_id).encoder()
    assert enc is not None
    assert enc.size == sum(f.size for f in enc.fields) == Layout(enc.fields).size
    for config in configs(game_id):
        for s in walk(game_id, players, range(3), config, every=3):
            for seat in range(players):
                vec = enc.encode(s.observe(seat))
                assert isinstance(vec, array) and vec.typecode == "f" and len(vec) == enc.size
                v = np.frombuffer(vec, dtype=np.float32)
                assert np.all(v >= 0.0) and np.all(v <= 1.0), game_id
                assert 0.0 <= enc.potential(s.observe(seat)) <= 1.0


@pytest.mark.parametrize("game_id", GAMES)
def test_every_declared_field_carries_something(game_id: str) -> None:
    """Over a few games of every size and variant, each field is set somewhere: no dead
    or misnamed part of the layout."""
    game = get_game(game_id)
    enc = game.encoder()
    assert enc is not None
    touched = np.zeros(enc.size, dtype=bool)
    for players in range(game.min_players, game.max_players + 1):
        for config in configs(game_id):
            for s in walk(game_id, players, range(3), config, cap=1500):
                for seat in range(players):
                    touched |= np.frombuffer(enc.encode(s.observe(seat)), dtype=np.float32) != 0
    never = [f.name for at, f in enc.layout() if not touched[at : at + f.size].any()]
    assert never == []


@pytest.mark.parametrize(("game_id", "players"), tables())
def test_the_vector_depends_on_what_the_seat_sees(game_id: str, players: int) -> None:
    """Different seats (and positions) give different vectors: the encoder reads the view."""
    enc = get_game(game_id).encoder()
    assert enc is not None
    s = get_game(game_id).new_state({}, 5, players=players)
    vecs = {bytes(enc.encode(s.observe(seat))) for seat in range(players)}
    assert len(vecs) == players


@pytest.mark.parametrize(("game_id", "players"), tables())
def test_no_leak_redealing_what_a_seat_cannot_see_changes_nothing_it_gets(game_id: str, players: int) -> None:
    obs = SeatObserver(get_game(game_id))
    rng = Rng(99)
    checked = 0
    for config in configs(game_id):
        for s in walk(game_id, players, range(3), config, every=2):
            for seat in range(players):
                vec, mask = obs.vector(s, seat), obs.mask(s, seat)
                for _ in range(2):
                    other = s.determinize(seat, rng)
                    assert np.array_equal(obs.vector(other, seat), vec), (game_id, seat, s.to_act())
                    assert np.array_equal(obs.mask(other, seat), mask), (game_id, seat, s.to_act())
                    checked += 1
    assert checked > 50


def test_the_leak_test_would_catch_a_leak() -> None:
    """An encoder that also wrote the next hidden card would differ after determinize."""
    game = get_game("nak-muay")
    obs = SeatObserver(game)
    rng = Rng(3)
    differs = 0
    for s in walk("nak-muay", 2, range(3), every=4):
        if s.is_over:
            continue
        other = s.determinize(0, rng)
        # the true opponent hand is what a leaky encoder would read
        if s.observe(1).to_json()["hand"] != other.observe(1).to_json()["hand"]:
            differs += 1
        assert np.array_equal(obs.vector(other, 0), obs.vector(s, 0))
    assert differs > 0


def test_the_writer_refuses_writes_that_do_not_fit_the_declaration() -> None:
    layout = Layout((EncodedField("a", 3, ""), EncodedField("b", 1, "")))
    w = layout.writer()
    w.one_hot("a", 2)
    w.scalar("b", 5, 10)
    assert list(w.done()) == [0, 0, 1, 0.5]
    with pytest.raises(ValueError, match="'a': index 3 outside its 3 positions"):
        w.one_hot("a", 3)
    with pytest.raises(ValueError, match="'b' holds 1 numbers, not 2"):
        w.flags("b", (True, True))
    w.scalar("b", 50, 10)
    assert w.done()[3] == 1.0  # clipped
    with pytest.raises(ValueError, match="declared twice"):
        Layout((EncodedField("a", 1, ""), EncodedField("a", 1, "")))
    assert one_hot_index("x", ("a", "x")) == 1 and one_hot_index("z", ("a",)) is None


def test_outcome_rewards_are_zero_sum() -> None:
    assert seat_rewards((1.0, 0.0)) == [1.0, -1.0]
    assert seat_rewards((0.5, 0.5)) == [0.0, 0.0]
    r = seat_rewards((0.0, 0.0, 1.0, 0.0, 0.0))
    assert r[2] == 1.0 and r[0] == -0.25 and abs(sum(r)) < 1e-12


@pytest.mark.parametrize("game_id", ["nak-muay", "knockdown", "knockback"])
def test_docs_show_the_current_layout(game_id: str) -> None:
    enc = get_game(game_id).encoder()
    assert enc is not None
    assert layout_table(enc) in DOCS.read_text(), f"docs/envs.md: regenerate the {game_id} table"


@dataclass(frozen=True, slots=True, kw_only=True)
class ToyView(View):
    seat: int | None
    hp: int
    outcome: OutcomeView | None = None
    legal: tuple[str, ...] | None = None


class ToyEncoder(ViewEncoder[ToyView]):
    def __init__(self) -> None:
        super().__init__(ToyView, seats=2, legal_scale=4, fields=(EncodedField("hp", 1, "hp / 10"),))

    def write(self, w: VectorWriter, v: ToyView) -> None:
        w.scalar("hp", v.hp, 10)


def test_a_view_encoder_writes_the_shared_fields_and_leaves_the_rest_to_the_game() -> None:
    enc = ToyEncoder()
    assert [f.name for f in enc.fields] == ["seat", "hp", "legal_count", "over", "payoff"]
    assert enc.fields[2].meaning == "the viewer's legal actions / 4 (0 when it does not decide)"
    playing = ToyView(seat=1, hp=5, legal=("a", "b", "c"))
    assert list(enc.encode(playing)) == [0, 1, 0.5, 0.75, 0, 0]
    won = OutcomeView(winners=(0,), payoffs=(1.0, 0.0), draw=False, reason="")
    assert list(enc.encode(ToyView(seat=0, hp=0, outcome=won))) == [1, 0, 0, 0, 1, 1]
    assert list(enc.encode(ToyView(seat=None, hp=20, outcome=won))) == [0, 0, 1, 0, 1, 0]


def test_a_view_encoder_refuses_another_games_view() -> None:
    other = get_game("nak-muay").new_state({}, 1).observe(0)
    with pytest.raises(TypeError, match="ToyEncoder encodes ToyView, not NakMuayView"):
        ToyEncoder().encode(other)


def test_decision_fields_declare_and_write_the_pending_decision() -> None:
    from knockabout.core.encoding import DecisionFields
    from knockabout.core.view import DecisionView

    dec = DecisionFields(3, ("a", "b"), timed="a clock")
    assert [(f.name, f.size) for f in dec.fields()] == [("decision_kind", 2), ("decider", 3), ("timed", 1)]
    assert dec.fields()[2].meaning == "1: the decision has a time limit (a clock)"
    w = Layout(dec.fields()).writer()
    dec.write(w, DecisionView(player=2, kind="b", time_limit=5.0, timeout_action="x", prompt=""))
    assert list(w.done()) == [0, 1, 0, 0, 1, 1]
    w = Layout(dec.fields()).writer()
    dec.write(w, None)
    assert list(w.done()) == [0] * 6
    with pytest.raises(ValueError, match="decision kind 'c' is not among"):
        dec.write(w, DecisionView(player=0, kind="c", time_limit=None, timeout_action=None, prompt=""))
    assert [f.name for f in DecisionFields(2).fields()] == ["decider"]
    with pytest.raises(ValueError, match="sorted order"):
        DecisionFields(2, ("b", "a"))

"""Properties over random play: card accounting, legal positions, hidden information."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from knockabout.core import Rng
from knockabout.games.knockdown import GAME
from knockabout.games.knockdown.rules.rounds import CANDLE
from knockabout.games.knockdown.rules.tasks import Take
from knockabout.games.knockdown.state import KnockdownState

BOXES = [["tainted_grail"], ["nemesis"], ["siege_storm"], ["tainted_grail", "nemesis", "siege_storm"]]


def _check(s: KnockdownState) -> None:
    setup = s.setup
    # every Attack card is somewhere: deck, row, hands or discard (Contamination lives apart)
    cards = [d for d in s.deck if d != CANDLE] + [d for d in s.row if d >= 0] + s.discard
    cards += [d for h in s.hands for d in h if d != setup.contamination]
    in_flight = [t.card for t in s.tasks if isinstance(t, Take)]  # taken, to reach a hand once its attack resolves
    cards += [d for d in in_flight if d != setup.contamination]
    assert sorted(cards) == sorted(setup.deck)
    assert s.deck.count(CANDLE) + s.candle == setup.candles or s.phase <= 3
    contam = sum(h.count(setup.contamination) for h in s.hands) + in_flight.count(setup.contamination)
    contam = contam if setup.contamination >= 0 else 0
    assert contam + s.contam_left == setup.contamination_count
    assert s.pos[0] != s.pos[1]
    assert min(s.heavy + s.light) >= 0
    for t in range(len(setup.supply)):
        assert s.tokens[0][t] + s.tokens[1][t] <= max(setup.supply[t], setup.start_tokens[0][t]
                                                      + setup.start_tokens[1][t])
    d = s.to_act()
    if d is not None and d.kind not in ("choose_card",):
        for p in (0, 1):
            assert len(s.hands[p]) <= s.hand_limit(p), "over the hand limit outside the discard decision"
    assert all(h == sorted(h) for h in s.hands)


def _after(seed: int, cut: int) -> KnockdownState:
    """A new match of ``seed`` after at most ``cut`` random actions."""
    s = GAME.new_state({}, seed)
    rng = Rng(seed)
    for _ in range(cut):
        if s.to_act() is None:
            break
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    return s


@given(seed=st.integers(0, 10_000), box=st.sampled_from(BOXES), test=st.sampled_from(["dice", "tower"]))
def test_random_play_keeps_every_card_and_rule_invariant(seed: int, box: list[str], test: str) -> None:
    s = GAME.new_state({"boxes": box, "knockdown_test": test}, seed)
    rng = Rng(seed)
    steps = 0
    while s.to_act() is not None and steps < 3000:
        _check(s)
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
        steps += 1
    assert s.outcome() is not None


@given(seed=st.integers(0, 10_000), cut=st.integers(0, 400))
def test_a_players_view_never_shows_the_opponents_hidden_skills_or_the_deck_order(seed: int, cut: int) -> None:
    s = _after(seed, cut)
    for p in (0, 1):
        view = s.observe(p)
        o = 1 - p
        hidden = [i for i in (s.keep1[o], s.keep2[o]) if i >= 0 and i not in s.active_skills(o)]
        names_shown = {sk.name for f in view.fighters for sk in f.skills}
        draft = view.draft
        assert draft is not None
        own = {sk.name for part in (draft.dealt, draft.received, draft.kept) for sk in part or ()}
        for i in hidden:
            name = s.setup.skills[i].name
            assert name not in names_shown
            if name not in own:  # p may have seen it (it passed the card) but not the choice
                assert name not in str(view.to_json())
        assert "deck_order" not in view.to_json() and isinstance(view.deck, int)


@given(seed=st.integers(0, 10_000), cut=st.integers(0, 300))
def test_determinize_keeps_the_public_table_and_reshuffles_the_deck(seed: int, cut: int) -> None:
    s = _after(seed, cut)
    for p in (0, 1):
        d = s.determinize(p, Rng(seed + 7))
        assert d.observe(p) == s.observe(p)
        assert sorted(d.deck) == sorted(s.deck)
        assert d.hands == s.hands and d.row == s.row and d.pos == s.pos
        assert d.active_skills(1 - p) == s.active_skills(1 - p)


def test_clone_shares_nothing_mutable() -> None:
    s = GAME.new_state({}, 4)
    rng = Rng(4)
    for _ in range(60):
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    c = s.clone()
    for name in ("tasks", "keep1", "keep2", "up", "revealed", "victories", "heavy", "light", "pos", "traps", "row",
                 "deck", "discard", "reacted"):
        assert getattr(c, name) is not getattr(s, name), name
    assert c.hands[0] is not s.hands[0] and c.tokens[1] is not s.tokens[1]

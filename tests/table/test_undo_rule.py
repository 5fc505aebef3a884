"""The undo rule: only public, deterministic steps may be taken back."""

from __future__ import annotations

from knockabout.core import Rng, get_game
from knockabout.table import public_and_deterministic


def _find(prefix: str, players: int = 3, pending: str | None = None) -> tuple[object, str]:
    g = get_game("nak-muay")
    rng = Rng(7)
    for seed in range(300):
        s = g.new_state({"players": players}, seed)
        for _ in range(200):
            if s.to_act() is None:
                break
            legal = s.legal_actions()
            hit = [a for a in legal if a.text.startswith(prefix)]
            if pending is not None and (s.observe(None).to_json().get("pending") or {}).get("steal") != pending:
                hit = []
            if hit:
                return s, hit[0].text
            s.apply(legal[rng.below(len(legal))])
    raise AssertionError(f"no state offers {prefix}")


def _check(prefix: str, pending: str | None = None) -> bool:
    state, text = _find(prefix, pending=pending)
    before = state.clone()  # type: ignore[attr-defined]
    after = state.clone()  # type: ignore[attr-defined]
    events = after.apply(text)
    actor = before.to_act().player
    return public_and_deterministic(before, before.game.actions.parse(text), events, after, [actor])


def test_a_clinch_pair_declaration_is_undoable() -> None:
    assert _check("pair:")


def test_a_draw_is_not_undoable() -> None:
    assert not _check("draw")


def test_a_sweep_shuffle_is_not_undoable() -> None:
    assert not _check("sweep")


def test_a_random_steal_is_not_undoable() -> None:
    assert not _check("target:", pending="pair")


def test_choosing_whom_to_question_in_a_triple_is_undoable() -> None:
    assert _check("target:", pending="triple")

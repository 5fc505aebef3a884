"""The balance runner plays every ordered pair of packs and reports the matrix."""

from __future__ import annotations

from knockabout.games.knockback import balance


def test_balance_runner_reports_matrix_field_and_first_player_edge() -> None:
    packs = ["ember-rush", "granite-ward", "night-moths"]
    results = balance.run(packs, games=1, bot="random", config={"scoring": "speed", "max_turns": 30}, seed=3, workers=1)
    assert len(results) == 6  # ordered pairs, no mirrors
    assert all(r.games == 1 for r in results)
    text = balance.report(packs, results)
    for p in packs:
        assert f"| {p} |" in text
    assert "field" in text and "First-player edge" in text and "Inside a round" in text and "6 matches" in text

"""Seeded simulation: plans, paired seeds, reproducibility, results files, reports."""

from __future__ import annotations

from pathlib import Path

import pytest

from knockabout.core.errors import KnockaboutError
from knockabout.sim import SimResults, SimSpec, lineups, plan, run, seat_orders, summarize
from knockabout.sim.results import ResultsError


def test_every_line_up_plays_every_seat_order_on_the_same_deal() -> None:
    spec = SimSpec("nak-muay", players=2, games=10, seed=3, bots=("easy", "random"))
    tasks = plan(spec)
    assert len(tasks) == 10
    by_deal: dict[int, set[tuple[str, ...]]] = {}
    for t in tasks:
        by_deal.setdefault(t.deal, set()).add(t.seats)
    assert all(orders == {("easy", "random"), ("random", "easy")} for orders in by_deal.values())


def test_line_ups_for_more_fewer_and_exactly_as_many_bots_as_seats() -> None:
    assert lineups(["random"], 3) == [("random",) * 3]
    assert lineups(["hard", "medium", "easy"], 2) == [("hard", "medium"), ("hard", "easy"), ("medium", "easy")]
    assert lineups(["easy", "random"], 4) == [("easy", "random", "easy", "random")]
    assert lineups(["easy", "random", "random"], 3) == [("easy", "random", "random")]
    assert len(seat_orders(("easy", "random", "random"))) == 3


def test_games_are_rounded_up_to_whole_deals() -> None:
    spec = SimSpec("nak-muay", players=3, games=7, seed=1, bots=("easy", "random", "medium"))
    assert len(plan(spec)) == 12  # 6 seat orders a deal, 2 deals


def test_results_are_identical_whatever_the_number_of_workers() -> None:
    spec = SimSpec("nak-muay", players=2, games=16, seed=8, bots=("easy", "random"))
    one = run(spec, workers=1)
    two = run(spec, workers=2, chunk=3)
    assert [g.outcome_key() for g in one.games] == [g.outcome_key() for g in two.games]
    assert [g.index for g in two.games] == list(range(16))


def test_a_different_seed_gives_different_games() -> None:
    a = run(SimSpec("nak-muay", players=3, games=12, seed=1))
    b = run(SimSpec("nak-muay", players=3, games=12, seed=2))
    assert [g.outcome_key() for g in a.games] != [g.outcome_key() for g in b.games]


def test_paired_games_share_the_deal_seed() -> None:
    res = run(SimSpec("nak-muay", players=2, games=6, seed=5, bots=("easy", "random")))
    for g in res.games:
        partner = next(x for x in res.games if x.deal == g.deal and x.index != g.index)
        assert partner.seed == g.seed and partner.bots == list(reversed(g.bots))


@pytest.mark.parametrize("suffix", [".json", ".csv"])
def test_results_survive_a_save_and_load(tmp_path: Path, suffix: str) -> None:
    res = run(SimSpec("nak-muay", players=3, games=9, seed=2, bots=("easy", "random", "random")))
    path = tmp_path / f"r{suffix}"
    res.save(path)
    back = SimResults.load(path)
    assert back == res
    assert summarize(back, bootstrap=20) == summarize(res, bootstrap=20)


def test_a_damaged_results_file_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    res = run(SimSpec("nak-muay", players=2, games=2, seed=2))
    res.save(path)
    path.write_text(path.read_text().replace("true", "maybe").replace("false", "maybe"))
    with pytest.raises(ResultsError, match=r"r\.csv: damaged results"):
        SimResults.load(path)
    other = tmp_path / "x.json"
    other.write_text('{"hello": 1}')
    with pytest.raises(ResultsError, match="not a knockabout sim results file"):
        SimResults.load(other)


def test_summary_counts_wins_per_seat_and_per_bot() -> None:
    res = run(SimSpec("nak-muay", players=2, games=40, seed=4, bots=("easy", "random")))
    s = summarize(res, bootstrap=30)
    assert s.games == 40 and s.length_unit == "turns"
    assert sum(line.points for line in s.seats) == pytest.approx(40)
    easy = next(b for b in s.bots if b.label == "easy")
    rnd = next(b for b in s.bots if b.label == "random")
    assert easy.games == rnd.games == 40
    assert easy.points + rnd.points == pytest.approx(40)
    assert rnd.rating is not None and rnd.rating.elo == 0.0  # random is the anchor
    assert easy.rating is not None and (easy.rating.elo > 0) == (easy.points > rnd.points)
    assert easy.low <= easy.rate <= easy.high


def test_bad_specs_are_refused_with_a_clear_message() -> None:
    with pytest.raises(KnockaboutError, match="nak-muay is played by 2-5 players, not 7"):
        run(SimSpec("nak-muay", players=7, games=5))
    with pytest.raises(KnockaboutError, match="unknown bot level 'ace'"):
        run(SimSpec("nak-muay", players=2, games=5, bots=("ace",)))
    with pytest.raises(KnockaboutError, match="disagrees"):
        run(SimSpec("nak-muay", players=2, games=5, config={"players": 3}))


@pytest.mark.usefixtures("tiny_games")
def test_a_made_up_game_plays_a_tournament_through_its_declared_plug_ins() -> None:
    res = run(SimSpec("tiny-duel-coached", players=2, games=8, seed=3, bots=("easy", "random")))
    assert res.meta["length_unit"] == "decisions"
    assert all(g.decisions == g.length == 6 and g.moves == [3, 3] for g in res.games)
    assert {g.reason for g in res.games} <= {"most rounds", "even"}
    easy = next(b for b in summarize(res, bootstrap=0).bots if b.label == "easy")
    assert easy.games == 8
    with pytest.raises(KnockaboutError, match="tiny-duel is played by 2 players, not 3"):
        run(SimSpec("tiny-duel", players=3, games=2))

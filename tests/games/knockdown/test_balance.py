"""The Knockdown balance runner plays every ordered pair of fighters and reports the matrix."""

from __future__ import annotations

from knockabout.games.knockdown import balance


def test_each_box_alone_and_the_merged_boxes_are_groups() -> None:
    alone = balance.groups(["tainted_grail", "nemesis"], merged=False)
    assert [g[1] for g in alone] == [("tainted_grail",), ("nemesis",)]
    assert all(len(g[2]) == 3 for g in alone)
    (merged,) = balance.groups(["tainted_grail", "nemesis"], merged=True)
    assert merged[1] == ("tainted_grail", "nemesis") and len(merged[2]) == 6
    assert all(":" in f for f in merged[2])


def test_balance_runner_reports_matrix_field_and_first_player_edge() -> None:
    (title, boxes, fighters), *_ = balance.groups(["nemesis"], merged=False)
    results = balance.run(fighters, games=1, bot="random", boxes=boxes, seed=3, workers=1)
    assert len(results) == 6  # ordered pairs, no mirrors
    assert all(r.games == 1 and r.rounds >= 1 for r in results)
    assert all(0 <= r.first_round_wins <= r.rounds for r in results)
    text = balance.report(title, fighters, results)
    for f in fighters:
        assert f"| {f} |" in text
    assert "field" in text and "first player wins" in text and "6 matches" in text


def test_report_lists_each_face_up_skill_of_round_one_by_initiative() -> None:
    (title, boxes, fighters), *_ = balance.groups(["tainted_grail"], merged=False)
    results = balance.run(fighters, games=2, bot="random", boxes=boxes, seed=5, workers=1)
    # every match shows two face-up Skill cards in round 1, and its two holders share one point
    held = sum(n for r in results for _points, n in r.skills.values())
    points = sum(p for r in results for p, _n in r.skills.values())
    assert held == 2 * sum(r.games for r in results) == 24
    assert points == sum(r.games for r in results)
    rows = [line for line in balance.report(title, fighters, results).splitlines() if line.startswith("| ")]
    skill_rows = [row for row in rows if row.split("|")[1].strip().isdigit()]
    initiatives = [int(row.split("|")[1]) for row in skill_rows]
    assert skill_rows and initiatives == sorted(initiatives, reverse=True)
    assert sum(int(row.split("|")[3]) for row in skill_rows) == 24

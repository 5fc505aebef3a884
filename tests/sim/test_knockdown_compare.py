"""``balance compare`` for Knockdown: both content versions play the same paired deals, so a
copy of the shipped boxes changes nothing, a stronger fighter shows up with its paired
interval, and a broken folder is one clear error."""

from __future__ import annotations

import shutil
from pathlib import Path

from typer.testing import CliRunner

from knockabout.cli.main import app
from knockabout.games.knockdown.content.loader import CONTENT_DIR
from knockabout.sim.balance_run import BalanceRun, BalanceSpec, run_balance
from knockabout.sim.content_ab import guess_game, paired_changes
from knockabout.sim.executor import InlineExecutor, PoolExecutor
from tests.games.knockdown.test_content_versions import BOX, stronger_knight

runner = CliRunner()
ONE_BOX = {"boxes": [BOX]}


def _run(options: dict[str, object], games: int = 2, seed: int = 3, bot: str = "random") -> BalanceRun:
    return run_balance(BalanceSpec("knockdown", options, games, bot, seed), InlineExecutor())


def _plays(run: BalanceRun) -> list[list[tuple[str, str, int, tuple[float, ...], int]]]:
    return [[(m.a, m.b, m.index, m.payoffs, m.length) for p in g for m in p.matches] for g in run.pairs]


def test_a_copy_of_the_shipped_boxes_plays_the_shipped_matches_and_differs_by_nothing(tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(CONTENT_DIR, copy)
    shipped = _run(ONE_BOX)
    same = _run({**ONE_BOX, "version": str(copy)})
    assert _plays(same) == _plays(shipped)
    assert [g.title for g in same.groups] == [g.title for g in shipped.groups] == ["Tainted Grail"]
    changes = paired_changes(shipped, same)
    assert {c.entrant for c in changes} == {"mistbearer", "maggot", "lost_knight"}
    for c in changes:
        assert c.matches == 8  # 2 matches x 2 opponents x 2 seat orders
        assert (c.diff, c.low, c.high) == (0.0, 0.0, 0.0)
        assert c.rate_a == c.rate_b


def test_a_version_travels_to_worker_processes_and_plays_the_same_there(tmp_path: Path) -> None:
    tuned = str(stronger_knight(tmp_path))
    spec = BalanceSpec("knockdown", {**ONE_BOX, "version": tuned}, 1, "random", 4)
    with PoolExecutor(2) as pool:
        pooled = run_balance(spec, pool)
    assert _plays(pooled) == _plays(run_balance(spec, InlineExecutor()))


def test_a_stronger_fighter_wins_more_on_the_same_deals(tmp_path: Path) -> None:
    tuned = stronger_knight(tmp_path)
    a = _run(ONE_BOX, games=4, seed=1)
    b = _run({**ONE_BOX, "version": str(tuned)}, games=4, seed=1)
    changes = {c.entrant: c for c in paired_changes(a, b)}
    knight = changes["lost_knight"]
    assert knight.matches == 16
    assert knight.diff > 0.2 and knight.low > 0  # the paired interval lies wholly above zero
    assert changes["maggot"].diff < 0 and changes["mistbearer"].diff < 0  # its opponents lose what it gains
    # the pairings without the knight play exactly as before: the same deals and bot seeds
    plain = [(m.index, m.payoffs) for p in a.pairs[0] if "lost_knight" not in (p.a, p.b) for m in p.matches]
    again = [(m.index, m.payoffs) for p in b.pairs[0] if "lost_knight" not in (p.a, p.b) for m in p.matches]
    assert plain == again and len(plain) == 8


def test_balance_compare_for_knockdown_from_the_command_line(tmp_path: Path) -> None:
    assert guess_game(str(CONTENT_DIR)) == "knockdown"
    out = tmp_path / "ab.md"
    r = runner.invoke(app, ["balance", "compare", "--a", str(CONTENT_DIR), "--b", str(stronger_knight(tmp_path)),
                            "--bot", "random", "--games", "1", "-o", f"boxes={BOX}", "--out", str(out)])
    assert r.exit_code == 0, r.output
    text = out.read_text()
    assert "| Tainted Grail | lost_knight | 4 |" in text and "paired 95 % interval" in text
    assert "Nemesis" not in text  # only the box asked for


def test_balance_compare_with_a_broken_folder_is_one_clear_line(tmp_path: Path) -> None:
    broken = stronger_knight(tmp_path, "broken")
    sheet = broken / BOX / "fighters.toml"
    sheet.write_text(sheet.read_text().replace('class = "Oathbreaker"', 'class = ""'))
    for args in (["--game", "knockdown", "--a", str(CONTENT_DIR), "--b", str(broken)],
                 ["--a", str(CONTENT_DIR), "--b", str(broken)]):
        r = runner.invoke(app, ["balance", "compare", *args, "--bot", "random", "--games", "1"])
        assert r.exit_code == 2, r.output
        line = " ".join(r.output.split())  # the terminal may wrap the one line
        assert line.startswith(f"error: knockdown: version: {sheet}: fighter #3 'lost_knight': class: ")
        assert "Traceback" not in r.output and "A/B of content" not in r.output
    r = runner.invoke(app, ["balance", "compare", "--a", str(broken), "--b", str(CONTENT_DIR)])
    line = " ".join(r.output.split())
    assert r.exit_code == 2 and "no game can load this content version" in line
    assert f"knockdown: version: {sheet}: fighter #3 'lost_knight': class:" in line  # and why not

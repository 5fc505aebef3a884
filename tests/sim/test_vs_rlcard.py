"""The side-by-side speed script against RLCard's raw UNO loop runs and reports a ratio
(benchmarks/vs_rlcard.py; the numbers themselves belong in docs/speed.md, not in a test)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).parents[2] / "benchmarks" / "vs_rlcard.py"


def test_the_script_alternates_both_loops_and_prints_the_median_ratio() -> None:
    out = subprocess.run([sys.executable, str(SCRIPT), "--seconds", "0.05", "--rounds", "3"],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    rounds = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert [r[0] for r in rounds] == ["1", "2", "3"]
    for r in rounds:
        ours, theirs, ratio = (float(x.replace(",", "")) for x in r[1:4])
        assert ours > 0 and theirs > 0 and abs(ours / theirs - ratio) < 0.01
    assert "median ratio (Nak Muay / RLCard UNO):" in out


def test_bad_flags_are_one_clear_line() -> None:
    r = subprocess.run([sys.executable, str(SCRIPT), "--players", "9"], capture_output=True, text=True, timeout=60)
    assert r.returncode != 0 and "--players 2-5" in r.stderr

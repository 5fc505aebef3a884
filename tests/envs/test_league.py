"""The league of self-play checkpoints and bot levels (benchmarks/league.py) runs, rates
every entrant with an interval, and its checkpoint player sees only its seat's view."""

from __future__ import annotations

from pathlib import Path

import pytest

from knockabout.core.registry import get_game
from knockabout.core.rng import Rng
from tests.bots.view_only import checked_against_redeals
from tests.script_modules import load_script


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_league_rates_checkpoints_and_levels(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="the league's checkpoints need the train extra")
    selfplay = load_script(Path("examples/selfplay_ppo.py"))
    selfplay.main(["--game", "nak-muay", "--envs", "4", "--rollout", "8", "--minibatch", "16", "--epochs", "1",
                   "--every", "1", "--eval", "0", "--threads", "1", "--out", str(tmp_path), "--steps", "32"])
    league = load_script(Path("benchmarks/league.py"))
    result = league.main([str(tmp_path / "ckpt-32.pt"), "--game", "nak-muay", "--levels", "random,easy",
                          "--deals", "2", "--out", str(tmp_path / "league.json")])
    assert sorted(r["entrant"] for r in result["ratings"]) == ["ckpt-32", "easy", "random"]
    for r in result["ratings"]:
        lo, hi = r["interval95"]
        assert lo < r["rating"] < hi
    heads = {(h["entrant"], h["against"]): h for h in result["head_to_head"]}
    assert len(heads) == 6
    for (a, b), h in heads.items():
        assert h["games"] == 4 and h["score"] + heads[b, a]["score"] == pytest.approx(1.0)
    assert (tmp_path / "league.json").exists()

    # the checkpoint decides from its seat's view: a re-deal of what it cannot see changes nothing
    bot = league.CheckpointBot(tmp_path / "ckpt-32.pt", "nak-muay")
    game = get_game("nak-muay")
    assert checked_against_redeals(bot, game.new_state({}, 9), 60, Rng(5)) > 0

"""The league of self-play checkpoints and bot levels (benchmarks/league.py) runs, rates
every entrant with an interval, and its checkpoint player sees only its seat's view."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

from knockabout.core.bot import SeatView
from knockabout.core.registry import get_game
from knockabout.core.rng import Rng

ROOT = Path(__file__).parents[2]


def _load(path: Path, name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_league_rates_checkpoints_and_levels(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="the league's checkpoints need the train extra")
    selfplay = _load(ROOT / "examples" / "selfplay_ppo.py", "selfplay_ppo")
    selfplay.main(["--game", "nak-muay", "--envs", "4", "--rollout", "8", "--minibatch", "16", "--epochs", "1",
                   "--every", "1", "--eval", "0", "--threads", "1", "--out", str(tmp_path), "--steps", "32"])
    league = _load(ROOT / "benchmarks" / "league.py", "league")
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
    rng = Rng(5)
    s = game.new_state({}, 9)
    for _ in range(60):
        d = s.to_act()
        if d is None:
            break
        legal = s.legal_actions()
        mine = bot.choose(SeatView(s, d.player), legal, rng)
        other = s.determinize(d.player, rng)
        assert bot.choose(SeatView(other, d.player), other.legal_actions(), rng) is mine
        s.apply(legal[rng.below(len(legal))])

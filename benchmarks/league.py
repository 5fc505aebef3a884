"""A league of self-play checkpoints and the bot levels, with ratings and their intervals.

    .venv/bin/python benchmarks/league.py --game nak-muay runs/nm/ckpt-200704.pt runs/nm/ckpt-401408.pt \\
        --levels random,easy,medium,hard --deals 50

Every entrant meets every other on paired deals (each deal played twice, seats swapped; 2
players; default rules): the checkpoints of ``examples/selfplay_ppo.py`` play greedily from
their seat's own observation (the view encoder's vector of ``SeatView.observation()``, so
nothing hidden reaches them), the levels as ``knockabout sim`` plays them. Each game updates
openskill's Plackett-Luce ratings (the model the ladder rates players with,
``knockabout.ladder.ratings``), every entrant starting alike, the pairings' games
interleaved deal by deal; a rating is shown on the ladder's scale (1500 to start, 60 points
per unit of skill) with its 95 % interval (mean ± 2 sigma). Head-to-head scores (wins +
half the draws) come with 95 % Wilson intervals. Saved to
``benchmarks/results/league-GAME.json``; prints the table.
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch

from knockabout.bots.levels import make_bot
from knockabout.core.actions import Action
from knockabout.core.bot import Bot, SeatView
from knockabout.core.registry import get_game
from knockabout.core.rng import Rng, mix_seed
from knockabout.envs.observation import encoder_of
from knockabout.ladder.ratings import MODEL, shown
from knockabout.sim.stats import wilson

ROOT = Path(__file__).resolve().parents[1]


def _selfplay() -> Any:
    spec = importlib.util.spec_from_file_location("selfplay_ppo", ROOT / "examples" / "selfplay_ppo.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["selfplay_ppo"] = module
    spec.loader.exec_module(module)
    return module


class CheckpointBot(Bot):
    """A self-play checkpoint playing greedily from its seat's observation."""

    def __init__(self, path: Path, game_id: str) -> None:
        ck = torch.load(path, weights_only=False)
        game = get_game(game_id)
        if ck["game"] != game.id:
            raise SystemExit(f"{path}: a {ck['game']} checkpoint, not {game.id}")
        self.encoder = encoder_of(game)
        self.net = _selfplay().Net(self.encoder.size, len(game.actions), ck["hidden"])
        self.net.load_state_dict(ck["net"])
        self.net.eval()
        self.name = f"ckpt-{ck['steps']}"

    def choose(self, view: SeatView, legal: Sequence[Action], rng: Rng) -> Action:
        obs = np.frombuffer(self.encoder.encode(view.observation()), dtype=np.float32)
        mask = np.zeros(len(view.game.actions), dtype=np.bool_)
        mask[[a.code for a in legal]] = True
        with torch.no_grad():
            logits, _ = self.net(torch.from_numpy(obs.copy())[None], torch.from_numpy(mask)[None])
        code = int(logits.argmax())
        return next(a for a in legal if a.code == code)


def play(game_id: str, bots: tuple[Bot, Bot], seed: int) -> tuple[float, float]:
    """One game, ``bots[i]`` in seat ``i``: the seats' payoffs."""
    game = get_game(game_id)
    state = game.new_state({}, seed, players=2)
    rngs = (Rng(mix_seed(seed, 0)), Rng(mix_seed(seed, 1)))
    while (d := state.to_act()) is not None:
        legal = state.legal_actions()
        state.apply(bots[d.player].choose(SeatView(state, d.player), legal, rngs[d.player]))
    outcome = state.outcome()
    assert outcome is not None
    return outcome.payoffs[0], outcome.payoffs[1]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkpoints", nargs="*", help="examples/selfplay_ppo.py checkpoints of --game")
    ap.add_argument("--game", default="nak-muay")
    ap.add_argument("--levels", default="random,easy,medium,hard", help="bot levels in the league")
    ap.add_argument("--deals", type=int, default=50, help="paired deals per pairing (2 games each)")
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--threads", type=int, default=1, help="PyTorch CPU threads")
    ap.add_argument("--out", default="", help="where to save (default: benchmarks/results/league-GAME.json)")
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    entrants: dict[str, Bot] = {level: make_bot(level, args.game) for level in args.levels.split(",") if level}
    for path in args.checkpoints:
        bot = CheckpointBot(Path(path), args.game)
        entrants[bot.name] = bot
    names = list(entrants)
    ratings = {name: MODEL.rating(name=name) for name in names}
    points = {pair: 0.0 for pair in itertools.permutations(names, 2)}
    games = dict.fromkeys(points, 0)
    started = time.perf_counter()
    for k in range(args.deals):
        for a, b in itertools.combinations(names, 2):
            seed = mix_seed(args.seed, k)
            for first, second in ((a, b), (b, a)):
                pay = play(args.game, (entrants[first], entrants[second]), seed)
                points[first, second] += pay[0]
                points[second, first] += pay[1]
                games[first, second] += 1
                games[second, first] += 1
                ranks = [1 if pay[0] >= pay[1] else 2, 1 if pay[1] >= pay[0] else 2]  # a draw: both first
                [[r1], [r2]] = MODEL.rate([[ratings[first]], [ratings[second]]], ranks=ranks)
                ratings[first], ratings[second] = r1, r2
    table = []
    for name in sorted(names, key=lambda n: -ratings[n].mu):
        r = ratings[name]
        table.append({"entrant": name, "rating": shown(r.mu),
                      "interval95": [shown(r.mu - 2 * r.sigma), shown(r.mu + 2 * r.sigma)]})
    heads = []
    for (a, b), pts in points.items():
        lo, hi = wilson(pts, games[a, b])
        heads.append({"entrant": a, "against": b, "games": games[a, b], "score": round(pts / games[a, b], 4),
                      "interval95": [round(lo, 4), round(hi, 4)]})
    result = {"game": args.game, "deals": args.deals, "seed": args.seed,
              "seconds": round(time.perf_counter() - started), "ratings": table, "head_to_head": heads}
    out = Path(args.out) if args.out else ROOT / "benchmarks" / "results" / f"league-{args.game}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n")
    for row in table:
        print(f"{row['entrant']:>16}  {row['rating']:5d}  [{row['interval95'][0]}, {row['interval95'][1]}]")
    return result


if __name__ == "__main__":
    main()

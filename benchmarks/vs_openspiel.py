"""knockabout's ``hard`` search against OpenSpiel's own search, the same time per move.

Both play through the OpenSpiel registration (``knockabout.envs.openspiel``) on one
shared state: knockabout's side is the ``hard`` level's ISMCTS (its rollout policy,
prior and cut-off from the game's heuristic plug-in) with its iteration budget replaced
by ``--ms`` milliseconds per decision; OpenSpiel's side is
``open_spiel.python.algorithms.ismcts.ISMCTSBot`` (random-rollout evaluator, UCT c=2,
worlds resampled through ``resample_from_infostate``) — which plays every built-in game,
since each declares hidden information — or, for a game OpenSpiel is told has perfect
information, its ``MCTSBot`` (ISMCTS refuses such games). OpenSpiel's bots
count simulations, not time, so each move's simulation count is set from its measured
rate on the moves before (starting at 4), which keeps its time per move at ``--ms`` on
average; the script reports both sides' mean time per move so this can be checked.
Neither side thinks on a move with one legal action.

Paired seeds, seats rotated: each seed is dealt twice, knockabout in seat 0 and then in
seat 1. Two-player tables only (OpenSpiel's bot takes one seat, knockabout the other).

    # the run in docs/envs.md: all three games, 200 games each, 10 ms a move (about 55 min of one core)
    for g in nak-muay knockdown knockback; do
        nice .venv/bin/python benchmarks/vs_openspiel.py --game $g --games 200 --ms 10
    done
    .venv/bin/python benchmarks/vs_openspiel.py --game nak-muay --games 100 --iterations 30   # same search effort

Results: a summary in ``benchmarks/results/vs_openspiel-<game>.json`` (rewritten after every
pair of games, so a stopped run keeps what it played), with every game ``hard`` did not win
listed by seed and seat so it can be replayed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from knockabout.bots.levels import search_bot
from knockabout.core.bot import SeatView
from knockabout.core.rng import Rng, mix_seed
from knockabout.envs.openspiel import KnockaboutSpielGame, short_name
from knockabout.sim.stats import wilson

RESULTS = Path(__file__).parent / "results"


class PacedSpielBot:
    """An OpenSpiel bot whose simulations per move follow its measured speed (or, with
    ``fixed``, exactly that many simulations a move)."""

    def __init__(self, game: pyspiel.Game, ms: float, seed: int, fixed: int | None = None) -> None:
        self.fixed = fixed
        self.rs = np.random.RandomState(seed)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=self.rs)
        if game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION:
            self.bot: Any = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=4, random_state=self.rs)
            self.kind = "OpenSpiel ISMCTS"
        else:
            self.bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=4, evaluator=evaluator, random_state=self.rs)
            self.kind = "OpenSpiel MCTS"
        self.seconds = ms / 1000.0
        self.rate: float | None = None  # simulations per second, measured
        self.spent = 0.0
        self.moves = 0
        self.sims = 0

    def step(self, state: pyspiel.State) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        # at least 2: ISMCTS spends its first simulation expanding the root
        n = self.fixed or (4 if self.rate is None else max(2, round(self.rate * self.seconds)))
        self.bot._max_simulations = n  # ISMCTS
        self.bot.max_simulations = n  # MCTS
        t0 = time.perf_counter()
        action = int(self.bot.step(state))
        took = time.perf_counter() - t0
        self.rate = n / took if self.rate is None else 0.7 * self.rate + 0.3 * n / took
        self.spent += took
        self.moves += 1
        self.sims += n
        return action


class TimedHard:
    """knockabout's ``hard`` level with a time budget instead of its iteration budget."""

    def __init__(self, game_id: str, ms: float, fixed: int | None = None) -> None:
        self.bot = search_bot("hard", game_id)
        self.bot.iterations = fixed
        self.bot.max_steps = None
        self.bot.time_ms = None if fixed else ms
        self.bot.think_on_forced = False
        self.spent = 0.0
        self.moves = 0
        self.iterations = 0

    def step(self, state: pyspiel.State, rng: Rng) -> int:
        inner = state.inner
        d = inner.to_act()
        legal = inner.legal_actions()
        if len(legal) == 1:
            return int(legal[0].code)
        t0 = time.perf_counter()
        action = self.bot.choose(SeatView(inner, d.player), legal, rng)
        self.spent += time.perf_counter() - t0
        self.moves += 1
        self.iterations += self.bot.last.iterations
        return int(action.code)


def play(
    game: KnockaboutSpielGame, seed: int, ours_at: int, ms: float, fixed: int | None = None
) -> tuple[float, int, TimedHard, PacedSpielBot]:
    """One game: knockabout's score (1 win, 0.5 even draw, 0 loss), its length and both bots."""
    state = game.state_for_seed(seed)
    ours = TimedHard(game.knockabout.id, ms, fixed)
    theirs = PacedSpielBot(game, ms, seed, fixed)
    rng = Rng(mix_seed(seed, "ours", ours_at))
    decisions = 0
    while not state.is_terminal():
        p = state.current_player()
        state.apply_action(ours.step(state, rng) if p == ours_at else theirs.step(state))
        decisions += 1
    outcome = state.inner.outcome()
    assert outcome is not None
    return outcome.payoffs[ours_at], decisions, ours, theirs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", required=True, help="a knockabout game id")
    ap.add_argument("--games", type=int, default=200, help="games in all (an even number: seeds x 2 seats)")
    ap.add_argument("--ms", type=float, default=20.0, help="milliseconds per decision for each side")
    ap.add_argument("--iterations", type=int, default=None,
                    help="instead of time: exactly this many iterations (ours) and simulations (theirs) a move")
    ap.add_argument("--seed", type=int, default=1, help="the first seed")
    ap.add_argument("--config", default="{}", help="the game's options as JSON")
    ap.add_argument("--out", type=Path, default=None, help="where to write the result (JSON)")
    args = ap.parse_args(argv)
    import knockabout.envs.openspiel  # noqa: F401 - registers the games

    game = pyspiel.load_game(short_name(args.game), {"players": 2, "config": args.config})
    assert isinstance(game, KnockaboutSpielGame)
    budget = f"-it{args.iterations}" if args.iterations else ""
    out = args.out or RESULTS / f"vs_openspiel-{args.game}{budget}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    score = 0.0
    games = 0
    ours_ms = theirs_ms = 0.0
    ours_moves = theirs_moves = 0
    ours_iters = theirs_sims = 0
    lengths = []
    not_won: list[dict[str, Any]] = []
    opponent = ""
    start = time.perf_counter()
    for k in range(args.games // 2):
        for seat in (0, 1):
            s, n, ours, theirs = play(game, args.seed + k, seat, args.ms, args.iterations)
            opponent = theirs.kind
            score += s
            games += 1
            lengths.append(n)
            if s < 1.0:
                not_won.append({"seed": args.seed + k, "knockabout_seat": seat, "score": s, "decisions": n})
            ours_ms += ours.spent * 1000
            theirs_ms += theirs.spent * 1000
            ours_moves += ours.moves
            theirs_moves += theirs.moves
            ours_iters += ours.iterations
            theirs_sims += theirs.sims
        lo, hi = wilson(score, games)
        print(f"{args.game}: {games} games, knockabout hard {score / games:.3f} [{lo:.3f}, {hi:.3f}]"
              f" ({time.perf_counter() - start:.0f}s)", file=sys.stderr, flush=True)
        result = {
            "game": args.game,
            "config": json.loads(args.config),
            "games": games,
            "finished": games == 2 * (args.games // 2),
            "ms_per_move": None if args.iterations else args.ms,
            "iterations_per_move": args.iterations,
            "opponent": opponent,
            "knockabout_score": score / games,
            "interval95": [lo, hi],
            "knockabout_ms_per_move": ours_ms / max(1, ours_moves),
            "openspiel_ms_per_move": theirs_ms / max(1, theirs_moves),
            "knockabout_iterations_per_move": ours_iters / max(1, ours_moves),
            "openspiel_simulations_per_move": theirs_sims / max(1, theirs_moves),
            "mean_decisions_per_game": sum(lengths) / len(lengths),
            "seconds": time.perf_counter() - start,
            "not_won": not_won,
        }
        out.write_text(json.dumps(result, indent=1) + "\n")  # after every pair: a stopped run keeps its games
    print(out.read_text().strip())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

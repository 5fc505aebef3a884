"""Bot strength: the bars of issue 3 on 2-player Nak Muay Knockout, and ``hard`` against
``easy`` on every game.

    hard beats random in >= 95 % of games, hard beats easy in >= 65 %, easy beats random in >= 70 %

The ``--group learned`` cases measure the ``learned`` level (a self-play network, issue
41) against ``random``, ``easy`` and ``hard``, and ``hard+learned`` (``hard`` with the
network's pick as its root prior, ``--prior-visits`` virtual wins) against ``hard`` and
``easy``, with issue 41's bars (70 % against ``easy``, 55 % against ``hard``).

    .venv/bin/python benchmarks/bot_strength.py --group learned --games 400 --workers 2

The ``--group hard-easy`` cases measure ``hard`` against ``easy`` on each game as a
player meets it: Nak Muay, KNOCKBACK single-round (``scoring=speed``) and tug of war,
and Knockdown with each box alone (its fighters, arena and skills). They have no bar;
they report the rate with its interval.

Each pairing plays seat-balanced paired deals (both seat orders on every deal) through
``knockabout.sim``, in blocks: block ``b`` uses base seed ``mix_seed(seed, b)``, and the
running tally with its 95 % Wilson interval is printed and saved after every block, so
a long run that must stop early still leaves honest numbers. Results are saved next to
this script (``results/bot_strength-PAIRING.json``); ``knockabout report`` reopens them.

    .venv/bin/python benchmarks/bot_strength.py --games 400 --workers 2
    .venv/bin/python benchmarks/bot_strength.py --only easy-random --games 1000
    .venv/bin/python benchmarks/bot_strength.py --group hard-easy --games 200 --workers 2
    .venv/bin/python benchmarks/bot_strength.py --only hard-easy-knockback-tug --budget-scale 2

``--budget-scale S`` plays a ``hard`` with S times the level's budgets (its ISMCTS
iterations and its simulated actions per decision) in place of ``hard``, to see whether
more search buys strength; its results are saved under the pairing's name plus ``-xS``.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

from knockabout.bots.ismcts import ISMCTSBot
from knockabout.bots.levels import LEVELS, make_bot, search_bot
from knockabout.core.rng import mix_seed
from knockabout.sim import SimResults, SimSpec, run, summarize

GUIDED = "hard+learned"
"""``hard`` whose search starts from the ``learned`` network's pick (``--prior-visits`` virtual
wins at the root, as a game's heuristic prior does), registered when a pairing names it."""


@dataclass(frozen=True)
class Case:
    """One pairing on one game and option set; ``bar`` is the rate it must reach, if any."""

    bot: str
    rival: str
    bar: float | None = None
    game: str = "nak-muay"
    config: tuple[tuple[str, str], ...] = ()


BARS = {
    "hard-easy": Case("hard", "easy", 0.65),
    "hard-random": Case("hard", "random", 0.95),
    "easy-random": Case("easy", "random", 0.70),
}
HARD_EASY = {
    "hard-easy": BARS["hard-easy"],
    "hard-easy-knockback-speed": Case("hard", "easy", game="knockback", config=(("scoring", "speed"),)),
    "hard-easy-knockback-tug": Case("hard", "easy", game="knockback", config=(("scoring", "tug"),)),
    **{
        f"hard-easy-knockdown-{box}": Case("hard", "easy", game="knockdown", config=(("boxes", box),))
        for box in ("tainted_grail", "nemesis", "siege_storm")
    },
}
LEARNED = {  # issue 41's bars: the best level >= 70 % against easy; learned >= 55 % against hard
    "learned-easy": Case("learned", "easy", 0.70),
    "learned-hard": Case("learned", "hard", 0.55),
    "learned-random": Case("learned", "random"),
    "guided-hard": Case(GUIDED, "hard", 0.55),
    "guided-easy": Case(GUIDED, "easy", 0.70),
    "learned-easy-knockback-tug": Case("learned", "easy", 0.70, game="knockback", config=(("scoring", "tug"),)),
    "learned-hard-knockback-tug": Case("learned", "hard", 0.55, game="knockback", config=(("scoring", "tug"),)),
}
CASES = {**BARS, **HARD_EASY, **LEARNED}
GROUPS = {"bars": list(BARS), "hard-easy": list(HARD_EASY), "learned": list(LEARNED)}


def scaled_hard(scale: float) -> str:
    """Register a level like ``hard`` with ``scale`` times its budgets, and name it. The
    simulation's worker processes are forked from this one, so they know it too."""
    name = f"hard-x{scale:g}"

    def make(game_id: str) -> ISMCTSBot:
        bot = search_bot("hard", game_id, label=name)
        if bot.iterations is not None:
            bot.iterations = round(bot.iterations * scale)
        if bot.max_steps is not None:
            bot.max_steps = round(bot.max_steps * scale)
        return bot

    LEVELS[name] = make
    return name


def guided_hard(visits: int) -> None:
    """Register :data:`GUIDED`: ``hard`` with the learned network as its root prior. The
    simulation's worker processes are forked from this one, so they know it too."""

    def make(game_id: str) -> ISMCTSBot:
        bot = search_bot("hard", game_id, label=GUIDED)
        bot.prior, bot.prior_visits = make_bot("learned", game_id), visits
        return bot

    LEVELS[GUIDED] = make


def pairing(name: str, games: int, block: int, seed: int, workers: int, out: Path, scale: float = 1.0) -> bool:
    case = CASES[name]
    bot, rival, bar = case.bot, case.rival, case.bar
    if scale != 1.0:
        bot = scaled_hard(scale) if bot == "hard" else bot
        rival = scaled_hard(scale) if rival == "hard" else rival
        name = f"{name}-x{scale:g}"
    t0 = time.perf_counter()
    merged: SimResults | None = None
    b = 0
    while merged is None or len(merged.games) < games:
        size = min(block, games - (0 if merged is None else len(merged.games)))
        spec = SimSpec(case.game, players=2, games=size, seed=mix_seed(seed, b), bots=(bot, rival),
                       config=dict(case.config))
        part = run(spec, workers=workers)
        if merged is None:
            merged = part
            merged.meta["seed"] = seed
            merged.meta["blocks"] = [spec.seed]
        else:
            offset = len(merged.games)
            merged.games += [replace(g, index=g.index + offset) for g in part.games]
            merged.meta["blocks"].append(spec.seed)
        merged.meta["seconds"] = time.perf_counter() - t0
        merged.meta["requested_games"] = games
        merged.save(out / f"bot_strength-{name}.json")
        line = next(x for x in summarize(merged, bootstrap=0).bots if x.label == bot)
        ok = bar is None or line.rate >= bar
        verdict = "no bar" if bar is None else f"bar {100 * bar:.0f}%: {'PASS' if ok else 'FAIL'}"
        print(
            f"{name}: {bot} vs {rival}: {100 * line.rate:.1f}% of {line.games} games "
            f"(95% Wilson {100 * line.low:.1f}-{100 * line.high:.1f}%), {verdict}; "
            f"{line.ms_per_move:.0f} ms/decision for {bot}; "
            f"{time.perf_counter() - t0:.0f} s",
            flush=True,
        )
        b += 1
    return ok


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=400, help="games per pairing (both seat orders per deal)")
    ap.add_argument("--block", type=int, default=40, help="games between progress reports and saves")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--only", choices=sorted(CASES), action="append", help="run only these pairings")
    ap.add_argument("--group", choices=sorted(GROUPS), default="bars",
                    help="the pairings to run without --only: issue 3's bars, or hard vs easy on every game")
    ap.add_argument("--budget-scale", type=float, default=1.0,
                    help="play hard with this many times its budgets (default 1: the level itself)")
    ap.add_argument("--prior-visits", type=int, default=200,
                    help=f"the virtual wins {GUIDED} gives the learned network's pick at the root")
    ap.add_argument("--out", type=Path, default=Path(__file__).with_name("results"))
    args = ap.parse_args(argv)
    if args.budget_scale <= 0:
        ap.error(f"--budget-scale must be positive, not {args.budget_scale:g}")
    guided_hard(args.prior_visits)
    args.out.mkdir(parents=True, exist_ok=True)
    failed = 0
    for name in args.only or GROUPS[args.group]:
        failed += not pairing(name, args.games, args.block, args.seed, args.workers, args.out, args.budget_scale)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

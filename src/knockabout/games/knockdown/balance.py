"""Balance runs for Knockdown fighters: every fighter against every other, both seat orders.

``python -m knockabout.games.knockdown.balance --bot hard --games 4`` plays, for each
box on its own, every ordered pair of that box's fighters (``games`` seeded matches
each, the same bot level on both sides, the box's arena, deck and skill set), and with
``--merged`` every ordered pair of fighters from all the given boxes mixed (the merging
rules: skill set and arena drawn at random among the boxes). It prints, per group:

* the matrix of match win rates (row fighter against column fighter, draws count half);
* each fighter's win rate against the field, with its 95 % Wilson interval;
* the first-player edge: how often the first player of round 1 (the higher face-up
  initiative) wins the match, and how often a round's first player wins the round;
* each Skill card face up in round 1, by initiative: how often its holder won the match.
  The first player is whoever shows the higher initiative, so a strong card high on the
  scale hands its holder the skill and the tempo together: this table is where a
  first-player edge usually comes from.

Seeds are fixed, so a run is reproducible for a given level and budget.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from knockabout.bots.levels import make_bot
from knockabout.core.bot import SeatView
from knockabout.core.registry import get_game
from knockabout.core.rng import Rng, mix_seed
from knockabout.games.knockdown.content import Skill, builtin_boxes
from knockabout.games.knockdown.state import KnockdownState
from knockabout.sim.matrix import matrix_lines, pct, play_pairings
from knockabout.sim.stats import wilson


@dataclass
class PairResult:
    """``games`` matches of fighter ``a`` (seat 0) against fighter ``b`` (seat 1)."""

    a: str
    b: str
    games: int = 0
    a_points: float = 0.0
    first_points: float = 0.0
    rounds: int = 0
    first_round_wins: int = 0
    draws: int = 0
    seconds: float = 0.0
    skills: dict[tuple[int, str], list[float]] = field(default_factory=dict)
    """(initiative, name) of a Skill card face up in round 1 -> [its holder's points, matches]."""


def play_pair(a: str, b: str, games: int, bot: str, boxes: Sequence[str], seed: int) -> PairResult:
    """``games`` matches with fighter ``a`` in seat 0 and ``b`` in seat 1."""
    g = get_game("knockdown")
    res = PairResult(a, b)
    t0 = time.perf_counter()
    for i in range(games):
        deal = mix_seed(seed, a, b, i)
        s = g.new_state({"boxes": list(boxes), "fighters": [a, b]}, deal)
        assert isinstance(s, KnockdownState)
        bots = [make_bot(bot, "knockdown"), make_bot(bot, "knockdown")]
        rng = Rng(mix_seed(deal, "bots"))
        match_first: int | None = None
        faceup: list[Skill] = []
        first = 0
        while (d := s.to_act()) is not None:
            action = bots[d.player].choose(SeatView(s, d.player), s.legal_actions(), rng)
            for e in s.apply(action):
                if e.type == "first_player":
                    first = int(e.data["player"])
                    match_first = first
                    faceup = [s.setup.skills[s.active_skills(q)[0]] for q in (0, 1)]
                elif e.type == "new_round":
                    first = int(e.data["first"])
                elif e.type == "round_won":
                    res.rounds += 1
                    res.first_round_wins += int(e.data["player"] == first)
        out = s.outcome()
        assert out is not None
        res.games += 1
        res.a_points += out.payoffs[0]
        res.first_points += out.payoffs[match_first if match_first is not None else 0]
        res.draws += int(out.draw)
        for q, sk in enumerate(faceup):
            tally = res.skills.setdefault((sk.initiative, sk.name), [0.0, 0])
            tally[0] += out.payoffs[q]
            tally[1] += 1
    res.seconds = time.perf_counter() - t0
    return res


def groups(boxes: Sequence[str], merged: bool) -> list[tuple[str, tuple[str, ...], list[str]]]:
    """(title, boxes in play, fighter ids) for each box alone, or for all of them mixed."""
    content = builtin_boxes()
    if merged:
        fighters = [f"{b}:{f.id}" for b in boxes for f in content[b].fighters]
        return [(" + ".join(content[b].meta.name for b in boxes), tuple(boxes), fighters)]
    return [(content[b].meta.name, (b,), [f.id for f in content[b].fighters]) for b in boxes]


def run(
    fighters: Sequence[str],
    games: int,
    bot: str,
    boxes: Sequence[str],
    seed: int,
    workers: int,
    on_done: Callable[[PairResult], None] | None = None,
) -> list[PairResult]:
    """Every ordered pair of different ``fighters``, ``games`` matches each."""
    return play_pairings(fighters, play_pair, (games, bot, tuple(boxes), seed), workers, on_done)


def report(title: str, fighters: Sequence[str], results: Sequence[PairResult]) -> str:
    """The matrix, each fighter against the field, and the first-player edge, as Markdown."""
    lines = [f"### {title}", "", *matrix_lines(fighters, results, "fighter", lambda f: f.split(":")[-1])]
    games = sum(r.games for r in results)
    first = sum(r.first_points for r in results)
    rounds = sum(r.rounds for r in results)
    first_rounds = sum(r.first_round_wins for r in results)
    lines += [
        "",
        f"{games} matches, {rounds} rounds, {sum(r.draws for r in results)} drawn matches, "
        f"{sum(r.seconds for r in results):.0f} s of play.",
        f"Round 1's first player wins {100 * first / games:.1f}% of matches ({pct(wilson(first, games))}; "
        f"edge {100 * (first / games - 0.5):+.1f} points over an even share); a round's first player wins "
        f"{100 * first_rounds / max(1, rounds):.1f}% of rounds ({pct(wilson(first_rounds, rounds))}).",
        "",
        *skill_lines(results),
    ]
    return "\n".join(lines)


def skill_lines(results: Sequence[PairResult]) -> list[str]:
    """Each Skill card face up in round 1, highest initiative first: its holder's match win rate."""
    tally: dict[tuple[int, str], list[float]] = {}
    for r in results:
        for key, (points, n) in r.skills.items():
            t = tally.setdefault(key, [0.0, 0])
            t[0] += points
            t[1] += n
    lines = [
        "| initiative | face up in round 1 | held | holder wins | 95 % interval |",
        "|---|---|---|---|---|",
    ]
    for (ini, name), (points, n) in sorted(tally.items(), key=lambda kv: (-kv[0][0], kv[0][1])):
        lines.append(f"| {ini} | {name} | {int(n)} | {100 * points / n:.1f}% | {pct(wilson(points, n))} |")
    return lines


def main(argv: Sequence[str] | None = None) -> None:  # pragma: no cover - a command-line tool
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--bot", default="easy", help="bot level on both sides")
    ap.add_argument("--games", type=int, default=10, help="matches per ordered pair of fighters")
    ap.add_argument("--boxes", nargs="*", default=list(builtin_boxes()), help="box ids")
    ap.add_argument("--merged", action="store_true", help="mix the boxes (merging rules) instead of one by one")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args(argv)
    known = builtin_boxes()
    for b in args.boxes:
        if b not in known:
            ap.error(f"unknown box {b!r}; choose from: {', '.join(known)}")
    for title, boxes, fighters in groups(args.boxes, args.merged):
        results = run(fighters, args.games, args.bot, boxes, args.seed, args.workers)
        print(report(title, fighters, results), "\n", flush=True)


if __name__ == "__main__":  # pragma: no cover
    main()

"""A/B of two content versions: ``knockabout balance compare --a OLD --b NEW``.

Both versions play the same balance run: the same ordered pairings, match ``i`` of ``a``
against ``b`` dealt from the same seed and its bots drawing from the same seeds. Only the
content differs, so for every entrant each match of version B has its twin in version A,
and the change of its rate is measured on those pairs: the mean of the per-match
differences (B's points minus A's) with a 95 % normal interval from their spread. The
luck of the deal cancels out of the difference, which makes this interval much narrower
than the difference of two independent rates (matches whose play did not change at all
contribute exactly zero).

What a version is, is the game's: its balance plug-in turns a file or folder into run
options (:meth:`~knockabout.core.plugins.BalancePlugin.version_options`). Entrants only
one version has are listed without a difference.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from knockabout.core.errors import ConfigError
from knockabout.core.registry import all_games, get_game
from knockabout.sim.balance import plugin_for
from knockabout.sim.balance_run import BalanceRun
from knockabout.sim.stats import paired_mean


@dataclass(frozen=True)
class Change:
    """One entrant's rate in version A and B, and the paired difference."""

    group: str
    entrant: str
    matches: int
    rate_a: float | None
    rate_b: float | None
    diff: float = 0.0
    low: float = 0.0
    high: float = 0.0

    @property
    def paired(self) -> bool:
        return self.rate_a is not None and self.rate_b is not None


def version_options(game_id: str, path: str) -> dict[str, Any]:
    """The run options of the content version at ``path`` (one clear error if the game
    cannot load one)."""
    g = get_game(game_id)
    try:
        return plugin_for(g).version_options(path)
    except ConfigError as exc:
        msg = str(exc)
        raise ConfigError(msg if msg.startswith(g.id) else f"{g.id}: {msg}") from None


def guess_game(path: str) -> str:
    """The one game with a balance plug-in that can load the version at ``path`` (when none
    can, the error gives each plug-in's reason: a broken version says what is broken)."""
    fits = []
    refusals = []
    for g in all_games():
        plugin = g.balance()
        if plugin is None:
            continue
        try:
            plugin.version_options(path)
        except ConfigError as exc:
            msg = str(exc)
            refusals.append(msg if msg.startswith(g.id) else f"{g.id}: {msg}")
            continue
        fits.append(g.id)
    if len(fits) != 1:
        found = "no game" if not fits else " and ".join(fits)
        why = f" ({'; '.join(refusals)})" if not fits and refusals else ""
        raise ConfigError(f"{path}: {found} can load this content version; name the game with --game{why}")
    return fits[0]


def _points(run: BalanceRun) -> dict[tuple[str, str, str, str, int], float]:
    """Each entrant's points in each match: (group, entrant, a, b, i) -> points."""
    out: dict[tuple[str, str, str, str, int], float] = {}
    for group, pairs in zip(run.groups, run.pairs, strict=True):
        for p in pairs:
            for m in p.matches:
                out[(group.title, m.a, m.a, m.b, m.index)] = m.payoffs[0]
                out[(group.title, m.b, m.a, m.b, m.index)] = m.payoffs[1]
    return out


def paired_changes(a: BalanceRun, b: BalanceRun) -> list[Change]:
    """Per group and entrant: rates in A and B and the paired difference of B from A."""
    pa, pb = _points(a), _points(b)
    keys: dict[tuple[str, str], None] = {}
    for k in [*pa, *pb]:
        keys.setdefault((k[0], k[1]), None)
    out = []
    for group, entrant in keys:
        mine_a = {k: v for k, v in pa.items() if k[:2] == (group, entrant)}
        mine_b = {k: v for k, v in pb.items() if k[:2] == (group, entrant)}
        both = sorted(set(mine_a) & set(mine_b))
        rate_a = sum(mine_a.values()) / len(mine_a) if mine_a else None
        rate_b = sum(mine_b.values()) / len(mine_b) if mine_b else None
        if not both:
            out.append(Change(group, entrant, 0, rate_a, rate_b))
            continue
        n = len(both)
        mean, low, high = paired_mean([mine_b[k] - mine_a[k] for k in both])
        ra = sum(mine_a[k] for k in both) / n
        rb = sum(mine_b[k] for k in both) / n
        out.append(Change(group, entrant, n, ra, rb, mean, low, high))
    return out


def compare_lines(changes: list[Change], meta: Mapping[str, Any]) -> list[str]:
    """The A/B report as Markdown."""
    lines = [
        f"A/B of content: {meta['a']} (A) and {meta['b']} (B); {meta['bot']} v {meta['bot']}, seed {meta['seed']}, "
        f"{meta['games']} matches per ordered pairing, the same deals and bot seeds in both.",
        "",
        "| group | entrant | matches | A | B | change (pts) | paired 95 % interval (pts) |",
        "|---|---|---|---|---|---|---|",
    ]
    for c in changes:
        if not c.paired:
            where = "only in A" if c.rate_b is None else "only in B"
            rate = c.rate_a if c.rate_b is None else c.rate_b
            lines.append(f"| {c.group} | {c.entrant} | — | {where}: {100 * (rate or 0):.1f}% | | | |")
            continue
        mark = " **changed**" if c.low > 0 or c.high < 0 else ""
        lines.append(
            f"| {c.group} | {c.entrant} | {c.matches} | {100 * (c.rate_a or 0):.1f}% | {100 * (c.rate_b or 0):.1f}% "
            f"| {100 * c.diff:+.1f}{mark} | {100 * c.low:+.1f} … {100 * c.high:+.1f} |"
        )
    return lines

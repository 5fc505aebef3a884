"""Each card's effect on winning, by paired ablation: ``knockabout balance ablate``.

The per-card statistics of a balance report say how often a side won the matches in
which it played a card. That is a correlation: a card played mostly when its side is
already winning (a finisher) looks strong, one played to dig out of trouble looks weak,
whatever they do. Ablation measures the effect instead. For every card:

* the *base* run plays the card's owners (the entrants whose matches it plays in, as the
  game's balance plug-in says) against every opponent, both seat orders, ``games``
  matches each — the balance run's own pairings, deals and bot seeds;
* the *ablated* run plays exactly the same matches — the same deal and bot seeds for
  match ``i`` of ``a`` against ``b`` — with that one card replaced by the game's neutral
  stand-in (:meth:`~knockabout.core.plugins.BalancePlugin.neutral`);
* the card's effect on an owner is the mean, over the owner's matches, of its points
  with the card minus its points in the twin match without it, with a 95 % normal
  interval from the spread of those differences (the luck of the deal cancels out; a
  match the card never touched differs by exactly zero).

Every version (the base and one per card) is a copy of the run's content files written
into a work folder (:mod:`knockabout.sim.variants`) and loaded the way ``balance
compare`` loads a version, so the base plays exactly the run's matches. The work is cut
into blocks of matches like a balance run's and goes through the shared loop
(:func:`knockabout.sim.runner.execute`): any backend, a checkpoint as blocks finish,
Ctrl+C and ``--resume``. The result is a balance run of the base (its report, with the
per-card statistics) whose ``meta["ablation"]`` holds the effects, largest first.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from knockabout.bots.levels import check_level
from knockabout.core.errors import ConfigError
from knockabout.core.plugins import BalanceMatch, ContentPart, EntrantGroup
from knockabout.core.registry import get_game
from knockabout.sim.balance import GroupRun, pair_result, plugin_for
from knockabout.sim.balance import groups as plan_groups
from knockabout.sim.balance_run import BalanceRun, PairBlock, block_size, match_from, play_block
from knockabout.sim.balance_tables import CardEffect
from knockabout.sim.checkpoint import Checkpoint
from knockabout.sim.executor import Executor
from knockabout.sim.runner import ProgressFn, execute
from knockabout.sim.stats import paired_mean
from knockabout.sim.variants import ContentFiles, spelled


@dataclass(frozen=True)
class AblationSpec:
    """An ablation: the game, the balance options, matches per ordered pairing, the bot
    level on both sides, the base seed, and which cards (names, or entrants whose cards
    to take; empty: every card)."""

    game: str
    options: Mapping[str, Any]
    games: int
    bot: str
    seed: int = 1
    cards: tuple[str, ...] = ()
    files: tuple[str, ...] = ()
    """Only the cards of these content files (names as the plug-in's ``content()`` gives
    them: a studio document's own files); empty: any file's."""


@dataclass
class AblationPlan:
    """What an ablation plays: the cards, the groups of each version (0: the base, then
    one per card), the runs and blocks, and what identifies it for a checkpoint."""

    spec: AblationSpec
    cards: list[ContentPart]
    groups: list[list[EntrantGroup]]
    units: list[PairBlock] = field(default_factory=list)
    runs: tuple[GroupRun, ...] = ()
    identity: dict[str, Any] = field(default_factory=dict)
    content: str = ""

    def version(self, unit: PairBlock) -> int:
        return unit.group // len(self.groups[0])


def _chosen(part: ContentPart, wanted: Sequence[str]) -> bool:
    if not wanted:
        return True
    names = {w.casefold() for w in wanted}
    return part.name.casefold() in names or any(o.casefold() in names for o in part.owners)


def plan_ablation(spec: AblationSpec, workdir: Path) -> AblationPlan:
    """Write the base and every ablated version into ``workdir`` and plan the blocks
    (ConfigError for bad options, a card not found, a stand-in the game refuses)."""
    check_level(spec.bot, spec.game)
    if spec.games < 1:
        raise ConfigError(f"the number of matches a pairing must be at least 1, not {spec.games}")
    g = get_game(spec.game)
    plugin = plugin_for(g)
    plan_groups(g.id, spec.options)  # unknown or bad options: one clear error first
    content = plugin.content(spec.options)
    files = ContentFiles(content)
    cards = [p for p in content.parts if p.card and _chosen(p, spec.cards) and (not spec.files or p.file in spec.files)]
    if not cards:
        known = ", ".join(dict.fromkeys(p.name for p in content.parts if p.card))
        if spec.files and not spec.cards:
            raise ConfigError(f"{g.id}: no card of {', '.join(spec.files)} in this run (its cards: {known})")
        raise ConfigError(f"{g.id}: no card {', '.join(spec.cards)!r} in this run (its cards: {known})")
    texts: list[dict[str, str]] = [{}]
    for part in cards:
        stand_in = plugin.neutral(part, files.data_at(part.file, part.path))
        try:
            texts.append(files.replaced(part, stand_in))
        except ConfigError as exc:
            raise ConfigError(f"{g.id}: the neutral stand-in of {part.name!r} is refused: {exc}") from None
    groups = []
    for k, changed in enumerate(texts):
        folder = files.write(workdir / f"v{k}", changed)
        try:
            options = {**content.options, **plugin.version_options(str(folder))}
        except ConfigError as exc:
            what = "the run's content" if k == 0 else f"the content without {cards[k - 1].name!r}"
            raise ConfigError(f"{g.id}: {what} does not load: {exc}") from None
        groups.append(plan_groups(g.id, options))
    plan = AblationPlan(spec, cards, groups)
    size = block_size(spec.games)
    per = len(groups[0])
    owners = [set(p.owners) for p in cards]
    anyone = set().union(*owners)
    runs = []
    touched: list[tuple[int, str, str]] = []
    for k, version in enumerate(groups):
        mine = anyone if k == 0 else owners[k - 1]
        for j, gr in enumerate(version):
            runs.append(GroupRun(g.id, gr, spec.games, spec.bot, spec.seed))
            touched += [(k * per + j, a, b) for a in gr.entrants for b in gr.entrants
                        if a != b and (a in mine or b in mine)]
    plan.runs = tuple(runs)
    plan.units = [PairBlock(r, a, b, start, min(spec.games, start + size))
                  for start in range(0, spec.games, size) for r, a, b in touched]
    plan.identity = {
        "game": g.id, "rules_version": g.rules_version, "options": dict(spec.options), "bot": spec.bot,
        "seed": spec.seed, "games": spec.games, "block": size,
        "cards": [f"{p.file}:{spelled(p.path)}" for p in cards],
    }
    h = hashlib.sha256(f"{g.id}\0{g.content_hash()}".encode())
    for name in sorted(files.text):
        h.update(f"\0{name}\0".encode() + files.text[name].encode())
    for changed in texts[1:]:
        for name, text in sorted(changed.items()):
            h.update(f"\0ablated {name}\0".encode() + text.encode())
    plan.content = h.hexdigest()
    return plan


def run_ablation(plan: AblationPlan, executor: Executor, checkpoint: Checkpoint | None = None,
                 progress: ProgressFn | None = None) -> BalanceRun:
    """Play the plan; the base as a balance run with the effects in ``meta["ablation"]``."""
    spec = plan.spec
    ck = checkpoint or Checkpoint(None, "ablation", plan.identity, plan.content)
    outcome = execute(plan.units, partial(play_block, plan.runs), executor, ck, progress=progress)
    points, by_pair, secs = played(plan, outcome.data)
    g = get_game(spec.game)
    run = BalanceRun(
        {
            "game": g.id, "name": g.name, "rules_version": g.rules_version, "options": dict(spec.options),
            "bot": spec.bot, "seed": spec.seed, "games": spec.games, "backend": executor.name,
            "workers": executor.workers, "seconds": outcome.seconds, "content": ck.content,
            "entrant_kind": plugin_for(g).entrant_kind,
        },
        plan.groups[0],
    )
    for j, gr in enumerate(plan.groups[0]):
        run.pairs.append([pair_result(a, b, by_pair[(j, a, b)], secs[(j, a, b)])
                          for a in gr.entrants for b in gr.entrants if (j, a, b) in by_pair])
    effects = effects_of(plan, points)
    run.meta["ablation"] = {"cards": [p.name for p in plan.cards], "effects": [e.to_dict() for e in effects]}
    return run


Points = dict[tuple[int, str, str, str, int], float]
"""Each match's points by (version, group, entrant, ``a>b`` of the pairing, match index)."""


def played(plan: AblationPlan, data: Mapping[int, Any]) -> tuple[
        Points, dict[tuple[int, str, str], list[BalanceMatch]], dict[tuple[int, str, str], float]]:
    """What the finished blocks ``data`` (by unit position) hold: every match's points, and
    the base version's matches and seconds by (group index, a, b)."""
    points: Points = {}
    by_pair: dict[tuple[int, str, str], list[BalanceMatch]] = {}
    secs: dict[tuple[int, str, str], float] = {}
    per = len(plan.groups[0])
    for pos in sorted(data, key=lambda p: (plan.units[p].start, p)):
        u = plan.units[pos]
        k, j = divmod(u.group, per)
        title = plan.groups[0][j].title
        matches = [match_from(u.a, u.b, m) for m in data[pos]["matches"]]
        for m in matches:
            points[(k, title, m.a, f"{m.a}>{m.b}", m.index)] = m.payoffs[0]
            points[(k, title, m.b, f"{m.a}>{m.b}", m.index)] = m.payoffs[1]
        if k == 0:
            by_pair.setdefault((j, u.a, u.b), []).extend(matches)
            secs[(j, u.a, u.b)] = secs.get((j, u.a, u.b), 0.0) + float(data[pos]["seconds"])
    return points, by_pair, secs


def effects_of(plan: AblationPlan, points: Mapping[tuple[int, str, str, str, int], float]) -> list[CardEffect]:
    """Each card's effect on each of its owners, from every match's points (largest first)."""
    out = []
    for k, part in enumerate(plan.cards, 1):
        for gr in plan.groups[0]:
            for owner in (e for e in gr.entrants if e in part.owners):
                keys = [key for key in points if key[0] == k and key[1] == gr.title and key[2] == owner]
                pairs = [(points[(0, *key[1:])], points[key]) for key in keys if (0, *key[1:]) in points]
                if not pairs:
                    continue
                n = len(pairs)
                mean, low, high = paired_mean([with_ - without for with_, without in pairs])
                out.append(CardEffect(gr.title, owner, part.name, n, sum(p for p, _ in pairs) / n,
                                      sum(q for _, q in pairs) / n, mean, low, high))
    return sorted(out, key=lambda e: -e.effect)


def effects_from(meta: Mapping[str, Any]) -> list[CardEffect]:
    """The effects a saved run's metadata holds (none for a plain balance run)."""
    data = meta.get("ablation")
    return [CardEffect.from_dict(e) for e in data["effects"]] if isinstance(data, dict) else []


def ablation_lines(effects: Sequence[CardEffect], usage: Mapping[tuple[str, str, str], tuple[float, float, float]],
                   kind: str) -> list[str]:
    """The effects as Markdown, each beside what the usage statistics say of the card
    (``usage``: (group, entrant, card) -> the side's win rate where it played the card
    minus its average, and that difference's interval)."""
    grouped = any(e.group for e in effects)
    head = ["group"] if grouped else []
    head += [kind, "card", "matches", "with it", "with the stand-in", "effect (pts)", "paired 95 % interval",
             "usage says (pts)"]
    lines = ["| " + " | ".join(head) + " |", "|---" * len(head) + "|"]
    for e in effects:
        mark = " **helps**" if e.low > 0 else " **hurts**" if e.high < 0 else ""
        u = usage.get((e.group, e.entrant, e.card))
        said = "—" if u is None else f"{100 * u[0]:+.1f} ({100 * u[1]:+.1f} … {100 * u[2]:+.1f})"
        cells = [e.group] if grouped else []
        cells += [e.entrant, e.card, str(e.matches), f"{100 * e.rate:.1f}%", f"{100 * e.without:.1f}%",
                  f"{100 * e.effect:+.1f}{mark}", f"{100 * e.low:+.1f} … {100 * e.high:+.1f}", said]
        lines.append("| " + " | ".join(cells) + " |")
    return lines

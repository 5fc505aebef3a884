"""Knockdown's balance plug-in: every fighter against every other.

``knockabout balance knockdown`` plays, for each box on its own, every ordered pair of
that box's fighters (the box's arena, deck and skill set), and with ``merged`` every
ordered pair of fighters from all the given boxes mixed (the merging rules: skill set
and arena drawn at random among the boxes). Options: ``boxes`` (default: every box) and
``merged``.

A match's first player is whoever shows the higher initiative on the Skill card face up
in round 1; each later round's first player is named when it starts. The report adds a
table of each Skill card face up in round 1, by initiative: how often its holder won the
match. The first player is whoever shows the higher initiative, so a strong card high on
the scale hands its holder the skill and the tempo together: this table is where a
first-player edge usually comes from.

Per-card statistics: an attack card is *drawn* when it is taken into a hand and
*played* when it attacks, dashes or blocks.

Content versions (``balance compare``): the option ``version`` names a folder, one box
folder or a folder of box folders (:func:`.content.load_version`); its boxes replace the
shipped boxes of the same id. The matches of such a run are started here, through
:meth:`.game.KnockdownGame.deal` with the version, the same way ``new_state`` starts them,
so a version that is a copy of the shipped content plays exactly the shipped matches.

Ablation and tuning (:meth:`~KnockdownBalance.content`): each box in play is five files
``<box>/<kind>.toml`` of a content version. Its Attack cards are the cards (the deck is
shared, so a card belongs to every fighter whose matches deal from that box's deck); a
fighter sheet belongs to its fighter; the skills, the arena and the box file to every
fighter of the groups that play them. A card's neutral stand-in keeps its name, symbols
and copies (the symbols pay for Special Attacks, the copies fill the deck) and becomes a
plain strike: one light wound at range 1, no effect.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from knockabout.core.errors import ConfigError, ContentError
from knockabout.core.events import Event
from knockabout.core.plugins import (
    BalanceMatch,
    BalancePlugin,
    ContentFile,
    ContentPart,
    EntrantGroup,
    MatchMetrics,
    RateTable,
    RunContent,
)
from knockabout.core.protocol import State
from knockabout.games.knockdown.content.loader import FILES, Box, box_folders, boxes_for, version_digest
from knockabout.games.knockdown.content.models import FILE_MODELS

if TYPE_CHECKING:
    from knockabout.games.knockdown.game import KnockdownGame

VERSION = "version"


class _Watcher:
    """The first player of the match and of each round, who wins each round, the Skill
    cards face up in round 1 (read from the ``skill_revealed`` events that come just
    before the match's ``first_player``), and each seat's attack cards: taken into hand
    (drawn) and used to attack, dash or block (played)."""

    def __init__(self) -> None:
        self.match_first: int | None = None
        self.first = 0
        self.revealed: dict[int, tuple[int, str]] = {}
        self.rounds: list[tuple[int, int | None]] = []
        self.cards: list[dict[str, list[int]]] = [{}, {}]

    def _card(self, player: object, name: object, which: int) -> None:
        self.cards[int(str(player))].setdefault(str(name), [0, 0])[which] += 1

    def see(self, state: State, events: Sequence[Event]) -> None:
        for e in events:
            if e.type == "take":
                self._card(e.data["player"], e.data["card"], 0)
            elif e.type in ("attack", "dash"):
                self._card(e.data["player"], e.data["card"], 1)
            elif e.type == "block":
                for name in e.data["cards"]:
                    self._card(e.data["player"], name, 1)
            elif e.type == "skill_revealed" and self.match_first is None:
                self.revealed[int(e.data["player"])] = (int(e.data["initiative"]), str(e.data["skill"]))
            elif e.type == "first_player":
                self.first = int(e.data["player"])
                self.match_first = self.first
            elif e.type == "new_round":
                self.first = int(e.data["first"])
            elif e.type == "round_won":
                self.rounds.append((self.first, int(e.data["player"])))

    def metrics(self) -> MatchMetrics:
        faceup = [self.revealed[q] for q in (0, 1)] if self.match_first is not None else []
        return MatchMetrics(
            first=self.match_first or 0, rounds=self.rounds, extra={"faceup": faceup}, cards=self.cards
        )


def version_boxes(version: str | None) -> dict[str, Box]:
    """The boxes of a run: shipped, or those of the content version (one clear error)."""
    try:
        return boxes_for(version)
    except ContentError as exc:
        raise ConfigError(f"knockdown: version: {exc}") from None


class KnockdownBalance(BalancePlugin):
    entrant_kind: ClassVar[str] = "fighter"
    options: ClassVar[Mapping[str, str]] = {
        "boxes": "the boxes whose fighters meet (default: every box)",
        "merged": "true: one matrix of every fighter of the boxes mixed (merging rules); false: box by box",
        VERSION: "a box folder, or a folder of box folders, whose boxes replace the shipped ones of the same id "
                 "(balance compare)",
    }

    def __init__(self, game: KnockdownGame) -> None:
        self.game = game

    def groups(self, options: Mapping[str, Any]) -> list[EntrantGroup]:
        version = options.get(VERSION)
        version = None if version is None else str(version)
        content = version_boxes(version)
        shared: dict[str, Any] = {} if version is None else {VERSION: version}
        given = options.get("boxes") or list(content)
        boxes = [b.strip() for b in given.split(",") if b.strip()] if isinstance(given, str) else list(given)
        for b in boxes:
            if b not in content:
                raise ConfigError(f"unknown box {b!r}; choose from: {', '.join(content)}")
        merged = options.get("merged", False)
        if not isinstance(merged, bool):
            raise ConfigError(f"merged must be true or false, not {merged!r}")
        if merged:
            fighters = tuple(f"{b}:{f.id}" for b in boxes for f in content[b].fighters)
            return [EntrantGroup(" + ".join(content[b].meta.name for b in boxes), fighters,
                                 {"boxes": boxes, **shared})]
        return [EntrantGroup(content[b].meta.name, tuple(f.id for f in content[b].fighters), {"boxes": [b], **shared})
                for b in boxes]

    def pairing_config(self, group: EntrantGroup, a: str, b: str) -> dict[str, Any]:
        return {**group.config, "fighters": [a, b]}

    def start(self, group: EntrantGroup, a: str, b: str, seed: int) -> State | None:
        config = self.pairing_config(group, a, b)
        version = config.pop(VERSION, None)
        if version is None:
            return None
        return self.game.deal(self.game.make_config(config), seed, str(version))

    def version_options(self, path: str) -> dict[str, Any]:
        version_boxes(path)  # a bad folder is one clear error now
        return {VERSION: path}

    def content(self, options: Mapping[str, Any]) -> RunContent:
        groups = self.groups(options)
        version = options.get(VERSION)
        version = None if version is None else str(version)
        try:
            folders = box_folders(version)
        except ContentError as exc:
            raise ConfigError(f"knockdown: version: {exc}") from None
        boxes = version_boxes(version)
        merged = bool(options.get("merged", False))
        everyone = tuple(e for g in groups for e in g.entrants)
        files: list[ContentFile] = []
        parts: list[ContentPart] = []
        for b in dict.fromkeys(b for g in groups for b in g.config["boxes"]):
            box = boxes[b]
            own = tuple(f"{b}:{f.id}" if merged else f.id for f in box.fighters)
            shared = everyone if merged else own  # merged: arena and skills drawn among the boxes
            files += [ContentFile(f"{b}/{kind}.toml", folders[b] / f"{kind}.toml", FILE_MODELS[kind]) for kind in FILES]
            parts += [ContentPart(f"{b}/attacks.toml", ("card", i), c.name, shared) for i, c in enumerate(box.cards)]
            parts += [ContentPart(f"{b}/fighters.toml", ("fighter", j), f.name, (own[j],), card=False)
                      for j, f in enumerate(box.fighters)]
            parts += [ContentPart(f"{b}/fighters.toml", ("fighter", j, "special", k), f"{f.name}'s {sp.name}",
                                  (own[j],), card=False)
                      for j, f in enumerate(box.fighters) for k, sp in enumerate(f.special)]
            parts += [ContentPart(f"{b}/{kind}.toml", (), kind, shared, card=False)
                      for kind in ("box", "arena", "skills")]
        return RunContent(tuple(files), tuple(parts), {k: v for k, v in options.items() if k != VERSION})

    def neutral(self, part: ContentPart, data: Mapping[str, Any]) -> dict[str, Any]:
        if not part.file.endswith("/attacks.toml"):
            raise ConfigError(f"knockdown: only Attack cards have a neutral stand-in, not {part.name!r}")
        return {"name": data["name"], "symbols": list(data["symbols"]), "light": 1, "range": "1",
                "copies": data.get("copies", 3)}

    def content_digest(self, options: Mapping[str, Any]) -> str:
        version = options.get(VERSION)
        return "" if version is None else version_digest(str(version))

    def watch(self, state: State) -> _Watcher:
        return _Watcher()

    def label(self, entrant: str) -> str:
        return entrant.split(":")[-1]

    def rate_tables(self, group: EntrantGroup, matches: Sequence[BalanceMatch]) -> list[RateTable]:
        """Each Skill card face up in round 1, highest initiative first: its holder's match points."""
        tally: dict[tuple[int, str], list[float]] = {}
        for m in matches:
            for q, (initiative, name) in enumerate(m.metrics.extra["faceup"]):
                t = tally.setdefault((initiative, name), [0.0, 0])
                t[0] += m.payoffs[q]
                t[1] += 1
        rows = [
            ((str(ini), name), points, int(n))
            for (ini, name), (points, n) in sorted(tally.items(), key=lambda kv: (-kv[0][0], kv[0][1]))
        ]
        return [RateTable(("initiative", "face up in round 1"), "held", "holder wins", rows)]

"""KNOCKBACK's balance plug-in: every pack against every other.

``knockabout balance knockback`` pits the packs against each other (the built-in set plus
any ``pack_files``), all in one matrix; ``meet`` picks the packs that meet (default: all).
Every table option but ``packs`` may be given (``scoring``, ``max_turns``…) and holds for
every match. Besides the matrix, the report
gives the first-player edge: a match's first player is the first round's starter (who
places first and fights first), and each round's first player is that round's starter.

Per-card statistics: a creature is *drawn* by a seat for every round it is in that seat's
line-up, and *played* every time that seat activates it.

Content versions (``balance compare``): the option ``version`` names a pack file or a
folder of packs; its packs replace the built-in packs of the same id and add the others.
The matches of such a run are started here (the game's ``new_state`` knows only the
built-in packs and ``pack_files``), the same way ``new_state`` starts them.

Ablation and tuning (:meth:`~KnockbackBalance.content`): every pack a run plays is one
file ``<pack id>.toml`` of a content version (the packs that do not meet stay as they are),
each of its cards a part owned by the pack.
A card's neutral stand-in (:data:`NEUTRAL`) is a plain card about as strong as the shipped
set's average: move then punch, attack 3 north and east and 2 south and west, heart 3 on
every edge, and an ability that changes nothing (its knockback is the rules' default of
one cell); it keeps the card's name.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from knockabout.core.content_versions import CONTENT_OPTION
from knockabout.core.errors import ConfigError, ContentError
from knockabout.core.events import Event
from knockabout.core.plugins import BalancePlugin, ContentFile, ContentPart, EntrantGroup, MatchMetrics, RunContent
from knockabout.core.protocol import State
from knockabout.games.knockback import content
from knockabout.games.knockback.config import KnockbackConfig
from knockabout.games.knockback.state import KnockbackState

if TYPE_CHECKING:
    from knockabout.games.knockback.game import KnockbackGame

VERSION = "version"
MEET = "meet"
CONTENT_OPTIONS = (VERSION, "pack_files")
"""The options that name the packs a run plays (a written content version replaces them)."""

NEUTRAL: Mapping[str, Any] = {
    "actions": ["move", "punch"],
    "edges": {
        "north": {"attack": 3, "heart": 3},
        "east": {"attack": 3, "heart": 3},
        "south": {"attack": 2, "heart": 3},
        "west": {"attack": 2, "heart": 3},
    },
    "ability": {"kind": "punching", "effects": [{"op": "knockback", "cells": 1}]},
}
"""A card's neutral stand-in, but for its name: an average card of the shipped set. A pack
of three of them (edges turned) scores 54-70 % against the shipped packs with easy bots;
one point less heart or attack on a second edge drops it to 1-20 %, so this is as near an
even card as whole numbers get."""


class _Watcher:
    """Who starts the match and each round, who wins each round, and each seat's cards:
    rounds in its line-up (drawn) and activations (played)."""

    def __init__(self, state: State) -> None:
        assert isinstance(state, KnockbackState)
        self.first = self.starter = state.starter
        self.rounds: list[tuple[int, int | None]] = []
        self.cards: list[dict[str, list[int]]] = [{}, {}]
        if not any(state.hands):  # no draft: the line-ups are set from the start
            self._lineups(state)

    def _lineups(self, state: KnockbackState) -> None:
        for i, card in enumerate(state.lab):
            self.cards[i // 3].setdefault(card.name, [0, 0])[0] += 1

    def see(self, state: State, events: Sequence[Event]) -> None:
        for e in events:
            if e.type == "round_over":
                winner = e.data["winner"]
                self.rounds.append((self.starter, None if winner is None else int(winner)))
            elif e.type == "round_start":
                self.starter = int(e.data["starter"])
                assert isinstance(state, KnockbackState)
                self._lineups(state)
            elif e.type == "activate":
                self.cards[int(e.data["player"])].setdefault(str(e.data["name"]), [0, 0])[1] += 1

    def metrics(self) -> MatchMetrics:
        return MatchMetrics(first=self.first, rounds=self.rounds, cards=self.cards)


@cache
def version_packs(path: str) -> tuple[content.Pack, ...]:
    """The built-in packs with those of ``path`` (a pack file or folder) in their place."""
    try:
        files = content.pack_files([path])
        if not files:
            raise ContentError(f"{path}: no *.toml pack files there")
        mine = [content.load_pack(f) for f in files]
    except ContentError as exc:
        raise ConfigError(f"knockback: version: {exc}") from None
    ids = {p.id for p in mine}
    return tuple(sorted([*(p for p in content.builtin_packs() if p.id not in ids), *mine], key=lambda p: p.id))


class KnockbackBalance(BalancePlugin):
    entrant_kind: ClassVar[str] = "pack"
    options: ClassVar[Mapping[str, str]] = {
        **{name: f.description or name for name, f in KnockbackConfig.model_fields.items()
           if name not in ("packs", CONTENT_OPTION)},  # an upload is played as a version (version=FOLDER)
        VERSION: "a pack file or folder whose packs replace the built-in ones of the same id (balance compare)",
        MEET: "the packs that meet (default: every pack)",
    }

    def __init__(self, game: KnockbackGame) -> None:
        self.game = game

    def groups(self, options: Mapping[str, Any]) -> list[EntrantGroup]:
        config = dict(options)
        version = config.pop(VERSION, None)
        meet = config.pop(MEET, None)
        cfg = self.game.make_config(config)  # a bad scoring mode is one clear error
        packs = self.game.packs(cfg.pack_files)  # and so is a bad pack file
        if version is not None:
            if cfg.pack_files:
                raise ConfigError("knockback: give a content version or pack_files, not both")
            packs = version_packs(str(version))
            config[VERSION] = str(version)
        ids = tuple(p.id for p in packs)
        if meet is not None:
            wanted = _listed(meet)
            unknown = [w for w in wanted if w not in ids]
            if unknown:
                raise ConfigError(f"knockback: meet: unknown pack {unknown[0]!r}; choose from: {', '.join(ids)}")
            ids = tuple(i for i in ids if i in wanted)
        return [EntrantGroup("", ids, config)]

    def pairing_config(self, group: EntrantGroup, a: str, b: str) -> dict[str, Any]:
        return {**group.config, "packs": [a, b]}

    def start(self, group: EntrantGroup, a: str, b: str, seed: int) -> State | None:
        version = group.config.get(VERSION)
        if version is None:
            return None
        cfg = self.game.make_config({k: v for k, v in group.config.items() if k != VERSION} | {"packs": [a, b]})
        return self.game.deal(cfg, version_packs(str(version)), seed)

    def watch(self, state: State) -> _Watcher:
        return _Watcher(state)

    def label(self, entrant: str) -> str:
        return entrant.split("-")[0]

    def version_options(self, path: str) -> dict[str, Any]:
        version_packs(path)  # a bad file or folder is one clear error now
        return {VERSION: path}

    def content(self, options: Mapping[str, Any]) -> RunContent:
        config = {k: v for k, v in options.items() if k != MEET}
        version = config.pop(VERSION, None)
        cfg = self.game.make_config(config)
        packs = version_packs(str(version)) if version is not None else self.game.packs(cfg.pack_files)
        playing = set(self.groups(options)[0].entrants)
        files = tuple(ContentFile(f"{p.id}.toml", Path(p.source), content.PackModel) for p in packs if p.id in playing)
        parts = tuple(
            ContentPart(f"{p.id}.toml", ("cards", i), card.name, (p.id,))
            for p in packs if p.id in playing for i, card in enumerate(p.model.cards)
        )
        return RunContent(files, parts, {k: v for k, v in options.items() if k not in CONTENT_OPTIONS})

    def neutral(self, part: ContentPart, data: Mapping[str, Any]) -> dict[str, Any]:
        return {"name": data["name"], **NEUTRAL}

    def content_digest(self, options: Mapping[str, Any]) -> str:
        paths = [*_listed(options.get("pack_files")), *_listed(options.get(VERSION))]
        h = hashlib.sha256()
        try:
            for f in content.pack_files(paths):
                h.update(f.name.encode() + b"\0" + f.read_bytes())
        except (ContentError, OSError):
            return ""  # the run itself reports the bad file
        return h.hexdigest() if paths else ""


def _listed(value: object) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    return [str(v) for v in value] if isinstance(value, list | tuple) else [str(value)]

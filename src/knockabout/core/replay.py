"""Replay records: ``(game, rules version, config, seed, content hash, actions)``.

A record is enough to rebuild the exact state of a game: start from
``new_state(config, seed)`` and apply the actions in order. Records are JSON.
A game that started from an arranged position (a tutorial's) keeps the arrangement
(``arrangement``): it starts from ``arrange(config, arrangement, seed)`` instead.
A record may also keep the seats' display names (``names``), so a replay tells the
game with the names it was played under; they play no part in the rules.

A game played with an uploaded content version (its config's ``content`` option, see
:mod:`knockabout.core.content_versions`) can carry that version's files
(``content_files``), as a server's downloaded record does: a replay elsewhere installs
them first, after checking that they are the version the config names (a version's id is
the hash of its files), so the record replays on a machine that never saw the upload.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from knockabout.core.actions import Action
from knockabout.core.errors import KnockaboutError, ReplayError
from knockabout.core.events import Event
from knockabout.core.protocol import Game, State
from knockabout.core.registry import get_game
from knockabout.core.rng import SECRET_SEED_BITS

RECORD_FORMAT = 1


@dataclass
class GameRecord:
    game: str
    rules_version: str
    config: dict[str, Any]
    seed: int
    content_hash: str = ""
    actions: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    """The seats' display names, in seat order (empty: not kept)."""
    arrangement: dict[str, Any] | None = None
    """The arranged position the game started from (:meth:`Game.arrange`), None: a deal."""
    content_files: dict[str, str] | None = None
    """The files of the content version the config names, carried along (None: not carried)."""

    def start(self, game: Game[Any]) -> State:
        """The state the record's game starts from: its deal, or its arranged position."""
        if self.arrangement is not None:
            return game.arrange(self.config, self.arrangement, self.seed)
        return game.new_state(self.config, self.seed)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.game,
            "rules_version": self.rules_version,
            "config": self.config,
            "seed": self.seed,
            "content_hash": self.content_hash,
            "actions": list(self.actions),
        }
        if self.names:
            out["names"] = list(self.names)
        if self.arrangement is not None:
            out["arrangement"] = self.arrangement
        if self.content_files is not None:
            out["content_files"] = dict(self.content_files)
        return out

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameRecord:
        if not isinstance(data, Mapping):
            raise ReplayError("a replay record must be a JSON object")
        missing = [k for k in ("game", "rules_version", "config", "seed", "actions") if k not in data]
        if missing:
            raise ReplayError(f"replay record is missing {', '.join(missing)}")
        if not isinstance(data["actions"], list) or not all(
            isinstance(a, str) for a in data["actions"]
        ):
            raise ReplayError("replay record 'actions' must be a list of action texts")
        if not isinstance(data["seed"], int) or isinstance(data["seed"], bool):
            raise ReplayError("replay record 'seed' must be an integer")
        if not 0 <= data["seed"] < 1 << SECRET_SEED_BITS:
            raise ReplayError(f"replay record 'seed' must be between 0 and 2**{SECRET_SEED_BITS} - 1")
        if not isinstance(data["config"], Mapping):
            raise ReplayError("replay record 'config' must be an object")
        names = data.get("names", [])
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ReplayError("replay record 'names' must be a list of seat names")
        arrangement = data.get("arrangement")
        if arrangement is not None and not isinstance(arrangement, Mapping):
            raise ReplayError("replay record 'arrangement' must be an object")
        files = data.get("content_files")
        if files is not None and not (isinstance(files, Mapping) and all(
                isinstance(k, str) and isinstance(v, str) for k, v in files.items())):
            raise ReplayError("replay record 'content_files' must be an object of file names and their texts")
        return cls(
            game=str(data["game"]),
            rules_version=str(data["rules_version"]),
            config=dict(data["config"]),
            seed=int(data["seed"]),
            content_hash=str(data.get("content_hash", "")),
            actions=list(data["actions"]),
            names=list(names),
            arrangement=None if arrangement is None else dict(arrangement),
            content_files=None if files is None else dict(files),
        )

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ReplayError(f"replay record is not valid JSON: {exc}") from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise ReplayError(f"cannot read replay file {path}: {exc.strerror}") from None
        return cls.from_json(text)


def replay(record: GameRecord | Mapping[str, Any], *, check_versions: bool = True) -> State:
    """Rebuild the state a record describes, applying every action through the checked
    entry point. Raises :class:`ReplayError` naming the step that fails."""
    rec = record if isinstance(record, GameRecord) else GameRecord.from_dict(record)
    try:
        game = get_game(rec.game)
    except KnockaboutError as exc:
        raise ReplayError(str(exc)) from None
    if check_versions and rec.rules_version != game.rules_version:
        raise ReplayError(
            f"record was made with {rec.game} rules {rec.rules_version}, "
            f"this build plays rules {game.rules_version}"
        )
    if check_versions and rec.content_hash and rec.content_hash != game.content_hash():
        raise ReplayError(
            f"record was made with different {rec.game} content "
            f"(hash {rec.content_hash[:12]}, this build has {game.content_hash()[:12]})"
        )
    if rec.content_files is not None:
        install_content(rec)
    try:
        state = rec.start(game)
    except KnockaboutError as exc:
        raise ReplayError(f"record {'arrangement' if rec.arrangement is not None else 'config'}: {exc}") from None
    for i, text in enumerate(rec.actions):
        try:
            state.apply(text)
        except KnockaboutError as exc:
            raise ReplayError(f"step {i + 1} ({text!r}): {exc}") from None
    return state


def install_content(rec: GameRecord) -> None:
    """Install the content version a record carries, once it is checked to be the version
    its config names (:class:`ReplayError` otherwise: nothing is written)."""
    from knockabout.core import content_versions

    files = rec.content_files or {}
    named = str(rec.config.get(content_versions.CONTENT_OPTION) or "")
    try:
        content_versions.check_files(files)
    except ValueError as exc:
        raise ReplayError(f"replay record 'content_files': {exc}") from None
    if not named:
        raise ReplayError("replay record carries content files, but its config names no content version")
    if content_versions.version_id(rec.game, files) != named:
        raise ReplayError(f"replay record 'content_files' are not content version {named[:40]} of {rec.game} "
                          "(changed, or of another version)")
    content_versions.install(rec.game, files)


class Match:
    """A state together with its record: what a table or a CLI game keeps."""

    def __init__(
        self,
        game: Game[Any] | str,
        config: Mapping[str, Any] | BaseModel | None = None,
        seed: int = 0,
        arrangement: Mapping[str, Any] | None = None,
    ) -> None:
        self.game = get_game(game) if isinstance(game, str) else game
        cfg = self.game.make_config(config)
        self.record = GameRecord(
            game=self.game.id,
            rules_version=self.game.rules_version,
            config=cfg.model_dump(mode="json"),
            seed=seed,
            content_hash=self.game.content_hash(),
            arrangement=None if arrangement is None else dict(arrangement),
        )
        self.state = self.record.start(self.game) if arrangement is not None else self.game.new_state(cfg, seed)

    @classmethod
    def from_record(cls, record: GameRecord) -> Match:
        m = cls.__new__(cls)
        m.game = get_game(record.game)
        m.state = replay(record)
        m.record = GameRecord(**{**record.__dict__, "actions": list(record.actions)})
        return m

    def apply(self, action: Action | str) -> list[Event]:
        events = self.state.apply(action)
        # apply() accepted it, so it parsed; store the canonical text
        text = action if isinstance(action, str) else action.text
        self.record.actions.append(self.game.actions.parse(text).text)
        return events

"""A tutorial's scenario file: the arranged table and the steps, validated on load.

A game keeps its lesson in its own package (``Game.tutorial``, e.g. ``tutorial.toml``)::

    title = "Learn Nak Muay Knockout"
    names = ["You", "Coach"]     # the seats; the learner sits at ``learner`` (0)
    seed = 7                     # chance left after the arrangement (shuffles, dice)
    config = { players = 2 }     # the table's options (every sentence is true under them)
    arrangement = { ... }        # the game's own arranged start (Game.arrange)

    [[steps]]
    title = "Draw"
    text = "..."                 # the rule, in plain words
    highlight = "choices"        # the screen part it speaks about
    expect = "draw"              # the learner's move (none: the step waits for Next)
    wrong = "..."                # the short correction for any other move
    corrections = { dodge = "..." }   # or one for a particular move
    opponent = ["draw"]          # the other seats' scripted moves after it, in order
    after = "..."                # what happened and why (shown once they are done)
    checks = [{ on = "view", path = "/hand", contains = "block" }]   # what ``text`` claims
    after_checks = [...]         # what ``after`` claims

    [finish]
    title = "..."
    text = "..."

Every claim a step's text makes about the table can be written down as a check
(:class:`Check`) that the tests verify against the engine at that step. A broken file is
one :class:`~knockabout.core.errors.ContentError` naming the file and the field.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from knockabout.core.errors import ContentError, KnockaboutError
from knockabout.core.protocol import Game, validation_problems

MAX_STEPS: Final = 30
PARTS: Final[tuple[str, ...]] = ("prompt", "choices", "hand", "board", "log", "players", "timer", "rules")
"""The screen parts every table screen has (the browser marks them ``data-part``). A game's
renderer may mark parts of its own board too (``data-part="row"``); a step naming one of
those highlights it where the renderer draws it, and the board where it does not."""

Source = Literal["view", "state", "legal", "decision", "events", "outcome"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


class Check(_Strict):
    """One claim about the table, checked against the engine.

    ``on`` picks what is read: the learner's ``view`` (its wire JSON), the engine's full
    ``state`` (``State.to_dict``), the learner's ``legal`` action texts, the pending
    ``decision``, the ``events`` the learner saw since the step before (each as its type
    and data in one object) or the ``outcome``. ``path`` is a JSON Pointer into it (RFC
    6901; empty: all of it). Exactly one test: ``equals`` (the same value), ``contains``
    (a list holds an item that matches, a text holds the text; an object matches an item
    whose members include all of its members), ``excludes`` (none matches) or ``length``.
    """

    on: Source = "view"
    path: str = Field("", pattern=r"^(/[^/]*)*$")
    equals: Any = None
    contains: Any = None
    excludes: Any = None
    length: int | None = Field(None, ge=0)

    @model_validator(mode="after")
    def _one_test(self) -> Check:
        given = [k for k in ("equals", "contains", "excludes", "length") if k in self.model_fields_set]
        if len(given) != 1:
            got = ", ".join(given) or "none"
            raise ValueError(f"give exactly one of equals, contains, excludes, length (got {got})")
        return self

    def describe(self) -> str:
        test = next(k for k in ("equals", "contains", "excludes", "length") if k in self.model_fields_set)
        return f"{self.on}{self.path or ''} {test} {getattr(self, test)!r}"


class Step(_Strict):
    """One rule: what to read, where to look, what to do, and what it showed."""

    title: str = Field(min_length=1, max_length=60)
    text: str = Field(min_length=1)
    highlight: str | None = Field(None, pattern=r"^[a-z][a-z-]*$")
    expect: str | None = None
    """The learner's move (an action text); None: the step is read and closed with Next."""
    wrong: str | None = None
    """The correction for any other move (required when the step expects one)."""
    corrections: dict[str, str] = Field(default_factory=dict)
    """A correction of its own for particular moves (by action text)."""
    opponent: tuple[str, ...] = ()
    """The other seats' scripted moves once the learner's is made, in order."""
    after: str | None = None
    """What happened and why, shown once the move (and the opponent's) is made."""
    checks: tuple[Check, ...] = ()
    after_checks: tuple[Check, ...] = ()

    @model_validator(mode="after")
    def _consistent(self) -> Step:
        if self.expect is None:
            given = self.model_fields_set
            extra = [k for k in ("wrong", "after", "opponent", "corrections", "after_checks") if k in given]
            if extra:
                raise ValueError(f"a step without `expect` (read, then Next) takes no {', '.join(extra)}")
        elif not self.wrong:
            raise ValueError("a step that expects a move needs `wrong`: the short correction for any other move")
        return self


class Finish(_Strict):
    """What the learner reads when the lesson is over."""

    title: str = Field(min_length=1, max_length=60)
    text: str = Field(min_length=1)
    checks: tuple[Check, ...] = ()


class Scenario(_Strict):
    """A whole lesson: the arranged table and its steps (at most :data:`MAX_STEPS`)."""

    title: str = Field(min_length=1)
    names: tuple[str, ...] = Field(min_length=1)
    """The seats' display names, in seat order."""
    learner: int = Field(0, ge=0)
    seed: int = Field(0, ge=0, lt=1 << 64)
    config: dict[str, Any] = Field(default_factory=dict)
    arrangement: dict[str, Any] = Field(default_factory=dict)
    steps: tuple[Step, ...] = Field(min_length=1, max_length=MAX_STEPS)
    finish: Finish

    @model_validator(mode="after")
    def _learner_seated(self) -> Scenario:
        if self.learner >= len(self.names):
            raise ValueError(f"learner: there is no seat {self.learner} among the {len(self.names)} names")
        return self


def tutorial_file(game: Game[Any]) -> Path | None:
    """Where the game's scenario file is (in its own package), or None when it has none."""
    if game.tutorial is None:
        return None
    return game.folder / game.tutorial


def parse_scenario(game: Game[Any], text: str, source: str) -> Scenario:
    """A scenario from its TOML text, checked: its fields, and that the game can set up its
    table (options and arrangement). ``source`` names the file in errors."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(f"{source}: not valid TOML: {exc}") from None
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as exc:
        raise ContentError(f"{source}: " + "; ".join(validation_problems(exc, "scenario", "field"))) from None
    try:
        cfg = game.make_config(scenario.config)
    except KnockaboutError as exc:
        raise ContentError(f"{source}: config: {exc}") from None
    try:
        state = game.arrange(cfg, scenario.arrangement, scenario.seed)
    except KnockaboutError as exc:
        raise ContentError(f"{source}: arrangement: {exc}") from None
    if len(scenario.names) != state.num_players:
        raise ContentError(f"{source}: names: the table has {state.num_players} seats, "
                           f"and {len(scenario.names)} names are given")
    return scenario


@cache
def _load(game_id: str, path: Path) -> Scenario:
    from knockabout.core.registry import get_game

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ContentError(f"{path}: cannot read the tutorial: {exc.strerror}") from None
    return parse_scenario(get_game(game_id), text, str(path))


def load_scenario(game: Game[Any]) -> Scenario:
    """The game's tutorial, loaded and checked once; :class:`ContentError` when the game has
    none or its file is broken."""
    path = tutorial_file(game)
    if path is None:
        raise ContentError(f"{game.id}: {game.name} has no tutorial yet")
    return _load(game.id, path)

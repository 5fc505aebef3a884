"""Positions every game's tests can ask for: seeded random playouts and the option sets a
game's options model declares. Nothing here knows a particular game."""

from __future__ import annotations

import typing
from typing import Any

from knockabout.core import Rng, State, get_game
from knockabout.core.errors import KnockaboutError


def played(game_id: str, cfg: dict[str, Any], seed: int, steps: int) -> list[State]:
    """The states along a random playout of ``steps`` actions at most (a copy of each, the
    first state included), the same for the same arguments."""
    s = get_game(game_id).new_state(cfg, seed)
    rng = Rng(seed + 101)
    out = [s.clone()]
    for _ in range(steps):
        if s.to_act() is None:
            break
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
        out.append(s.clone())
    return out


def _choices(annotation: Any) -> tuple[list[Any], bool] | None:
    """The values of a ``Literal`` option, or of the items of a list option of one (then
    True), else None."""
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return list(typing.get_args(annotation)), False
    if origin in (tuple, list):
        args = [a for a in typing.get_args(annotation) if a is not Ellipsis]
        if len(args) == 1 and typing.get_origin(args[0]) is typing.Literal:
            return list(typing.get_args(args[0])), True
    return None


def option_variants(game_id: str) -> list[dict[str, Any]]:
    """The default options, each player count, and each declared choice of every option
    whose values are a closed set (for a list of them, each value alone), one at a time;
    a combination the game refuses is left out."""
    game = get_game(game_id)
    fields = game.config_model.model_fields
    out: list[dict[str, Any]] = [{}]
    if "players" in fields:
        out += [{"players": n} for n in range(game.min_players, game.max_players + 1) if n != fields["players"].default]
    for name, f in fields.items():
        found = _choices(f.annotation)
        if found is None:
            continue
        values, listed = found
        for v in values:
            cfg = {name: [v] if listed else v}
            if not listed and v == f.default:
                continue
            try:
                game.make_config(cfg)
            except KnockaboutError:
                continue
            out.append(cfg)
    return out

"""Text renderings of a table for the environments' ``render_mode="ansi"``.

Drawn with the game's terminal renderer (its :class:`~knockabout.core.plugins.TerminalRenderer`)
as a spectator sees the board — so a rendering shows nothing hidden — plus, when a seat
is named, that seat's own hand. A game without a terminal renderer is shown as its
view's JSON.
"""

from __future__ import annotations

import io
import json
from typing import Any

from knockabout.core.protocol import Game, State


def render_text(game: Game[Any], state: State, seat: int | None = None, width: int = 100) -> str:
    """The board (and ``seat``'s hand) as plain text."""
    names = [f"player_{p}" for p in range(state.num_players)]
    renderer = game.terminal_renderer()
    if renderer is None:
        return json.dumps(state.observe(seat).to_json(), indent=1, sort_keys=True)
    from rich.console import Console

    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None, force_terminal=False, highlight=False)
    console.print(renderer.board(state.observe(None), names, None))
    if seat is not None:
        console.print(renderer.hand(state.observe(seat), names, seat))
    d = state.to_act()
    console.print("game over" if d is None else f"{names[d.player]} decides: {d.kind}")
    return out.getvalue()


def render_for(render_mode: str | None, game: Game[Any], state: State, seat: int | None = None) -> str | None:
    """An environment's ``render()``: the text for ``render_mode="ansi"``; without a render
    mode, Gymnasium's usual warning and None."""
    if render_mode is None:
        import gymnasium

        gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi'")
        return None
    return render_text(game, state, seat)

"""What every game's terminal renderer shares: how the pending decision's prompt looks
and where it goes (the last line of the board). Only the games' ``terminal`` modules
import this, so rich stays out of the rules' import path."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

PROMPT = "bold yellow"
"""The style of the line saying what is pending (who must answer what)."""


def board_with_prompt(parts: list[RenderableType], prompt: str | None) -> Group:
    """The board made of ``parts``, closed by the prompt line when there is one."""
    if prompt:
        parts.append(Text(prompt, style=PROMPT))
    return Group(*parts)

"""Turning errors into one clear line on stderr and a non-zero exit."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from knockabout.core.errors import KnockaboutError

P = ParamSpec("P")
R = TypeVar("R")

err_console = Console(stderr=True, soft_wrap=True)


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print ``message`` as one error line (as it is: brackets in it, such as an install hint's
    ``knockabout[plots]``, are text, not Rich markup) and give the exit to raise."""
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False)
    return typer.Exit(code)


@contextmanager
def friendly_errors() -> Iterator[None]:
    """Report a :class:`KnockaboutError` as one line and exit with status 2."""
    try:
        yield
    except KnockaboutError as exc:
        raise fail(str(exc)) from None

"""``knockabout content``: check content files (cards, fighters, packs, arenas)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import typer
from rich.console import Console

from knockabout.core.errors import KnockaboutError
from knockabout.core.registry import game_ids, get_game

app = typer.Typer(help="Check content files (cards, fighters, packs, arenas).", no_args_is_help=True)


class _Unreadable(Exception):
    pass


def _game_of(path: Path) -> str:
    """The file's top-level ``game`` key (raises _Unreadable with the reason)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise _Unreadable(f"cannot read the file ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise _Unreadable("not a text file (content files are UTF-8 TOML)") from None
    except tomllib.TOMLDecodeError as exc:
        raise _Unreadable(f"not valid TOML: {exc}") from None
    game = data.get("game")
    if not isinstance(game, str):
        raise _Unreadable(
            "missing top-level key `game` naming the game this file is for "
            f"(one of: {', '.join(game_ids())}); or pass --game"
        )
    return game


def _expand(paths: list[Path]) -> list[Path]:
    """Files as given; a folder stands for its ``*.toml`` files (itself when it has none)."""
    out: list[Path] = []
    for path in paths:
        inside = sorted(path.glob("*.toml")) if path.is_dir() else []
        out.extend(inside or [path])
    return out


@app.command("validate")
def validate(
    files: list[Path] = typer.Argument(..., help="content files (TOML) to check, or folders of them"),
    game: str | None = typer.Option(None, "--game", "-g", help="game id; default: the file's `game` key"),
) -> None:
    """Check content files and explain every problem (file, entry, field, what is expected)."""
    console = Console(highlight=False, soft_wrap=True)
    bad = 0
    for path in _expand(files):
        if path.is_dir():
            console.print(f"[red]✗[/] {path}: a folder with no content files (*.toml) in it")
            bad += 1
            continue
        if not path.is_file():
            console.print(f"[red]✗[/] {path}: no such file")
            bad += 1
            continue
        try:
            g = get_game(game or _game_of(path))
        except (_Unreadable, KnockaboutError) as exc:
            console.print(f"[red]✗[/] {path}: {exc}")
            bad += 1
            continue
        problems = g.validate_content(path)
        if problems:
            bad += 1
            console.print(f"[red]✗[/] {path} ({g.id}): {len(problems)} problem(s)")
            for p in problems:
                console.print(f"   - {p}")
        else:
            console.print(f"[green]✓[/] {path} ({g.id}): valid")
    if bad:
        raise typer.Exit(1)

"""``knockabout content``: check content files (cards, fighters, packs, arenas), and write
a commented example to start from (each game's templates, see ``Game.templates``)."""

from __future__ import annotations

import tempfile
import tomllib
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape

from knockabout.cli.errors import fail
from knockabout.core.errors import KnockaboutError
from knockabout.core.protocol import Game
from knockabout.core.registry import all_games, game_ids, get_game

app = typer.Typer(
    help="Check content files (cards, fighters, packs, arenas), or write an example to start from.",
    no_args_is_help=True,
)


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
    """Files as given; a folder stands for the ``*.toml`` files in it and in its
    sub-folders (itself when it has none)."""
    out: list[Path] = []
    for path in paths:
        inside = sorted(p for p in path.rglob("*.toml") if p.is_file()) if path.is_dir() else []
        out.extend(inside or [path])
    return out


@app.command("validate")
def validate(
    files: list[Path] = typer.Argument(
        ..., help="content files (TOML) to check, or folders holding them (searched to the bottom)"
    ),
    game: str | None = typer.Option(None, "--game", "-g", help="game id; default: the file's `game` key"),
) -> None:
    """Check content files and explain every problem (file, entry, field, what is expected)."""
    console = Console(highlight=False, soft_wrap=True)
    bad = 0
    for path in _expand(files):
        if path.is_dir():
            console.print(f"[red]✗[/] {escape(str(path))}: a folder with no content files (*.toml) in it or below it")
            bad += 1
            continue
        if not path.is_file():
            console.print(f"[red]✗[/] {escape(str(path))}: no such file")
            bad += 1
            continue
        try:
            g = get_game(game or _game_of(path))
        except (_Unreadable, KnockaboutError) as exc:
            console.print(f"[red]✗[/] {escape(str(path))}: {escape(str(exc))}")
            bad += 1
            continue
        problems = g.validate_content(path)
        if problems:
            bad += 1
            console.print(f"[red]✗[/] {escape(str(path))} ({g.id}): {len(problems)} problem(s)")
            for p in problems:
                console.print(f"   - {escape(p)}")
        else:
            console.print(f"[green]✓[/] {escape(str(path))} ({g.id}): valid")
    if bad:
        raise typer.Exit(1)


def template_names() -> dict[str, tuple[Game[Any], Path]]:
    """Every game's templates by the name ``content new`` takes: ``GAME-KIND``, and the bare
    game id for a game with only one."""
    out: dict[str, tuple[Game[Any], Path]] = {}
    for g in all_games():
        found = g.templates()
        for kind, path in found.items():
            out[f"{g.id}-{kind}"] = (g, path)
        if len(found) == 1:
            out[g.id] = (g, next(iter(found.values())))
    return out


@app.command("new")
def new(
    template: str | None = typer.Argument(None, help="what to write, e.g. knockback (leave out to list them)"),
    path: Path | None = typer.Argument(
        None, help="file to write, or a folder to write it in (default: the current folder)"
    ),
    force: bool = typer.Option(False, "--force", help="overwrite the file if it exists"),
) -> None:
    """Write a commented example content file to copy and edit (it validates as written)."""
    console = Console(highlight=False, soft_wrap=True)
    names = template_names()
    if template is None:
        if not names:
            console.print("No game ships a content template.")
            return
        console.print("Templates (knockabout content new NAME [PATH]):")
        for name, (g, src) in names.items():
            if name != g.id:
                alias = f" (or just {g.id})" if names.get(g.id) == (g, src) else ""
                console.print(f"  [bold]{name}[/]{alias}: writes {src.name}, {g.name}")
        return
    if template not in names:
        known = ", ".join(names) or "none"
        raise fail(f"no content template {template!r}; templates: {known}")
    g, src = names[template]
    if path is None:
        dest = Path(src.name)
    elif path.is_dir():
        dest = path / src.name
    else:
        dest = path
    if dest.exists() and not force:
        raise fail(f"{dest} already exists: give another PATH, or --force to overwrite it")
    if not dest.parent.is_dir():
        raise fail(f"cannot write {dest}: the folder {dest.parent} does not exist")
    with tempfile.TemporaryDirectory() as tmp:
        trial = Path(tmp) / dest.name  # checked under the name it will have, before anything is written
        trial.write_bytes(src.read_bytes())
        problems = [p.replace(str(trial), str(dest)) for p in g.validate_content(trial)]
    if problems:
        raise fail(f"{dest} would not be a valid {g.id} file: " + "; ".join(problems)
                   + f" (leave out PATH's file name to get {src.name})")
    try:
        dest.write_bytes(src.read_bytes())
    except OSError as exc:
        raise fail(f"cannot write {dest}: {exc.strerror}") from None
    console.print(f"[green]✓[/] wrote {escape(str(dest))}: a commented {g.name} example to edit"
                  " (its comments say how to use it)")
    console.print(f"Check it after editing with: knockabout content validate {escape(str(dest))}")

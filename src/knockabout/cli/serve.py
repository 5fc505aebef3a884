"""``knockabout serve``: the web app (lobby, tables, replays) on a local address."""

from __future__ import annotations

from pathlib import Path

import typer
import uvicorn
from rich.console import Console

from knockabout.cli.errors import friendly_errors
from knockabout.server import ServerSettings, create_app
from knockabout.store import Store, default_data_dir


def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="address to listen on (0.0.0.0: every interface)"),
    port: int = typer.Option(8000, "--port", min=1, max=65535, help="port to listen on"),
    db: str | None = typer.Option(
        None, "--db", help="SQLAlchemy database URL (default: SQLite file in the data dir)"
    ),
    data_dir: Path | None = typer.Option(None, "--data-dir", help="where the SQLite file lives"),
    bot_delay: float = typer.Option(
        2.0, "--bot-delay", min=0.0, help="seconds a bot takes to answer a timed window, whatever it holds"
    ),
    pace: float = typer.Option(0.9, "--pace", min=0.0, help="seconds between other bot moves"),
    grace: float = typer.Option(
        30.0, "--grace", min=0.0, help="seconds a disconnected player has before a bot plays for them"
    ),
) -> None:
    console = Console(highlight=False)
    folder = data_dir or default_data_dir()
    with friendly_errors():
        store = Store(db, folder)  # fail now, in one line, if the database cannot be opened
        where = store.url
        store.close()
    settings = ServerSettings(
        db_url=db, data_dir=str(folder), bot_delay=bot_delay, bot_pace=pace, grace_seconds=grace
    )
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    console.print(f"[bold]knockabout[/] is serving at [bold cyan]http://{shown}:{port}/[/]  (Ctrl+C stops it)")
    console.print(f"games are kept in {where}", style="dim")
    uvicorn.run(create_app(settings), host=host, port=port, log_level="warning")

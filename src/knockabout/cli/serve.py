"""``knockabout serve``: the web app (lobby, tables, replays) on a local address."""

from __future__ import annotations

import errno
import logging
import os
import socket
from pathlib import Path

import typer
from rich.console import Console

from knockabout.cli.errors import fail, friendly_errors
from knockabout.ladder.matching import BOT_AFTER
from knockabout.server import ServerSettings, create_app
from knockabout.server.collector import FULL_GC_EVERY
from knockabout.server.front import Front, spawner
from knockabout.server.ownership import holder_name
from knockabout.server.protocol import ReadyServer, server_config
from knockabout.server.quotas import Quotas, rate
from knockabout.store import Store, default_data_dir


def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="address to listen on (0.0.0.0: every interface)"),
    port: int = typer.Option(8000, "--port", min=1, max=65535, help="port to listen on"),
    db: str | None = typer.Option(
        None, "--db", envvar="KNOCKABOUT_DB",
        help="SQLAlchemy database URL (default: SQLite file in the data dir); hosts that share the tables share it",
    ),
    data_dir: Path | None = typer.Option(None, "--data-dir", help="where the SQLite file lives"),
    store_writer: str = typer.Option(
        "process", "--store-writer", metavar="process|thread",
        help="where moves are committed to the database: a process of its own, so that a busy server's"
        " commits do not wait for its interpreter lock, or a thread of the server",
    ),
    bot_delay: float = typer.Option(
        2.0, "--bot-delay", min=0.0, help="seconds a bot takes to answer a timed window, whatever it holds"
    ),
    pace: float = typer.Option(0.9, "--pace", min=0.0, help="seconds between other bot moves"),
    grace: float = typer.Option(
        30.0, "--grace", min=0.0, help="seconds a disconnected player has before a bot plays for them"
    ),
    finished_ttl: float = typer.Option(
        600.0, "--finished-ttl", min=0.0, help="seconds a finished table stays in memory (then the database serves it)"
    ),
    create_rate: str = typer.Option(
        "30/minute", "--create-rate", help="new tables per client address, e.g. 30/minute ('off': no limit)"
    ),
    message_rate: str = typer.Option(
        "30/second", "--message-rate", help="WebSocket messages per client address ('off': no limit)"
    ),
    server_create_rate: str = typer.Option(
        "600/minute", "--server-create-rate",
        help="new tables on the whole server, every address together ('off': no limit)",
    ),
    login_rate: str = typer.Option(
        "10/minute", "--login-rate", help="log-in attempts per client address ('off': no limit)"
    ),
    account_login_rate: str = typer.Option(
        "20/hour", "--account-login-rate", help="log-in attempts to one account, from any address ('off': no limit)"
    ),
    signup_rate: str = typer.Option(
        "10/hour", "--signup-rate", help="new accounts per client address ('off': no limit)"
    ),
    max_tables: int = typer.Option(
        2000, "--max-tables", min=1, help="live tables (not finished) at once, whoever made them"
    ),
    max_bot_tables: int = typer.Option(
        20, "--max-bot-tables", min=0, help="live tables of bots only (no person seat) at once"
    ),
    max_spectators: int = typer.Option(100, "--max-spectators", min=0, help="spectators per table"),
    bot_fill_after: float = typer.Option(
        BOT_AFTER, "--bot-fill-after", min=1.0,
        help="quick match: seconds a person waits for people of their level before bots at it fill the table",
    ),
    bot_threads: int = typer.Option(
        0, "--bot-threads", min=0, help="threads the bots of each level think in, shared by all tables (0: one per CPU)"
    ),
    bot_processes: int | None = typer.Option(
        None, "--bot-processes", min=0, show_default="one per CPU but one, shared out over the --workers",
        help="processes each bot level thinks in, off the server's interpreter (0: threads"
        " instead); with --workers, per worker",
    ),
    workers: int = typer.Option(
        1, "--workers", min=1, max=64,
        help="server processes: each holds its share of the tables (by id) and they share the database, so a"
        " busy server uses more than one core (1: one process)",
    ),
    full_gc_every: float = typer.Option(
        FULL_GC_EVERY, "--full-gc-every", min=0.0,
        help="seconds between full garbage collections, each a pause of every table (about 0.7 s at 1,000"
        " tables); Python's own schedule ran one every few seconds under load (0: Python's schedule)",
    ),
    studio_jobs: int = typer.Option(1, "--studio-jobs", min=1, help="studio tests (\"Test it\") running at once"),
    studio_workers: int = typer.Option(
        1, "--studio-workers", min=1, help="processes each studio test plays its matches in"
    ),
    host_name: str | None = typer.Option(
        None, "--host-name", envvar="KNOCKABOUT_HOST_NAME", show_default="this machine's name",
        help="this server's name among the hosts that share the database (each table is held by one host at a"
        " time, by a lease in the database; see docs/live-play.md)",
    ),
    lease_seconds: float = typer.Option(
        5.0, "--lease-seconds", envvar="KNOCKABOUT_LEASE_SECONDS", min=0.5, max=600.0,
        help="how long a host's hold on its tables lasts unrenewed: when a host stops, another takes its tables"
        " this long after (it renews every quarter of it)",
    ),
    redis: str | None = typer.Option(
        None, "--redis", envvar="KNOCKABOUT_REDIS", metavar="URL",
        help="the Redis the hosts share, e.g. redis://127.0.0.1:6379/0: the lobby's updates, the hand-over of"
        " tables and the per-address limits go through it (needs knockabout\\[multihost])",
    ),
    secure_cookies: bool = typer.Option(
        False, "--secure-cookies",
        help="mark the accounts' cookies Secure on every request (without it: on requests that came over HTTPS,"
        " from the socket or a trusted proxy's X-Forwarded-Proto; FORWARDED_ALLOW_IPS names the proxies,"
        " 127.0.0.1 by default)",
    ),
    compress: bool = typer.Option(
        False, "--compress/--no-compress",
        help="compress WebSocket frames (permessage-deflate) for browsers that offer it: less traffic on a"
        " slow link, but the server's main cost under load (frames are already small patches)",
    ),
) -> None:
    console = Console(highlight=False)
    folder = data_dir or default_data_dir()
    with friendly_errors():
        for text in (create_rate, message_rate, server_create_rate, login_rate, account_login_rate, signup_rate):
            rate(text)  # a rate that does not parse fails now, in one line
        store = Store(db, folder, writer=store_writer)  # fail now, in one line, on a bad database or writer
        where = store.url
        store.close()
    settings = ServerSettings(
        db_url=db, data_dir=str(folder), store_writer=store_writer, bot_delay=bot_delay, bot_pace=pace,
        grace_seconds=grace,
        finished_ttl=finished_ttl, create_rate=create_rate, message_rate=message_rate,
        server_create_rate=server_create_rate, login_rate=login_rate, account_login_rate=account_login_rate,
        signup_rate=signup_rate, max_tables=max_tables, max_bot_tables=max_bot_tables,
        max_spectators=max_spectators, bot_threads=bot_threads, bot_fill_after=bot_fill_after,
        bot_processes=default_bot_processes(workers) if bot_processes is None else bot_processes, warm_bots=True,
        full_gc_every=full_gc_every, studio_jobs=studio_jobs, studio_workers=studio_workers,
        host_name=host_name, lease_seconds=lease_seconds, redis_url=redis, secure_cookies=secure_cookies,
    )
    with friendly_errors():
        holder_name(settings)  # a name that cannot be a host's fails now, in one line
        if redis:
            Quotas(None, None, storage=redis)  # (the client is installed, the URL is one)
    sock = listen_socket(host, port)  # taken before anything starts, so a busy port is said plainly
    console.print(f"games are kept in {where}", style="dim", markup=False)

    def ready() -> None:  # the address, once a click on it is answered
        for line in where_to_open(host, port):
            console.print(line)

    if workers > 1:
        console.print(f"{workers} server processes share the tables; starting them…", style="dim")
        logging.basicConfig(level=logging.WARNING, format="knockabout: %(message)s")
        front = Front(sock, workers, spawner(workers, settings, host, port, compress), on_ready=ready)
        if front.run() != 0:
            raise typer.Exit(1)
        return
    console.print("starting…", style="dim")
    server = ReadyServer(server_config(create_app(settings), host, port, compress), on_ready=ready)
    server.run(sockets=[sock])


def default_bot_processes(workers: int) -> int:
    """Search processes per bot level (and per worker): the CPUs the server processes leave,
    shared among them, at least one."""
    return max(1, ((os.cpu_count() or 2) - workers) // workers)


def where_to_open(host: str, port: int) -> list[str]:
    """What ``serve`` says about where to open the app (Rich markup), for ``host``."""
    if host in ("0.0.0.0", "::", ""):
        # every interface: no single address to give, so say both ways in
        return [
            f"[bold]knockabout[/] is serving on every network address of this computer, port {port}"
            "  (Ctrl+C stops it)",
            f"  here: [bold cyan]http://localhost:{port}/[/]   other computers: "
            f"http://THIS-COMPUTER'S-ADDRESS:{port}/ (invite links use the address the browser used)",
        ]
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    return [f"[bold]knockabout[/] is serving at [bold cyan]http://{shown}:{port}/[/]  (Ctrl+C stops it)"]


def _bound(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` (raises OSError as the system says)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def free_port_after(host: str, port: int, tries: int = 20) -> int | None:
    """The first port above ``port`` that ``host`` can listen on now (None: none nearby)."""
    for candidate in range(port + 1, min(port + 1 + tries, 65536)):
        try:
            _bound(host, candidate).close()
        except OSError:
            continue
        return candidate
    return None


def listen_socket(host: str, port: int) -> socket.socket:
    """The server's socket, or one clear line saying why ``host:port`` cannot be used."""
    try:
        sock = _bound(host, port)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            free = free_port_after(host, port)
            hint = f" with --port, e.g. --port {free}" if free else " with --port"
            raise fail(f"port {port} is taken on {host} (another program is listening there): "
                       f"choose another{hint}") from None
        if exc.errno == errno.EACCES:
            raise fail(f"not allowed to listen on port {port} (ports below 1024 need root): "
                       "choose another with --port, e.g. --port 8000") from None
        raise fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock

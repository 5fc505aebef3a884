"""How one server runs its tables: the settings ``knockabout serve`` fills from its flags
(see ``knockabout serve --help``) and the tests set directly."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from knockabout.ladder.matching import BOT_AFTER
from knockabout.server.bot_pools import SLOW_THINKING
from knockabout.server.chat import ChatPolicy
from knockabout.server.pacing import ARRIVALS_PER_TURN, BOT_MOVES_PER_TURN
from knockabout.server.undo import UndoPolicy


@dataclass
class ServerSettings:
    """How the server runs its tables."""

    db_url: str | None = None
    data_dir: str | None = None
    store_writer: str = "process"  # where the store commits: its own process, or a thread (see Store)
    bot_delay: float = 2.0  # a bot's answer to a timed window, whatever it holds
    bot_pace: float = 0.9  # seconds between other bot moves
    grace_seconds: float = 30.0  # away this long, a stand-in bot plays the seat
    finished_ttl: float = 600.0  # a finished table stays in memory this long, then the store serves it
    create_rate: str | None = "30/minute"  # new tables per address ("off": no limit)
    message_rate: str | None = "30/second"  # WebSocket messages per address
    # new tables on the whole server, every address together ("off": no limit); with the
    # per-address rate alone, many addresses (a botnet, or a loopback's 127.0.0.0/8) were unbounded
    server_create_rate: str | None = "600/minute"
    login_rate: str | None = "10/minute"  # attempts to log in per address
    account_login_rate: str | None = "20/hour"  # attempts to log in to one account (name), from anywhere
    signup_rate: str | None = "10/hour"  # new accounts per address
    secure_cookies: bool = False  # mark cookies Secure always (else only on requests that came over HTTPS)
    max_tables: int = 2000  # live tables (not finished) at once, whoever made them
    max_bot_tables: int = 20  # live tables without a person seat (bots only), at once
    max_spectators: int = 100  # spectators per table
    chat: ChatPolicy = field(default_factory=ChatPolicy)  # chat lines per sender and their length
    undo: UndoPolicy = field(default_factory=UndoPolicy)  # how long an undo request waits, how often one may ask
    bot_fill_after: float = BOT_AFTER  # quick match: seconds a person waits for people before bots fill the table
    bot_moves_per_turn: int = BOT_MOVES_PER_TURN  # bot moves and timeouts started per turn of the event loop
    arrivals_per_turn: int = ARRIVALS_PER_TURN  # new tables and connections started per turn of the event loop
    bot_threads: int = 0  # threads the bots of each level think in, shared by all tables (0: one per CPU)
    bot_processes: int = 0  # worker processes each bot level thinks in (0: its threads instead)
    slow_thinking: float = SLOW_THINKING  # CPU s: a quick level slower than this in a game thinks in processes too
    studio_workers: int = 1  # processes a studio test ("Test it") plays its matches in
    studio_jobs: int = 1  # studio tests running at once (the others wait in the queue)
    warm_bots: bool = False  # start the searching levels' worker processes at startup (serve does)
    # seconds between full garbage collections (0: Python's own schedule; serve: FULL_GC_EVERY)
    full_gc_every: float = 0.0
    # with ``serve --workers N``: which worker this is, of how many (see .shards); the
    # limits above are the whole server's, each worker keeps its share
    shard: int = 0
    shards: int = 1
    # servers sharing one database (hosts behind a load balancer; see .ownership): this
    # host's name on the tables' leases (None: the machine's name), and how long a lease
    # lasts unrenewed (another host takes a table that long after its holder stopped)
    host_name: str | None = None
    lease_seconds: float = 5.0
    # the Redis the hosts share (None: none): the lobby's updates, the hand-over of tables
    # and the per-address limits go through it (see .bus, .quotas)
    redis_url: str | None = None
    clock: Callable[[], float] = time.monotonic
    wall_clock: Callable[[], float] = time.time  # for deadlines kept in the store

"""Tables staged in Python and shown in the real page, for checks that must see the same
screen every time (layout, screenshots).

A moment of a game is (game, config, seed, the moves so far): the moves come from a fixed
policy (a seeded choice among the legal actions, for every seat), so the same moment is
reached on every run without bots or clocks. The page gets what the server would send for
it: the table's info and the seat's sync frame, built by the server's own code
(``LiveTable``) from the table's single redaction point. Playwright answers the page's
table request and its WebSocket with them, while the page itself (the shell and the
game's renderer) comes from a live server, unchanged. Nothing runs on: the page shows that
moment until it is given another.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from knockabout.core.protocol import Decision, State
from knockabout.core.registry import get_game
from knockabout.server import ServerSettings
from knockabout.server.live import LiveTable
from knockabout.table import Seat, Table
from tests.web.conftest import LiveServer
from tests.web.pages import sit

# the same fonts on every run: Debian's DejaVu Sans (fonts-dejavu-core), and no caret blinking
FIXED_LOOK = """
*, *::before, *::after { font-family: "DejaVu Sans", sans-serif !important; caret-color: transparent !important; }
"""


@dataclass(frozen=True)
class Moment:
    """A point of a game: the moves from the deal, chosen by the fixed policy."""

    game: str
    seed: int
    actions: tuple[str, ...]
    config: dict[str, Any] = field(default_factory=dict, hash=False)
    players: int = 2

    def state(self) -> State:
        s = get_game(self.game).new_state(self.config, self.seed)
        for a in self.actions:
            s.apply(a)
        return s

    def decision(self) -> Decision | None:
        d: Decision | None = self.state().to_act()
        return d


def policy(game: str, seed: int) -> Callable[[list[str]], str]:
    """The fixed moves: a choice among the legal actions from a generator seeded by the game
    and the seed (the same moves every run, for every seat)."""
    rng = random.Random(f"{game}:{seed}")
    return lambda legal: legal[rng.randrange(len(legal))]


def moments(game: str, seed: int, config: dict[str, Any] | None = None,
            steps: int = 5000) -> Iterator[tuple[Moment, Decision | None]]:
    """Every point of one game played by the fixed policy, from the deal to the end, with
    the decision pending there (None at the end)."""
    config = dict(config or {})
    s = get_game(game).new_state(config, seed)
    pick = policy(game, seed)
    acts: list[str] = []
    players = int(config.get("players", get_game(game).facts.default_players))
    for _ in range(steps):
        d = s.to_act()
        yield Moment(game, seed, tuple(acts), config, players), d
        if d is None:
            return
        a = pick([x.text for x in s.legal_actions()])
        s.apply(a)
        acts.append(a)


def first(game: str, pred: Callable[[Moment, Decision | None], bool], config: dict[str, Any] | None = None,
          seeds: range = range(200)) -> Moment:
    """The first moment (over seeds, then moves) for which ``pred(moment, decision)`` holds."""
    for seed in seeds:
        for m, d in moments(game, seed, config):
            if pred(m, d):
                return m
    raise AssertionError(f"no {game} game of seeds {seeds} reaches the moment asked for")


def moment(game: str, seed: int, step: int, config: dict[str, Any] | None = None) -> Moment:
    """The point ``step`` moves into the fixed policy's game of ``seed``."""
    for m, _ in moments(game, seed, config):
        if len(m.actions) == step:
            return m
    raise AssertionError(f"the {game} game of seed {seed} ends before step {step}")


def mine(kind: str | None = None) -> Callable[[Moment, Decision | None], bool]:
    """A moment where seat 0 decides (a decision of ``kind``, if given)."""
    return lambda m, d: d is not None and d.player == 0 and (kind is None or d.kind == kind)


def at_end(m: Moment, d: Decision | None) -> bool:
    return d is None


TOWER = {"knockdown_test": "tower"}
NEMESIS = {"boxes": ["tainted_grail", "nemesis"]}
REACTOR = {"boxes": ["siege_storm"], "fighters": ["siege_storm:veroth", "random"]}  # a fighter with Reactions
# where each kind of decision is met (a config; the first seed whose fixed moves reach it is used)
WHERE: dict[str, dict[str, dict[str, Any]]] = {
    "nak-muay": {"": {"players": 3}},
    "knockdown": {"": {}, "tower_challenge": TOWER, "take_from_row": NEMESIS, "token_count": NEMESIS,
                  "reaction": REACTOR},
    "knockback": {"": {}, "draft": {"lineup": "draft2"}},
}


@cache
def kind_moment(game: str, kind: str) -> Moment:
    """The first moment (seeds 0-79) where seat 0 must make a decision of ``kind``."""
    config = WHERE[game].get(kind, WHERE[game][""])
    return first(game, mine(kind), config, seeds=range(80))


def table_of(m: Moment, *, bot: str = "easy") -> Table:
    """The moment as a live table would hold it: seat 0 a person (Ann), the others bots."""
    seats = [Seat("person", "Ann")] + [Seat("bot", f"Bot {i + 1}", bot) for i in range(1, m.players)]
    return Table(m.game, seats, m.config, m.seed, actions=list(m.actions), clock=lambda: 0.0, challenge_seed=1)


def frame_of(m: Moment, seat: int | None = 0) -> dict[str, Any]:
    """The sync frame the server sends ``seat`` (None: a spectator) at this moment."""
    key = json.dumps([m.game, m.seed, len(m.actions), m.config], sort_keys=True).encode()
    live = LiveTable(id="staged" + hashlib.sha256(key).hexdigest()[:8], table=table_of(m),
                     tokens=[None] * m.players, settings=ServerSettings(), store=None,  # type: ignore[arg-type]
                     created_at=0.0)
    frame, _ = live._build(seat, 0, "sync")
    for i, s in enumerate(frame["table"]["seats"]):
        if s["kind"] == "person":
            s["connected"] = i == seat  # the person looking is online
    return frame


def show(page: Any, server: LiveServer, frame: dict[str, Any],
         sockets: list[Any] | None = None) -> list[dict[str, Any]]:
    """Open the table page on ``frame`` (its table info and sync answered by Playwright, the
    page from ``server``). Returns the list the page's messages to the server go into;
    ``sockets`` gets the page's socket, through which :func:`push` sends it more frames."""
    info = frame["table"]
    sent: list[dict[str, Any]] = []
    page.route(f"**/api/tables/{info['id']}", lambda route: route.fulfill(json=info))

    def on_socket(ws: Any) -> None:
        if sockets is not None:
            sockets.append(ws)

        def got(message: str | bytes) -> None:
            msg = json.loads(message)
            if msg.get("type") in ("hello", "sync"):
                ws.send(json.dumps(frame))
            else:
                sent.append(msg)

        ws.on_message(got)

    page.route_web_socket(re.compile(rf"/ws/tables/{info['id']}$"), on_socket)
    sit(page, server, info["id"], "staged-token", frame["seat"] if frame["seat"] is not None else 0)
    page.wait_for_selector("#board > *")
    page.add_style_tag(content=FIXED_LOOK)
    page.evaluate("() => document.fonts.ready")
    return sent


def push(sockets: list[Any], frame: dict[str, Any]) -> None:
    """Send a page shown by :func:`show` (with ``sockets``) one more frame, as the server
    would after a move."""
    sockets[-1].send(json.dumps(frame))

"""A Python client that plays one seat of a live table over the server's WebSocket protocol.

An outside agent (a trained policy, a script, a knockabout bot that decides from its view)
plays a seat of a ``knockabout serve`` table the way the browser does: it says hello with
the seat's token, reads the server's frames (patches read back into whole messages by
:class:`~knockabout.server.frames.Follower`), and answers each decision the server asks of
its seat with one of the legal actions. People at the same table play it in the browser.

>>> from knockabout.server.client import SeatClient
>>> seat = SeatClient.create("http://127.0.0.1:8000", "nak-muay", ["me", "easy"])
>>> outcome = seat.play(lambda turn: turn.legal[0])       # any callable Turn -> action

A policy gets a :class:`Turn`: the seat's view (as sent, and typed: :meth:`Turn.view`), its
legal actions, and for a research policy the encoded observation and the action mask
(:meth:`Turn.observation`, :meth:`Turn.mask`: the same vectors as ``knockabout.envs``
gives, so a policy trained there plays here unchanged). It returns an action's text or code.

Decisions a person answers by solving a puzzle (Knockdown's tower) are not actions: the
table judges the answer (docs/live-play.md). :meth:`SeatClient.play` hands such a puzzle to
its ``challenges`` callable; by default the agent gives up at once (an empty answer, which
the table records as a failed test).

The protocol (routes, messages, refusals) is in docs/live-play.md; this client uses the
HTTP routes to make or join a table and the WebSocket ``/ws/tables/{id}``.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from knockabout.core.bot import SeatView
from knockabout.core.errors import ActionParseError, KnockaboutError
from knockabout.core.protocol import Decision, Game, State
from knockabout.core.registry import get_game
from knockabout.core.rng import Rng
from knockabout.core.view import View
from knockabout.server.frames import Follower, OutOfStep


class ClientError(KnockaboutError):
    """The server refused the client, or the connection ended before the game did."""


@dataclass(frozen=True)
class Turn:
    """One decision the server asks of the client's seat."""

    game: Game[Any]
    seat: int
    version: int
    """The table's state number; the action answers this version."""
    legal: tuple[str, ...]
    """The legal actions' texts (``game.actions.parse(text).code`` is an action's code)."""
    decision: dict[str, Any]
    """The pending decision: ``player``, ``kind``, ``time_limit``, ``timeout_action``, ``prompt``."""
    message: dict[str, Any]
    """The whole message the server sent (``view`` as JSON, ``events``, ``table``, ``clock``...)."""

    def view(self) -> View:
        """The seat's typed view (the game's view class, as ``state.observe(seat)`` gives)."""
        return self.game.view_type.from_json(self.message["view"])

    @property
    def legal_codes(self) -> list[int]:
        """The legal actions' codes."""
        parse = self.game.actions.parse
        return [parse(text).code for text in self.legal]

    def observation(self) -> Any:
        """The encoded view: a float32 numpy vector, the research environments' observation
        (needs numpy and a game with an observation encoder)."""
        import numpy as np

        from knockabout.envs.observation import encoder_of

        return np.frombuffer(encoder_of(self.game).encode(self.view()), dtype=np.float32).copy()

    def mask(self) -> Any:
        """The legal-action mask: a bool numpy vector over the game's action codes."""
        import numpy as np

        m = np.zeros(len(self.game.actions), dtype=np.bool_)
        m[self.legal_codes] = True
        return m


Policy = Callable[[Turn], "str | int"]
"""What plays the seat: a turn in, an action's text or code out."""
Challenges = Callable[[dict[str, Any]], Sequence[str]]
"""What answers a puzzle (the message's ``challenge``): the answer's piece ids in order."""


class RemoteSeatView(SeatView):
    """A :class:`~knockabout.core.bot.SeatView` of a seat played over the network: the view
    and the decision as the server sent them. It has no state to sample hidden information
    from, so a bot that searches sampled states (``hard``, and the heuristics of games whose
    ``easy`` plans ahead) cannot play through it: :meth:`sample` says so."""

    __slots__ = ("_decision", "_game", "_view")

    def __init__(self, turn: Turn) -> None:
        self.player = turn.seat
        self._game = turn.game
        self._view = turn.view()
        d = turn.decision
        timeout = d.get("timeout_action")
        self._decision = Decision(
            int(d["player"]), str(d["kind"]), d.get("time_limit"),
            None if timeout is None else turn.game.actions.parse(timeout), str(d.get("prompt", "")),
        )

    @property
    def game(self) -> Game[Any]:
        return self._game

    def observation(self) -> View:
        return self._view

    def decision(self) -> Decision | None:
        return self._decision

    def sample(self, rng: Rng) -> State:
        raise KnockaboutError(
            f"{self._game.id}: this bot plays from sampled full states, which need the table's hidden"
            " state; a seat played over the network has only its view (use a level that decides from the view)"
        )


def bot_policy(level: str, game: str, seed: int = 0) -> Policy:
    """A knockabout bot level as a policy, deciding from the seat's view alone (see
    :class:`RemoteSeatView`: ``random`` plays every game; ``easy`` plays Nak Muay)."""
    from knockabout.bots.levels import make_bot

    bot = make_bot(level, game)
    rng = Rng(seed)

    def policy(turn: Turn) -> str:
        legal = [turn.game.actions.parse(text) for text in turn.legal]
        return bot.choose(RemoteSeatView(turn), legal, rng).text

    return policy


def give_up(_challenge: dict[str, Any]) -> list[str]:
    """Answer no puzzle: the table records the decision's fail action at once."""
    return []


def _http(method: str, url: str, body: dict[str, Any] | None = None, timeout: float = 30.0) -> dict[str, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as answer:
            out: dict[str, Any] = json.loads(answer.read())
            return out
    except urllib.error.HTTPError as exc:
        try:
            why = json.loads(exc.read()).get("error", exc.reason)
        except ValueError:
            why = exc.reason
        raise ClientError(f"{method} {url}: {exc.code} {why}") from None
    except urllib.error.URLError as exc:
        raise ClientError(f"{method} {url}: cannot reach the server ({exc.reason})") from None


class SeatClient:
    """One seat of a live table, played over the WebSocket protocol (see the module text).

    ``server`` is the server's address (``http://host:port``), ``table`` the table's id and
    ``token`` the seat's secret (from :meth:`create` or :meth:`join`). ``timeout`` is how long
    to wait for the server's next frame before giving up.
    """

    def __init__(self, server: str, table: str, token: str, *, game: str | None = None,
                 timeout: float = 60.0) -> None:
        self.server = server.rstrip("/")
        self.table = table
        self.token = token
        self.timeout = timeout
        info = _http("GET", f"{self.server}/api/tables/{table}", timeout=timeout)
        self.game = get_game(game or str(info["game"]))
        self.seat: int | None = None
        self.messages = 0
        """Frames read in :meth:`play` (patches, updates, errors...)."""
        self.refusals: list[str] = []
        """The server's error messages (a refused action is one; nothing changed)."""

    @classmethod
    def create(cls, server: str, game: str, seats: Sequence[str], config: dict[str, Any] | None = None, *,
               name: str = "", listed: bool = False, timeout: float = 60.0) -> SeatClient:
        """A new table on ``server`` with these ``seats`` (``me`` is this client's seat; a bot
        level, ``open`` or ``invite`` the others, as the lobby takes them), unlisted unless
        ``listed``."""
        made = _http("POST", f"{server.rstrip('/')}/api/tables", {
            "game": game, "seats": list(seats), "config": config or {}, "name": name or "agent", "listed": listed,
        }, timeout=timeout)
        return cls(server, str(made["id"]), str(made["token"]), game=game, timeout=timeout)

    @classmethod
    def join(cls, server: str, table: str, name: str, *, seat: int | None = None, invite: str | None = None,
             timeout: float = 60.0) -> SeatClient:
        """Take a free seat of an existing table (``seat``: which one; ``invite``: an invite
        link's code, for its kept seat)."""
        body: dict[str, Any] = {"name": name}
        if seat is not None:
            body["seat"] = seat
        if invite is not None:
            body["invite"] = invite
        joined = _http("POST", f"{server.rstrip('/')}/api/tables/{table}/join", body, timeout=timeout)
        return cls(server, table, str(joined["token"]), timeout=timeout)

    @property
    def url(self) -> str:
        """The table's page, where people watch or play it in the browser."""
        return f"{self.server}/t/{self.table}"

    def _socket_url(self) -> str:
        base = self.server.replace("https://", "wss://", 1).replace("http://", "ws://", 1)
        return f"{base}/ws/tables/{self.table}"

    def _action(self, turn: Turn, choice: str | int) -> str:
        """The policy's choice as an action's text, or :class:`ActionParseError` naming it."""
        actions = self.game.actions
        if isinstance(choice, int) and not isinstance(choice, bool):
            if not 0 <= choice < len(actions):
                raise ActionParseError(f"{self.game.id}: the policy chose {choice}, not an action code")
            text = actions[choice].text
        elif isinstance(choice, str):
            text = choice
        else:
            raise ActionParseError(f"{self.game.id}: the policy chose {choice!r}: give an action's text or code")
        if text not in turn.legal:
            raise ActionParseError(
                f"{self.game.id}: the policy chose {text!r}, which is not legal now (legal: {', '.join(turn.legal)})"
            )
        return text

    def play(self, policy: Policy, *, challenges: Challenges = give_up,
             on_message: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
        """Play the seat until the game ends; returns the outcome (``winners``, ``payoffs``,
        ``draw``, ``reason``). ``on_message`` sees every message read (patches as the whole
        updates they stand for). A policy that picks an illegal action stops the game with
        :class:`ActionParseError` (nothing is sent); a server that stops answering, or closes
        the connection, with :class:`ClientError`."""
        follower = Follower()
        answered = -1
        with connect(self._socket_url(), open_timeout=self.timeout, max_size=None) as ws:
            ws.send(json.dumps({"type": "hello", "token": self.token}))
            while True:
                msg = self._next(ws, follower)
                if msg is None:
                    continue
                if on_message is not None:
                    on_message(msg)
                kind = msg.get("type")
                if kind == "error":
                    self.refusals.append(str(msg.get("message")))
                    continue
                if kind not in ("sync", "update"):
                    continue
                self.seat = msg.get("seat")
                if msg.get("outcome") is not None:
                    outcome: dict[str, Any] = msg["outcome"]
                    return outcome
                d = msg.get("decision")
                version = int(msg["version"])
                if d is None or d.get("player") != self.seat or version <= answered:
                    continue
                if (msg.get("table") or {}).get("status") not in (None, "playing"):
                    continue
                if msg.get("challenge") is not None:
                    answer = list(challenges(msg["challenge"]))
                    ws.send(json.dumps({"type": "answer", "answer": answer, "version": version}))
                    answered = version
                    continue
                if not msg.get("legal"):
                    continue
                turn = Turn(self.game, int(self.seat or 0), version, tuple(msg["legal"]), d, msg)
                action = self._action(turn, policy(turn))
                ws.send(json.dumps({"type": "act", "action": action, "version": version}))
                answered = version

    def _next(self, ws: ClientConnection, follower: Follower) -> dict[str, Any] | None:
        """The next message, patches read as updates; None when out of step (a sync is asked)."""
        try:
            text = ws.recv(timeout=self.timeout)
        except TimeoutError:
            raise ClientError(f"table {self.table}: no word from the server in {self.timeout:g} s") from None
        except (ConnectionClosed, OSError) as exc:
            raise ClientError(f"table {self.table}: the connection ended ({exc})") from None
        self.messages += 1
        try:
            return follower.read(json.loads(text))
        except OutOfStep:
            ws.send(json.dumps({"type": "sync"}))
            return None

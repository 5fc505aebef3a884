"""Chat at a table: short lines, quick phrases, a rate limit, mutes and two channels.

Two channels, kept apart: the **players'** (written by the people seated; read by them
and by spectators) and the **spectators'** (written and read by spectators only: the
players never see it, so nobody watching can coach them). A line is plain text, at most
:data:`MAX_CHARS` characters after cleaning (control characters dropped, runs of
whitespace made one space); it is never markup, and every client shows it as text. A
**quick phrase** (:data:`PHRASES`: "Good game", "Well played", "Oops", …) is sent by its
key, for phones. Each sender may send :attr:`ChatPolicy.lines` lines per
:attr:`ChatPolicy.seconds` seconds. A **mute** is a reader's own: it hides one sender's
lines from that reader only.

:class:`ChatRoom` is one table's chat, with time from an injected clock; it does no I/O
(the server sends its lines and stores them, ``live.py`` and ``store``).
"""

from __future__ import annotations

import unicodedata
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from knockabout.core.errors import KnockaboutError

Channel = Literal["players", "spectators"]

MAX_CHARS: Final = 200
PHRASES: Final[dict[str, str]] = {
    "hello": "Hello!",
    "good-luck": "Good luck!",
    "good-game": "Good game",
    "well-played": "Well played",
    "nice": "Nice move!",
    "oops": "Oops",
    "thanks": "Thanks!",
    "one-moment": "One moment, please",
}
"""The quick phrases, by key, in the order a phone shows them."""
HISTORY: Final = 200
"""Lines a room keeps for newcomers (the store keeps them all)."""


class ChatRefused(KnockaboutError):
    """A line the room does not take (empty, too long, too fast, unknown phrase); the
    message says why."""


@dataclass(frozen=True)
class ChatPolicy:
    """How much one sender may say: ``lines`` lines per ``seconds`` seconds, each at most
    ``max_chars`` characters."""

    lines: int = 5
    seconds: float = 10.0
    max_chars: int = MAX_CHARS


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One line said at a table. ``sender`` is who said it ("seat:N" for a player,
    "spectator:N" for a watcher), ``seat`` the player's seat (None: a spectator), ``step``
    the table's version when it was said (a replay shows it there), ``at`` wall-clock
    seconds; ``phrase`` the quick phrase's key when it was one."""

    n: int
    channel: Channel
    sender: str
    seat: int | None
    name: str
    text: str
    step: int
    at: float
    phrase: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n, "channel": self.channel, "sender": self.sender, "seat": self.seat, "name": self.name,
                "text": self.text, "step": self.step, "at": self.at, "phrase": self.phrase}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> ChatLine:
        channel: Channel = "spectators" if d["channel"] == "spectators" else "players"
        return cls(int(d["n"]), channel, str(d["sender"]), None if d["seat"] is None else int(d["seat"]),
                   str(d["name"]), str(d["text"]), int(d["step"]), float(d["at"]), d.get("phrase"))


def clean_text(text: str) -> str:
    """A chat line as it is kept: NFC, control and format characters dropped (no hidden
    direction marks), whitespace runs one space, trimmed."""
    text = unicodedata.normalize("NFC", text)
    kept = "".join(" " if ch.isspace() else ch for ch in text
                   if ch.isspace() or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn"))
    return " ".join(kept.split())


def channel_of(seat: int | None) -> Channel:
    """The channel a sender writes to: players write the players', spectators their own."""
    return "spectators" if seat is None else "players"


def readable(line: ChatLine, seat: int | None) -> bool:
    """Whether a reader at ``seat`` (None: a spectator) sees ``line``: everyone reads the
    players' channel, only spectators read the spectators'."""
    return line.channel == "players" or seat is None


@dataclass
class ChatRoom:
    """One table's chat (see the module doc)."""

    clock: Callable[[], float]
    wall_clock: Callable[[], float]
    policy: ChatPolicy = field(default_factory=ChatPolicy)
    lines: deque[ChatLine] = field(default_factory=lambda: deque(maxlen=HISTORY))
    next_n: int = 1
    _sent: dict[str, deque[float]] = field(default_factory=dict)

    def restore(self, lines: Iterable[ChatLine]) -> None:
        """Take back lines kept in the store (a restarted server)."""
        for line in lines:
            self.lines.append(line)
            self.next_n = max(self.next_n, line.n + 1)

    def post(self, sender: str, seat: int | None, name: str, step: int, *, text: str | None = None,
             phrase: str | None = None) -> ChatLine:
        """Take a line (``text``, or a quick ``phrase`` by key) from ``sender``; raises
        :class:`ChatRefused` saying why when it is not taken (nothing changes then)."""
        if (text is None) == (phrase is None):
            raise ChatRefused("a chat message is either text or a quick phrase")
        if phrase is not None:
            if phrase not in PHRASES:
                raise ChatRefused(f"no quick phrase {phrase[:40]!r} (phrases: {', '.join(PHRASES)})")
            said = PHRASES[phrase]
        else:
            said = clean_text(text or "")
            if not said:
                raise ChatRefused("an empty message is not sent")
            if len(said) > self.policy.max_chars:
                raise ChatRefused(f"a message is at most {self.policy.max_chars} characters (this one is {len(said)})")
        now = self.clock()
        recent = self._sent.setdefault(sender, deque())
        while recent and recent[0] <= now - self.policy.seconds:
            recent.popleft()
        if len(recent) >= self.policy.lines:
            wait = recent[0] + self.policy.seconds - now
            raise ChatRefused(f"you are sending messages too fast: at most {self.policy.lines} in "
                              f"{self.policy.seconds:g} seconds; wait {max(wait, 0.1):.1f} s")
        recent.append(now)
        line = ChatLine(self.next_n, channel_of(seat), sender, seat, name, said, step, self.wall_clock(), phrase)
        self.next_n += 1
        self.lines.append(line)
        return line

    def history(self, seat: int | None, muted: Iterable[str] = ()) -> list[ChatLine]:
        """The kept lines a reader at ``seat`` sees, less those of senders it muted."""
        hidden = set(muted)
        return [x for x in self.lines if readable(x, seat) and x.sender not in hidden]

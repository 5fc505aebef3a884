from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from knockabout.server import ServerSettings, create_app

Client = Callable[..., Any]


@pytest.fixture
def make_client(tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """A context manager making a test client on a fresh (or the same) SQLite file."""

    @contextmanager
    def make(**kw: Any) -> Iterator[TestClient]:
        settings = ServerSettings(
            db_url=f"sqlite:///{tmp_path / 'k.db'}",
            bot_delay=kw.pop("bot_delay", 0.0),
            bot_pace=kw.pop("bot_pace", 0.0),
            grace_seconds=kw.pop("grace", 60.0),
            **kw,
        )
        with TestClient(create_app(settings)) as client:
            yield client

    yield make


def receive_until(ws: Any, pred: Callable[[dict[str, Any]], bool], limit: int = 5000) -> dict[str, Any]:
    """Read messages until one satisfies ``pred`` (fails after ``limit`` messages)."""
    for _ in range(limit):
        msg: dict[str, Any] = ws.receive_json()
        if pred(msg):
            return msg
    raise AssertionError("the expected message never came")


def my_turn(seat: int) -> Callable[[dict[str, Any]], bool]:
    def pred(msg: dict[str, Any]) -> bool:
        if msg.get("type") not in ("sync", "update"):
            return False
        d = msg["decision"]
        return msg["outcome"] is not None or (d is not None and d["player"] == seat
                                              and msg["table"]["status"] == "playing")
    return pred


GAMES = ["nak-muay", "knockdown", "knockback"]
"""The three games, for tests that run a server table of each."""

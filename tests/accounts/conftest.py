"""Accounts' tests: a real server (uvicorn, on a fresh database) and browsers that talk to
it the way the front end does (the page's CSRF token in each POST), each with its own
cookies and its own address (sent as ``X-Forwarded-For``, which uvicorn takes from a proxy
on 127.0.0.1, as it would from a reverse proxy in front of a real server)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi import FastAPI
from httpx import Response

from knockabout.server import ServerSettings, create_app
from tests.server.conftest import db_url, free_port, postgres, postgres_url, uvicorn_running

__all__ = ["Browser", "Site", "db_url", "postgres", "postgres_url"]

PASSWORD = "correct horse battery"


@dataclass
class Browser:
    """One browser: its cookies, its address, and the CSRF token its page holds."""

    client: httpx.Client
    csrf: str = ""
    seats: dict[str, str] = field(default_factory=dict)  # table id -> seat token (a guest's localStorage)

    def load(self) -> dict[str, Any]:
        """Open a page: ask who this browser is (and get the page's CSRF token)."""
        me: dict[str, Any] = self.client.get("/api/account").json()
        self.csrf = me["csrf"]
        return me

    def post(self, path: str, body: dict[str, Any] | None = None, *, csrf: str | None = None) -> Response:
        token = self.csrf if csrf is None else csrf
        headers = {"x-csrf-token": token} if token else {}
        answer = self.client.post(path, json=body or {}, headers=headers)
        if answer.status_code == 200 and "csrf" in answer.json():
            self.csrf = answer.json()["csrf"]
        return answer

    def signup(self, name: str, password: str = PASSWORD, **more: Any) -> Response:
        return self.post("/api/account/signup", {"name": name, "password": password, **more})

    def login(self, name: str, password: str = PASSWORD, **more: Any) -> Response:
        return self.post("/api/account/login", {"name": name, "password": password, **more})

    def table(self, game: str = "nak-muay", seats: list[str] | None = None, **more: Any) -> dict[str, Any]:
        made = self.post("/api/tables", {"game": game, "seats": seats or ["me", "random"], **more})
        assert made.status_code == 200, made.text
        out: dict[str, Any] = made.json()
        if out.get("token"):
            self.seats[out["id"]] = out["token"]
        return out

    def claims(self) -> list[dict[str, str]]:
        return [{"table": t, "token": tok} for t, tok in self.seats.items()]


@dataclass
class Site:
    app: FastAPI
    url: str
    browsers: list[httpx.Client] = field(default_factory=list)

    def browser(self, address: str = "203.0.113.1", **headers: str) -> Browser:
        client = httpx.Client(base_url=self.url, headers={"x-forwarded-for": address, **headers}, timeout=30)
        self.browsers.append(client)
        b = Browser(client)
        b.load()
        return b

    def played(self, b: Browser, **table: Any) -> dict[str, Any]:
        """A table ``b`` makes (by default against a bot) and stand-ins play to the end (a
        site made with ``grace=0``: nobody connects)."""
        made = b.table(**table)
        self.wait_finished(made["id"])
        return made

    def wait_finished(self, table_id: str, within: float = 60.0) -> None:
        deadline = time.monotonic() + within
        while self.app.state.store.get(table_id).status != "finished":
            assert time.monotonic() < deadline, f"table {table_id} did not finish"
            time.sleep(0.05)


@pytest.fixture
def make_site(tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """``with make_site(**settings) as site``: a server on a fresh SQLite file (or ``db_url``)."""

    @contextmanager
    def make(**kw: Any) -> Iterator[Site]:
        settings = ServerSettings(db_url=kw.pop("db_url", f"sqlite:///{tmp_path / 'k.db'}"), store_writer="thread",
                                  bot_delay=kw.pop("bot_delay", 0.0), bot_pace=kw.pop("bot_pace", 0.0),
                                  grace_seconds=kw.pop("grace", 60.0), **kw)
        app = create_app(settings)
        port = free_port()
        with uvicorn_running(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")):
            site = Site(app, f"http://127.0.0.1:{port}")
            try:
                yield site
            finally:
                for c in site.browsers:
                    c.close()

    yield make


@pytest.fixture
def site(make_site: Callable[..., Any]) -> Iterator[Site]:
    with make_site() as s:
        yield s

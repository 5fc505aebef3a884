"""A live server in a thread and headless Chromium (Debian's, never a downloaded one)."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from knockabout.server import ServerSettings, create_app

CHROMIUM = os.environ.get("KNOCKABOUT_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run", "--disable-sync",
]


class LiveServer:
    def __init__(self, data: Path, **settings_over: Any) -> None:
        """``settings_over``: server settings other than the tests' usual ones (a fake clock)."""
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        # (every page comes from 127.0.0.1: the log-in and sign-up limits have their own tests)
        settings = ServerSettings(**{"db_url": f"sqlite:///{data / 'web.db'}", "bot_delay": 0.2, "bot_pace": 0.03,
                                     "grace_seconds": 60, "login_rate": "off", "account_login_rate": "off",
                                     "signup_rate": "off", **settings_over})
        self.app = create_app(settings)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("web")) as s:
        yield s


_PLAYWRIGHT: dict[str, Any] = {}


@pytest.fixture(scope="module")
def shots(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where a module keeps its screenshots (KNOCKABOUT_SCREENSHOTS, else a new folder); the
    folder is printed."""
    folder = Path(os.environ.get("KNOCKABOUT_SCREENSHOTS") or tmp_path_factory.mktemp("screens"))
    folder.mkdir(parents=True, exist_ok=True)
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"screenshots: {folder}")
    return folder


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium for the whole run, shared by every module that imports this
    fixture (Playwright's sync API allows one instance per thread)."""
    if not os.access(CHROMIUM, os.X_OK):
        if os.environ.get("KNOCKABOUT_SKIP_BROWSER") == "1":
            pytest.skip("KNOCKABOUT_SKIP_BROWSER=1: browser tests skipped on purpose")
        pytest.fail(
            f"no Chromium at {CHROMIUM}: run scripts/ensure-browser.sh (make test does), "
            "or set KNOCKABOUT_SKIP_BROWSER=1 to skip the browser tests on purpose"
        )
    if "browser" not in _PLAYWRIGHT:
        from playwright.sync_api import sync_playwright

        pw = sync_playwright().start()
        _PLAYWRIGHT["pw"] = pw
        _PLAYWRIGHT["browser"] = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    yield _PLAYWRIGHT["browser"]


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if "browser" in _PLAYWRIGHT:
        _PLAYWRIGHT.pop("browser").close()
        _PLAYWRIGHT.pop("pw").stop()

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=60
)
settings.register_profile("ci", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(scope="session", autouse=True)
def content_versions_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Uploaded content versions are written under a folder of the test session's, never
    the user's cache (``KNOCKABOUT_CONTENT``; a test may point it elsewhere)."""
    before = os.environ.get("KNOCKABOUT_CONTENT")
    os.environ["KNOCKABOUT_CONTENT"] = str(tmp_path_factory.mktemp("content-versions"))
    yield
    if before is None:
        os.environ.pop("KNOCKABOUT_CONTENT", None)
    else:
        os.environ["KNOCKABOUT_CONTENT"] = before


@pytest.fixture(autouse=True)
def _no_event_loop_left_running() -> Iterator[None]:
    """A test that fails or times out inside a running event loop can leave the main thread
    marked as running one; every later ``asyncio.run()`` would then refuse to start. That
    test has failed already: clear the mark so the failure stays its own."""
    yield
    if asyncio._get_running_loop() is not None:
        asyncio._set_running_loop(None)

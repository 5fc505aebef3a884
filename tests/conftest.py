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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that drives the browser is marked ``browser`` and ``solo``: ``make test`` runs
    the rest two at a time (pytest-xdist) and then the solo tests one by one, since a
    browser's timing-bound checks (an animation within 400 ms, a ticking clock) would
    share the machine's cores with a neighbour otherwise."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.solo)


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
def _no_event_loop_left_running(request: pytest.FixtureRequest) -> Iterator[None]:
    """Keep one test's event-loop mark from reaching another.

    Playwright's sync API (the browser tests) keeps its loop marked as running in the main
    thread between calls, on purpose; a test that fails or times out inside a running loop
    can leave the same mark by accident. Either way, a later ``asyncio.run()`` would refuse
    to start. So a test that does not drive the browser runs with no mark, and whatever
    mark was there before it is put back after it (a mark it left itself is dropped). A
    browser test is left alone: clearing Playwright's mark would cut its connection."""
    if "browser" in request.fixturenames:
        yield
        return
    before = asyncio._get_running_loop()
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(before)

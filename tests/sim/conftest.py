"""Fixtures of the sim tests: the tiny made-up games, registered for a test and forgotten after."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from knockabout.core.registry import register, unregister
from tests.sim.tiny_game import COACHED, TINY


@pytest.fixture
def tiny_games() -> Iterator[None]:
    register(TINY)
    register(COACHED)
    yield
    unregister(TINY.id)
    unregister(COACHED.id)

"""Fixtures of the sim tests: the tiny made-up games, registered for a test and forgotten after."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.sim.tiny_game import registered


@pytest.fixture
def tiny_games() -> Iterator[None]:
    with registered():
        yield

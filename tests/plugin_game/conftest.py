"""Install the High Card test game the way a third-party package is installed: its folder
(holding the ``highcard`` package and ``highcard-1.0.dist-info`` with the entry point) goes
on ``sys.path`` in this process, and on ``PYTHONPATH`` for the commands the tests run."""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from knockabout.core.registry import unregister

SITE = Path(__file__).parent / "site"
SRC = Path(__file__).parents[2] / "src"


def env_with_plugin() -> dict[str, str]:
    """The environment of a ``knockabout`` command that has the test game installed."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), str(SITE)])
    return env


@pytest.fixture(scope="module")
def installed() -> Iterator[Path]:
    sys.path.insert(0, str(SITE))
    importlib.invalidate_caches()
    try:
        yield SITE
    finally:
        sys.path.remove(str(SITE))
        importlib.invalidate_caches()
        unregister("high-card")

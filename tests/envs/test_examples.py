"""The examples run (tiny budgets)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).parents[2] / "examples"


def _load(name: str):  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_vector_envs_example() -> None:
    result = _load("vector_envs").main(["--envs", "2", "--steps", "100"])
    assert result["steps_per_s"] > 0 and result["episodes"] > 0


@pytest.mark.filterwarnings("ignore::UserWarning", "ignore::DeprecationWarning")
def test_training_example() -> None:
    pytest.importorskip("sb3_contrib", reason="the training example needs the train extra")
    result = _load("train_maskable_ppo").main(
        ["--timesteps", "128", "--n-steps", "128", "--eval", "2", "--threads", "1"]
    )
    assert [e["opponents"] for e in result["eval"]] == ["random", "easy"]
    assert all(e["games"] == 4 and 0.0 <= e["score"] <= 1.0 for e in result["eval"])

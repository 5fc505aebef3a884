"""The example and benchmark scripts, loaded as modules so a test can call their ``main``."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).parents[1]


def load_script(path: Path) -> Any:
    """The script at ``path`` (relative to the repository: ``examples/x.py``) as a module
    named after its file, registered in ``sys.modules`` (pickling and dataclasses need that)."""
    name = path.stem
    spec = importlib.util.spec_from_file_location(name, ROOT / path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module

"""Build knockabout; compile the hot modules with mypyc when this machine can.

Everything else about the package is declared in pyproject.toml. The modules listed in
``src/knockabout/compiled.py`` are compiled by mypyc from the same source when mypyc
and a C compiler are available and ``KNOCKABOUT_COMPILE`` is not ``0``; otherwise the
plain Python package is built, with one notice line. Either build gives identical
results (see docs/speed.md).
"""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path
from typing import Any

from setuptools import setup

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"


def _notice(why: str) -> None:
    print(f"knockabout: building the plain Python package ({why})", file=sys.stderr)


def compiled_extensions() -> list[Any]:
    """mypyc extension modules for the declared hot modules, or [] with one notice."""
    if "sdist" in sys.argv or "egg_info" in sys.argv or "dist_info" in sys.argv:
        return []
    build = runpy.run_path(str(SRC / "knockabout" / "compiled.py"))
    blocker = build["compile_blocker"]()
    if blocker:
        _notice(blocker)
        return []
    from mypyc.build import mypycify

    modules = build["COMPILED_MODULES"]
    paths = [str(Path("src", *m.split(".")).with_suffix(".py")) for m in modules]
    os.environ.setdefault("MYPYPATH", "src")
    try:
        # -O2, not -O3: gcc takes 50 instead of 60 s on the 40 modules (one C file), and
        # a `hard` move takes 0.6-1.0 % more instructions (docs/speed.md)
        extensions = mypycify(paths, opt_level="2", debug_level="0")
    except (Exception, SystemExit) as exc:  # mypyc exits on a type error it cannot compile past
        _notice(f"mypyc could not compile: {exc}")
        return []
    for ext in extensions:
        ext.optional = True  # a C compiler failure builds the plain package instead of failing
    return list(extensions)


setup(ext_modules=compiled_extensions())

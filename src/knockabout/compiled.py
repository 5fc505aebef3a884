"""Which modules the compiled build compiles, and which build is running.

The hot modules (the protocol, every game's engine and the search) are compiled by
mypyc from this same source when a C compiler is present (see ``setup.py`` and
docs/speed.md); everything else always runs as plain Python. A compiled module is an
extension file (``state.cpython-311-x86_64-linux-gnu.so``) next to its ``.py`` file, and
Python imports the extension first. This module imports nothing from knockabout, so
``setup.py`` can read :data:`COMPILED_MODULES` before anything is installed.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import shutil
import sysconfig
import warnings
from dataclasses import dataclass
from pathlib import Path

GENERIC_MODULES: tuple[str, ...] = (
    "knockabout.core.actions",
    "knockabout.core.batch",  # the batched environment's loop over its games
    "knockabout.core.events",
    "knockabout.core.protocol",
    "knockabout.core.rng",
    "knockabout.core.state_encoding",  # observations written from the state, every batched step
    "knockabout.bots.ismcts",
    "knockabout.server.frames",  # every change's message, patch and frame text on a live server
)
"""The generic hot modules: the protocol every engine runs through, the search, the frames."""

GAME_LIST = "compiled.txt"
"""The file in a game's package that lists its own hot modules, one dotted name a line
(``#`` starts a comment): the game, not this module, says which of its files are hot."""


def game_modules(package: Path | None = None) -> tuple[str, ...]:
    """The hot modules every game package under ``package`` (default: this folder) lists in
    its :data:`GAME_LIST`, games in folder order. A listed name outside its own game's
    package is refused, so one game cannot compile another's code."""
    package = Path(__file__).resolve().parent if package is None else package
    out: list[str] = []
    for listing in sorted((package / "games").glob(f"*/{GAME_LIST}")):
        prefix = f"knockabout.games.{listing.parent.name}."
        for raw in listing.read_text(encoding="utf-8").splitlines():
            name = raw.split("#", 1)[0].strip()
            if not name:
                continue
            if not name.startswith(prefix):
                raise ValueError(f"{listing}: {name!r} is not a module of {prefix.rstrip('.')}")
            out.append(name)
    return tuple(out)


_CORE = sum(1 for m in GENERIC_MODULES if m.startswith("knockabout.core."))
COMPILED_MODULES: tuple[str, ...] = GENERIC_MODULES[:_CORE] + game_modules() + GENERIC_MODULES[_CORE:]
"""The modules mypyc compiles (dotted names; ``setup.py`` turns them into paths): the core's,
each game's own list, then the search and the frames."""


def compile_blocker() -> str | None:
    """Why this machine builds the plain package only, or None when it can compile:
    ``KNOCKABOUT_COMPILE=0``, no C compiler, no Python headers, or no mypyc (it comes with
    mypy). ``setup.py`` and ``scripts/build-compiled.sh`` both ask this."""
    if os.environ.get("KNOCKABOUT_COMPILE", "1").strip() == "0":
        return "KNOCKABOUT_COMPILE=0"
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        return f"no C compiler {cc!r} found"
    include = sysconfig.get_paths().get("include", "")
    if not (Path(include) / "Python.h").exists():
        return f"no Python headers in {include}"
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed"
    return None


@dataclass(frozen=True)
class ModuleBuild:
    """How one of :data:`COMPILED_MODULES` is loaded in this process."""

    module: str
    build: str
    """``compiled``, ``plain``, or ``stale``: an extension older than its source, which is
    still what Python imports (rebuild it: ``pip install -e .``, or delete the ``.so``)."""


def module_builds(package: Path | None = None) -> list[ModuleBuild]:
    """The build of each listed module, read from the files of ``package`` (default: the
    folder this file is in).

    Python imports ``name.<extension suffix>`` before ``name.py`` from the same folder,
    so the files tell which one runs; nothing is imported.
    """
    package = Path(__file__).resolve().parent if package is None else package
    # each module's extension is a small shim; the code of all of them is in one shared
    # library beside the package (``<hash>__mypyc.<suffix>``), rebuilt on every change
    shared = [
        f.stat().st_mtime
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
        for f in package.parent.glob("*__mypyc" + suffix)
    ]
    out = []
    for name in COMPILED_MODULES:
        source = package.joinpath(*name.split(".")[1:]).with_suffix(".py")
        build = "plain"
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            ext = source.with_suffix(suffix)
            if ext.exists():
                built = max([ext.stat().st_mtime, *shared])
                build = "stale" if source.exists() and source.stat().st_mtime > built else "compiled"
                break
        out.append(ModuleBuild(name, build))
    return out


def warn_if_stale() -> None:
    """Warn once when a compiled module is older than its source (the source's edits
    would silently not run)."""
    stale = [b.module for b in module_builds() if b.build == "stale"]
    if stale:
        warnings.warn(
            "knockabout: these compiled modules are older than their source and run instead of it: "
            + ", ".join(stale) + " (rebuild with `pip install -e .`, or delete their .so files)",
            stacklevel=2,
        )


def build_summary(builds: list[ModuleBuild] | None = None) -> str:
    """One line: ``compiled`` (all), ``plain`` (none), or the mix, naming the exceptions."""
    builds = module_builds() if builds is None else builds
    kinds = {b.build for b in builds}
    if kinds == {"compiled"}:
        return f"compiled (mypyc, {len(builds)} modules)"
    if kinds == {"plain"}:
        return "plain Python"
    odd = [f"{b.module.removeprefix('knockabout.')}={b.build}" for b in builds if b.build != "compiled"]
    return f"mixed: {len(builds) - len(odd)} of {len(builds)} compiled; " + ", ".join(odd)

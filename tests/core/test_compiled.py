"""The compiled build: which modules it compiles, how a process tells which build runs,
and how setup.py falls back to the plain package."""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import pickle
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

from knockabout import compiled
from knockabout.compiled import COMPILED_MODULES, ModuleBuild, build_summary, module_builds
from knockabout.core.registry import game_ids, get_game
from knockabout.core.rng import Rng

ROOT = Path(__file__).resolve().parents[2]
EXT = importlib.machinery.EXTENSION_SUFFIXES[0]


def test_every_listed_module_is_a_source_file() -> None:
    package = Path(compiled.__file__).resolve().parent
    for name in COMPILED_MODULES:
        assert package.joinpath(*name.split(".")[1:]).with_suffix(".py").is_file(), name


def test_each_game_lists_its_own_hot_modules(tmp_path: Path) -> None:
    """The compiled list is the generic modules plus each game package's compiled.txt; a
    listing may name only its own game's modules."""
    package = Path(compiled.__file__).resolve().parent
    for gid in game_ids():
        folder = type(get_game(gid)).__module__.split(".")
        if folder[:2] != ["knockabout", "games"]:
            continue  # a game from another package compiles itself
        listed = (package / "games" / folder[2] / compiled.GAME_LIST).read_text(encoding="utf-8")
        names = {line.split("#")[0].strip() for line in listed.splitlines()} - {""}
        assert names and names <= set(COMPILED_MODULES), gid
        assert f"knockabout.games.{folder[2]}.state" in names, gid
    assert set(compiled.GENERIC_MODULES) <= set(COMPILED_MODULES)
    fake = tmp_path / "knockabout"
    (fake / "games" / "one").mkdir(parents=True)
    (fake / "games" / "one" / compiled.GAME_LIST).write_text("# hot\nknockabout.games.one.state  # rules\n\n")
    assert compiled.game_modules(fake) == ("knockabout.games.one.state",)
    (fake / "games" / "two").mkdir()
    (fake / "games" / "two" / compiled.GAME_LIST).write_text("knockabout.games.one.heuristic\n")
    with pytest.raises(ValueError, match=r"not a module of knockabout\.games\.two"):
        compiled.game_modules(fake)


def _fake_package(tmp_path: Path) -> Path:
    package = tmp_path / "knockabout"
    for name in COMPILED_MODULES:
        src = package.joinpath(*name.split(".")[1:]).with_suffix(".py")
        src.parent.mkdir(parents=True, exist_ok=True)
        src.write_text("")
        os.utime(src, (1000, 1000))
    return package


def test_module_builds_reads_extension_files_and_their_age(tmp_path: Path) -> None:
    pkg = _fake_package(tmp_path)
    assert {b.build for b in module_builds(pkg)} == {"plain"}
    assert build_summary(module_builds(pkg)) == "plain Python"
    for name in COMPILED_MODULES:
        ext = pkg.joinpath(*name.split(".")[1:]).with_suffix(EXT)
        ext.write_bytes(b"")
        os.utime(ext, (2000, 2000))
    assert {b.build for b in module_builds(pkg)} == {"compiled"}
    assert build_summary(module_builds(pkg)).startswith("compiled")
    # an edited source is newer than its extension: that extension is stale
    rng = pkg / "core" / "rng.py"
    os.utime(rng, (3000, 3000))
    builds = {b.module: b.build for b in module_builds(pkg)}
    assert builds["knockabout.core.rng"] == "stale"
    assert sum(v == "stale" for v in builds.values()) == 1
    summary = build_summary(module_builds(pkg))
    assert summary.startswith(f"mixed: {len(COMPILED_MODULES) - 1} of {len(COMPILED_MODULES)} compiled")
    assert "core.rng=stale" in summary
    # the shims stay old when only the shared library is rebuilt: a newer one counts
    shared = pkg.parent / f"0123abcd__mypyc{EXT}"
    shared.write_bytes(b"")
    os.utime(shared, (4000, 4000))
    assert {b.build for b in module_builds(pkg)} == {"compiled"}


def test_a_stale_module_is_warned_about(monkeypatch: pytest.MonkeyPatch) -> None:
    stale = [ModuleBuild("knockabout.core.rng", "stale")]
    monkeypatch.setattr(compiled, "module_builds", lambda package=None: stale)
    with pytest.warns(UserWarning, match=r"knockabout\.core\.rng"):
        compiled.warn_if_stale()
    monkeypatch.setattr(compiled, "module_builds", lambda package=None: [ModuleBuild("knockabout.core.rng", "plain")])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compiled.warn_if_stale()


def test_this_process_runs_one_build_throughout() -> None:
    """scripts/test-builds.sh says which build it runs; elsewhere every hot module must
    still be of one build (all plain or all compiled, none stale)."""
    builds = {b.build for b in module_builds()}
    expected = os.environ.get("KNOCKABOUT_EXPECT_BUILD")
    if expected is None:
        assert len(builds) == 1 and builds <= {"plain", "compiled"}, builds
        expected = next(iter(builds))
    assert builds == {expected}
    for name in COMPILED_MODULES:
        origin = str(importlib.import_module(name).__file__)
        assert origin.endswith(EXT if expected == "compiled" else ".py"), origin


@pytest.mark.parametrize("game_id", game_ids())
def test_finished_states_and_their_decisions_pickle(game_id: str) -> None:
    g = get_game(game_id)
    rng = Rng(3)
    s = g.new_state({}, 11)
    decision = s.to_act()
    assert decision is not None
    assert pickle.loads(pickle.dumps(decision)) == decision
    while s.to_act() is not None:
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    back = pickle.loads(pickle.dumps(s))
    assert back.outcome() == s.outcome() is not None
    assert back.to_dict() == s.to_dict()


def _setup_py(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, **env}
    return subprocess.run(
        [sys.executable, "setup.py", "--name"], cwd=ROOT, env=full, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    ("env", "why"),
    [
        ({"KNOCKABOUT_COMPILE": "0"}, "KNOCKABOUT_COMPILE=0"),
        ({"CC": "/nonexistent/cc"}, "no C compiler '/nonexistent/cc' found"),
    ],
)
def test_setup_builds_the_plain_package_with_one_notice(env: dict[str, str], why: str) -> None:
    done = _setup_py(env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "knockabout"
    notices = [line for line in done.stderr.splitlines() if line.strip()]
    assert notices == [f"knockabout: building the plain Python package ({why})"]


def test_the_compiled_build_shuffles_on_machine_words_with_the_same_draws() -> None:
    """The compiled build's shuffle runs on native 64-bit words (``core.rng._shuffle_words``)
    once its import check passes; plain Python keeps the arbitrary-precision loop. Both
    give the same draws and the same next state, for any length and seed."""
    from knockabout.core import rng as R

    assert R._WORDS == R.COMPILED, "words in the compiled build only"
    for seed in [*range(300), 2**63 - 1, 2**63, 2**64 - 1, 0x9E3779B97F4A7C15]:
        for n in (0, 1, 2, 3, 17, 40, 64, 129):
            words, loop = list(range(n)), list(range(n))
            state = R._shuffle_words(words, seed)
            r = Rng(seed)
            was, R._WORDS = R._WORDS, False
            try:
                r.shuffle(loop)
            finally:
                R._WORDS = was
            assert words == loop and state == r.state, (seed, n)
            through = Rng(seed)
            same = list(range(n))
            through.shuffle(same)  # whichever way this build shuffles
            assert same == loop and through.state == r.state


def test_a_shuffle_of_something_other_than_a_list_takes_the_general_loop() -> None:
    a = bytearray(range(30))
    b = list(range(30))
    Rng(5).shuffle(a)
    Rng(5).shuffle(b)
    assert list(a) == b


def test_bounded_draws_on_words_are_the_draws_of_below() -> None:
    from knockabout.core import rng as R

    for seed in [*range(200), 2**63, 2**64 - 1]:
        for n in (1, 2, 3, 7, 52, 1000, 2**20 + 3, 2**31 - 1):
            advanced = (Rng(seed).state + R._GOLDEN) & R._MASK
            r = Rng(seed)
            was, R._WORDS = R._WORDS, False
            try:
                expected = r.below(n)
            finally:
                R._WORDS = was
            assert R._bounded_words(advanced, n) == expected, (seed, n)
            assert Rng(seed).below(n) == expected, "whichever way this build draws"
    assert Rng(5).below(2**40) == Rng(5).below(2**40) < 2**40, "a bound past the words' takes the int path"


def test_64_bit_draws_on_words_are_those_of_next64() -> None:
    from knockabout.core import rng as R

    for seed in [*range(500), 2**63 - 1, 2**63, 2**64 - 1]:
        r = Rng(seed)
        was, R._WORDS = R._WORDS, False
        try:
            expected = [r.next64() for _ in range(3)]
        finally:
            R._WORDS = was
        state = Rng(seed).state
        got = []
        for _ in range(3):
            state = (state + R._GOLDEN) & R._MASK
            got.append(R._mixed_words(state))
        assert got == expected, seed
        w = Rng(seed)
        assert [w.next64() for _ in range(3)] == expected and min(expected) >= 0 and max(expected) < 2**64


def test_an_event_cannot_be_changed_where_the_build_enforces_it() -> None:
    """Event's fields are ``Final``: mypy checks that in both builds, and compiled code
    refuses the change at run time too (plain Python lets it through)."""
    from knockabout.core import events as E

    a = E.Event("draw", {"player": 1})
    if E.__file__.endswith(".py"):
        return  # plain Python: mypy's check alone guards the fields
    with pytest.raises(AttributeError):
        a.type = "drew"  # type: ignore[misc]
    assert a == E.Event("draw", {"player": 1})


_REBOUND = {"_WORDS"}  # rebound once at import, by design (rng's known-answer check turns it on)


def _is_type_alias(value: object) -> bool:
    import ast

    if isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name):
        return value.value.id in ("Literal", "Callable")
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
        return value.func.id == "TypeVar"
    return isinstance(value, ast.BinOp) and isinstance(value.op, ast.BitOr)


def _module_constants() -> list[tuple[str, int, str, Any, Any]]:
    """Each upper-case module-level assignment of the compiled modules: (module, line, name,
    annotation node or None, value node)."""
    import ast

    package = Path(compiled.__file__).resolve().parent
    out: list[tuple[str, int, str, Any, Any]] = []
    for name in COMPILED_MODULES:
        path = package.joinpath(*name.split(".")[1:]).with_suffix(".py")
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                target, annotation, value = node.targets[0].id, None, node.value
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                target, annotation, value = node.target.id, node.annotation, node.value
            else:
                continue
            if target.lstrip("_").isupper() and not target.startswith("__"):
                out.append((name, node.lineno, target, annotation, value))
    return out


def test_module_constants_of_compiled_modules_are_final() -> None:
    """mypyc reads a module-level name that is not ``Final`` from the module's dict on every
    use (a quarter of a Nak Muay ``hard`` move went to such lookups); a ``Final`` one it
    reads statically. Every upper-case module constant or cache of a compiled module must
    be declared ``Final``."""
    import ast

    missing = [f"{name}:{line} {target}" for name, line, target, annotation, value in _module_constants()
               if target not in _REBOUND and not _is_type_alias(value)
               and (annotation is None or "Final" not in ast.unparse(annotation))]
    assert not missing, "not Final: " + ", ".join(missing)


def test_tuple_constants_of_compiled_modules_have_unstated_length() -> None:
    """mypyc keeps a module-level tuple of a known length (``Final = (1, 2, 3)``) as a C
    struct, and indexing it by a variable, iterating it or returning it boxes every item
    into a new tuple each time (KNOCKBACK's direction table cost a fifth of a random step
    that way). Declared ``tuple[X, ...]`` it stays one tuple object. Every upper-case tuple
    constant of a compiled module written as a tuple display must be declared so."""
    import ast

    fixed = [f"{name}:{line} {target}" for name, line, target, annotation, value in _module_constants()
             if isinstance(value, ast.Tuple)
             and (annotation is None or not ast.unparse(annotation).replace(" ", "").endswith(",...]]"))]
    assert not fixed, "tuple constants of a fixed length (declare Final[tuple[X, ...]]): " + ", ".join(fixed)


BUILD_SCRIPT = ROOT / "scripts" / "build-compiled.sh"


def _build_script(out: Path, **env: str) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "PYTHON": sys.executable, "KNOCKABOUT_BUILD_DIR": str(out), **env}
    return subprocess.run(["bash", str(BUILD_SCRIPT)], env=full, capture_output=True, text=True, timeout=300)


def test_make_run_plays_plain_with_one_notice_where_nothing_can_compile(tmp_path: Path) -> None:
    """`make run` builds the compiled engine with scripts/build-compiled.sh; a machine
    without a C compiler gets status 3, no directory to run from, and one notice line."""
    done = _build_script(tmp_path / "b", CC="/nonexistent/cc")
    assert done.returncode == 3, done.stderr
    assert done.stdout == ""
    notices = [line for line in done.stderr.splitlines() if line.strip()]
    assert notices == ["knockabout: running the plain Python package (no C compiler '/nonexistent/cc' found)"]
    assert not (tmp_path / "b").exists()


def test_an_up_to_date_compiled_build_is_not_rebuilt(tmp_path: Path) -> None:
    """The stamp holds a hash of every source: while it matches (and the shared library
    is there) the script only names the build; a changed source rebuilds."""
    out = tmp_path / "b"
    (out / "src").mkdir(parents=True)
    (out / "src" / "0123__mypyc.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    digest = subprocess.run(
        ["bash", "-c", f". {BUILD_SCRIPT}; _source_hash"], cwd=ROOT, env={**os.environ, "PY": sys.executable},
        capture_output=True, text=True, timeout=60, check=True,
    ).stdout.strip()
    assert len(digest) == 64
    (out / ".built-from").write_text(digest + "\n")
    done = _build_script(out, CC="/nonexistent/cc")
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, str(out / "src"), "")
    (out / ".built-from").write_text("0" * 64 + "\n")  # as if a source had changed since
    assert _build_script(out, CC="/nonexistent/cc").returncode == 3


def test_compile_blocker_names_what_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util
    import sysconfig

    from knockabout.compiled import compile_blocker

    monkeypatch.delenv("KNOCKABOUT_COMPILE", raising=False)
    monkeypatch.setenv("CC", "sh -c")  # a command that exists, wherever this runs
    include = Path(sysconfig.get_paths()["include"])
    if (include / "Python.h").exists():
        assert compile_blocker() is None  # (make test installs mypy, which brings mypyc)
    else:
        assert compile_blocker() == f"no Python headers in {include}"
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None if name == "mypyc" else real(name))
    assert compile_blocker() == "mypyc is not installed"
    monkeypatch.setenv("CC", "/nonexistent/cc --flag")
    assert compile_blocker() == "no C compiler '/nonexistent/cc' found"
    monkeypatch.setenv("KNOCKABOUT_COMPILE", " 0 ")
    assert compile_blocker() == "KNOCKABOUT_COMPILE=0"

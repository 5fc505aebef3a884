#!/usr/bin/env bash
# Runs the conformance suite, the golden replays and the bot-determinism tests against
# both builds of the engine: the plain Python source, and the mypyc-compiled hot modules
# (src/knockabout/compiled.py lists them) built from that same source.
#
#   scripts/test-builds.sh [extra pytest args]
#   BUILDS=compiled scripts/test-builds.sh      # one build only (default: "plain compiled")
#
# Each build is a copy of src/ under build/ (plain: without extension files; compiled:
# built there with `setup.py build_ext --inplace`, kept between runs so only changed
# modules recompile), put first on PYTHONPATH. A machine without a C compiler runs the
# plain build and prints one notice line for the compiled one.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PY=${PYTHON:-$ROOT/.venv/bin/python}
[ -x "$PY" ] || PY=python3
BUILDS=${BUILDS:-plain compiled}
TESTS=(tests/conformance tests/golden tests/bots tests/core/test_compiled.py tests/sim/test_bench.py)

# copy src/ into build/<name>/src: sources only, extension files kept only if asked
copy_src() {
    "$PY" - "$1" "$2" <<'PYEOF'
import runpy, shutil, sys
from pathlib import Path
dest, keep_ext = Path(sys.argv[1]), sys.argv[2] == "keep"
src = Path("src")
listed = runpy.run_path(str(src / "knockabout" / "compiled.py"))["COMPILED_MODULES"]
keep = {Path(*m.split(".")) for m in listed}  # extensions of modules still on the list
dest.mkdir(parents=True, exist_ok=True)
wanted = set()
for f in src.rglob("*"):
    if f.is_file() and "__pycache__" not in f.parts and f.suffix not in (".so", ".pyd", ".c", ".o"):
        rel = f.relative_to(src)
        wanted.add(rel)
        out = dest / rel
        if not out.exists() or out.stat().st_mtime != f.stat().st_mtime or out.stat().st_size != f.stat().st_size:
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(f, out)
for f in list(dest.rglob("*")):
    if f.is_file() and "__pycache__" not in f.parts:
        rel = f.relative_to(dest)
        is_ext = f.suffix in (".so", ".pyd")
        module = rel.parent / rel.name.split(".")[0]
        kept = keep_ext and is_ext and (module in keep or "__mypyc" in rel.name)
        if rel not in wanted and not kept:
            f.unlink()
PYEOF
}

run_tests() {  # build-name pythonpath-dir
    echo "== $1 build: ${TESTS[*]}"
    PYTHONPATH="$2:$ROOT" KNOCKABOUT_EXPECT_BUILD="$1" "$PY" -m pytest -q -p no:cacheprovider "${TESTS[@]}" "${@:3}"
}

if [[ " $BUILDS " == *" plain "* ]]; then
    copy_src build/plain/src drop
    run_tests plain "$ROOT/build/plain/src" "$@"
fi
[[ " $BUILDS " == *" compiled "* ]] || exit 0

mkdir -p build/compiled
copy_src build/compiled/src keep
cp setup.py pyproject.toml README.md build/compiled/
log=$ROOT/build/compiled/build.log
(cd build/compiled && "$PY" setup.py build_ext --inplace -j 2 >"$log" 2>&1) || {
    echo "knockabout: compiled build failed (see $log); tested the plain build only"
    exit 1
}
if grep -q "mypyc could not compile" "$log"; then
    grep "mypyc could not compile" "$log" | head -1
    exit 1
fi
if grep -q "building the plain Python package" "$log"; then
    grep "building the plain Python package" "$log" | head -1
    echo "knockabout: tested the plain build only"
    exit 0
fi
run_tests compiled "$ROOT/build/compiled/src" "$@"

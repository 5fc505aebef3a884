#!/usr/bin/env bash
# Runs the conformance suite, the golden replays, the bot-determinism tests and the batched
# environment's tests (its state encoders must give the view encoders' vectors) against
# both builds of the engine: the plain Python source, and the mypyc-compiled hot modules
# (src/knockabout/compiled.py lists them) built from that same source, and on the compiled
# build the server frame tests too (its frames module is compiled).
#
#   scripts/test-builds.sh [extra pytest args]
#   BUILDS=compiled scripts/test-builds.sh      # one build only (default: "plain compiled")
#
# Each build is a copy of src/ under build/ (plain: without extension files; compiled:
# built there by scripts/build-compiled.sh, kept between runs so only changed code
# recompiles), put first on PYTHONPATH. A machine without a C compiler runs the
# plain build and prints one notice line for the compiled one.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PY=${PYTHON:-$ROOT/.venv/bin/python}
[ -x "$PY" ] || PY=python3
BUILDS=${BUILDS:-plain compiled}
TESTS=(tests/conformance tests/golden tests/bots tests/core/test_compiled.py tests/sim/test_bench.py
       tests/envs/test_state_encoding.py tests/envs/test_vector.py)
# the server's frames are compiled too (every change's patch); the unit suite already runs
# these tests on the plain source, so the compiled build alone adds them
COMPILED_TESTS=(tests/server/test_frames.py tests/server/test_patch_frames.py)

# copy_src and build_compiled
. scripts/build-compiled.sh

run_tests() {  # build-name pythonpath-dir [more tests and pytest args]
    echo "== $1 build: ${TESTS[*]} ${*:3}"
    PYTHONPATH="$2:$ROOT" KNOCKABOUT_EXPECT_BUILD="$1" "$PY" -m pytest -q -p no:cacheprovider ${PARALLEL--n auto --maxprocesses 4} "${TESTS[@]}" "${@:3}"
}

if [[ " $BUILDS " == *" plain "* ]]; then
    copy_src build/plain/src drop
    run_tests plain "$ROOT/build/plain/src" "$@"
fi
[[ " $BUILDS " == *" compiled "* ]] || exit 0

status=0
dir=$(build_compiled) || status=$?
if [[ $status == 3 ]]; then
    echo "knockabout: tested the plain build only"
    exit 0
fi
[[ $status == 0 ]] || { echo "knockabout: the compiled build failed; tested the plain build only"; exit 1; }
run_tests compiled "$dir" "${COMPILED_TESTS[@]}" "$@"

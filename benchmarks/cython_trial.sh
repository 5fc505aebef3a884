#!/usr/bin/env bash
# The other compiler the speed issue names: Cython in pure-Python mode, on the same
# modules mypyc compiles (src/knockabout/compiled.py), from the same unchanged source,
# measured beside the mypyc build with `knockabout bench`, alternating, --rounds times.
#
#   .venv/bin/pip install cython            # a benchmark-only tool, not a dependency
#   scripts/build-compiled.sh               # the mypyc build under build/compiled
#   bash benchmarks/cython_trial.sh [--rounds 2] [--seconds 2]
#
# The Cython copy is built under build/cython (kept; delete it to rebuild). Cython reads
# the annotations strictly (a NamedTuple is refused where a tuple is annotated), so it
# compiles with annotation_typing=False: the source as Python, with no type declarations.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PY=${PYTHON:-$ROOT/.venv/bin/python}
ROUNDS=2
SECONDS_EACH=2
while [[ $# -gt 0 ]]; do
    case $1 in
        --rounds) ROUNDS=$2; shift 2 ;;
        --seconds) SECONDS_EACH=$2; shift 2 ;;
        *) echo "cython_trial.sh: unknown option $1 (use --rounds N, --seconds S)" >&2; exit 2 ;;
    esac
done
CYTHONIZE=$(dirname "$PY")/cythonize
[[ -x "$CYTHONIZE" ]] || { echo "cython_trial.sh: Cython is not installed: $(dirname "$PY")/pip install cython" >&2; exit 2; }
[[ -d build/compiled/src ]] || { echo "cython_trial.sh: no mypyc build yet: run scripts/build-compiled.sh" >&2; exit 2; }

. scripts/build-compiled.sh  # copy_src
out=build/cython
if ! compgen -G "$out/src/*/core/protocol.*.so" >/dev/null; then
    copy_src "$out/src" drop
    mapfile -t files < <("$PY" -c 'import runpy; print("\n".join("src/" + m.replace(".", "/") + ".py" for m in runpy.run_path("src/knockabout/compiled.py")["COMPILED_MODULES"]))')
    echo "cython_trial.sh: compiling ${#files[@]} modules with Cython (a few minutes; log: $out/cythonize.log)" >&2
    start=$(date +%s)
    (cd "$out" && "$CYTHONIZE" -i -3 -j 2 -X annotation_typing=False "${files[@]}") >"$out/cythonize.log" 2>&1 \
        || { echo "cython_trial.sh: Cython failed (see $out/cythonize.log)" >&2; exit 1; }
    echo "cython_trial.sh: compiled in $(( $(date +%s) - start )) s" >&2
fi
for ((r = 1; r <= ROUNDS; r++)); do
    for build in "$out/src" build/compiled/src; do
        echo "== round $r: $build"
        PYTHONPATH="$ROOT/$build" "$(dirname "$PY")/knockabout" bench --seconds "$SECONDS_EACH" | tail -n +2
    done
done

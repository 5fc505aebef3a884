#!/usr/bin/env bash
# Builds the mypyc-compiled engine from the same source as the plain package, under
# build/compiled/src (a copy of src/ with the modules of src/knockabout/compiled.py
# compiled in place), and prints the directory to put first on PYTHONPATH to run it.
#
#   scripts/build-compiled.sh            # `make run` and `make test` call it
#
# KNOCKABOUT_BUILD_DIR puts the build elsewhere (default: build/compiled).
#
# Exit status and output:
#   0  built (or already up to date): prints build/compiled/src's absolute path
#   3  this machine builds the plain package only (no C compiler, no Python headers,
#      no mypyc: knockabout.compiled.compile_blocker): prints nothing, and one notice
#      line on stderr
#   1  mypyc or the C compiler failed on a machine that can compile: prints nothing,
#      and where the log is on stderr
#
# The copy is kept between runs: only changed files are copied, gcc only recompiles C
# that changed, and when no source changed since the last build (the stamp holds a hash
# of every copied file) nothing is rebuilt at all. Sourced (`. scripts/build-compiled.sh`)
# it only defines copy_src and build_compiled.
set -euo pipefail

# copy src/ into $1 (e.g. build/compiled/src): sources only; extension files of modules
# still on the list are kept if $2 is "keep"
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

# the hash of what a build is made from: every source file, setup.py and pyproject.toml
_source_hash() {
    "$PY" - <<'PYEOF'
import hashlib
from pathlib import Path
h = hashlib.sha256()
files = [p for p in Path("src").rglob("*") if p.is_file() and "__pycache__" not in p.parts
         and p.suffix not in (".so", ".pyd", ".c", ".o")]
for p in sorted(files) + [Path("setup.py"), Path("pyproject.toml")]:
    h.update(str(p).encode() + b"\0" + p.read_bytes() + b"\0")
print(h.hexdigest())
PYEOF
}

build_compiled() {
    local out=${KNOCKABOUT_BUILD_DIR:-$ROOT/build/compiled}
    local log=$out/build.log stamp=$out/.built-from
    local want
    want=$(_source_hash)
    if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]] && compgen -G "$out/src/*__mypyc*" >/dev/null; then
        echo "$out/src"
        return 0
    fi
    local why
    why=$("$PY" -c 'import runpy; print(runpy.run_path("src/knockabout/compiled.py")["compile_blocker"]() or "")')
    if [[ -n "$why" ]]; then
        echo "knockabout: running the plain Python package ($why)" >&2
        return 3
    fi
    mkdir -p "$out"
    rm -f "$stamp"
    copy_src "$out/src" keep
    cp setup.py pyproject.toml README.md "$out/"
    # setuptools recompiles only C newer than its extension, not C whose compiler flags
    # changed: when setup.py changed since the last build (or no build recorded it), all
    # of it is recompiled
    local setup_now force=()
    setup_now=$(sha256sum setup.py | cut -d' ' -f1)
    if compgen -G "$out/src/*__mypyc*" >/dev/null && [[ "$(cat "$out/.built-setup" 2>/dev/null)" != "$setup_now" ]]; then
        force=(--force)
    fi
    echo "knockabout: compiling the engine with mypyc (about a minute the first time; log: $log)" >&2
    if ! (cd "$out" && "$PY" setup.py build_ext --inplace -j 2 "${force[@]}" >"$log" 2>&1); then
        echo "knockabout: the compiled build failed (see $log)" >&2
        return 1
    fi
    if grep -q "mypyc could not compile" "$log"; then
        grep "mypyc could not compile" "$log" | head -1 >&2
        return 1
    fi
    if grep -q "building the plain Python package" "$log"; then
        grep "building the plain Python package" "$log" | head -1 >&2
        return 3
    fi
    # gcc leaves an extension alone when its C did not change (a source touched but not
    # edited), so it can be older than its .py; it was just built from that very source
    find "$out/src" \( -name '*.so' -o -name '*.pyd' \) -exec touch {} +
    echo "$setup_now" >"$out/.built-setup"
    echo "$want" >"$stamp"
    echo "$out/src"
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
    cd "$(dirname "$0")/.."
    ROOT=$PWD
    PY=${PYTHON:-$ROOT/.venv/bin/python}
    [ -x "$PY" ] || PY=python3
    build_compiled
fi

# knockabout — two commands: `make run` plays, `make test` checks everything.
# Both create .venv with the project and its dependencies on first use.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: run test lint typecheck unit builds browser-deps db-deps multihost-deps clean demo

# `make run` needs only the package; `make test` adds what the suite checks: the dev tools,
# plots, Ray, the research environments and their peers, and the training example's
# libraries (CPU PyTorch, pinned so pip takes the CPU build rather than a CUDA one).
TEST_EXTRAS := dev,plots,cluster,rl,envs-bench,openspiel,train,tune,multihost
TEST_STAMP  := $(VENV)/.test-stamp
TORCH_CPU   ?= torch==2.13.0
# The working copy's .venv holds the plain package (an editable install that compiled its
# modules would run stale code after every edit); the mypyc-compiled modules are built
# apart, under build/compiled, which `make run` plays on and `make builds` (part of
# `make test`) checks against the plain build. COMPILE=1 compiles the editable install
# too (see docs/speed.md).
COMPILE     ?= 0

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "knockabout needs Python 3.11 or newer (set PYTHON=python3.11)")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	KNOCKABOUT_COMPILE=$(COMPILE) $(BIN)/python -m pip install --quiet -e '.[compile]'
	@touch $(STAMP)

$(TEST_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet '$(TORCH_CPU)'
	KNOCKABOUT_COMPILE=$(COMPILE) $(BIN)/python -m pip install --quiet -e '.[$(TEST_EXTRAS)]'
	@touch $(TEST_STAMP)

# `make run` plays on the compiled engine (built under build/compiled by
# scripts/build-compiled.sh, the same build `make test` checks; rebuilt only when a source
# changed), or on the plain package with one notice line where this machine cannot compile.
run: $(STAMP)
	@status=0; dir=$$(bash scripts/build-compiled.sh) || status=$$?; \
	[ $$status = 0 ] || [ $$status = 3 ] || echo "knockabout: playing on the plain Python package"; \
	PYTHONPATH="$$dir" exec $(BIN)/knockabout serve --host $(HOST) --port $(PORT)

lint: $(TEST_STAMP)
	$(BIN)/ruff check src tests benchmarks examples

typecheck: $(TEST_STAMP)
	$(BIN)/mypy --strict src

# The suite in two passes: the tests that may share the machine run two (or up to four) at
# a time, then the solo ones (servers, worker processes, browsers, signals) one by one.
PARALLEL    ?= -n auto --maxprocesses 4
export PARALLEL

unit: $(TEST_STAMP)
	$(BIN)/pytest -q --durations=15 -m "not solo" $(PARALLEL)
	$(BIN)/pytest -q --durations=30 -m solo

builds: $(TEST_STAMP)
	@bash scripts/test-builds.sh

test: $(TEST_STAMP) browser-deps db-deps multihost-deps lint typecheck unit builds

browser-deps:
	@bash scripts/ensure-browser.sh

db-deps:
	@bash scripts/ensure-postgres.sh

multihost-deps:
	@bash scripts/ensure-multihost.sh

clean:
	rm -rf $(VENV) build .pytest_cache .mypy_cache .ruff_cache

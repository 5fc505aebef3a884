# knockabout — two commands: `make run` plays, `make test` checks everything.
# Both create .venv with the project and its dependencies on first use.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: run test lint typecheck unit browser-deps db-deps clean demo

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "knockabout needs Python 3.11 or newer (set PYTHON=python3.11)")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,rl,envs-bench,openspiel]'
	@touch $(STAMP)

run: $(STAMP)
	$(BIN)/knockabout serve --host $(HOST) --port $(PORT)

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy --strict src

unit: $(STAMP)
	$(BIN)/pytest -q

test: $(STAMP) browser-deps db-deps lint typecheck unit

browser-deps:
	@bash scripts/ensure-browser.sh

db-deps:
	@bash scripts/ensure-postgres.sh

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

# Two set-up commands: `make run` (the web server) and `make test`. Both create the virtual environment if missing.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint bench clean chromium

# The install also compiles the solver's relaxed search and its search over Fours Up's images
# (setup.py, a C compiler and the Python headers); where that fails the solver runs the same
# searches in Python, and tests/test_relaxed_compiled.py and test_solver_multiset.py say so.
$(STAMP): pyproject.toml setup.py src/patience/solver/_relaxedc.c src/patience/solver/_multisetc.c \
		src/patience/solver/_restarts.h src/patience/solver/_drain.h \
		src/patience/solver/_pages.h
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

# The web server on http://127.0.0.1:8000/ (API under /api; the SQLite database
# ./data/patience.db is made on first start; PATIENCE_DB or `--db URL` choose another).
# `python -m patience.web serve` is `patience serve`. Terminal play: `patience play GAME`.
run: $(STAMP)
	$(BIN)/python -m patience.web serve

# The browser tests drive Debian's Chromium (/usr/bin/chromium); installed here when missing.
chromium:
	@if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null 2>&1; then \
		echo "installing Debian's chromium for the browser tests"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q && \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; \
	fi

# The tests run on every core: pytest-xdist starts one worker process per core (-n auto) and
# gives each a contiguous share of the tests; a worker that runs out takes over the tail of
# another's queue (--dist worksteal).  The browser tests, collected first, stay at the head of
# one worker's share: one Chromium and one server for them all (a second worker would start
# its own, on its own port).  Not --dist loadfile, loadscope or loadgroup: with pytest 9.2 the
# schemathesis tests (one per API operation) share one node id, and those modes run only one
# of them (tests/conftest.py refuses them).  A plain `python -m pytest` runs in one process
# (for one test, -s or --pdb).
test: $(STAMP) chromium
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy
	$(BIN)/python -m pytest -q -n auto --dist worksteal --durations=20

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/solver.py
	$(BIN)/python bench/lost_detection.py
	$(BIN)/python bench/web_load.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis build src/*.egg-info
	rm -f src/patience/solver/*.so

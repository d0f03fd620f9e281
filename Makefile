# The two commands of the README: `make demo` and `make test`. Each sets up what it needs:
# Debian packages only when missing, a venv in .venv, the project with its test extras.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
# The suite runs on this many pytest-xdist workers, each test file on one of them (its fixtures and its
# processes together); TEST_WORKERS=0 runs it in this process. Three on two cores: many tests wait on the
# processes they start (brokers, browsers, tables), and a third worker fills those waits (a whole run here:
# 949 s of tests on two workers, 585 s on three, side by side on a quiet machine).
# --durations: the slowest tests are named at the end of every run (CI's log included), where the time goes.
# --no-loadscope-reorder: the workers take the files in the collection's order, which tests/conftest.py
# (SLOW_FIRST) starts with the longest files, so a run does not end waiting on one of them.
TEST_WORKERS ?= 3
STAMP  := $(VENV)/.installed-stamp
# Debian packages the demo needs / the test suite needs in addition.
DEMO_DEBS := python3-venv
TEST_DEBS := libzbar0 mosquitto openssl chromium chromium-driver systemd poppler-utils tmux

.PHONY: setup demo test lint bench clean constraints

$(STAMP): pyproject.toml constraints.txt
	@$(PYTHON) -c 'import ensurepip' 2>/dev/null || tools/ensure-debs.sh $(DEMO_DEBS)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -c constraints.txt -e '.[test]'
	touch $(STAMP)

setup: $(STAMP)

demo: setup
	$(VENV)/bin/cardtable demo
	@echo
	@echo "The program is $(VENV)/bin/cardtable: run it as '$(VENV)/bin/cardtable --help', or first"
	@echo "'. $(VENV)/bin/activate' and then 'cardtable --help' (e.g. 'cardtable shoe-sim', 'cardtable club demo')."

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

test: setup
	tools/ensure-debs.sh $(TEST_DEBS)
	tools/ensure-micropython.sh
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	TEST_REQUIRE_MICROPYTHON=1 $(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder --durations=15

bench: setup
	$(VENV)/bin/cardtable bench all

# After changing a version in .venv on purpose: write the versions the tests now run with. The lines
# with an environment marker (one version per Raspberry Pi OS release) are kept as they are, and the
# packages they name are left out of the freeze.
constraints: setup
	{ awk '/^[^#]/{exit} {print}' constraints.txt; grep '^[^#].*;' constraints.txt; \
	  grep '^# -- the rest' constraints.txt; \
	  $(PY) -m pip freeze --exclude-editable | grep -v '^#' \
	  | grep -viE "^($$(grep '^[^#].*;' constraints.txt | cut -d= -f1 | sort -u | paste -sd'|'))=="; } > constraints.txt.new
	mv constraints.txt.new constraints.txt

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache

# axe-core (pinned, from npm) for the dashboard's accessibility check in tests/club/test_director_screen.py.
AXE := .cache/npm/node_modules/axe-core/axe.min.js
$(AXE):
	@command -v npm >/dev/null || tools/ensure-debs.sh npm
	npm install --prefix .cache/npm --no-audit --no-fund --no-save axe-core@4.10.2
test: $(AXE)

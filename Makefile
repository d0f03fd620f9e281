# The two commands of the README: `make demo` and `make test`. Each sets up what it needs:
# Debian packages only when missing, a venv in .venv, the project with its test extras.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
# Debian packages the demo needs / the test suite needs in addition.
DEMO_DEBS := python3-venv
TEST_DEBS := libzbar0 mosquitto openssl chromium chromium-driver

.PHONY: setup demo test lint bench clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import ensurepip' 2>/dev/null || tools/ensure-debs.sh $(DEMO_DEBS)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $(STAMP)

setup: $(STAMP)

demo: setup
	$(VENV)/bin/cardtable demo

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

test: setup
	tools/ensure-debs.sh $(TEST_DEBS)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	$(PY) -m pytest

bench: setup
	$(VENV)/bin/cardtable bench all

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache

# axe-core (pinned, from npm) for the dashboard's accessibility check in tests/club/test_director_screen.py.
AXE := .cache/npm/node_modules/axe-core/axe.min.js
$(AXE):
	@command -v npm >/dev/null || tools/ensure-debs.sh npm
	npm install --prefix .cache/npm --no-audit --no-fund --no-save axe-core@4.10.2
test: $(AXE)

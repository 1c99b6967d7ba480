# The two commands: `make run` starts the whole service, `make test` runs every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run test lint install clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Orrery needs Python 3.11 or newer: run make PYTHON=python3.11 ...")'
	$(PYTHON) -m venv $(VENV)

# Running needs only the package's own dependencies; the test tools are installed for lint and test.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e .
	touch $(STAMP)

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $(STAMP) $(TEST_STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/orrery up

lint: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy .

# Two test processes (pytest-xdist), one test file at a time each: module fixtures stay whole, and each
# process has its own namespace, queues and Celery workers. `make test TEST_PROCESSES=0` runs them in one.
TEST_PROCESSES ?= 2

test: lint
	$(BIN)/python -m pytest -n $(TEST_PROCESSES) --dist loadfile

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache

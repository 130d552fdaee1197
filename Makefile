# The two commands in the README. `make lab` installs the kit and opens the lessons;
# `make test` installs everything the tests need (Debian's chromium included) and runs them.
PYTHON ?= python3
VENV := .venv
# apt-get needs root: use sudo when we are not root already.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: lab test

lab:
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -e ".[lab]"
	$(VENV)/bin/jupyter lab notebooks/

test:
	$(SUDO) apt-get update -q
	$(SUDO) apt-get install -y -q chromium fonts-dejavu-core
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -e ".[dev]"
	$(VENV)/bin/ruff check eagerkit widgets tests benchmarks
	$(VENV)/bin/ruff format --check eagerkit widgets tests benchmarks
	$(VENV)/bin/pytest

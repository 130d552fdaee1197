# The README's two commands (keep them in sync with it):
#   make lab   installs eagerkit into .venv and opens the lessons in JupyterLab
#   make test  installs everything the tests need (Debian's chromium too), then runs
#              lint, the test suite and the lesson notebooks
# .ci/run runs `make install` and `make test`, nothing else.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# apt-get needs root: use sudo when we are not root already.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
LINTED := eagerkit widgets tests benchmarks
# One thread per BLAS call and a fixed hash seed, so printed numbers repeat exactly.
DETERMINISTIC := OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONHASHSEED=0
NBVAL := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg

.PHONY: install lab test notebooks

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# An editable install skips data files: put eagerkit's JupyterLab setting (save widget
# state with the notebook) where JupyterLab reads it, as a wheel install would.
LAB_OVERRIDES := $(VENV)/share/jupyter/lab/settings/overrides.d

install: $(BIN)/python
	$(BIN)/pip install -e ".[lab]"
	mkdir -p $(LAB_OVERRIDES) && cp widgets/lab_settings/eagerkit.json $(LAB_OVERRIDES)/

lab: install
	$(BIN)/jupyter lab notebooks/

test: $(BIN)/python
	$(SUDO) apt-get update -q
	$(SUDO) apt-get install -y -q chromium fonts-dejavu-core
	$(BIN)/pip install -e ".[dev]"
	$(BIN)/ruff check $(LINTED)
	$(BIN)/ruff format --check $(LINTED)
	$(DETERMINISTIC) $(BIN)/pytest -n 2
	$(DETERMINISTIC) $(BIN)/pytest -n 2 --dist loadscope $(NBVAL) notebooks/

# Re-execute every lesson and store its outputs without widget state (for lesson authors).
notebooks: $(BIN)/python
	for nb in notebooks/*.ipynb; do \
	  $(DETERMINISTIC) $(BIN)/jupyter nbconvert --to notebook --execute --inplace "$$nb" && \
	  $(BIN)/jupyter nbconvert --inplace --coalesce-streams "$$nb" && \
	  $(BIN)/nbstripout --keep-output --keep-count "$$nb" && \
	  $(BIN)/python -m eagerkit.widgets.notebook_views "$$nb" || exit 1; \
	done

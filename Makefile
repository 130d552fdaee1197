# The README's two commands (keep them in sync with it):
#   make lab   installs eagerkit into .venv and opens JupyterLab at the repository root,
#              on the first lesson (LAB_ARGS="--no-browser --ip=0.0.0.0" and the like pass through)
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

# Jupyter refuses to run as root (containers, lab machines) unless told it may.
ALLOW_ROOT := $(shell [ "$$(id -u)" = 0 ] && echo --allow-root)
LAB_ARGS ?=
# JupyterLab's default workspace, kept in the venv: the first lesson open, its folder browsed.
WORKSPACES := JUPYTERLAB_WORKSPACES_DIR=$(CURDIR)/$(VENV)/share/jupyter/lab/workspaces

.PHONY: install lab instructor test notebooks handout links

$(BIN)/python:
	@$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); \
	  echo "make: '$(PYTHON) -m venv' failed. On Debian/Ubuntu: apt-get install python3-venv"; exit 1; }

# The lab settings are Binder's (binder/postBuild): no news, no update checks, widget
# state saved with notebooks (an editable install copies no data files), tracked lessons
# read-only, and only the state of widgets on display saved.
install: $(BIN)/python
	$(BIN)/pip install -e ".[lab]"
	NB_PYTHON_PREFIX=$(CURDIR)/$(VENV) binder/postBuild

# Served from the repository root, so the README and the engine's source are in the file
# browser too. Each role works in copies git does not track (binder/lessons.py): student/
# (solutions taken out) or instructor/; a copy that exists holds your work and is kept.
define open-lab
	$(BIN)/python binder/lessons.py $(1)
	$(WORKSPACES) $(BIN)/jupyter lab workspaces import build/lab/$(1)-workspace.json
	$(WORKSPACES) $(BIN)/jupyter lab $(ALLOW_ROOT) $(LAB_ARGS)
endef

lab: install
	$(call open-lab,student)

instructor: install
	$(call open-lab,instructor)

test: install
	$(SUDO) apt-get update -q
	$(SUDO) apt-get install -y -q chromium fonts-dejavu-core
	$(BIN)/pip install -e ".[dev]"
	$(BIN)/ruff check $(LINTED)
	$(BIN)/ruff format --check $(LINTED)
	$(DETERMINISTIC) $(BIN)/pytest -n 2
	$(DETERMINISTIC) $(BIN)/pytest -n 2 --dist loadscope $(NBVAL) notebooks/

# Re-execute the lessons and store their outputs without widget state (for lesson authors);
# `make notebooks LESSONS=notebooks/07_training.ipynb` re-runs one.
LESSONS ?= notebooks/*.ipynb
notebooks: $(BIN)/python
	for nb in $(LESSONS); do \
	  $(DETERMINISTIC) $(BIN)/jupyter nbconvert --to notebook --execute --inplace "$$nb" && \
	  $(BIN)/jupyter nbconvert --inplace --coalesce-streams "$$nb" && \
	  $(BIN)/nbstripout --keep-output --keep-count "$$nb" && \
	  $(BIN)/python -m eagerkit.widgets.notebook_views "$$nb" || exit 1; \
	done

# The student copies to hand out (solutions taken out), run once so they show their
# outputs: every check says "not answered yet". Written afresh to handout/.
handout: $(BIN)/python
	rm -rf handout
	$(BIN)/python -m eagerkit.widgets.exercises.student notebooks handout
	for nb in handout/*.ipynb; do \
	  $(DETERMINISTIC) $(BIN)/jupyter nbconvert --to notebook --execute --inplace "$$nb" && \
	  $(BIN)/jupyter nbconvert --inplace --coalesce-streams "$$nb" && \
	  $(BIN)/nbstripout --keep-output --keep-count "$$nb" || exit 1; \
	done

# Point the Binder badge and the JupyterHub links at the repository named in pyproject.toml.
links:
	$(PYTHON) binder/links.py

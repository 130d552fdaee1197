#!/usr/bin/env bash
# The one prepared script for a session lent a GPU machine (issue 20): the timings first, on a
# quiet machine (benchmarks/gpu_calls.py, devices.py, gpu_profile.py), then every lesson under
# nbval beside the suite (tests/test_gpu.py first), each step's output in its own file under
# $OUT, all within one device command's 10 minutes.
#
# 1. Here, once, where pip reaches PyPI:      bash benchmarks/gpu_session.sh prepare
#    downloads into .whl/ (ignored through .git/info/exclude) the wheels, for the GPU machine's
#    Python 3.12 on x86-64, of what the project needs there and that machine's image lacks (it
#    has numpy, scipy, cupy, PyTorch, pytest, hypothesis, xdist, matplotlib, scikit-learn...).
# 2. With the device tool:   run(command="bash benchmarks/gpu_session.sh", carry=[".whl"],
#    timeout_s=600). Back under $OUT, seven files (the tool returns eight at most):
#    summary.txt (each step: exit status, seconds), devices.txt (the install's log, then
#    the devices), calls.txt, benchmarks.txt, profile.txt, lessons.txt, suite.txt.
# 3. Dry run on a CPU machine (no wheels installed: the given Python has everything; the GPU
#    tests skip, lesson 09 runs on the simulated GPU):
#        PYTHON=.venv/bin/python OUT=/tmp/gpu-session SUITE=tests/test_devices.py \
#        SUITE_WORKERS=1 LESSONS=notebooks/01_hello_eager.ipynb bash benchmarks/gpu_session.sh
set -u
cd "$(dirname "$0")/.."

# What the project needs beyond the GPU image (KINDS.md lists the image's packages): the
# notebook stack for nbval and the widgets (not JupyterLab: the lab's tests stay here, with
# chromium); pip resolves their dependencies.
NEEDED="nbval nbformat nbclient ipykernel ipywidgets anywidget grandalf nbstripout jupyter_server"
# Packages the image has: their wheels are dropped, so the image's builds (numpy for cupy) stay.
IMAGE_HAS="numpy scipy torch cupy_cuda13x pytest pytest_xdist pytest_timeout hypothesis
matplotlib scikit_learn tqdm pyyaml packaging setuptools jinja2 markupsafe pygments
attrs certifi idna urllib3 requests charset_normalizer typing_extensions six
python_dateutil psutil fsspec filelock sympy mpmath networkx pillow pluggy iniconfig coverage
anyio prometheus_client pyparsing"

if [ "${1:-}" = prepare ]; then
  exclude=$(git rev-parse --git-path info/exclude)
  grep -qx '/.whl/' "$exclude" 2>/dev/null || echo '/.whl/' >> "$exclude"
  rm -rf .whl && mkdir -p .whl
  # shellcheck disable=SC2086  # the package lists are meant to split into words
  python3 -m pip download -q --only-binary=:all: --python-version 3.12 --implementation cp \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 \
    --platform manylinux2014_x86_64 -d .whl $NEEDED || exit 1
  for name in $IMAGE_HAS; do
    rm -f .whl/"$name"-[0-9]*.whl .whl/"${name//_/-}"-[0-9]*.whl
  done
  # A setuptools that reads pyproject's SPDX license (77+), to build the editable install
  # where the image's is older: in its own folder, used only for that build.
  python3 -m pip download -q --only-binary=:all: --no-deps -d .whl/build "setuptools>=77" || exit 1
  du -sh .whl && ls .whl | wc -l
  exit 0
fi

OUT=${OUT:-/tmp/gpu-session}
mkdir -p "$OUT"
SUMMARY=$OUT/summary.txt
: > "$SUMMARY"
START=$(date +%s)
BUDGET=${GPU_SESSION_SECONDS:-560}  # one device command may run 600 s: leave room to return

if [ -z "${PYTHON:-}" ]; then  # on the GPU machine: the image's Python, the carried wheels
  PYTHON=python3
  "$PYTHON" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl || { echo "wheels: failed" >> "$SUMMARY"; exit 1; }
  export PYTHONPATH=/tmp/site
  # eagerkit itself as `make install` installs it: editable (pip, offline, no dependencies:
  # the image and the wheels have them), then binder/postBuild's JupyterLab settings, so
  # tests/test_install.py and the saved-widget-state test check a real install.
  prefix=$("$PYTHON" -c 'import sys; print(sys.prefix)')
  editable="$PYTHON -m pip install -q --no-index --no-deps -e ."
  # The image's setuptools first; if it is too old, the carried one (in build isolation).
  if { $editable --no-build-isolation || $editable --find-links .whl/build; } > "$OUT/install.txt" 2>&1 \
    && NB_PYTHON_PREFIX=$prefix bash binder/postBuild >> "$OUT/install.txt" 2>&1
  then
    echo "install: pip install -e . and binder/postBuild, as make install" >> "$SUMMARY"
  else  # eagerkit.widgets is widgets/ (pyproject's package-dir): a link stands in
    echo "install: failed (its log heads devices.txt); a link stands in: test_install will fail" >> "$SUMMARY"
    [ -e eagerkit/widgets ] || ln -s ../widgets eagerkit/widgets
    export PYTHONPATH=$PWD:$PYTHONPATH
  fi
fi
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONHASHSEED=0
export PYTHONUNBUFFERED=1

# step NAME SECONDS COMMAND...: run it with a time limit, output to $OUT/NAME.txt, one line
# in the summary. At its limit a step gets SIGINT, so pytest still prints the failures it has
# seen, and GRACE seconds to do so (pytest-xdist takes about 26 s to stop its workers) before
# it is killed, all within the budget. The last steps get whatever time is left.
GRACE=30
step() {
  local name=$1 limit=$2 begun=$SECONDS
  shift 2
  local left=$((BUDGET - ($(date +%s) - START) - GRACE))
  [ "$limit" -gt "$left" ] && limit=$left
  if [ "$limit" -le 10 ]; then
    echo "$name: not run (no time left)" >> "$SUMMARY"
    return
  fi
  timeout -s INT -k "$GRACE" "$limit" "$@" > "$OUT/$name.txt" 2>&1
  local status=$?
  echo "$name: exit $status after $((SECONDS - begun)) s (limit $limit s)" >> "$SUMMARY"
}

step devices 60 bash -c "nvidia-smi -L; \"$PYTHON\" -c 'import eagerkit as ek, numpy
print(\"numpy\", numpy.__version__, \"GPUs\", ek.num_gpus(), ek.list_devices())
from eagerkit.backends.cupy_backend import gpu_status; print(gpu_status())
import cupy; print(\"cupy\", cupy.__version__, cupy.cuda.runtime.runtimeGetVersion())'"
[ -f "$OUT/install.txt" ] && { echo "--- install"; cat "$OUT/install.txt"; } >> "$OUT/devices.txt" \
  && rm "$OUT/install.txt"
# The timings first, on a quiet machine (they compile the kernels they use).
step calls 90 "$PYTHON" benchmarks/gpu_calls.py
step benchmarks 240 "$PYTHON" benchmarks/devices.py
step profile 90 "$PYTHON" benchmarks/gpu_profile.py
# Then correctness: every lesson (as make test runs them; 07, 09 and 14 use the GPU here)
# beside the suite, tests/test_gpu.py first, then the exercise corpus (its lessons run on the
# GPU there: its longest tests, 60-100 s each on an H100, must not start last), less what
# needs the lab tooling the GPU image lacks (JupyterLab, chromium, Playwright, ruff: CI runs
# those tests); the reason goes into the summary. LESSONS (notebook paths) and SUITE (test
# paths) narrow them for a dry run.
echo "suite leaves out (the GPU image lacks their tooling; CI runs them): tests/browser," \
  "test_lab.py, test_binder.py (JupyterLab, chromium), test_install's" \
  "test_every_dev_and_lab_requirement_is_installed (jupyterlab, playwright, ruff)" >> "$SUMMARY"
# shellcheck disable=SC2086  # LESSONS and SUITE are lists of paths
step lessons 600 "$PYTHON" -m pytest -q -p no:cacheprovider -n "${LESSON_WORKERS:-4}" \
  --dist loadscope --timeout=240 --nbval --nbval-current-env \
  --nbval-sanitize-with tests/nbval_sanitize.cfg ${LESSONS:-notebooks/} &
# shellcheck disable=SC2086
step suite 600 "$PYTHON" -m pytest -q -rfEs --tb=short --durations=10 -p no:cacheprovider \
  -n "${SUITE_WORKERS:-11}" --timeout=120 -m "not browser" --ignore=tests/browser \
  --ignore=tests/test_lab.py --ignore=tests/test_binder.py \
  --deselect tests/test_install.py::test_every_dev_and_lab_requirement_is_installed \
  ${SUITE:-tests/test_gpu.py tests/test_exercise_corpus.py tests/}
wait
cat "$SUMMARY"

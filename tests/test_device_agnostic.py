"""The device tests pass on a machine with a GPU too: run here with the simulated GPU standing in
as ``/gpu:0`` (``EAGERKIT_SIMULATED_GPU=1``), so a test that silently assumes "no GPU" fails on
CI, not first on a GPU machine. Tests that need a machine without a GPU make one (conftest's
``no_gpu`` fixture, or a faked cupy); the rest must pass whatever devices there are.
"""

import os
import subprocess
import sys

import pytest

import eagerkit as ek
from eagerkit.devices import SIMULATED_GPU_VARIABLE, simulated_gpu_requested
from eagerkit.errors import InvalidArgumentError

# Every test file that reads the machine's devices (num_gpus, list_devices, '/gpu:0', ...).
DEVICE_TESTS = [
    "tests/test_devices.py",
    "tests/test_tf2_namespaces.py",
    "tests/test_tf2_edges.py",
    "tests/test_tf_guide_eager_basics.py",
    "tests/test_tf_guide_tf1_eager.py",
    "tests/test_seeds_core.py",
    "tests/test_seeds_models.py",
    "tests/test_tf_types.py",
]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _with_stand_in():
    return {**os.environ, SIMULATED_GPU_VARIABLE: "1", "PYTHONHASHSEED": "0"}


def test_the_variable_makes_the_simulated_gpu_answer_to_gpu_0():
    code = (
        "import eagerkit as ek; print(ek.num_gpus(), ek.list_devices(), ek.ones([1]).gpu().device)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=_with_stand_in()
    )
    assert result.stdout.split() == [
        "1",
        "['/cpu:0',",
        "'/sim:0']",
        "/job:localhost/replica:0/task:0/device:SIM:0",
    ], result.stderr


@pytest.mark.parametrize("value", ["yes", "2", "true"])
def test_a_value_the_variable_does_not_know_is_refused(value):
    with pytest.raises(InvalidArgumentError, match=f"EAGERKIT_SIMULATED_GPU='{value}' is not"):
        simulated_gpu_requested({SIMULATED_GPU_VARIABLE: value})
    assert simulated_gpu_requested({SIMULATED_GPU_VARIABLE: " 0 "}) is False


def test_the_no_gpu_fixture_hides_a_gpu_standing_in(request):
    ek.devices.enable_simulated_gpu(as_gpu=True)
    assert ek.num_gpus() == 1
    request.getfixturevalue("no_gpu")
    assert ek.num_gpus() == 0 and ek.list_devices() == ["/cpu:0"]
    assert ek.config.list_physical_devices("GPU") == []


def test_the_device_tests_pass_with_a_gpu_standing_in():
    # One process, the files in order: about half a minute on one core.
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:xdist"]
    result = subprocess.run(
        [*command, *DEVICE_TESTS], capture_output=True, text=True, env=_with_stand_in(), cwd=ROOT
    )
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert " passed" in result.stdout.splitlines()[-1]

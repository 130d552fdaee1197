"""Device names, scopes, policies, copies, and the clear answers when there is no GPU.

The no-GPU paths are tested by faking what the machine lacks: a missing cupy (its import
fails) and a cupy without CUDA (it imports, ``is_available()`` is False and device calls raise
CUDARuntimeError, a RuntimeError: what real cupy does on a machine without a GPU driver).
"""

import sys
import types

import numpy as np
import pytest
from device_suite import seed_gpu_examples

import eagerkit as ek
from eagerkit.backends import cupy_backend
from eagerkit.devices import canonical_name, copy_hint, get_device
from eagerkit.errors import InvalidArgumentError, UnavailableError

CPU = "/job:localhost/replica:0/task:0/device:CPU:0"  # TF's full name
SIM = "/job:localhost/replica:0/task:0/device:SIM:0"  # TF's full name


@pytest.fixture
def no_cupy(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", None)  # makes `import cupy` raise ImportError


def _fake_cupy(available, count=0, raises=False):
    def get_device_count():
        if raises:
            raise RuntimeError(
                "cudaErrorInsufficientDriver: CUDA driver version is insufficient for CUDA "
                "runtime version"
            )
        return count

    cupy = types.ModuleType("cupy")
    cupy.__version__ = "14.2.0"
    cupy.is_available = lambda: available
    cupy.cuda = types.SimpleNamespace(
        runtime=types.SimpleNamespace(getDeviceCount=get_device_count)
    )
    return cupy


@pytest.fixture
def cupy_without_cuda(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", _fake_cupy(available=False, raises=True))


# --- no GPU: clear answers -------------------------------------------------------------------
def test_cupy_is_imported_only_when_a_gpu_is_first_asked_for(tmp_path):
    import os
    import subprocess

    # A stand-in cupy that the child process would find first, if anything imported it.
    (tmp_path / "cupy.py").write_text("__version__ = '0'\ndef is_available():\n    return False\n")
    code = (
        "import sys, eagerkit as ek\n"
        "print('cupy' in sys.modules)\n"
        "ek.constant([1.0]) + 1; ek.list_devices.__doc__\n"
        "print('cupy' in sys.modules, ek.num_gpus(), 'cupy' in sys.modules)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert result.stdout.split() == ["False", "False", "0", "True"], result.stderr


def test_without_cupy_there_are_no_gpus_and_the_error_says_how_to_install(no_cupy):
    assert ek.num_gpus() == 0
    assert ek.list_devices() == ["/cpu:0"]
    with pytest.raises(UnavailableError) as caught:
        ek.constant([1.0]).gpu()
    message = str(caught.value)
    assert message.startswith("cannot use '/gpu:0'. No GPU: cupy is not installed")
    assert 'pip install "eagerkit[gpu]"' in message and "cupy-cuda12x" in message
    assert "cupy-cuda13x" in message and "nvidia-smi" in message
    assert isinstance(caught.value, RuntimeError)  # TF raises a RuntimeError here too


def test_cupy_without_cuda_says_the_device_is_missing_not_cupy(cupy_without_cuda):
    assert ek.num_gpus() == 0
    with ek.device("/gpu:0"):  # soft placement (TF2's default): the CPU stands in
        assert ek.ones([1]).device.endswith("CPU:0")
    ek.config.set_soft_device_placement(False)  # strict: the error that says why
    try:
        with pytest.raises(UnavailableError) as caught:
            with ek.device("/gpu:0"):
                pass
    finally:
        ek.config.set_soft_device_placement(True)
    message = str(caught.value)
    assert "cupy 14.2.0 is installed but finds no usable CUDA device" in message
    assert "cupy.is_available() is False" in message and "nvidia-smi" in message
    assert "not installed" not in message
    assert 'pip install "eagerkit[gpu]"' in message


def test_a_driver_error_while_counting_means_no_gpu(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", _fake_cupy(available=True, raises=True))
    count, problem = cupy_backend.gpu_status()
    assert count == 0 and "no usable CUDA device" in problem


def test_asking_for_a_gpu_that_is_not_there(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", _fake_cupy(available=True, count=1))
    assert ek.num_gpus() == 1
    with pytest.raises(
        UnavailableError, match="this machine has 1 GPU\\(s\\), '/gpu:0' to '/gpu:0'"
    ):
        get_device("/gpu:1")


def test_seed_gpu_examples_take_the_no_gpu_path(no_cupy):
    # The measure() cell guards its GPU half with num_gpus(); x.gpu() is not guarded.
    with pytest.raises(UnavailableError, match="No GPU: cupy is not installed"):
        seed_gpu_examples()


# --- names and scopes --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("/cpu:0", "/cpu:0"),
        ("cpu", "/cpu:0"),
        ("gpu:0", "/gpu:0"),
        ("/GPU:1", "/gpu:1"),
        ("/job:localhost/replica:0/task:0/device:GPU:0", "/gpu:0"),
        ("/sim:0", "/sim:0"),
    ],
)
def test_device_names_are_canonical(written, canonical):
    assert canonical_name(written) == canonical


def test_bad_and_unknown_device_names():
    with pytest.raises(InvalidArgumentError, match="device name 'gpu:x' is not understood"):
        get_device("gpu:x")
    with pytest.raises(InvalidArgumentError, match="unknown device '/tpu:0'; devices here: /cpu:0"):
        get_device("/tpu:0")
    ek.devices.disable_simulated_gpu()
    with pytest.raises(InvalidArgumentError, match="needs ek.devices.enable_simulated_gpu\\(\\)"):
        get_device("/sim:0")


def test_device_scope_nests_and_restores_even_after_an_error():
    assert ek.devices.current_device().name == "/cpu:0"
    with pytest.raises(ValueError, match="inside"):
        with ek.device("/cpu:0"):
            with ek.device(ek.devices.enable_simulated_gpu()):
                assert ek.zeros([1]).device == SIM
                raise ValueError("inside")
    assert ek.devices.current_device().name == "/cpu:0"
    ek.devices.disable_simulated_gpu()


def test_a_variable_made_inside_a_device_scope_lives_there():
    host_value = ek.constant([1.0, 2.0])
    try:
        gpu = ek.devices.enable_simulated_gpu()
        with ek.device(gpu):
            moved = ek.Variable(host_value)  # made from a CPU tensor: copied, as in TF
            made = ek.Variable([3.0])
        outside = ek.Variable(host_value)
        assert (moved.device, made.device, outside.device) == (SIM, SIM, CPU)
        assert host_value.device == CPU
        np.testing.assert_array_equal(moved.numpy(), [1.0, 2.0])
    finally:
        ek.devices.disable_simulated_gpu()


def test_simulated_gpu_as_gpu_and_back():
    try:
        ek.devices.enable_simulated_gpu(as_gpu=True)
        assert ek.num_gpus() == 1
        assert ek.list_devices() == ["/cpu:0", "/sim:0"]
        assert ek.constant(1.0).gpu().device == SIM
    finally:
        ek.devices.disable_simulated_gpu()
    assert "/sim:0" not in ek.list_devices()


def test_copy_hints_name_the_call_that_copies():
    assert copy_hint(get_device("/cpu:0")) == "x.cpu()"
    gpu1 = ek.Device("/gpu:1", get_device("/cpu:0").backend)
    assert copy_hint(gpu1) == "x.gpu(1)"
    assert copy_hint(ek.devices.enable_simulated_gpu()) == "ek.copy_to_device(x, '/sim:0')"
    ek.devices.disable_simulated_gpu()


def test_device_policy_rejects_unknown_names_and_returns_the_previous_one():
    with pytest.raises(InvalidArgumentError, match="unknown policy 'loud'; use one of explicit"):
        ek.set_device_policy("loud")
    assert ek.set_device_policy("silent") == "explicit"
    assert ek.set_device_policy("explicit") == "silent"


def test_enable_eager_execution_passes_the_device_policy_on():
    ek.enable_eager_execution(device_policy="silent")
    assert ek.set_device_policy("explicit") == "silent"


# --- copies on the CPU ----------------------------------------------------------------------
def test_cpu_copy_is_recorded_and_passes_the_gradient():
    v = ek.Variable([1.0, 2.0])
    with ek.GradientTape() as tape:
        y = ek.reduce_sum(v.cpu() * 3.0)
    assert [r.op.name for r in tape.records][:2] == ["read_variable", "copy_to_device"]
    np.testing.assert_array_equal(tape.gradient(y, v).numpy(), [3.0, 3.0])
    assert type(v.cpu()) is ek.Tensor  # a copy of a variable is a plain tensor

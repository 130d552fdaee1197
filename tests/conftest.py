"""Shared test setup: every test starts seeded, with the default devices and policies, and
leaves the op registry, numpy's print options and the layer names as it found them
(process_state.py).

The default devices are the machine's own (a real GPU where there is one), or, under
``EAGERKIT_SIMULATED_GPU=1``, the simulated GPU standing in for ``/gpu:0``: the suite
passes either way (tests/test_device_agnostic.py runs the device tests in that mode).
A test that needs a machine without a GPU makes one with the ``no_gpu`` fixture.
"""

import numpy as np
import process_state
import pytest

import eagerkit as ek

NO_CUPY = (
    "No GPU: cupy is not installed (No module named 'cupy'). eagerkit reaches GPUs through cupy"
)


@pytest.fixture(autouse=True)
def _seeded():
    """Every test starts from the same random state, so failures reproduce."""
    ek.devices.reset_devices()
    ek.set_random_seed(0)
    np.random.seed(0)
    with process_state.kept():  # a lesson's defop or np.set_printoptions, run by a test
        yield
    # A test (or doctest) that switched on the simulated GPU, hid a device or changed a
    # policy must not leak it to the next one.
    ek.devices.reset_devices()
    ek.set_device_policy("explicit")
    ek.config.set_soft_device_placement(True)


@pytest.fixture
def no_gpu(monkeypatch):
    """A machine without a GPU, whatever this one has: cupy answers that it is missing, and
    no GPU (real or simulated) has been set up yet."""
    from eagerkit.backends import cupy_backend

    monkeypatch.setattr(cupy_backend, "gpu_status", lambda: (0, NO_CUPY))
    monkeypatch.setattr(ek.devices, "_DEVICES", {ek.devices.CPU.name: ek.devices.CPU})
    monkeypatch.setattr(ek.devices, "_HIDDEN", set())

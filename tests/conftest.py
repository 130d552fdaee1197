"""Shared test setup: every test starts seeded, on the CPU only, with the default policy."""

import numpy as np
import pytest

import eagerkit as ek


@pytest.fixture(autouse=True)
def _seeded():
    """Every test starts from the same random state, so failures reproduce."""
    ek.set_random_seed(0)
    np.random.seed(0)
    yield
    # A test (or doctest) that switched on the simulated GPU must not leak it to the next one.
    ek.devices.disable_simulated_gpu()
    ek.set_device_policy("explicit")

"""Shared test setup: a fixed random seed for every test."""

import numpy as np
import pytest

import eagerkit as ek


@pytest.fixture(autouse=True)
def _seeded():
    """Every test starts from the same random state, so failures reproduce."""
    ek.set_random_seed(0)
    np.random.seed(0)
    yield

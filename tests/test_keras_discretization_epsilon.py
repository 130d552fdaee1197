"""``Discretization(epsilon=...)``: the error ``adapt`` allows in the quantiles, as in Keras 3.

Up to ``1 / epsilon`` values the boundaries are the exact quantiles; beyond, ``adapt`` keeps a
summary of about ``1 / epsilon`` values, and each boundary's rank in the data is off by at most
a few ``epsilon`` (quantile_summary.py). The values below are Keras 3's for the same calls.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek

layers = ek.keras.layers
SQUARES = np.arange(100.0) ** 2  # skewed: a coarse summary misplaces the quantiles


def learned(data, num_bins, epsilon):
    layer = layers.Discretization(num_bins=num_bins, epsilon=epsilon)
    layer.adapt(data)
    return [round(b, 2) for b in layer.bin_boundaries]


def test_epsilon_changes_what_adapt_learns():
    assert learned(SQUARES, 4, 0.01) == [576.0, 2401.0, 5476.0]  # 100 values: all kept, exact
    assert learned(SQUARES, 4, 0.1) == [601.0, 2401.0, 5501.0]  # every 10th kept
    assert learned(SQUARES, 4, 0.3) == [841.0, 3481.0]  # 4 kept: fewer than 4 bins' worth


def test_the_bins_follow_the_learned_boundaries():
    layer = layers.Discretization(num_bins=4, epsilon=0.1)
    layer.adapt(SQUARES)
    assert layer([[600.0, 601.0, 5500.0, 5501.0]]).numpy().tolist() == [[0, 1, 2, 3]]


def test_fewer_values_than_bins_give_fewer_boundaries_as_in_keras():
    assert learned(np.array([3.0, 1.0, 2.0]), 5, 0.01) == [1.0, 2.0]


def test_batches_are_summarized_and_merged():
    data = ek.data.Dataset.from_tensor_slices(SQUARES.astype("float32")).batch(30)
    assert learned(data, 4, 0.1) == [621.0, 2425.0, 5512.0]  # each batch thinned, merged
    assert learned(data, 4, 0.01) == [576.0, 2401.0, 5476.0]


@settings(max_examples=25, deadline=None)
@given(
    size=st.integers(200, 3000),
    epsilon=st.sampled_from([0.01, 0.02, 0.05, 0.1]),
    num_bins=st.integers(2, 8),
    seed=st.integers(0, 2**32 - 1),
)
def test_each_boundary_is_within_a_few_epsilon_of_its_rank(size, epsilon, num_bins, seed):
    data = np.random.default_rng(seed).exponential(size=size).astype("float32")
    layer = layers.Discretization(num_bins=num_bins, epsilon=epsilon)
    layer.adapt(data)
    assert len(layer.bin_boundaries) == num_bins - 1
    for k, boundary in enumerate(layer.bin_boundaries, start=1):
        rank = np.mean(data <= np.float32(boundary))
        assert abs(rank - k / num_bins) <= 2 * epsilon + 2 / size


@settings(max_examples=25, deadline=None)
@given(values=st.lists(st.floats(-1e3, 1e3, width=32), min_size=8, max_size=60))
def test_up_to_one_over_epsilon_values_the_quantiles_are_exact(values):
    layer = layers.Discretization(num_bins=4, epsilon=0.01)
    layer.adapt(np.array(values, "float32"))
    ordered = np.sort(np.array(values, "float64"))
    fractions = (np.arange(ordered.size) + 1) / ordered.size
    exact = np.interp([0.25, 0.5, 0.75], fractions, ordered)
    np.testing.assert_allclose(layer.bin_boundaries, exact, rtol=1e-5, atol=1e-3)


@pytest.mark.parametrize(
    ("epsilon", "message"),
    [
        (0, "epsilon must be between 0 and 1, got 0"),
        (1.0, "epsilon must be between 0 and 1, got 1.0"),
        (-0.01, "epsilon must be between 0 and 1, got -0.01"),
        ("0.01", "epsilon must be a number, got '0.01'"),
        (True, "epsilon must be a number, got True"),
    ],
)
def test_an_epsilon_that_is_no_fraction_is_refused(epsilon, message):
    with pytest.raises(ValueError, match=f"Discretization: {message}"):
        layers.Discretization(num_bins=3, epsilon=epsilon)


def test_epsilon_is_in_the_config():
    layer = layers.Discretization(num_bins=3, epsilon=0.05)
    again = layers.Discretization.from_config(layer.get_config())
    assert again.epsilon == 0.05

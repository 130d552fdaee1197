"""ek.nn.bias_add: TF's BiasAdd, the op Dense and Conv2D add their bias with.

Its gradients are checked to second order in tests/op_cases.py; here: values, the bias
gradient against numpy's sum, what the layers record, and the errors.
"""

import numpy as np
import pytest

import eagerkit as ek

rng = np.random.default_rng(11)


@pytest.mark.parametrize("shape", [(5, 3), (2, 4, 4, 3), (0, 3)])
def test_adds_one_bias_per_channel_and_sums_the_gradient_over_the_rest(shape):
    value = ek.constant(rng.standard_normal(shape).astype(np.float32))
    bias = ek.Variable(rng.standard_normal(3).astype(np.float32))
    g = rng.standard_normal(shape).astype(np.float32)
    with ek.GradientTape() as tape:
        y = ek.nn.bias_add(value, bias)
        loss = ek.reduce_sum(y * g)
    np.testing.assert_array_equal(y.numpy(), value.numpy() + bias.numpy())
    grad = tape.gradient(loss, bias)
    assert grad.shape == (3,) and grad.dtype == ek.float32
    np.testing.assert_allclose(grad.numpy(), g.reshape(-1, 3).sum(axis=0), rtol=1e-5, atol=1e-6)


def test_dense_and_conv2d_record_matmul_or_conv_then_bias_add():
    dense = ek.layers.Dense(2, activation="relu")
    conv = ek.layers.Conv2D(2, 1)
    dense(ek.ones([1, 3])), conv(ek.ones([1, 2, 2, 1]))  # build outside the tape
    with ek.GradientTape(persistent=True) as tape:
        dense(ek.ones([4, 3]))
        conv(ek.ones([1, 2, 2, 1]))
    ops = [r.op.name for r in tape.records if r.op.name != "read_variable"]
    assert ops == ["matmul", "bias_add", "relu", "conv2d", "bias_add"]


@pytest.mark.parametrize(
    ("value", "bias", "message"),
    [
        ([[1.0, 2.0]], [1.0, 2.0, 3.0], r"value \(1, 2\) and bias \(3,\)"),
        ([[1.0, 2.0]], [[1.0, 2.0]], r"bias must be a vector.*bias \(1, 2\)"),
        ([1.0, 2.0], [1.0, 2.0], r"at least 2-D.*value \(2,\)"),
    ],
)
def test_a_bias_that_does_not_fit_is_refused_by_name(value, bias, message):
    with pytest.raises(ek.errors.InvalidArgumentError, match=message) as caught:
        ek.nn.bias_add(value, bias)
    assert caught.value.op == "bias_add"


def test_channels_first_data_is_refused_with_the_fix():
    with pytest.raises(ek.errors.InvalidArgumentError, match=r"NCHW.*ek.transpose"):
        ek.nn.bias_add(ek.ones([1, 2, 2, 2]), [1.0, 2.0], data_format="NCHW")

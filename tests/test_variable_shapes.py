"""``ek.Variable(x, shape=...)``: TF's variable whose shape may change by ``assign`` (the
variables guide's ``tf.Variable(x, shape=tf.TensorShape(None))``); without ``shape`` the
shape is fixed, as before. In eagerkit ``TensorShape(None)`` is ``[None]`` (one axis)."""

import copy

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError, UnimplementedError


def test_the_guide_assigns_a_new_shape():
    v = ek.Variable(ek.zeros([2]), shape=ek.TensorShape(None))
    assert v.assign(ek.zeros([3])) is v
    assert v.shape == (3,) and v.numpy().tolist() == [0.0, 0.0, 0.0]
    grid = ek.Variable(ek.ones([2, 3]), shape=[None, 3])
    grid.assign(ek.zeros([5, 3]))
    assert grid.shape == (5, 3)
    assert copy.deepcopy(grid).assign(ek.zeros([1, 3])).shape == (1, 3)


@pytest.mark.parametrize(
    ("value", "method", "message"),
    [
        (np.zeros([2, 2], np.float32), "assign", r"does not fit the shape \(None,\)"),
        (np.zeros([4], np.float32), "assign_add", "assign_add needs a value of the variable's"),
        (np.zeros([4], np.float32), "assign_sub", "assign_sub needs a value of the variable's"),
    ],
)
def test_what_does_not_fit_changes_nothing(value, method, message):
    v = ek.Variable([1.0, 2.0], shape=[None])
    with pytest.raises(InvalidArgumentError, match=message):
        getattr(v, method)(value)
    assert v.numpy().tolist() == [1.0, 2.0]


def test_the_initial_value_must_fit_the_shape():
    with pytest.raises(InvalidArgumentError, match=r"not compatible with the explicitly supplied"):
        ek.Variable([1.0, 2.0], shape=[3])


def test_without_shape_the_shape_is_fixed():
    v = ek.Variable([1.0, 2.0])
    with pytest.raises(InvalidArgumentError, match="shapes cannot change after creation"):
        v.assign([1.0, 2.0, 3.0])


def test_a_function_reading_it_traces_again_for_a_new_shape():
    v = ek.Variable([1.0, 2.0], shape=[None])

    @ek.function
    def total():
        return ek.reduce_sum(v) + ek.cast(ek.size(v), ek.float32)

    assert float(total()) == 5.0
    v.assign([1.0, 2.0, 3.0, 4.0])
    assert float(total()) == 14.0
    assert float(total()) == 14.0 and total.trace_count == 2


def test_inside_a_function_assign_keeps_the_shape():
    v = ek.Variable([1.0, 2.0], shape=[None])

    @ek.function
    def grow(x):
        v.assign(x)
        return v.read_value()

    np.testing.assert_array_equal(grow(ek.constant([3.0, 4.0])).numpy(), [3.0, 4.0])
    with pytest.raises(UnimplementedError, match="inside ek.function an assign keeps the shape"):
        grow(ek.constant([1.0, 2.0, 3.0]))
    assert v.numpy().tolist() == [3.0, 4.0]

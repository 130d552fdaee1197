"""Sliced assignment into variables (TF's variables guide): ``v[1:].assign([7.0, 8.0])``.

TF attaches ``assign`` to the tensor a variable's ``__getitem__`` returns; it writes that part
of the variable and returns the variable. eagerkit adds ``assign_add``/``assign_sub``. The
slice is a read like any other (differentiable), every op takes it, and a failed assign
changes nothing (TF: UnimplementedError, "sliced l-value shape ... does not match r-value
shape ...", it never broadcasts).
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError, UnimplementedError
from eagerkit.variable_slices import VariableSlice


def test_the_variables_guide_assigns_into_slices():
    v = ek.Variable([1.0, 2.0, 3.0])
    assert v[1:].assign([7.0, 8.0]) is v  # TF returns the variable
    np.testing.assert_array_equal(v.numpy(), [1.0, 7.0, 8.0])
    v[0].assign(5.0)
    np.testing.assert_array_equal(v.numpy(), [5.0, 7.0, 8.0])
    m = ek.Variable([[1.0, 2.0], [3.0, 4.0]])
    assert m[:, 1].assign_add([10.0, 20.0]) is m
    np.testing.assert_array_equal(m.numpy(), [[1.0, 12.0], [3.0, 24.0]])
    m[:, 1].assign_sub(ek.constant([2.0, 4.0]))
    np.testing.assert_array_equal(m.numpy(), [[1.0, 10.0], [3.0, 20.0]])
    m[0, ::-1].assign([0.0, -1.0])  # a negative step writes backwards
    np.testing.assert_array_equal(m.numpy(), [[-1.0, 0.0], [3.0, 20.0]])


def test_a_slice_of_a_slice_or_of_a_tensor_has_no_assign():
    with pytest.raises(AttributeError, match="assign"):
        ek.Variable([1.0, 2.0])[0:2][0].assign(3.0)
    with pytest.raises(AttributeError, match="assign"):
        ek.constant([1.0, 2.0])[0].assign(3.0)


def test_a_slice_keeps_the_value_it_read():
    v = ek.Variable([1, 2, 3])
    part = v[1:]
    before = v.read_value()
    part.assign([8, 9])
    np.testing.assert_array_equal(part.numpy(), [2, 3])  # read before the write
    np.testing.assert_array_equal(before.numpy(), [1, 2, 3])
    np.testing.assert_array_equal(v[1:].numpy(), [8, 9])


_SHAPES = st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple)


@st.composite
def _keys(draw, shape):
    """A basic index into ``shape``: ints, slices (any step), Ellipsis, None."""
    items, axis = [], 0
    ellipsis_used = False
    while axis < len(shape):
        kind = draw(st.sampled_from(["int", "slice", "none", "ellipsis", "stop"]))
        if kind == "stop":
            break
        if kind == "int":
            items.append(draw(st.integers(-shape[axis], shape[axis] - 1)))
            axis += 1
        elif kind == "slice":
            bound = st.none() | st.integers(-shape[axis] - 1, shape[axis] + 1)
            step = draw(st.none() | st.integers(-3, 3).filter(bool))
            items.append(slice(draw(bound), draw(bound), step))
            axis += 1
        elif kind == "none":
            items.append(None)
        elif not ellipsis_used:
            items.append(Ellipsis)
            ellipsis_used = True
            axis = len(shape)  # the rest is the ellipsis's
    return tuple(items) if draw(st.booleans()) or len(items) != 1 else items[0]


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_slice_assign_writes_what_numpy_writes(data):
    shape = data.draw(_SHAPES)
    key = data.draw(_keys(shape))
    method = data.draw(st.sampled_from(["assign", "assign_add", "assign_sub"]))
    start = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    v = ek.Variable(start)
    part = v[key]
    assert type(part) is VariableSlice
    np.testing.assert_array_equal(part.numpy(), start[key])
    value = np.full(start[key].shape, 100.0, np.float32) + np.arange(start[key].size).reshape(
        start[key].shape
    )
    expected = start.copy()
    if method == "assign":
        expected[key] = value
    elif method == "assign_add":
        expected[key] += value
    else:
        expected[key] -= value
    assert getattr(part, method)(value) is v
    np.testing.assert_array_equal(v.numpy(), expected)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_value_of_another_shape_changes_nothing(data):
    shape = data.draw(_SHAPES)
    key = data.draw(_keys(shape))
    start = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    sliced = start[key].shape
    wrong = data.draw(st.lists(st.integers(1, 3), max_size=3).map(tuple))
    if wrong == sliced or 0 in sliced:
        return  # TF checks only a slice with elements, and only its shape
    v = ek.Variable(start)
    with pytest.raises(UnimplementedError) as caught:
        v[key].assign_add(np.ones(wrong, np.float32))
    message = str(caught.value)
    assert f"sliced l-value shape {list(sliced)} does not match r-value shape {list(wrong)}" in (
        message
    )
    assert "assign_add into the slice [" in message and "ek.broadcast_to(delta" in message
    np.testing.assert_array_equal(v.numpy(), start)


def test_wrong_dtypes_name_the_slice_and_change_nothing():
    v = ek.Variable([1, 2, 3])
    with pytest.raises(InvalidArgumentError, match=r"assign into the slice \[0\] of variable"):
        v[0].assign(2.5)
    w = ek.Variable([1.0, 2.0])
    with pytest.raises(InvalidArgumentError, match=r"the slice \[1:\].*float64.*float32"):
        w[1:].assign(ek.constant([1.0], ek.float64))
    np.testing.assert_array_equal(v.numpy(), [1, 2, 3])
    np.testing.assert_array_equal(w.numpy(), [1.0, 2.0])


def test_an_empty_slice_takes_any_value_and_writes_nothing():
    v = ek.Variable([1.0, 2.0])
    assert v[2:].assign([5.0, 6.0, 7.0]) is v  # TF checks nothing for a slice without elements
    np.testing.assert_array_equal(v.numpy(), [1.0, 2.0])


def test_the_slice_is_a_differentiable_read():
    v = ek.Variable([1.0, 2.0, 3.0])
    with ek.GradientTape() as tape:
        y = ek.reduce_sum(v[1:] * v[1:])
    np.testing.assert_array_equal(tape.gradient(y, v).numpy(), [0.0, 4.0, 6.0])
    with ek.GradientTape() as tape:
        first = v[0] * 3.0
        v[1:].assign([0.0, 0.0])  # a write on the tape: later reads see it
        second = ek.reduce_sum(v * v)
    np.testing.assert_array_equal(tape.gradient([first, second], v).numpy(), [5.0, 0.0, 0.0])


def test_every_op_takes_a_slice_as_a_tensor():
    v = ek.Variable([[1.0, -2.0], [3.0, 4.0]])
    part, plain = v[0:2], ek.constant([[1.0, -2.0], [3.0, 4.0]])
    for op in (
        lambda x: x * 2.0,
        lambda x: 2.0 * x,
        lambda x: x + x,
        lambda x: x @ x,
        lambda x: -x,
        lambda x: ek.exp(x),
        lambda x: ek.reduce_sum(x, axis=1),
        lambda x: ek.concat([x, plain], axis=0),
        lambda x: ek.reshape(x, [4]),
        lambda x: ek.gather(x, [1, 0]),
        lambda x: ek.nn.relu(x),
        lambda x: ek.where(x > 0.0, x, plain),
        lambda x: x[1],
    ):
        result = op(part)
        assert type(result) is ek.Tensor  # the slice takes the general path; results are plain
        np.testing.assert_array_equal(result.numpy(), op(plain).numpy())
    assert np.asarray(part).tolist() == [[1.0, -2.0], [3.0, 4.0]]


def test_inside_a_function_assigns_run_at_every_call():
    v = ek.Variable([1.0, 2.0, 3.0])

    @ek.function
    def update(x):
        v[1:].assign(x)
        v[0].assign_add(1.0)
        return v[0] * 2.0

    assert float(update(ek.constant([5.0, 6.0]))) == 4.0
    np.testing.assert_array_equal(v.numpy(), [2.0, 5.0, 6.0])
    assert float(update(ek.constant([9.0, 9.0]))) == 6.0
    np.testing.assert_array_equal(v.numpy(), [3.0, 9.0, 9.0])
    assert update.trace_count == 1


def test_inside_a_function_a_tensor_index_is_read_at_every_call():
    v = ek.Variable([0.0, 0.0, 0.0, 0.0])

    @ek.function
    def fill(n):
        for i in ek.range(n):
            v[i].assign(ek.cast(i, ek.float32) + 1.0)
        return v.read_value()

    np.testing.assert_array_equal(fill(ek.constant(2)).numpy(), [1.0, 2.0, 0.0, 0.0])
    v.assign([0.0, 0.0, 0.0, 0.0])
    np.testing.assert_array_equal(fill(ek.constant(4)).numpy(), [1.0, 2.0, 3.0, 4.0])
    assert fill.trace_count == 1


def test_a_failed_assign_inside_a_function_changes_nothing():
    v = ek.Variable([1.0, 2.0, 3.0])

    @ek.function
    def update(x):
        v[0].assign(0.0)
        v[1:].assign(x)
        return v.read_value()

    with pytest.raises(UnimplementedError, match=r"sliced l-value shape \[2\] .* shape \[3\]"):
        update(ek.constant([5.0, 6.0, 7.0]))
    np.testing.assert_array_equal(v.numpy(), [1.0, 2.0, 3.0])

    @ek.function
    def plain(x):
        return x[0].assign(1.0)

    with pytest.raises(AttributeError, match="'Tensor' object has no attribute 'assign'"):
        plain(ek.constant([1.0, 2.0]))

"""``ek.strided_slice`` as TF's: its API page's examples, generated slices against numpy's
(TF documents Python's slicing rules: bounds clamp, negatives count from the end), every
mask, the gradient, and the errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

T = ek.constant([[[1, 1, 1], [2, 2, 2]], [[3, 3, 3], [4, 4, 4]], [[5, 5, 5], [6, 6, 6]]])


def test_the_api_pages_examples():
    assert ek.strided_slice(T, [1, 0, 0], [2, 1, 3], [1, 1, 1]).numpy().tolist() == [[[3, 3, 3]]]
    assert ek.strided_slice(T, [1, 0, 0], [2, 2, 3], [1, 1, 1]).numpy().tolist() == [
        [[3, 3, 3], [4, 4, 4]]
    ]
    assert ek.strided_slice(T, [1, -1, 0], [2, -3, 3], [1, -1, 1]).numpy().tolist() == [
        [[4, 4, 4], [3, 3, 3]]
    ]


def test_each_mask_reads_its_entry_as_python_would():
    n = T.numpy()
    cases = [
        (dict(begin_mask=1), [2, 0, 0], [3, 2, 3], n[:3, 0:2, 0:3]),
        (dict(end_mask=2), [0, 1, 0], [1, 0, 2], n[0:1, 1:, 0:2]),
        (dict(ellipsis_mask=1), [0, 1], [0, 3], n[..., 1:3]),
        (dict(new_axis_mask=2), [0, 0, 1], [2, 0, 2], n[0:2, None, 1:2]),
        (dict(shrink_axis_mask=5), [2, 0, -1], [3, 2, 0], n[2, 0:2, -1]),
    ]
    for masks, begin, end, expected in cases:
        got = ek.strided_slice(T, begin, end, **masks).numpy()
        assert got.shape == expected.shape and got.tolist() == expected.tolist(), masks


@st.composite
def _slices(draw):
    shape = tuple(draw(st.lists(st.integers(1, 5), min_size=1, max_size=3)))
    bound = st.integers(-7, 7)
    begin = [draw(bound) for _ in shape]
    end = [draw(bound) for _ in shape]
    strides = [draw(st.integers(-3, 3).filter(bool)) for _ in shape]
    begin_mask, end_mask = draw(st.integers(0, 7)), draw(st.integers(0, 7))
    return shape, begin, end, strides, begin_mask, end_mask


@settings(max_examples=60, deadline=None)
@given(_slices())
def test_generated_slices_equal_numpys(case):
    shape, begin, end, strides, begin_mask, end_mask = case
    array = np.arange(np.prod(shape)).reshape(shape)
    key = tuple(
        slice(
            None if begin_mask >> i & 1 else begin[i],
            None if end_mask >> i & 1 else end[i],
            strides[i],
        )
        for i in range(len(shape))
    )
    got = ek.strided_slice(array, begin, end, strides, begin_mask=begin_mask, end_mask=end_mask)
    assert got.shape == array[key].shape and got.numpy().tolist() == array[key].tolist()


def test_the_gradient_puts_g_back_where_it_was_taken():
    x = ek.Variable([1.0, 2.0, 3.0, 4.0, 5.0])
    with ek.GradientTape() as tape:
        y = ek.reduce_sum(ek.strided_slice(x, [4], [0], [-2]) * [10.0, 20.0])
    assert tape.gradient(y, x).numpy().tolist() == [0.0, 0.0, 20.0, 0.0, 10.0]


def test_bad_arguments_are_refused_naming_the_call():
    with pytest.raises(InvalidArgumentError, match=r"strided_slice: strides\[1\] is 0"):
        ek.strided_slice(T, [0, 0], [1, 1], [1, 0])
    with pytest.raises(InvalidArgumentError, match="must have the same length"):
        ek.strided_slice(T, [0, 0], [1], [1, 1])
    with pytest.raises(InvalidArgumentError, match="more than one bit"):
        ek.strided_slice(T, [0, 0], [1, 1], ellipsis_mask=3)
    with pytest.raises(InvalidArgumentError, match=r"strided_slice.*index 5 is out of range"):
        ek.strided_slice(T, [5], [6], shrink_axis_mask=1)

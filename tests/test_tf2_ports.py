"""TF2 code as TF's guides write it, run on eagerkit (session 6's scan): each test is a
place where such code failed or answered differently before, with TF's answer."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis.extra import numpy as hnp

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError


@settings(max_examples=60, deadline=None)
@given(mask=hnp.arrays(np.bool_, hnp.array_shapes(min_dims=1, max_dims=3, max_side=4)))
def test_where_with_the_condition_alone_gives_the_true_coordinates(mask):
    found = ek.where(mask)
    assert found.dtype == ek.int64 and found.shape == (int(mask.sum()), mask.ndim)
    np.testing.assert_array_equal(found.numpy(), np.argwhere(mask))
    numbers = mask.astype(np.float32) * 3.0  # nonzero counts as true
    np.testing.assert_array_equal(ek.where(numbers).numpy(), np.argwhere(mask))


def test_where_needs_both_or_neither_of_x_and_y():
    with pytest.raises(InvalidArgumentError, match="x and y must both be given"):
        ek.where([True, False], x=[1.0, 2.0])
    with pytest.raises(InvalidArgumentError, match="condition must be bool or numeric"):
        ek.where(ek.constant(["a", ""]))


def test_mask_positions_follow_each_call_inside_function():
    """boolean_mask and where(condition) read the mask at every call of a traced function
    (they froze the first call's positions into the graph before)."""
    masked = ek.function(lambda x, m: ek.boolean_mask(x, m))
    x = ek.constant([1.0, 2.0, 3.0])
    assert masked(x, ek.constant([True, False, True])).numpy().tolist() == [1.0, 3.0]
    assert masked(x, ek.constant([False, False, True])).numpy().tolist() == [3.0]
    coordinates = ek.function(lambda c: ek.where(c))
    assert coordinates(ek.constant([True, False, True])).numpy().tolist() == [[0], [2]]
    assert coordinates(ek.constant([False, True, False])).numpy().tolist() == [[1]]
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = ek.reduce_sum(masked(x, ek.constant([False, True, True])) ** 2)
    assert tape.gradient(y, x).numpy().tolist() == [0.0, 4.0, 6.0]


def test_add_n_at_the_top_level_as_in_tf():
    v = ek.Variable([1.0, 2.0])
    total = ek.add_n([v, ek.constant([3.0, 4.0]), [5.0, 6.0]])
    assert total.numpy().tolist() == [9.0, 12.0] and ek.add_n is ek.math.add_n
    with ek.GradientTape() as tape:
        y = ek.reduce_sum(ek.add_n([v, v * 2.0]))
    assert tape.gradient(y, v).numpy().tolist() == [3.0, 3.0]
    with pytest.raises(InvalidArgumentError, match="add_n: inputs must be a non-empty list"):
        ek.add_n([])
    with pytest.raises(InvalidArgumentError, match="add_n does not broadcast"):
        ek.add_n([[1.0, 2.0], 1.0])


def test_math_has_softmax_and_log_softmax():
    logits = ek.constant([[1.0, 2.0], [3.0, 5.0]])
    assert ek.math.softmax is ek.nn.softmax and ek.math.log_softmax is ek.nn.log_softmax
    np.testing.assert_allclose(
        ek.math.softmax(logits, axis=0).numpy()[:, 0], [0.11920292, 0.880797], rtol=1e-6
    )


def test_next_of_a_dataset_iterator_inside_function_takes_one_element_per_call(capsys):
    """The tf.function guide's good_consume_next: TF prints 1, 2, 3 (it printed 1, 1, 1)."""

    @ek.function
    def good_consume_next(iterator):
        ek.print("Value:", next(iterator))

    iterator = iter(ek.data.Dataset.from_tensor_slices([1, 2, 3]))
    for _ in range(3):
        good_consume_next(iterator)
    assert capsys.readouterr().out.split() == ["Value:", "1", "Value:", "2", "Value:", "3"]
    with pytest.raises(ek.errors.OutOfRangeError, match="End of sequence"):
        good_consume_next(iterator)

    @ek.function
    def steps(iterator, n):
        total = ek.constant(0, ek.int64)
        for _ in ek.range(n):
            x, y = next(iterator)
            total += x * y
        return total

    pairs = iter(ek.data.Dataset.zip(ek.data.Dataset.range(6), ek.data.Dataset.range(1, 7)))
    assert [int(steps(pairs, ek.constant(2))) for _ in range(3)] == [0 + 2, 6 + 12, 20 + 30]
    batches = iter(ek.data.Dataset.range(3).batch(2))  # the last batch is shorter
    doubled = ek.function(lambda it: next(it) * 2)
    assert [doubled(batches).numpy().tolist() for _ in range(2)] == [[0, 2], [4]]

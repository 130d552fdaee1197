"""TF2 code as TF's guides write it, run on eagerkit (session 6's scan): each test is a
place where such code failed or answered differently before, with TF's answer."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
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


SIGNS = {
    "assert_positive": np.greater,
    "assert_negative": np.less,
    "assert_non_negative": np.greater_equal,
    "assert_non_positive": np.less_equal,
}


@settings(max_examples=40, deadline=None)
@given(values=hnp.arrays(np.float32, st.integers(0, 5), elements=st.sampled_from([-2.0, 0.0, 3.0])))
def test_sign_assertions_hold_exactly_when_numpy_says(values):
    for name, holds in SIGNS.items():
        check = getattr(ek.debugging, name)
        if holds(values, 0).all():
            assert check(ek.constant(values)) is None
        else:
            with pytest.raises(InvalidArgumentError, match="did not hold"):
                check(ek.constant(values), message="weights")
    pairs = [(ek.debugging.assert_less_equal, np.less_equal)]
    pairs += [(ek.debugging.assert_greater_equal, np.greater_equal)]
    pairs += [(ek.debugging.assert_none_equal, np.not_equal)]
    for check, holds in pairs:
        if holds(values, 0.0).all():
            check(values, 0.0)
        else:
            with pytest.raises(InvalidArgumentError, match="did not hold"):
                check(values, 0.0)


def test_assertions_inside_function_check_every_calls_values():
    """TF's Assert op runs at every call; eagerkit checked only the values of the trace."""

    @ek.function
    def doubled(x):
        ek.debugging.assert_positive(x)
        ek.debugging.assert_less(x, 10.0)
        return x * 2

    assert float(doubled(ek.constant(1.0))) == 2.0
    with pytest.raises(InvalidArgumentError, match=r"Condition x > y did not hold"):
        doubled(ek.constant(-1.0))
    with pytest.raises(InvalidArgumentError, match=r"Condition x < y did not hold"):
        doubled(ek.constant(11.0))
    v = ek.Variable(1.0)
    bounded = ek.function(lambda: ek.debugging.assert_less(v, 2.0) or v + 0.0)
    assert float(bounded()) == 1.0
    v.assign(3.0)
    with pytest.raises(InvalidArgumentError, match=r"Condition x < y did not hold"):
        bounded()

    @ek.function(input_signature=[ek.TensorSpec([None])])
    def any_length(x):  # the trace's stand-in values are not checked
        ek.debugging.assert_non_negative(x)
        return x

    assert any_length(ek.constant([1.0, 2.0])).numpy().tolist() == [1.0, 2.0]
    with pytest.raises(InvalidArgumentError, match=r"Condition x >= y did not hold"):
        any_length(ek.constant([1.0, -2.0]))
    with pytest.raises(InvalidArgumentError, match="x must be numbers"):
        ek.debugging.assert_positive(ek.constant(["a"]))


@settings(max_examples=60, deadline=None)
@given(sizes=st.lists(st.integers(0, 4), min_size=1, max_size=4), data=st.data())
def test_split_takes_one_size_of_minus_one_as_the_rest(sizes, data):
    x = ek.range(sum(sizes))
    position = data.draw(st.integers(0, len(sizes) - 1))
    given_sizes = [-1 if i == position else n for i, n in enumerate(sizes)]
    spelled = data.draw(st.sampled_from([list, tuple, np.array, ek.constant]))
    pieces = ek.split(x, spelled(given_sizes))
    expected = np.split(np.arange(sum(sizes)), np.cumsum(sizes)[:-1])
    assert [p.numpy().tolist() for p in pieces] == [e.tolist() for e in expected]


def test_split_refuses_two_unknown_sizes_or_too_much():
    with pytest.raises(InvalidArgumentError, match="has 2 sizes of -1; give at most one"):
        ek.split(ek.range(6), [1, -1, -1])
    with pytest.raises(InvalidArgumentError, match="asks for more than the size 6"):
        ek.split(ek.range(6), [5, -1, 2])


@settings(max_examples=40, deadline=None)
@given(
    probabilities=hnp.arrays(np.float64, (3, 4), elements=st.floats(0.05, 1.0)),
    labels=hnp.arrays(np.int64, 3, elements=st.integers(0, 3)),
    smoothing=st.floats(0.0, 1.0),
)
def test_label_smoothing_follows_keras(probabilities, labels, smoothing):
    p = (probabilities / probabilities.sum(-1, keepdims=True)).astype(np.float32)
    one_hot = np.eye(4, dtype=np.float32)[labels]
    smoothed = one_hot * (1 - smoothing) + smoothing / 4
    expected = -(smoothed * np.log(np.clip(p, 1e-7, 1 - 1e-7))).sum(-1).mean()
    loss = ek.keras.losses.CategoricalCrossentropy(label_smoothing=smoothing)
    np.testing.assert_allclose(float(loss(one_hot, p)), expected, rtol=1e-5)
    logits = np.log(p)
    binary = one_hot * (1 - smoothing) + smoothing / 2
    sigmoid_ce = np.maximum(logits, 0) - logits * binary + np.log1p(np.exp(-np.abs(logits)))
    bce = ek.keras.losses.BinaryCrossentropy(from_logits=True, label_smoothing=smoothing)
    np.testing.assert_allclose(float(bce(one_hot, logits)), sigmoid_ce.mean(), rtol=1e-5)


def test_label_smoothing_is_checked_and_kept_in_the_config():
    loss = ek.keras.losses.CategoricalCrossentropy(label_smoothing=0.1)
    assert loss.get_config()["label_smoothing"] == 0.1
    again = ek.keras.losses.CategoricalCrossentropy.from_config(loss.get_config())
    assert float(again([[0.0, 1.0]], [[0.3, 0.7]])) == float(loss([[0.0, 1.0]], [[0.3, 0.7]]))
    with pytest.raises(InvalidArgumentError, match="label_smoothing must be a number >= 0"):
        ek.keras.losses.BinaryCrossentropy(label_smoothing=-0.5)
    with pytest.raises(InvalidArgumentError, match="label_smoothing must be between 0 and 1"):
        ek.keras.losses.binary_crossentropy([[1.0]], [[0.5]], label_smoothing=2.0)


@settings(max_examples=40, deadline=None)
@given(
    x=hnp.arrays(np.float64, (3, 4), elements=st.floats(-50, 50)),
    axes=st.sampled_from([[0], [1], [0, 1], [-1]]),
    keepdims=st.booleans(),
)
def test_moments_and_batch_normalization_follow_numpy(x, axes, keepdims):
    mean, variance = ek.nn.moments(ek.constant(x), axes=axes, keepdims=keepdims)
    np.testing.assert_allclose(mean.numpy(), x.mean(tuple(axes), keepdims=keepdims), atol=1e-9)
    np.testing.assert_allclose(
        variance.numpy(), x.var(tuple(axes), keepdims=keepdims), rtol=1e-9, atol=1e-9
    )
    m, v = ek.nn.moments(ek.constant(x), axes=[0])
    normalized = ek.nn.batch_normalization(ek.constant(x), m, v, 0.5, 2.0, 1e-3)
    expected = (x - x.mean(0)) / np.sqrt(x.var(0) + 1e-3) * 2.0 + 0.5
    np.testing.assert_allclose(normalized.numpy(), expected, rtol=1e-7, atol=1e-9)


def test_moments_gradient_matches_the_variance_formula():
    x = ek.Variable([[1.0, 2.0], [3.0, 6.0]])
    with ek.GradientTape() as tape:
        _, variance = ek.nn.moments(x, axes=[0])
        total = ek.reduce_sum(variance)
    assert tape.gradient(total, x).numpy().tolist() == [[-1.0, -2.0], [1.0, 2.0]]


def test_dropout_keeps_and_scales_as_tf():
    x = ek.ones([2000])
    out = ek.nn.dropout(x, rate=0.25, seed=3)
    values = set(out.numpy().tolist())
    assert (
        values <= {0.0, float(np.float32(1) / np.float32(0.75))}
        and 0.2 < float(ek.reduce_mean(ek.cast(out == 0, ek.float32))) < 0.3
    )
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = ek.reduce_sum(ek.nn.dropout(x, rate=0.5, seed=1))
    grad = tape.gradient(y, x).numpy()
    assert set(grad.tolist()) <= {0.0, 2.0}
    shared = ek.nn.dropout(ek.ones([4, 3]), rate=0.5, noise_shape=[4, 1], seed=2).numpy()
    assert all(len(set(row)) == 1 for row in shared.tolist())  # one draw per row
    with pytest.raises(InvalidArgumentError, match=r"rate must be in the range \[0, 1\)"):
        ek.nn.dropout(x, rate=1.0)
    with pytest.raises(InvalidArgumentError, match="dropout: x must be a float tensor"):
        ek.nn.dropout(ek.constant([1, 2]), rate=0.5)


def test_selu_is_scaled_elu():
    x = np.linspace(-3, 3, 13)
    alpha, scale = 1.6732632423543772, 1.0507009873554805
    expected = scale * np.where(x > 0, x, alpha * (np.exp(x) - 1))
    np.testing.assert_allclose(ek.nn.selu(ek.constant(x)).numpy(), expected, rtol=1e-12)


def test_to_categorical_and_backend_constants():
    assert ek.keras.utils.to_categorical([[1], [0], [2]], 4).tolist() == [
        [0.0, 1.0, 0.0, 0.0],
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
    ]
    assert ek.keras.utils.to_categorical([1.0, 0.0], dtype="int32").dtype == np.int32
    with pytest.raises(InvalidArgumentError, match="num_classes=2 but y holds the id 3"):
        ek.keras.utils.to_categorical([3], 2)
    with pytest.raises(InvalidArgumentError, match="must hold whole class ids"):
        ek.keras.utils.to_categorical([1.5])
    backend = ek.keras.backend
    assert (backend.epsilon(), backend.floatx(), backend.image_data_format()) == (
        1e-7,
        "float32",
        "channels_last",
    )


@settings(max_examples=40, deadline=None)
@given(
    x=hnp.arrays(np.int32, hnp.array_shapes(min_dims=1, max_dims=3, max_side=4)),
    data=st.data(),
)
def test_reverse_and_slice_follow_numpy(x, data):
    axes = data.draw(st.lists(st.integers(-x.ndim, x.ndim - 1), unique_by=lambda a: a % x.ndim))
    expected = np.flip(x, axis=tuple(axes)) if axes else x
    np.testing.assert_array_equal(ek.reverse(x, axes).numpy(), expected)
    begin = [data.draw(st.integers(0, n)) for n in x.shape]
    size = [data.draw(st.sampled_from([-1, n - b])) for n, b in zip(x.shape, begin, strict=True)]
    key = tuple(slice(b, None if s == -1 else b + s) for b, s in zip(begin, size, strict=True))
    np.testing.assert_array_equal(ek.slice(x, begin, size).numpy(), x[key])


def test_reverse_and_slice_pass_gradients_and_check_arguments():
    v = ek.Variable([1.0, 2.0, 3.0])
    with ek.GradientTape() as tape:
        y = ek.reduce_sum(ek.reverse(v, [0]) * ek.constant([1.0, 0.0, 0.0]))
        y += ek.reduce_sum(ek.slice(v, [1], [2]) * 10.0)
    assert tape.gradient(y, v).numpy().tolist() == [0.0, 10.0, 11.0]
    with pytest.raises(InvalidArgumentError, match="names an axis twice"):
        ek.reverse(v, [0, -1])
    with pytest.raises(InvalidArgumentError, match="leave the tensor"):
        ek.slice(v, [2], [2])


@pytest.mark.parametrize("indexing", ["xy", "ij"])
def test_meshgrid_follows_numpy(indexing):
    vectors = [np.arange(2), np.arange(3) * 10, np.arange(4) * 100]
    for count in (1, 2, 3):
        ours = ek.meshgrid(*vectors[:count], indexing=indexing)
        for got, want in zip(ours, np.meshgrid(*vectors[:count], indexing=indexing), strict=True):
            np.testing.assert_array_equal(got.numpy(), want)


def test_sequence_mask_count_nonzero_ensure_shape_is_tensor():
    mask = ek.sequence_mask([1, 3, 2])
    assert mask.dtype == ek.bool and mask.numpy().tolist() == [
        [True, False, False],
        [True, True, True],
        [True, True, False],
    ]
    masks = ek.function(lambda lengths: ek.sequence_mask(lengths))  # maxlen read at each call
    assert masks(ek.constant([1, 2])).shape == (2, 2)
    assert masks(ek.constant([3, 1])).shape == (2, 3)
    assert ek.math.count_nonzero([[0, 1, 2], [0, 0, 3]], axis=1).numpy().tolist() == [2, 1]
    assert ek.math.count_nonzero(ek.constant(["", "a"])).dtype == ek.int64
    assert ek.ensure_shape(ek.zeros([4, 3]), [None, 3]).shape == (4, 3)
    with pytest.raises(InvalidArgumentError, match=r"not compatible with expected shape \[2\]"):
        ek.ensure_shape(ek.zeros([3]), [2])
    assert [t.numpy().tolist() for t in ek.identity_n([ek.constant(1), [2]])] == [1, [2]]
    assert ek.is_tensor(ek.ragged.constant([[1], []])) and not ek.is_tensor(np.zeros(2))


def test_ordering_helpers_let_ported_code_run():
    """TF 2's eager control_dependencies, no_op and group do nothing; code using them runs."""
    v = ek.Variable(1.0)

    @ek.function
    def step():
        update = v.assign_add(1.0)
        with ek.control_dependencies([update]):
            out = v * 2.0
        return ek.group(update, ek.no_op()) or out

    assert float(step()) == 4.0 and float(step()) == 6.0
    with ek.control_dependencies(None):
        assert ek.no_op() is None


def test_loops_over_datasets_and_iterators_inside_function():
    """A for loop over a dataset made inside the trace is read while tracing (constants, as
    before); one over an iterator passed in takes its elements at the call."""

    @ek.function
    def total(elements):
        s = ek.constant(0, ek.int64)
        for x in elements:
            s += x
        return s

    numbers = ek.data.Dataset.range(5)
    assert int(total(numbers)) == 10 and int(total(numbers)) == 10
    iterator = iter(ek.data.Dataset.range(4))
    assert int(total(iterator)) == 6
    assert int(total(iterator)) == 0  # the same iterator, now at its end: TF's loop runs 0 times

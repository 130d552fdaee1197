"""TF 1's ``tf.losses`` reductions (ek.losses.Reduction, ``reduction=`` on every TF 1 loss),
against a numpy transcription of TF 1's losses_impl: the weighted losses in float32, the
sum divided by the sum of the weights / the number of elements / the number of non-zero
weights, 0 where that count is 0, the result cast back to the input's dtype."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

R = ek.losses.Reduction
REDUCTIONS = R.all()


def tf1_reduce(losses, weights, reduction):
    """TF 1's compute_weighted_loss in numpy (float32 throughout, as TF 1)."""
    losses = np.asarray(losses, np.float32)
    weights = np.asarray(weights, np.float32)
    weighted = losses * weights
    if reduction == R.NONE:
        return weighted
    total = np.float32(weighted.sum(dtype=np.float32))
    count = {
        R.SUM: np.float32(1),
        R.MEAN: (np.ones_like(losses) * weights).sum(dtype=np.float32),
        R.SUM_OVER_BATCH_SIZE: np.float32(losses.size),
        R.SUM_BY_NONZERO_WEIGHTS: (np.ones_like(losses) * (weights != 0)).sum(dtype=np.float32),
    }[reduction]
    return np.float32(0) if count == 0 else total / count


def _huber(labels, predictions, delta=1.0):
    error = np.abs(predictions - labels)
    quadratic = np.minimum(error, delta)
    return 0.5 * quadratic**2 + delta * (error - quadratic)


# Each TF 1 loss of (labels, predictions) and its per-element losses in numpy.
ELEMENTWISE = {
    "mean_squared_error": lambda y, p: (p - y) ** 2,
    "absolute_difference": lambda y, p: np.abs(p - y),
    "huber_loss": _huber,
    "log_loss": lambda y, p: -y * np.log(p + 1e-7) - (1 - y) * np.log(1 - p + 1e-7),
    "hinge_loss": lambda y, p: np.maximum(0, 1 - (2 * y - 1) * p),
    "sigmoid_cross_entropy": lambda y, p: np.maximum(p, 0) - p * y + np.log1p(np.exp(-np.abs(p))),
}


def weights_for(shape, draw):
    """A scalar, one weight per example ([n, 1, ...]) or one per element, zeros included."""
    kind = draw(st.sampled_from(["scalar", "example", "element"]))
    values = st.sampled_from([0.0, 0.5, 1.0, 2.0])
    if kind == "scalar":
        return draw(values)
    wshape = [shape[0]] + [1] * (len(shape) - 1) if kind == "example" else list(shape)
    flat = draw(st.lists(values, min_size=int(np.prod(wshape)), max_size=int(np.prod(wshape))))
    return np.array(flat, np.float32).reshape(wshape)


@st.composite
def loss_cases(draw):
    shape = draw(st.lists(st.integers(1, 4), min_size=1, max_size=3))
    size = int(np.prod(shape))
    probabilities = st.floats(0.0625, 0.9375, width=32)
    labels = np.array(draw(st.lists(st.sampled_from([0.0, 1.0]), min_size=size, max_size=size)))
    predictions = np.array(draw(st.lists(probabilities, min_size=size, max_size=size)))
    return (
        labels.reshape(shape).astype(np.float32),
        predictions.reshape(shape).astype(np.float32),
        weights_for(shape, draw),
        draw(st.sampled_from(REDUCTIONS)),
    )


@pytest.mark.parametrize("name", sorted(ELEMENTWISE))
@settings(max_examples=40, deadline=None)
@given(case=loss_cases())
def test_each_elementwise_loss_reduces_as_tf1(name, case):
    labels, predictions, weights, reduction = case
    got = getattr(ek.losses, name)(labels, predictions, weights=weights, reduction=reduction)
    want = tf1_reduce(ELEMENTWISE[name](labels, predictions), weights, reduction)
    assert got.dtype == ek.float32 and got.shape == np.shape(want)
    np.testing.assert_allclose(got.numpy(), want, rtol=2e-6, atol=1e-6)


@settings(max_examples=40, deadline=None)
@given(case=loss_cases())
def test_compute_weighted_loss_and_its_fast_path_equal_the_plain_reduction(case):
    _, losses, weights, reduction = case
    got = ek.losses.compute_weighted_loss(losses, weights, reduction=reduction)
    np.testing.assert_allclose(got.numpy(), tf1_reduce(losses, weights, reduction), rtol=2e-6)
    # weights=1.0 (Python's) takes the one-op mean; a tensor 1.0 the general path: equal.
    fast = ek.losses.compute_weighted_loss(losses, 1.0, reduction=reduction)
    general = ek.losses.compute_weighted_loss(losses, ek.constant(1.0), reduction=reduction)
    np.testing.assert_allclose(fast.numpy(), general.numpy(), rtol=1e-6)


def test_reduction_keys_are_tf1s_strings():
    assert (R.NONE, R.SUM, R.MEAN) == ("none", "weighted_sum", "weighted_mean")
    assert R.SUM_OVER_BATCH_SIZE == "weighted_sum_over_batch_size"
    assert R.SUM_BY_NONZERO_WEIGHTS == R.SUM_OVER_NONZERO_WEIGHTS
    assert R.SUM_BY_NONZERO_WEIGHTS == "weighted_sum_by_nonzero_weights"
    assert len(R.all()) == 6 and set(R.all()) == {R.NONE, R.SUM, R.MEAN, *R.all()[3:]}
    for key in R.all():
        assert R.validate(key) is None


def test_the_ta_answer_huber_none_is_elementwise():
    # TA D's 5.2: ek.losses.huber_loss(zeros, t, delta=m, reduction=NONE)
    t = ek.constant([-3.0, -0.5, 0.0, 0.5, 3.0])
    got = ek.losses.huber_loss(ek.zeros_like(t), t, delta=2.0, reduction=R.NONE)
    assert got.shape == (5,) and got.dtype == ek.float32
    assert got.numpy().tolist() == [4.0, 0.125, 0.0, 0.125, 4.0]


def test_default_is_sum_by_nonzero_weights():
    labels, predictions, weights = [0.0, 0.0, 0.0], [1.0, 2.0, 4.0], [1.0, 0.0, 3.0]
    default = ek.losses.absolute_difference(labels, predictions, weights)
    assert float(default) == (1 + 12) / 2
    values = {
        r: float(ek.losses.absolute_difference(labels, predictions, weights, reduction=r))
        for r in (R.SUM, R.MEAN, R.SUM_OVER_BATCH_SIZE)
    }
    assert values == {R.SUM: 13.0, R.MEAN: 13 / 4, R.SUM_OVER_BATCH_SIZE: float(np.float32(13 / 3))}


def test_nothing_counted_gives_zero_not_nan():
    for reduction in (R.MEAN, R.SUM_BY_NONZERO_WEIGHTS, R.SUM_OVER_BATCH_SIZE):
        assert float(ek.losses.compute_weighted_loss([1.0, 2.0], 0.0, reduction=reduction)) == 0
        empty = ek.losses.compute_weighted_loss(ek.zeros([0]), reduction=reduction)
        assert float(empty) == 0.0


def test_float64_stays_float64_and_the_rest_reduces_in_float32():
    f64 = np.array([[0.25, 0.75]], np.float64)
    for name in ("mean_squared_error", "absolute_difference", "huber_loss", "log_loss"):
        assert getattr(ek.losses, name)(f64, f64).dtype == ek.float64, name  # never narrowed
    assert ek.losses.hinge_loss(f64, f64).dtype == ek.float64
    assert ek.losses.cosine_distance(f64, f64, axis=1).dtype == ek.float64
    third = ek.losses.mean_squared_error(
        np.zeros(3), np.array([1.0, 0.0, 0.0]), weights=[1.0, 1.0, 1.0]
    )
    assert float(third) == 1 / 3  # reduced in float64: exact to float64's rounding
    assert ek.losses.softmax_cross_entropy(f64, f64).dtype == ek.float64
    assert ek.losses.mean_squared_error([1, 2], [1, 4]).dtype == ek.float32  # TF 1's to_float
    f16 = ek.constant([0.1, 0.2], ek.float16)
    half = ek.losses.mean_squared_error(f16, f16 * 2, reduction=R.SUM)
    assert half.dtype == ek.float16  # reduced in float32, cast back (TF 1)


def test_cross_entropies_take_reduction_none():
    logits = [[0.0, 0.0], [0.0, np.log(3.0)]]
    none = ek.losses.softmax_cross_entropy([[1.0, 0.0], [0.0, 1.0]], logits, reduction=R.NONE)
    np.testing.assert_allclose(none.numpy(), [np.log(2.0), -np.log(0.75)], rtol=1e-6)
    sparse = ek.losses.sparse_softmax_cross_entropy([0, 1], logits, reduction=R.NONE)
    np.testing.assert_allclose(sparse.numpy(), none.numpy(), rtol=1e-6)
    # [batch, 1] labels and weights are squeezed, as TF 1 does
    weighted = ek.losses.sparse_softmax_cross_entropy([[0], [1]], logits, weights=[[2.0], [0.0]])
    np.testing.assert_allclose(float(weighted), 2 * np.log(2.0), rtol=1e-6)
    sig = ek.losses.sigmoid_cross_entropy([[1.0, 0.0]], [[0.0, 0.0]], reduction=R.SUM)
    np.testing.assert_allclose(float(sig), 2 * np.log(2.0), rtol=1e-6)


def test_cosine_distance_none_keeps_the_axis():
    got = ek.losses.cosine_distance(
        [[1.0, 0.0]] * 2, [[1.0, 0.0], [0.0, 1.0]], axis=1, reduction=R.NONE
    )
    assert got.shape == (2, 1) and got.numpy().ravel().tolist() == [0.0, 1.0]


def test_gradients_follow_the_weights_and_the_reduction():
    x = ek.Variable([1.0, 3.0])
    for reduction, scale in ((R.SUM, 1.0), (R.SUM_BY_NONZERO_WEIGHTS, 1.0), (R.MEAN, 1 / 3)):
        with ek.GradientTape() as tape:
            loss = ek.losses.mean_squared_error([0.0, 0.0], x, [1.0, 2.0], reduction=reduction)
        grad = tape.gradient(loss, x).numpy()
        # d/dx sum(w (x - 0)^2) / count = 2 w x / count
        count = {R.SUM: 1.0, R.SUM_BY_NONZERO_WEIGHTS: 2.0, R.MEAN: 1.0}[reduction]
        np.testing.assert_allclose(grad, scale * np.array([2.0, 12.0]) / count, rtol=1e-6)
    with ek.GradientTape() as tape:
        loss = ek.losses.huber_loss([0.0, 0.0], x, reduction=R.NONE)
    assert tape.gradient(loss, x).numpy().tolist() == [1.0, 1.0]  # clipped at delta
    logits = ek.Variable([[0.0, 0.0]])
    with ek.GradientTape() as tape:
        loss = ek.losses.softmax_cross_entropy([[1.0, 0.0]], logits, label_smoothing=0.2)
    # softmax - smoothed labels: [0.5 - 0.9, 0.5 - 0.1]
    np.testing.assert_allclose(tape.gradient(loss, logits).numpy(), [[-0.4, 0.4]], atol=1e-6)


def test_bad_reduction_weights_and_labels_are_refused_with_the_fix():
    with pytest.raises(InvalidArgumentError, match=r"huber_loss\(.*Invalid ReductionKey 'sum'"):
        ek.losses.huber_loss([0.0], [1.0], reduction="sum")
    with pytest.raises(InvalidArgumentError, match="ek.keras.losses.Reduction"):
        ek.losses.compute_weighted_loss([1.0], reduction="sum_over_batch_size")
    with pytest.raises(ValueError, match=r"weights have shape \[3\] but the losses \[2, 3\]"):
        ek.losses.mean_squared_error(np.zeros((2, 3)), np.ones((2, 3)), weights=[1.0, 2.0, 3.0])
    with pytest.raises(InvalidArgumentError, match="shape \\[2, 1\\]"):
        ek.losses.log_loss(np.zeros((2, 3)), np.ones((2, 3)), weights=np.ones((3, 3)))
    with pytest.raises(InvalidArgumentError, match="weights must not be None"):
        ek.losses.absolute_difference([0.0], [1.0], weights=None)
    with pytest.raises(InvalidArgumentError, match="labels must not be None"):
        ek.losses.hinge_loss(None, [1.0])
    with pytest.raises(InvalidArgumentError, match="labels have shape"):
        ek.losses.hinge_loss([1.0, 0.0], [1.0])

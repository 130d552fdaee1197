"""ek.losses against their formulas (TF1 mean reduction) and ek.metrics golden values."""

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.testing import check_grads

rng = np.random.default_rng(3)


def log_softmax(x):
    shifted = x - x.max(axis=-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))


def test_mean_squared_error_and_absolute_difference():
    labels, predictions = rng.standard_normal((4, 3)), rng.standard_normal((4, 3))
    mse = ek.losses.mean_squared_error(labels, predictions)
    assert mse.shape == () and mse.dtype == ek.float64
    np.testing.assert_allclose(float(mse), np.mean((predictions - labels) ** 2))
    np.testing.assert_allclose(
        float(ek.losses.absolute_difference(labels, predictions)),
        np.mean(np.abs(predictions - labels)),
    )


@pytest.mark.parametrize("delta", [1.0, 0.5, 14.0])
def test_huber_loss_is_quadratic_inside_delta_and_linear_outside(delta):
    errors = np.array([0.1, -0.4, 0.9, -3.0, 20.0])
    loss = ek.losses.huber_loss(np.zeros(5), errors, delta=delta)
    small = np.abs(errors) <= delta
    expected = np.where(small, 0.5 * errors**2, delta * (np.abs(errors) - 0.5 * delta))
    np.testing.assert_allclose(float(loss), expected.mean())


def test_cross_entropies_match_the_formulas():
    logits = rng.standard_normal((5, 4))
    ids = np.array([0, 3, 1, 1, 2])
    onehot = np.eye(4)[ids]
    expected = -np.mean(log_softmax(logits)[np.arange(5), ids])
    np.testing.assert_allclose(float(ek.losses.softmax_cross_entropy(onehot, logits)), expected)
    np.testing.assert_allclose(float(ek.losses.sparse_softmax_cross_entropy(ids, logits)), expected)
    bits = rng.integers(0, 2, (5, 4)).astype(np.float64)
    p = 1 / (1 + np.exp(-logits))
    np.testing.assert_allclose(
        float(ek.losses.sigmoid_cross_entropy(bits, logits)),
        -np.mean(bits * np.log(p) + (1 - bits) * np.log(1 - p)),
    )


@pytest.mark.parametrize("shape", [(3, 40), (40, 3), (2, 5, 3), (0, 4)])
def test_sparse_cross_entropy_per_example_in_both_table_layouts(shape):
    # more rows than classes reduces down columns, fewer along rows: the same answers
    logits = rng.standard_normal(shape) * 30  # large enough that an unshifted exp would overflow
    ids = rng.integers(0, shape[-1], shape[:-1])
    got = ek.nn.sparse_softmax_cross_entropy_with_logits(labels=ids, logits=logits)
    expected = -np.take_along_axis(log_softmax(logits), ids[..., None], -1)[..., 0]
    assert got.shape == shape[:-1]
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12, atol=1e-12)


def test_cross_entropies_stay_finite_for_huge_logits():
    logits = ek.constant([[1000.0, -1000.0]])
    assert float(ek.losses.sparse_softmax_cross_entropy([1], logits)) == 2000.0
    assert float(ek.losses.sigmoid_cross_entropy([[0.0, 1.0]], logits)) == 1000.0


def test_label_smoothing_and_weights():
    logits = rng.standard_normal((2, 3))
    smoothed = np.array([[0.9, 0.05, 0.05], [0.05, 0.05, 0.9]])  # 0.15 spread over 3 classes
    hard = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    np.testing.assert_allclose(
        float(ek.losses.softmax_cross_entropy(hard, logits, label_smoothing=0.15)),
        float(ek.losses.softmax_cross_entropy(smoothed, logits)),
    )
    # TF1's reduction: weighted sum over the number of non-zero weights.
    loss = ek.losses.mean_squared_error([0.0, 0.0, 0.0], [1.0, 2.0, 3.0], weights=[2.0, 0.0, 1.0])
    assert float(loss) == (2 * 1 + 0 * 4 + 1 * 9) / 2


@pytest.mark.parametrize(
    "loss",
    [
        lambda x: ek.losses.huber_loss(np.array([0.3, -2.0, 1.0]), x, delta=0.7),
        lambda x: ek.losses.softmax_cross_entropy(np.array([0.2, 0.3, 0.5]), x),
        lambda x: ek.losses.sparse_softmax_cross_entropy(np.array(1), x),
        lambda x: ek.losses.sigmoid_cross_entropy(np.array([1.0, 0.0, 1.0]), x),
    ],
)
def test_loss_gradients_to_second_order(loss):
    check_grads(loss, np.array([1.5, 0.4, -0.2]), order=2)


def test_loss_shape_errors_say_what_to_do():
    with pytest.raises(
        ek.errors.InvalidArgumentError,
        match=r"mean_squared_error: labels have shape \(3,\) but predictions "
        r"have shape \(3, 1\).*ek.reshape\(labels, \[3, 1\]\)",
    ):
        ek.losses.mean_squared_error([1.0, 2.0, 3.0], [[1.0], [2.0], [3.0]])
    with pytest.raises(
        ek.errors.InvalidArgumentError,
        match=r"integer class ids of shape \(2,\).*softmax_cross_entropy",
    ):
        ek.losses.sparse_softmax_cross_entropy([[0.0, 1.0], [1.0, 0.0]], ek.zeros([2, 2]))


def test_out_of_range_labels_are_named():
    with pytest.raises(
        ek.errors.InvalidArgumentError,
        match=r"received a label value of 10 which is outside the valid range of \[0, 10\)",
    ):
        ek.losses.sparse_softmax_cross_entropy([3, 10], ek.zeros([2, 10]))


def test_sparse_cross_entropy_is_one_recorded_op_with_the_softmax_gradient():
    logits = ek.constant([[1.0, 2.0, 0.5]])
    with ek.GradientTape() as tape:
        tape.watch(logits)
        loss = ek.nn.sparse_softmax_cross_entropy_with_logits(labels=[1], logits=logits)
    assert [r.op.name for r in tape.records] == ["sparse_softmax_cross_entropy_with_logits"]
    p = np.exp([1.0, 2.0, 0.5]) / np.exp([1.0, 2.0, 0.5]).sum()
    np.testing.assert_allclose(tape.gradient(loss, logits).numpy()[0], p - [0, 1, 0], rtol=1e-6)


# --- metrics ---------------------------------------------------------------------------------
def test_mean_metric_golden_values():
    m = ek.metrics.Mean()
    m(0)
    m(5)
    assert float(m.result()) == 2.5
    m([8, 9])
    assert float(m.result()) == 5.5
    assert m.result().dtype == ek.float64
    m.reset_states()
    assert float(m.result()) == 0.0
    assert float(m(ek.constant([1.0, 3.0]), weights=[3.0, 1.0])) == 1.5


def test_mean_metric_variables_are_not_trained():
    m = ek.metrics.Mean(name="loss_mean")
    assert [v.name for v in m.variables] == ["loss_mean/total:0", "loss_mean/count:0"]
    assert not any(v.trainable for v in m.variables)


def test_accuracy_metric():
    acc = ek.metrics.Accuracy()
    logits = ek.constant([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]])
    acc(labels=ek.constant([1, 1, 1], ek.int64), predictions=ek.argmax(logits, axis=1))
    assert float(acc.result()) == pytest.approx(2 / 3)
    acc(labels=[0], predictions=[0])
    assert float(acc.result()) == 0.75
    with pytest.raises(
        ek.errors.InvalidArgumentError,
        match=r"labels have shape \(2,\) but predictions have shape \(2, 2\)",
    ):
        acc(labels=[0, 1], predictions=[[0, 1], [1, 0]])
    assert float(acc.result()) == 0.75  # the failed call changed nothing


def test_metric_results_are_logged_inside_a_summary_writer(tmp_path):
    step = ek.train.get_or_create_global_step()
    m = ek.metrics.Mean(name="train_loss")
    m([1.0, 2.0])
    m.result()  # no writer is active: nothing to write to
    writer = ek.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        m.result(write_summary=False)
        assert float(m.result()) == 1.5
    writer.flush()
    events = ek.summary.read_events(str(tmp_path))
    assert [(e["tag"], e["step"], e["value"]) for e in events] == [("train_loss", int(step), 1.5)]

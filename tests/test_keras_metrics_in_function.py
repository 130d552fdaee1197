"""Every Keras metric (and TF1's ``ek.metrics``) updates inside ``ek.function`` as TF's guide
"Writing a training loop from scratch" uses them: ``update_state`` in a decorated step,
``result()`` and ``reset_state()`` outside. The function traces once; each replay updates
the state with that call's values, exactly as the same updates made eagerly (a twin metric
takes the same batches); ``result()`` inside the function reads the state after the update;
``reset_state()`` after use in a function starts afresh; a call whose values a metric
refuses (checked at every call, not only at the trace) changes no state.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

BATCH, CLASSES, STEPS = 6, 4, 5
ONE_HOT = {
    "CategoricalAccuracy",
    "TopKCategoricalAccuracy",
    "CategoricalCrossentropy",
    "CategoricalHinge",
    "KLDivergence",
}
CLASS_IDS = {
    "SparseCategoricalAccuracy",
    "SparseTopKCategoricalAccuracy",
    "SparseCategoricalCrossentropy",
}
OPTIONS = {  # metrics made with options too: the paths those options take
    "Precision": [{}, {"top_k": 2}, {"class_id": 1, "thresholds": [0.2, 0.6]}],
    "Recall": [{}, {"thresholds": [0.9, 0.1, 0.5]}],
    "AUC": [{}, {"curve": "PR"}, {"multi_label": True}, {"summation_method": "minoring"}],
    "TopKCategoricalAccuracy": [{"k": 2}],
    "SparseTopKCategoricalAccuracy": [{"k": 2}],
    "BinaryAccuracy": [{}, {"threshold": 0.3}],
}


def keras_metric_classes():
    metrics = ek.keras.metrics
    found = []
    for name in metrics.__all__:
        value = getattr(metrics, name)
        if isinstance(value, type) and issubclass(value, ek.keras.tf1_metrics.Metric):
            if value not in (metrics.Metric, metrics.MeanMetricWrapper):
                found.append(value)
    return found


CASES = [
    (cls, options) for cls in keras_metric_classes() for options in OPTIONS.get(cls.__name__, [{}])
]


def case_id(case):
    cls, options = case
    return cls.__name__ + "".join(f"-{k}={v}" for k, v in options.items())


def draw_batch(cls, rng, batch=BATCH):
    """``(args, sample_weight)`` of one batch that fits ``cls``, as numpy arrays."""
    probabilities = rng.dirichlet(np.ones(CLASSES), batch).astype(np.float32)
    weights = rng.uniform(0.0, 2.0, batch).astype(np.float32)
    name = cls.__name__
    if name in ("Mean", "Sum"):
        return (rng.normal(size=batch).astype(np.float32),), weights
    if name == "Accuracy":
        return (rng.integers(0, 3, batch), rng.integers(0, 3, batch)), weights
    if name in CLASS_IDS:
        return (rng.integers(0, CLASSES, batch), probabilities), weights
    if name in ONE_HOT:
        return (
            np.eye(CLASSES, dtype=np.float32)[rng.integers(0, CLASSES, batch)],
            probabilities,
        ), weights
    labels = (rng.random((batch, CLASSES)) < 0.5).astype(np.float32)
    return (labels, rng.random((batch, CLASSES)).astype(np.float32)), weights


def state(metric):
    return [v.numpy().copy() for v in metric.variables]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_a_traced_step_updates_the_state_as_eager_updates(case):
    cls, options = case
    in_graph, eager = cls(**options), cls(**options)

    @ek.function
    def step(args, sample_weight):
        in_graph.update_state(*args, sample_weight=sample_weight)
        return in_graph.result()

    rng = np.random.default_rng(len(case_id(case)))
    for _ in range(STEPS):
        args, weights = draw_batch(cls, rng)
        inside = step(args, weights)
        eager.update_state(*args, sample_weight=weights)
        np.testing.assert_allclose(inside.numpy(), eager.result().numpy(), rtol=1e-5, atol=1e-7)
        np.testing.assert_allclose(in_graph.result().numpy(), eager.result().numpy(), rtol=1e-5)
        for ours, theirs in zip(state(in_graph), state(eager), strict=True):
            np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)
    assert step.experimental_get_tracing_count() == 1


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_batches_of_every_size_in_one_relaxed_trace(case):
    """``reduce_retracing=True``: after a second batch size, one trace for any size (a
    guide's last, smaller batch); nothing the trace saw of the first sizes is kept."""
    cls, options = case
    in_graph, eager = cls(**options), cls(**options)
    step = ek.function(
        lambda args, weights: in_graph.update_state(*args, sample_weight=weights),
        reduce_retracing=True,
    )
    rng = np.random.default_rng(3)
    for batch in (4, 5, 7, 2, 6):
        args, weights = draw_batch(cls, rng, batch)
        step(args, weights)
        eager.update_state(*args, sample_weight=weights)
    np.testing.assert_allclose(in_graph.result().numpy(), eager.result().numpy(), rtol=1e-5)
    assert step.experimental_get_tracing_count() == 2


def test_labels_and_weights_with_a_last_axis_of_one_in_a_relaxed_trace():
    """Labels [batch, 1] (as fit passes them) lose that axis at every batch size."""
    metrics = ek.keras.metrics
    made = [metrics.SparseCategoricalAccuracy, metrics.RootMeanSquaredError, metrics.AUC]
    in_graph, eager = [m() for m in made], [m() for m in made]

    def update(group, ids, scores, weights):
        group[0].update_state(ids, scores)
        group[1].update_state(ids[:, 0] / 3.0, scores[:, :1], sample_weight=weights)
        group[2].update_state(ids > 0, scores[:, :1], sample_weight=weights)

    step = ek.function(lambda *args: update(in_graph, *args), reduce_retracing=True)
    rng = np.random.default_rng(4)
    for batch in (3, 5, 2, 6):
        ids = rng.integers(0, 3, (batch, 1))
        scores = rng.random((batch, 3)).astype(np.float32)
        weights = rng.random((batch, 1)).astype(np.float32)
        step(ids, scores, weights)
        update(eager, ids, scores, weights)
    for ours, theirs in zip(in_graph, eager, strict=True):
        np.testing.assert_allclose(ours.result().numpy(), theirs.result().numpy(), rtol=1e-5)
    assert step.experimental_get_tracing_count() == 2


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_reset_state_after_a_function_starts_afresh(case):
    cls, options = case
    metric, fresh = cls(**options), cls(**options)
    step = ek.function(lambda args: metric.update_state(*args))
    rng = np.random.default_rng(1)
    for _ in range(3):
        step(draw_batch(cls, rng)[0])
    metric.reset_state()
    assert all(not np.any(v) for v in state(metric))
    np.testing.assert_array_equal(metric.result().numpy(), fresh.result().numpy())
    args = draw_batch(cls, rng)[0]
    step(args)  # the same trace goes on from zero
    fresh.update_state(*args)
    np.testing.assert_allclose(metric.result().numpy(), fresh.result().numpy(), rtol=1e-5)


@pytest.mark.parametrize("make", [ek.metrics.Mean, ek.metrics.Accuracy])
def test_tf1_metrics_update_inside_a_function_in_float64(make):
    metric, eager = make(), make()
    step = ek.function(lambda *args: metric(*args))
    rng = np.random.default_rng(2)
    for _ in range(STEPS):
        if make is ek.metrics.Mean:
            args = (rng.normal(size=BATCH), rng.uniform(0, 1, BATCH))
        else:
            args = (rng.integers(0, 3, BATCH), rng.integers(0, 3, BATCH))
        inside = step(*args)
        assert inside.dtype == ek.float64
        np.testing.assert_allclose(inside.numpy(), eager(*args).numpy(), rtol=1e-12)
    assert step.experimental_get_tracing_count() == 1


def test_calling_the_metric_inside_a_function_returns_the_running_value():
    metric = ek.keras.metrics.SparseCategoricalAccuracy()
    step = ek.function(lambda y, p: metric(y, p))
    scores = np.array([[0.9, 0.1], [0.2, 0.8]], np.float32)
    assert float(step(np.array([0, 1]), scores)) == 1.0
    assert float(step(np.array([1, 1]), scores)) == 0.75  # 3 right of 4 so far
    assert float(metric.result()) == 0.75


REFUSED = [  # (metric, a good batch, a batch whose values (not shapes) it refuses, words)
    (ek.keras.metrics.AUC, ([1.0, 0.0], [0.8, 0.3]), ([1.0, 0.0], [1.5, 0.3]), ">= 0 and <= 1"),
    (ek.keras.metrics.Precision, ([1.0, 0.0], [0.8, 0.3]), ([1.0, 0.0], [np.nan, 0.3]), "<= 1"),
    (
        ek.keras.metrics.SparseTopKCategoricalAccuracy,
        ([0, 1], [[0.8, 0.2], [0.3, 0.7]]),
        ([0, 2], [[0.8, 0.2], [0.3, 0.7]]),
        r"class ids must be in \[0, 2\)",
    ),
]


@pytest.mark.parametrize(
    "make, good, bad, words", REFUSED, ids=lambda x: getattr(x, "__name__", "")
)
def test_values_refused_at_a_later_call_change_no_state(make, good, bad, words):
    """The check runs at every call of the graph (not only on the traced values), before
    the state changes."""
    metric = make()
    step = ek.function(lambda y, p: metric.update_state(y, p))
    as_arrays = [np.asarray(a, np.float32) for a in good]
    step(*as_arrays)
    before = state(metric)
    with pytest.raises(InvalidArgumentError, match=words):
        step(*[np.asarray(a, np.float32) for a in bad])
    for now, then in zip(state(metric), before, strict=True):
        np.testing.assert_array_equal(now, then)
    step(*as_arrays)  # and the function goes on working
    assert step.experimental_get_tracing_count() == 1


@settings(max_examples=25, deadline=None)
@given(
    y_pred=hnp.arrays(np.float64, (3, 5), elements=st.sampled_from([0.0, 0.2, 0.5, 0.7, 1.0])),
    y_true=hnp.arrays(np.float32, (3, 5), elements=st.sampled_from([0.0, 1.0])),
    thresholds=st.lists(st.sampled_from([0.0, 0.2, 0.5, 0.7, 1.0]), min_size=1, max_size=4),
)
def test_threshold_counts_in_a_function_match_eager_counts(y_pred, y_true, thresholds):
    """Predictions lying exactly on thresholds, repeated and unsorted thresholds (float64
    predictions: the counting compares in float64)."""
    graph_counts = ek.keras.metrics.TruePositives(thresholds=thresholds)
    eager_counts = ek.keras.metrics.TruePositives(thresholds=thresholds)
    ek.function(lambda y, p: graph_counts.update_state(y, p))(y_true, y_pred)
    eager_counts.update_state(y_true, y_pred)
    expected = [np.sum((y_true != 0) & (y_pred > t)) for t in thresholds]
    np.testing.assert_array_equal(np.atleast_1d(graph_counts.result().numpy()), expected)
    np.testing.assert_array_equal(np.atleast_1d(eager_counts.result().numpy()), expected)

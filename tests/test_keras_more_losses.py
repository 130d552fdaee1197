"""Keras' hinge losses, KLDivergence, Poisson, LogCosh and CosineSimilarity: values and
gradients against numpy formulas written out here (hypothesis draws the data, with the
edges: 0/1 labels, zeros under a log, zero vectors, huge errors), the loss objects'
reductions and configs, compile by name, save and load, and refusals."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import eagerkit as ek
from eagerkit import keras
from eagerkit.errors import InvalidArgumentError

losses = keras.losses


def _signed(t):
    binary = np.all((t == 0) | (t == 1))
    return 2 * t - 1 if binary else t


def np_hinge(t, p):
    return np.maximum(1 - _signed(t) * p, 0).mean(-1)


def np_squared_hinge(t, p):
    return (np.maximum(1 - _signed(t) * p, 0) ** 2).mean(-1)


def np_categorical_hinge(t, p):
    positive = (t * p).sum(-1)
    negative = ((1 - t) * p).max(-1)
    return np.maximum(negative - positive + 1, 0)


def np_kl(t, p):
    t, p = np.clip(t, 1e-7, 1), np.clip(p, 1e-7, 1)
    return (t * np.log(t / p)).sum(-1)


def np_poisson(t, p):
    return (p - t * np.log(p + 1e-7)).mean(-1)


def np_log_cosh(t, p):
    x = p - t
    return (np.logaddexp(x, -x) - np.log(2)).mean(-1)  # log((e^x + e^-x) / 2)


def np_cosine(t, p, axis=-1):
    def unit(v):
        return v / np.sqrt(np.maximum((v * v).sum(axis, keepdims=True), 1e-12))

    return -(unit(t) * unit(p)).sum(axis)


FUNCTIONS = {
    "hinge": (np_hinge, "signs"),
    "squared_hinge": (np_squared_hinge, "signs"),
    "categorical_hinge": (np_categorical_hinge, "one_hot"),
    "kl_divergence": (np_kl, "probabilities"),
    "poisson": (np_poisson, "counts"),
    "log_cosh": (np_log_cosh, "reals"),
    "cosine_similarity": (np_cosine, "reals"),
}
CLASSES = {
    "hinge": losses.Hinge,
    "squared_hinge": losses.SquaredHinge,
    "categorical_hinge": losses.CategoricalHinge,
    "kl_divergence": losses.KLDivergence,
    "poisson": losses.Poisson,
    "log_cosh": losses.LogCosh,
    "cosine_similarity": losses.CosineSimilarity,
}
SHAPES = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4)


@st.composite
def labels_and_predictions(draw, kind):
    shape = draw(SHAPES)
    if kind == "signs":  # 0/1 labels (turned into -1/1), -1/1 ones, or any numbers
        values = draw(st.sampled_from([(0.0, 1.0), (-1.0, 1.0), (-2.0, 0.0, 0.5, 1.0)]))
        t = draw(hnp.arrays(np.float64, shape, elements=st.sampled_from(values)))
    elif kind == "one_hot":
        classes = draw(hnp.arrays(np.int64, shape[:-1], elements=st.integers(0, shape[-1] - 1)))
        t = np.eye(shape[-1])[classes]
    elif kind == "probabilities":  # zeros included: the clip keeps the log finite
        t = draw(hnp.arrays(np.float64, shape, elements=st.sampled_from([0.0, 0.25, 0.5, 1.0])))
    elif kind == "counts":
        t = draw(hnp.arrays(np.float64, shape, elements=st.integers(0, 5).map(float)))
    else:  # zero vectors included: their cosine is 0
        t = draw(hnp.arrays(np.float64, shape, elements=st.sampled_from([0.0, -1.5, 2.0, 40.0])))
    low = 0.0 if kind in ("probabilities", "counts") else -60.0
    p = draw(hnp.arrays(np.float64, shape, elements=st.floats(low, 60.0, width=32)))
    return t, p


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_each_loss_function_matches_its_numpy_formula(name, data):
    formula, kind = FUNCTIONS[name]
    t, p = data.draw(labels_and_predictions(kind))
    got = getattr(losses, name)(ek.constant(t), ek.constant(p))
    assert got.dtype == ek.float64 and got.shape == t.shape[:-1]
    np.testing.assert_allclose(got.numpy(), formula(t, p), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_each_loss_class_reduces_with_sample_weights_as_keras(name):
    formula, kind = FUNCTIONS[name]
    rng = np.random.default_rng(1)
    t = {"signs": rng.integers(0, 2, (4, 3)).astype(float), "one_hot": np.eye(3)[[0, 2, 1, 1]]}
    t = t.get(kind, rng.random((4, 3)))
    p = rng.random((4, 3))
    weights = np.array([1.0, 0.0, 2.0, 0.5])
    per_example = formula(t, p)
    loss = CLASSES[name]()
    assert loss.name == name
    np.testing.assert_allclose(float(loss(t, p)), per_example.mean(), rtol=1e-6)
    weighted = loss(t, p, sample_weight=weights)
    np.testing.assert_allclose(float(weighted), (per_example * weights).mean(), rtol=1e-6)
    summed = CLASSES[name](reduction="sum")(t, p)
    np.testing.assert_allclose(float(summed), per_example.sum(), rtol=1e-6)
    unreduced = CLASSES[name](reduction="none")(t, p)
    np.testing.assert_allclose(unreduced.numpy(), per_example, rtol=1e-6)


def test_keras_short_names_are_the_same_functions():
    assert losses.kld is losses.KLD is losses.kullback_leibler_divergence is losses.kl_divergence
    assert losses.logcosh is losses.log_cosh


def test_cosine_similarity_along_another_axis():
    t, p = np.array([[1.0, 0.0], [1.0, 2.0]]), np.array([[3.0, 1.0], [0.0, 1.0]])
    got = losses.cosine_similarity(t, p, axis=0).numpy()
    np.testing.assert_allclose(got, np_cosine(t, p, axis=0), rtol=1e-6)
    loss = losses.CosineSimilarity(axis=0)
    assert loss.get_config()["axis"] == 0
    np.testing.assert_allclose(float(loss(t, p)), np_cosine(t, p, axis=0).mean(), rtol=1e-6)


def test_log_cosh_does_not_overflow_where_cosh_would():
    got = losses.log_cosh([[0.0]], [[1e4]]).numpy()
    np.testing.assert_allclose(got, [1e4 - np.log(2)], rtol=1e-6)


GRADIENTS = {  # d loss / d y_pred for one example of 2 values, written out
    "hinge": lambda t, p: np.where(1 - t * p > 0, -t, 0.0) / 2,
    "squared_hinge": lambda t, p: 2 * np.maximum(1 - t * p, 0) * -t / 2,
    "log_cosh": lambda t, p: np.tanh(p - t) / 2,
    "poisson": lambda t, p: (1 - t / (p + 1e-7)) / 2,
}


@pytest.mark.parametrize("name", sorted(GRADIENTS))
def test_gradients_follow_the_formulas(name):
    t = np.array([[-1.0, 1.0]]) if "hinge" in name else np.array([[1.0, 2.0]])
    p = ek.Variable([[0.5, 3.0]], dtype=ek.float64)
    with ek.GradientTape() as tape:
        loss = getattr(losses, name)(t, p)
    grad = tape.gradient(loss, p).numpy()
    np.testing.assert_allclose(grad, GRADIENTS[name](t, p.numpy()), rtol=1e-9)


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_configs_round_trip(name):
    loss = CLASSES[name](reduction="sum", name="mine")
    again = type(loss).from_config(loss.get_config())
    assert again.get_config() == loss.get_config() and again.reduction == "sum"


@pytest.mark.parametrize("name", ["hinge", "kld", "poisson", "log_cosh", "squared_hinge"])
def test_compile_by_name_trains_and_saves(name, tmp_path):
    rng = np.random.default_rng(0)
    x = rng.random((8, 3)).astype("float32")
    y = rng.integers(0, 2, (8, 1)).astype("float32")
    model = keras.Sequential([keras.Input(shape=[3]), keras.layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer="sgd", loss=name, metrics=[name])
    history = model.fit(x, y, epochs=2, verbose=0)
    assert np.isfinite(history.history["loss"]).all() and name in history.history
    path = str(tmp_path / "model.keras")
    model.save(path)
    again = keras.models.load_model(path)
    np.testing.assert_allclose(
        again.evaluate(x, y, verbose=0), model.evaluate(x, y, verbose=0), rtol=1e-6
    )


def test_a_loss_object_saves_with_its_arguments(tmp_path):
    model = keras.Sequential([keras.Input(shape=[2]), keras.layers.Dense(2)])
    model.compile(optimizer="adam", loss=losses.CosineSimilarity(axis=1, reduction="sum"))
    path = str(tmp_path / "model.keras")
    model.save(path)
    loss = keras.models.load_model(path).loss
    assert type(loss) is losses.CosineSimilarity
    assert loss.get_config()["axis"] == 1 and loss.reduction == "sum"


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_mismatched_shapes_are_refused_naming_the_loss(name):
    with pytest.raises(InvalidArgumentError) as caught:
        getattr(losses, name)(np.zeros((2, 3)), np.zeros((2, 4)))
    assert str(caught.value).startswith(f"{name}: y_true has shape (2, 3) but y_pred has shape")


def test_an_unknown_reduction_is_refused():
    with pytest.raises(InvalidArgumentError, match="Hinge: unknown reduction 'mean'"):
        losses.Hinge(reduction="mean")


METRIC_CLASSES = {  # Keras' metric of each loss, with its default name
    "hinge": (keras.metrics.Hinge, "hinge"),
    "squared_hinge": (keras.metrics.SquaredHinge, "squared_hinge"),
    "categorical_hinge": (keras.metrics.CategoricalHinge, "categorical_hinge"),
    "kl_divergence": (keras.metrics.KLDivergence, "kullback_leibler_divergence"),
    "poisson": (keras.metrics.Poisson, "poisson"),
    "log_cosh": (keras.metrics.LogCoshError, "logcosh"),
}


@pytest.mark.parametrize("name", sorted(METRIC_CLASSES))
def test_each_metric_is_the_running_weighted_mean_of_its_loss(name):
    formula, kind = FUNCTIONS[name]
    rng = np.random.default_rng(2)
    batches = []
    for size in (3, 5):
        t = np.eye(3)[rng.integers(0, 3, size)] if kind == "one_hot" else rng.random((size, 3))
        t = rng.integers(0, 2, (size, 3)).astype(float) if kind == "signs" else t
        batches.append((t, rng.random((size, 3)), rng.random(size)))
    cls, default_name = METRIC_CLASSES[name]
    metric = cls()
    assert metric.name == default_name
    for t, p, w in batches:
        metric.update_state(t, p, sample_weight=w)
    values = np.concatenate([formula(t, p) for t, p, _ in batches])
    weights = np.concatenate([w for _, _, w in batches])
    np.testing.assert_allclose(
        float(metric.result()), np.average(values, weights=weights), rtol=1e-5
    )


def test_the_cosine_similarity_metric_is_the_cosine_and_compile_reports_it():
    t, p = np.array([[1.0, 0.0], [1.0, 2.0]]), np.array([[3.0, 1.0], [-1.0, -2.0]])
    np.testing.assert_allclose(keras.metrics.cosine_similarity(t, p).numpy(), -np_cosine(t, p))
    metric = keras.metrics.CosineSimilarity(axis=0)
    np.testing.assert_allclose(float(metric(t, p)), -np_cosine(t, p, axis=0).mean(), rtol=1e-6)
    model = keras.Sequential(
        [keras.Input(shape=[2]), keras.layers.Dense(2, kernel_initializer="identity")]
    )
    model.compile(optimizer="sgd", loss="mse", metrics=["cosine_similarity"])
    logged = model.evaluate(t, p, verbose=0, return_dict=True)  # the model gives t itself
    np.testing.assert_allclose(logged["cosine_similarity"], -np_cosine(p, t).mean(), rtol=1e-6)


@settings(max_examples=30, deadline=None)
@given(
    data=st.data(),
    shape=hnp.array_shapes(min_dims=2, max_dims=3, max_side=4),
    weighted=st.booleans(),
)
def test_tf1_cosine_distance_is_one_minus_the_dot_product_along_axis(data, shape, weighted):
    axis = data.draw(st.integers(0, len(shape) - 1))
    unit = hnp.arrays(np.float64, shape, elements=st.floats(-1, 1))
    t, p = data.draw(unit), data.draw(unit)
    kept = tuple(1 if i == axis else n for i, n in enumerate(shape))
    w = data.draw(hnp.arrays(np.float64, kept, elements=st.sampled_from([0.0, 0.5, 2.0])))
    losses = 1 - (t * p).sum(axis, keepdims=True)
    if weighted:
        nonzero = np.count_nonzero(w)
        expected = (losses * w).sum() / nonzero if nonzero else 0.0
        got = ek.losses.cosine_distance(t, p, axis=axis, weights=w)
    else:
        expected, got = losses.mean(), ek.losses.cosine_distance(t, p, dim=axis)
    np.testing.assert_allclose(float(got), expected, rtol=1e-9, atol=1e-12)


def test_tf1_cosine_distance_needs_its_axis():
    with pytest.raises(InvalidArgumentError, match="You must specify 'axis'"):
        ek.losses.cosine_distance([[1.0, 0.0]], [[1.0, 0.0]])
    with pytest.raises(InvalidArgumentError, match="two names for one argument"):
        ek.losses.cosine_distance([[1.0, 0.0]], [[1.0, 0.0]], axis=0, dim=1)


@pytest.mark.parametrize("weights", [np.array([1.0, 0.0, 1.0]), [1.0, 0.0, 1.0]])
def test_tf1_weights_may_be_numpy_arrays_or_lists(weights):
    got = ek.losses.compute_weighted_loss([1.0, 2.0, 6.0], weights=weights)
    assert float(got) == 3.5  # the sum over the two non-zero weights


def test_metric_objects_save_with_their_options(tmp_path):
    model = keras.Sequential([keras.Input(shape=[2]), keras.layers.Dense(2)])
    metrics = [
        keras.metrics.CosineSimilarity(axis=0, name="cos"),
        keras.metrics.BinaryAccuracy(threshold=0.3),
        keras.metrics.KLDivergence(),
    ]
    model.compile(optimizer="sgd", loss="mse", metrics=metrics)
    model.save(str(tmp_path / "m.keras"))
    x = np.array([[0.2, 0.9], [0.5, 0.1]], dtype="float32")
    again = keras.models.load_model(str(tmp_path / "m.keras"))
    np.testing.assert_allclose(
        list(again.evaluate(x, x, verbose=0, return_dict=True).values()),
        list(model.evaluate(x, x, verbose=0, return_dict=True).values()),
        rtol=1e-6,
    )
    config = keras.metrics.CosineSimilarity(axis=0, name="cos").get_config()
    assert config == {"name": "cos", "dtype": "float32", "axis": 0}

"""ek.keras.regularizers (TF's "Overfit and underfit" tutorial): penalties against numpy,
their gradients, in layer/model losses, in fit's loss, through configs and saved models,
and refusals of bad input that change nothing."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import eagerkit as ek
from eagerkit import keras
from eagerkit.errors import InvalidArgumentError, UnimplementedError

regularizers = keras.regularizers

FACTORS = st.floats(0, 10, allow_nan=False)
WEIGHTS = hnp.arrays(
    st.sampled_from([np.float32, np.float64]),
    hnp.array_shapes(min_dims=0, max_dims=3, max_side=4),
    elements=st.floats(-100, 100, width=32),
)


def _l1(w, a):
    return a * np.abs(w.astype(np.float64)).sum()


def _l2(w, b):
    return b * np.square(w.astype(np.float64)).sum()


@settings(max_examples=60, deadline=None)
@given(w=WEIGHTS, a=FACTORS, b=FACTORS)
def test_penalties_equal_numpys_for_any_weights(w, a, b):
    cases = {
        "L1": (regularizers.L1(a), _l1(w, a)),
        "L2": (regularizers.L2(b), _l2(w, b)),
        "L1L2": (regularizers.L1L2(a, b), _l1(w, a) + _l2(w, b)),
        "l1_l2": (regularizers.l1_l2(l1=a, l2=b), _l1(w, a) + _l2(w, b)),
    }
    for label, (regularizer, expected) in cases.items():
        penalty = regularizer(ek.constant(w))
        assert penalty.shape == () and penalty.dtype.as_numpy_dtype == w.dtype, label
        rtol = 1e-5 if w.dtype == np.float32 else 1e-12
        np.testing.assert_allclose(penalty.numpy(), expected, rtol=rtol, atol=1e-30, err_msg=label)


def test_defaults_and_names_are_tfs():
    assert regularizers.l1 is regularizers.L1 and regularizers.l2 is regularizers.L2
    assert regularizers.L1().get_config() == {"l1": 0.01}
    assert regularizers.L2().get_config() == {"l2": 0.01}
    assert regularizers.L1L2().get_config() == {"l1": 0.0, "l2": 0.0}
    assert regularizers.l1_l2().get_config() == {"l1": 0.01, "l2": 0.01}
    by_name = {
        "l1": (regularizers.L1, {"l1": 0.01}),
        "L1": (regularizers.L1, {"l1": 0.01}),
        "l2": (regularizers.L2, {"l2": 0.01}),
        "L2": (regularizers.L2, {"l2": 0.01}),
        "l1_l2": (regularizers.L1L2, {"l1": 0.01, "l2": 0.01}),  # the name: 0.01 each
        "L1L2": (regularizers.L1L2, {"l1": 0.0, "l2": 0.0}),  # the class: its defaults
    }
    for name, (cls, config) in by_name.items():
        for found in (regularizers.get(name), regularizers.deserialize(name)):
            assert type(found) is cls and found.get_config() == config, name
    assert regularizers.get(None) is None
    assert regularizers.get(np.sum) is np.sum  # any callable is kept as it is
    assert repr(regularizers.l2(0.5)) == "ek.keras.regularizers.L2(l2=0.5)"


@settings(max_examples=30, deadline=None)
@given(
    w=hnp.arrays(np.float64, hnp.array_shapes(max_dims=2, max_side=4), elements=st.floats(-9, 9)),
    a=FACTORS,
    b=FACTORS,
)
def test_the_penalty_has_its_gradient_on_the_tape(w, a, b):
    variable = ek.Variable(w)
    with ek.GradientTape() as tape:
        penalty = regularizers.L1L2(a, b)(variable)
    # Zero factors record no op on w (as in TF): its gradient is then unconnected, i.e. 0.
    (grad,) = tape.gradient(penalty, [variable], unconnected_gradients="zero")
    expected = a * np.sign(w) + 2 * b * w  # (d|w|/dw at 0 is 0, as TF's sign)
    np.testing.assert_allclose(grad.numpy(), expected, rtol=1e-12, atol=1e-12)


# --- in layers ---------------------------------------------------------------------------
IMAGES = np.linspace(-1, 1, 2 * 4 * 4 * 3, dtype=np.float32).reshape(2, 4, 4, 3)
SEQUENCES = np.linspace(-1, 1, 2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4)
A, B, C = regularizers.L1(0.3), regularizers.L2(0.2), regularizers.L1L2(0.1, 0.4)
LAYERS = {  # name: (layer with every weight regularizer it takes, input, {weight: regularizer})
    "Dense": (
        lambda: keras.layers.Dense(3, kernel_regularizer=A, bias_regularizer=B),
        np.ones((2, 4), np.float32),
        {"kernel": A, "bias": B},
    ),
    "Conv2D": (
        lambda: keras.layers.Conv2D(2, 3, kernel_regularizer=B, bias_regularizer=C),
        IMAGES,
        {"kernel": B, "bias": C},
    ),
    "Embedding": (
        lambda: keras.layers.Embedding(5, 2, embeddings_regularizer=C),
        np.array([[1, 4]]),
        {"embeddings": C},
    ),
    "LSTM": (
        lambda: keras.layers.LSTM(
            2, kernel_regularizer=A, recurrent_regularizer=B, bias_regularizer=C
        ),
        SEQUENCES,
        {"kernel": A, "recurrent_kernel": B, "bias": C},
    ),
    "GRU": (
        lambda: keras.layers.GRU(2, kernel_regularizer=C, recurrent_regularizer=A),
        SEQUENCES,
        {"kernel": C, "recurrent_kernel": A},
    ),
    "SimpleRNN": (
        lambda: keras.layers.SimpleRNN(
            3, kernel_regularizer=B, recurrent_regularizer=C, bias_regularizer=A
        ),
        SEQUENCES,
        {"kernel": B, "recurrent_kernel": C, "bias": A},
    ),
    "BatchNormalization": (
        lambda: keras.layers.BatchNormalization(gamma_regularizer=A, beta_regularizer=B),
        np.ones((2, 3), np.float32),
        {"gamma": A, "beta": B},
    ),
}


def _expected(layer, weights):
    total = 0.0
    for attribute, regularizer in weights.items():
        w = getattr(layer, attribute).numpy()
        config = regularizer.get_config()
        total += _l1(w, config.get("l1", 0.0)) + _l2(w, config.get("l2", 0.0))
    return total


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_each_regularized_weight_is_in_the_losses_recomputed_on_every_read(name):
    make, inputs, weights = LAYERS[name]
    layer = make()
    model = keras.Sequential([layer])
    assert model.losses == [] and layer.losses == []  # no weights yet
    model(inputs)
    for owner in (layer, model):
        assert len(owner.losses) == len(weights)
        assert all(loss.shape == () for loss in owner.losses)
        total = sum(float(loss) for loss in owner.losses)
        np.testing.assert_allclose(total, _expected(layer, weights), rtol=1e-5)
    for attribute in weights:  # new weights, no call: the penalties follow them
        variable = getattr(layer, attribute)
        variable.assign(variable.numpy() * 2 + 0.5)
    total = sum(float(loss) for loss in model.losses)
    np.testing.assert_allclose(total, _expected(layer, weights), rtol=1e-5)


def test_the_activity_penalty_is_the_mean_over_the_batch_of_each_call():
    layer = keras.layers.Dense(
        2, activity_regularizer=regularizers.L2(0.5), kernel_initializer="ones"
    )
    model = keras.Sequential([layer])
    x = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]], np.float32)
    outputs = model(x).numpy()
    (loss,) = model.losses
    np.testing.assert_allclose(float(loss), 0.5 * np.square(outputs).sum() / 3, rtol=1e-6)
    model(x[:1])  # a new forward pass replaces it
    (loss,) = model.losses
    np.testing.assert_allclose(float(loss), 0.5 * np.square(outputs[:1]).sum(), rtol=1e-6)


def test_a_functional_models_construction_adds_no_penalty_only_its_calls_do():
    class Logged(keras.layers.Layer):  # adds a loss and a metric as it runs
        def call(self, inputs):
            self.add_loss(ek.reduce_sum(inputs))
            self.add_metric(ek.reduce_mean(inputs), name="mean")
            return inputs

    inputs = keras.Input(shape=[2])
    hidden = keras.layers.Dense(
        3, kernel_regularizer="l2", activity_regularizer="l1", kernel_initializer="ones"
    )
    logged = Logged()
    model = keras.Model(inputs, logged(hidden(inputs)))  # runs each layer on stand-ins
    (kernel_penalty,) = model.losses  # the weights' penalty only: nothing ran yet
    assert float(kernel_penalty) == pytest.approx(0.01 * 6)
    assert logged._added_metrics_now() == []
    x = np.array([[1.0, -2.0]], np.float32)
    model(x)
    outputs = x @ np.ones((2, 3))
    expected = [0.06, 0.01 * np.abs(outputs).sum(), outputs.sum()]
    assert sorted(float(v) for v in model.losses) == pytest.approx(sorted(expected))
    assert [name for name, _ in logged._added_metrics_now()] == ["mean"]


def test_add_weight_takes_a_regularizer_and_a_failed_first_call_takes_it_back():
    class Scale(keras.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight("w", [input_shape[-1]], "ones", regularizer="l2")

        def call(self, inputs):
            return inputs * self.w

    layer = Scale()
    with pytest.raises(InvalidArgumentError):
        layer(np.ones((2, 3), np.float32), np.ones(2))  # build runs, then the call fails
    assert layer.losses == [] and layer.weights == []
    layer(np.ones((2, 3), np.float32))
    assert [float(loss) for loss in layer.losses] == pytest.approx([0.03])


# --- fit and evaluate ---------------------------------------------------------------------
def _one_dense(factor, lr):
    model = keras.Sequential(
        [
            keras.layers.Dense(
                1,
                kernel_initializer=ek.keras.initializers.Constant(0.5),
                bias_initializer="ones",
                kernel_regularizer=regularizers.L2(factor),
                bias_regularizer=regularizers.L1(factor),
            )
        ]
    )
    model.compile(optimizer=keras.optimizers.SGD(lr), loss="mse")
    return model


@settings(max_examples=10, deadline=None)
@given(
    x=hnp.arrays(np.float32, (4, 2), elements=st.floats(-3, 3, width=32)),
    y=hnp.arrays(np.float32, (4, 1), elements=st.floats(-3, 3, width=32)),
    factor=st.floats(0.0, 2.0),
)
def test_fit_and_evaluate_minimize_the_data_loss_plus_the_penalties(x, y, factor):
    w, b, lr = np.full((2, 1), 0.5), 1.0, 0.01
    error = x.astype(np.float64) @ w + b - y
    penalty = factor * (np.square(w).sum() + abs(b))
    model = _one_dense(factor, lr)
    evaluated = model.evaluate(x, y, verbose=0)
    np.testing.assert_allclose(evaluated, np.mean(error**2) + penalty, rtol=1e-5, atol=1e-6)
    history = model.fit(x, y, batch_size=4, epochs=1, verbose=0)
    np.testing.assert_allclose(
        history.history["loss"][0], np.mean(error**2) + penalty, rtol=1e-5, atol=1e-6
    )
    # One SGD step on the whole batch: the gradient of the penalties is in it.
    grad_w = 2 * x.T.astype(np.float64) @ error / 4 + 2 * factor * w
    grad_b = 2 * error.mean() + factor * np.sign(b)
    kernel, bias = model.layers[0].get_weights()
    np.testing.assert_allclose(kernel, w - lr * grad_w, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(bias, [b - lr * grad_b], rtol=1e-5, atol=1e-6)


# --- configs and saved models -------------------------------------------------------------
@ek.keras.saving.register_keras_serializable(package="Test")
class Sum(regularizers.Regularizer):
    def __init__(self, strength=1.0):
        self.strength = strength

    def __call__(self, x):
        return self.strength * ek.reduce_sum(x)

    def get_config(self):
        return {"strength": self.strength}


@pytest.mark.parametrize(
    "given",
    [regularizers.L1(0.25), regularizers.L2(0.5), regularizers.l1_l2(), "l2", "l1_l2", Sum(3.0)],
    ids=["L1", "L2", "l1_l2()", "'l2'", "'l1_l2'", "registered"],
)
def test_configs_and_saved_models_keep_the_regularizers(given, tmp_path):
    layer = keras.layers.Dense(2, kernel_regularizer=given, activity_regularizer=given)
    config = layer.get_config()
    written = config["kernel_regularizer"]
    assert written == (given if isinstance(given, str) else regularizers.serialize(given))
    clone = keras.layers.Dense.from_config(config)
    assert clone.get_config() == config
    assert type(clone.kernel_regularizer) is type(layer.kernel_regularizer)
    assert clone.kernel_regularizer.get_config() == layer.kernel_regularizer.get_config()
    assert regularizers.deserialize(
        regularizers.serialize(layer.kernel_regularizer)
    ).get_config() == (layer.kernel_regularizer.get_config())

    model = keras.Sequential([keras.Input(shape=[3]), layer])
    x = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)
    model(x)
    model.save(tmp_path / "model.keras")
    again = keras.models.load_model(tmp_path / "model.keras")
    again(x)
    np.testing.assert_allclose(
        [float(v) for v in again.losses], [float(v) for v in model.losses], rtol=1e-6
    )
    assert len(again.losses) == 2


def test_the_base_class_penalizes_nothing_and_says_it_cannot_be_saved():
    assert regularizers.Regularizer()(ek.ones([2])) == 0.0
    with pytest.raises(UnimplementedError, match="define get_config"):
        regularizers.Regularizer().get_config()


# --- bad input ----------------------------------------------------------------------------
BAD_FACTORS = {
    "negative": -0.1,
    "nan": float("nan"),
    "inf": float("inf"),
    "bool": True,
    "str": "0.01",
    "list": [0.01],
    "None": None,
}


@pytest.mark.parametrize("label", sorted(BAD_FACTORS))
@pytest.mark.parametrize("cls", ["L1", "L2", "L1L2"])
def test_bad_factors_are_refused_naming_the_call_and_the_fix(cls, label):
    argument = "l2" if cls == "L2" else "l1"
    with pytest.raises(InvalidArgumentError, match=rf"{cls}: {argument} .* >= 0, got .*{cls}\("):
        getattr(regularizers, cls)(**{argument: BAD_FACTORS[label]})


BAD_IDENTIFIERS = {
    "unknown name": ("l3", "unknown regularizer 'l3'"),
    "a number": (0.01, "must be callable, got 0.01"),
    "a class": (regularizers.L2, "got the class L2, not a regularizer object"),
    "a list": ([regularizers.L2()], "must be callable, got list of 1"),
}


@pytest.mark.parametrize("label", sorted(BAD_IDENTIFIERS))
def test_bad_regularizers_are_refused_naming_the_layer_argument_and_the_fix(label):
    bad, problem = BAD_IDENTIFIERS[label]
    hint = r"use 'l1', 'l2' or 'l1_l2'"
    calls = {
        "Dense: kernel_regularizer": lambda: keras.layers.Dense(2, kernel_regularizer=bad),
        "Conv2D: bias_regularizer": lambda: keras.layers.Conv2D(2, 3, bias_regularizer=bad),
        "LSTM: recurrent_regularizer": lambda: keras.layers.LSTM(2, recurrent_regularizer=bad),
        "Embedding: embeddings_regularizer": lambda: keras.layers.Embedding(
            3, 2, embeddings_regularizer=bad
        ),
        "Dense: activity_regularizer": lambda: keras.layers.Dense(2, activity_regularizer=bad),
        "regularizers.get: identifier": lambda: regularizers.get(bad),
    }
    for where, make in calls.items():
        with pytest.raises(InvalidArgumentError) as caught:
            make()
        message = str(caught.value)
        assert where in message and problem in message and hint in message, message


def test_a_bad_regularizer_in_add_weight_makes_no_weight():
    layer = keras.layers.Dense(2)
    layer(np.ones((1, 2), np.float32))
    before = list(layer.weights)
    with pytest.raises(InvalidArgumentError, match=r"Dense.add_weight: regularizer: unknown"):
        layer.add_weight("extra", [2], regularizer="l3")
    assert layer.weights == before and layer.losses == []


def test_other_refusals():
    with pytest.raises(InvalidArgumentError, match=r"L2: the penalty is computed on floating"):
        regularizers.L2()(np.array([1, 2]))
    with pytest.raises(InvalidArgumentError, match=r"L1.from_config: config must be the dict"):
        regularizers.L1.from_config([0.1])
    with pytest.raises(InvalidArgumentError, match=r"regularizers.deserialize: config must be"):
        regularizers.deserialize(0.01)
    with pytest.raises(InvalidArgumentError, match=r"Unknown regularizer: 'L3'"):
        regularizers.deserialize({"class_name": "L3", "config": {}})

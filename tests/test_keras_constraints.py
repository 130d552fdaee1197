"""ek.keras.constraints and ek.Variable(constraint=): projections against numpy, applied by
every optimizer after each update (so after every step of fit), in layers' arguments,
through configs and saved models, and refusals of bad input that change nothing."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import eagerkit as ek
from eagerkit.backends.cupy_backend import gpu_status
from eagerkit.errors import InvalidArgumentError

constraints = ek.keras.constraints
EPSILON = 1e-7
DEVICES = ["/sim:0"] + (["/gpu:0"] if gpu_status()[0] else [])

WEIGHTS = hnp.arrays(
    np.float32,
    hnp.array_shapes(min_dims=1, max_dims=3, max_side=4),
    elements=st.floats(-10, 10, width=32),
)


def _norms(w, axis):
    axes = tuple(axis) if isinstance(axis, list) else axis
    return np.sqrt(np.sum(np.square(w.astype(np.float64)), axis=axes, keepdims=True))


def _expected(name, w, axis, low, high, rate):
    """Keras' formulas, in numpy."""
    norms = _norms(w, axis)
    if name == "MaxNorm":
        return w * (np.clip(norms, 0, high) / (norms + EPSILON))
    if name == "MinMaxNorm":
        desired = rate * np.clip(norms, low, high) + (1 - rate) * norms
        return w * (desired / (norms + EPSILON))
    if name == "UnitNorm":
        return w / (norms + EPSILON)
    return w * (w >= 0)


@settings(max_examples=80, deadline=None)
@given(
    w=WEIGHTS,
    name=st.sampled_from(["MaxNorm", "MinMaxNorm", "UnitNorm", "NonNeg"]),
    bounds=st.tuples(st.floats(0, 5), st.floats(0, 5)).map(sorted),
    rate=st.floats(0, 1),
    data=st.data(),
)
def test_projections_equal_numpys_for_any_weights_and_axes(w, name, bounds, rate, data):
    axes = data.draw(st.lists(st.integers(-w.ndim, w.ndim - 1), min_size=1, max_size=w.ndim))
    axes = sorted({a % w.ndim for a in axes})
    axis = axes[0] if len(axes) == 1 and data.draw(st.booleans()) else axes
    low, high = bounds
    made = {
        "MaxNorm": lambda: constraints.MaxNorm(high, axis),
        "MinMaxNorm": lambda: constraints.MinMaxNorm(low, high, rate, axis),
        "UnitNorm": lambda: constraints.UnitNorm(axis),
        "NonNeg": constraints.NonNeg,
    }[name]()
    got = made(ek.constant(w)).numpy()
    np.testing.assert_allclose(got, _expected(name, w, axis, low, high, rate), rtol=1e-4, atol=1e-5)
    if name == "MaxNorm":  # the rule itself: no slice longer than max_value
        assert (_norms(got, axis) <= high * (1 + 1e-5) + 1e-6).all()


def test_a_zero_slice_stays_zero_and_base_class_projects_nothing():
    w = ek.constant([[0.0, 3.0], [0.0, 4.0]])
    np.testing.assert_allclose(constraints.UnitNorm()(w).numpy(), [[0.0, 0.6], [0.0, 0.8]])
    assert constraints.Constraint()(w) is w
    assert constraints.Constraint().get_config() == {}


def test_projections_have_gradients():
    for made in (constraints.MaxNorm(1.0), constraints.UnitNorm(1), constraints.MinMaxNorm(1, 2)):
        w = ek.constant([[0.3, -1.2], [2.0, 0.5]], dtype=ek.float64)
        ek.testing.check_grads(made, w, order=1)  # (no norm sits on a clip's edge)


def test_names_get_serialize_and_configs_round_trip():
    assert constraints.max_norm is constraints.MaxNorm
    assert (
        repr(constraints.get("max_norm")) == "ek.keras.constraints.MaxNorm(max_value=2.0, axis=0)"
    )
    expected = {
        "min_max_norm": constraints.MinMaxNorm,
        "non_neg": constraints.NonNeg,
        "unit_norm": constraints.UnitNorm,
        "NonNeg": constraints.NonNeg,
    }
    for name, cls in expected.items():
        assert type(constraints.get(name)) is cls
    made = constraints.MinMaxNorm(0.5, 3, rate=0.25, axis=[0, 1])
    config = constraints.serialize(made)
    assert config == {
        "class_name": "MinMaxNorm",
        "config": {"min_value": 0.5, "max_value": 3.0, "rate": 0.25, "axis": [0, 1]},
    }
    again = constraints.get(config)
    assert again.get_config() == made.get_config()
    assert constraints.UnitNorm.from_config({"axis": 1}).axis == 1
    assert constraints.get(None) is None
    function = lambda w: w  # noqa: E731 - a callable is kept as it is
    assert constraints.get(function) is function


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda: constraints.MaxNorm(-1.0), "max_value bounds a norm and must be >= 0"),
        (lambda: constraints.MaxNorm("2"), "MaxNorm: max_value must be a number >= 0"),
        (lambda: constraints.MaxNorm(axis=1.5), "MaxNorm: axis must be an int or a list"),
        (lambda: constraints.MinMaxNorm(2.0, 1.0), "min_value (2.0) is above max_value (1.0)"),
        (lambda: constraints.MinMaxNorm(rate=2.0), "rate is the fraction"),
        (lambda: constraints.UnitNorm(axis=[]), "UnitNorm: axis must be an int or a list"),
        (lambda: constraints.get("max_nrom"), "unknown constraint 'max_nrom'"),
        (lambda: constraints.get(constraints.NonNeg), "not a constraint object (add ())"),
        (lambda: constraints.get(3), "a constraint must be callable"),
        (lambda: constraints.deserialize(3), "constraints.deserialize: config must be a name"),
        (lambda: constraints.MaxNorm(axis=2)(ek.ones([2, 2])), "axis=2 does not name"),
        (lambda: constraints.NonNeg()(ek.constant([1, -1])), "projects floating weights"),
        (lambda: ek.keras.layers.Dense(2, kernel_constraint="nope"), "Dense: kernel_constraint"),
        (lambda: ek.keras.layers.LSTM(2, recurrent_constraint=5), "LSTM: recurrent_constraint"),
        (lambda: ek.Variable(1.0, constraint="non_neg"), "Variable: constraint must be None or"),
    ],
)
def test_bad_arguments_name_the_call_and_the_fix(make, words):
    with pytest.raises(InvalidArgumentError) as caught:
        make()
    assert words in str(caught.value)


OPTIMIZERS = [
    lambda: ek.keras.optimizers.SGD(0.5, momentum=0.9),
    lambda: ek.keras.optimizers.Adam(0.5),
    lambda: ek.keras.optimizers.RMSprop(0.5),
    lambda: ek.keras.optimizers.Adagrad(0.5),
    lambda: ek.train.GradientDescentOptimizer(0.5),
    lambda: ek.train.AdamOptimizer(0.5),
]


@pytest.mark.parametrize("make", OPTIMIZERS)
def test_every_optimizer_projects_after_its_update(make):
    w = ek.Variable([[0.5, -0.5], [1.0, 2.0]], constraint=constraints.MaxNorm(1.0))
    free = ek.Variable(w.numpy())  # the same update without the constraint
    gradient = ek.constant([[-3.0, 1.0], [-2.0, 4.0]])
    make().apply_gradients([(gradient, w)])
    make().apply_gradients([(gradient, free)])
    expected = _expected("MaxNorm", free.numpy(), 0, 0, 1.0, 1)
    assert np.linalg.norm(free.numpy(), axis=0).max() > 1.0  # the projection had work to do
    np.testing.assert_allclose(w.numpy(), expected, rtol=1e-5)


def test_a_failing_constraint_changes_nothing():
    def broken(w):
        raise ValueError("no projection today")

    w = ek.Variable([1.0, 2.0], constraint=broken)
    other = ek.Variable([3.0])
    optimizer = ek.keras.optimizers.Adam(0.1)
    pairs = [(ek.constant([1.0, 1.0]), w), (ek.constant([1.0]), other)]
    with pytest.raises(InvalidArgumentError) as caught:
        optimizer.apply_gradients(pairs)
    message = str(caught.value)
    assert "apply_gradients: the constraint" in message and "no projection today" in message
    assert "nothing was updated" in message
    assert w.numpy().tolist() == [1.0, 2.0] and other.numpy().tolist() == [3.0]
    assert int(optimizer.iterations) == 0
    shrinking = ek.Variable([1.0, 2.0], constraint=lambda v: v[:1])
    with pytest.raises(InvalidArgumentError, match=r"returned shape \(1,\).*shape \(2,\)"):
        optimizer.apply_gradients([(ek.constant([1.0, 1.0]), shrinking)])
    assert shrinking.numpy().tolist() == [1.0, 2.0]


def test_the_constraint_runs_in_ek_function_and_on_copies():
    w = ek.Variable([1.0, 1.0], constraint=constraints.NonNeg())
    optimizer = ek.keras.optimizers.SGD(1.0)

    @ek.function
    def step(g):
        optimizer.apply_gradients([(g, w)])

    step(ek.constant([2.0, -1.0]))
    step(ek.constant([2.0, -1.0]))  # the replay projects too
    assert w.numpy().tolist() == [0.0, 3.0]
    import copy

    assert copy.deepcopy(w).constraint is w.constraint


class _EveryStep(ek.keras.callbacks.Callback):
    """Checks the constraint after every training step."""

    def __init__(self, layer):
        super().__init__()
        self.layer, self.steps = layer, 0

    def on_train_batch_end(self, batch, logs=None):
        self.steps += 1
        norms = np.linalg.norm(self.layer.kernel.numpy(), axis=0)
        assert (norms <= 0.5 + 1e-5).all(), norms
        assert (self.layer.bias.numpy() >= 0).all()


def test_a_constraint_holds_after_every_step_of_fit_and_survives_saving(tmp_path):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 3)).astype(np.float32)
    y = (x @ np.array([[4.0], [-3.0], [2.0]], np.float32) + 5.0).astype(np.float32)
    inputs = ek.keras.Input(shape=[3])
    hidden = ek.keras.layers.Dense(
        8, kernel_constraint=constraints.MaxNorm(0.5), bias_constraint="non_neg"
    )
    model = ek.keras.Model(inputs, ek.keras.layers.Dense(1)(hidden(inputs)))
    model.compile(ek.keras.optimizers.Adam(0.1), "mse")
    check = _EveryStep(hidden)
    model.fit(x, y, batch_size=8, epochs=3, verbose=0, callbacks=[check])
    assert check.steps == 24
    free_norms = np.linalg.norm(hidden.kernel.numpy(), axis=0)
    assert free_norms.max() > 0.45  # the constraint was binding, not idle
    path = str(tmp_path / "constrained.keras")
    model.save(path)
    loaded = ek.keras.models.load_model(path)
    layer = loaded.layers[1]
    assert layer.get_config()["kernel_constraint"] == {
        "class_name": "MaxNorm",
        "config": {"max_value": 0.5, "axis": 0},
    }
    assert repr(layer.kernel.constraint) == "ek.keras.constraints.MaxNorm(max_value=0.5, axis=0)"
    assert repr(layer.bias.constraint) == "ek.keras.constraints.NonNeg()"
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0))


@pytest.mark.parametrize(
    "make, sample, attributes",
    [
        (
            lambda c: ek.keras.layers.Conv2D(2, 2, kernel_constraint=c, bias_constraint=c),
            np.ones([1, 3, 3, 1], np.float32),
            ["kernel", "bias"],
        ),
        (
            lambda c: ek.keras.layers.Conv1D(2, 2, kernel_constraint=c),
            np.ones([1, 4, 2], np.float32),
            ["kernel"],
        ),
        (
            lambda c: ek.keras.layers.Conv2DTranspose(2, 2, kernel_constraint=c),
            np.ones([1, 3, 3, 1], np.float32),
            ["kernel"],
        ),
        (
            lambda c: ek.keras.layers.Embedding(5, 2, embeddings_constraint=c),
            np.array([[1, 2]]),
            ["embeddings"],
        ),
        (
            lambda c: ek.keras.layers.GRU(
                2, kernel_constraint=c, recurrent_constraint=c, bias_constraint=c
            ),
            np.ones([1, 3, 2], np.float32),
            ["kernel", "recurrent_kernel", "bias"],
        ),
        (
            lambda c: ek.keras.layers.BatchNormalization(beta_constraint=c, gamma_constraint=c),
            np.ones([2, 3], np.float32),
            ["beta", "gamma"],
        ),
        (
            lambda c: ek.keras.layers.LayerNormalization(beta_constraint=c, gamma_constraint=c),
            np.ones([2, 3], np.float32),
            ["beta", "gamma"],
        ),
    ],
)
def test_layers_give_their_constraints_to_their_weights(make, sample, attributes):
    layer = make("non_neg")
    layer(sample)
    for attribute in attributes:
        variable = getattr(layer, attribute)
        assert isinstance(variable.constraint, constraints.NonNeg), attribute
        assert getattr(layer, f"{attribute.removesuffix('_kernel')}_constraint", None) is not None
    again = type(layer).from_config(layer.get_config())
    again(sample)
    assert all(isinstance(getattr(again, a).constraint, constraints.NonNeg) for a in attributes)
    unconstrained = make(None)
    unconstrained(sample)
    assert all(getattr(unconstrained, a).constraint is None for a in attributes)


def test_add_weight_takes_a_constraint():
    layer = ek.keras.layers.Layer()
    w = layer.add_weight("w", [2], "ones", constraint="unit_norm")
    assert isinstance(w.constraint, constraints.UnitNorm)
    with pytest.raises(InvalidArgumentError, match="Layer.add_weight: constraint: unknown"):
        layer.add_weight("v", [2], constraint="unitnorm")
    assert len(layer.weights) == 1


@pytest.mark.parametrize("device_name", DEVICES)
def test_the_projection_runs_on_the_variables_device(device_name):
    ek.devices.enable_simulated_gpu()
    try:
        with ek.device(device_name):
            w = ek.Variable([[3.0, 0.1], [4.0, 0.2]], constraint=constraints.MaxNorm(1.0))
            ek.keras.optimizers.SGD(0.0).apply_gradients([(ek.zeros([2, 2]), w)])
        assert w.device.endswith(device_name[1:].upper())  # projected where it lives
        np.testing.assert_allclose(w.numpy(), [[0.6, 0.1], [0.8, 0.2]], rtol=1e-5)
    finally:
        ek.devices.disable_simulated_gpu()

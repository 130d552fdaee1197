"""TF's activation layers (ReLU, LeakyReLU, Softmax, ELU): values against numpy on drawn
inputs (-0.0, infinities, nan, huge logits), gradients against finite differences and the
hand formulas, configs, Sequential and functional models, saved models, and refused
arguments."""

import numpy as np
import pytest
import scipy.special
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError
from eagerkit.testing import check_grads

L = ek.keras.layers
# float32 values users meet: -0.0, infinities, nan, and logits far past exp's range.
EDGES = st.sampled_from([0.0, -0.0, np.inf, -np.inf, np.nan, 1e30, -1e30, 88.8, -104.0])
VALUES = st.one_of(st.floats(-1e6, 1e6, width=32), EDGES)
SHAPES = hnp.array_shapes(min_dims=1, max_dims=3, max_side=5)
ARRAYS = hnp.arrays(np.float32, SHAPES, elements=VALUES)


@pytest.fixture(autouse=True)
def default_names():
    ek.keras.backend.clear_session()


def relu_reference(x, max_value=None, negative_slope=0.0, threshold=0.0):
    """TF's ReLU as its documentation states it, in numpy."""
    with np.errstate(invalid="ignore"):
        out = np.where(x <= threshold, np.float32(0), x)  # nan stays nan
        if max_value is not None:
            out = np.minimum(out, np.float32(max_value))
        below = np.minimum(x - np.float32(threshold), np.float32(0))
        return out + below * np.float32(negative_slope) if negative_slope else out


NAMES = ["re_lu", "leaky_re_lu", "softmax", "elu"]  # TF's default names (snake case)


def close(actual, expected, atol=0.0):
    np.testing.assert_allclose(actual, expected, rtol=2e-6, atol=atol, equal_nan=True)


# --- values -----------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(
    x=ARRAYS,
    max_value=st.one_of(st.none(), st.floats(0, 10)),
    negative_slope=st.floats(0, 1),
    threshold=st.floats(0, 5),
)
def test_relu_matches_tf_formula(x, max_value, negative_slope, threshold):
    layer = L.ReLU(max_value, negative_slope, threshold)
    close(layer(x).numpy(), relu_reference(x, max_value, negative_slope, threshold), atol=1e-6)


@settings(max_examples=60, deadline=None)
@given(x=ARRAYS, slope=st.floats(0, 1))
def test_leaky_relu_matches_numpy(x, slope):
    with np.errstate(invalid="ignore"):
        expected = np.where(x >= 0, x, x * np.float32(slope))
    close(L.LeakyReLU(slope)(x).numpy(), expected)
    assert L.LeakyReLU(alpha=slope).negative_slope == slope  # TF 2.x's name for it


@settings(max_examples=60, deadline=None)
@given(x=ARRAYS, alpha=st.floats(-2, 2))
def test_elu_matches_numpy(x, alpha):
    with np.errstate(invalid="ignore", over="ignore"):
        negative = np.float32(alpha) * (np.exp(np.minimum(x, np.float32(0))) - np.float32(1))
        expected = np.where(x > 0, x, negative)
    close(L.ELU(alpha)(x).numpy(), expected, atol=1e-6)


@settings(max_examples=60, deadline=None)
@given(x=ARRAYS, data=st.data())
def test_softmax_matches_scipy_on_any_axis_including_huge_logits(x, data):
    axes = data.draw(st.lists(st.integers(-x.ndim, x.ndim - 1), min_size=1, max_size=x.ndim))
    axes = sorted({a % x.ndim for a in axes})
    axis = axes[0] - x.ndim if len(axes) == 1 else axes
    with np.errstate(invalid="ignore", over="ignore"):
        expected = scipy.special.softmax(x.astype(np.float64), axis=tuple(axes))
    close(L.Softmax(axis=axis)(x).numpy(), expected, atol=1e-6)


def test_tfs_own_examples():
    x = [-10.0, -5.0, 0.0, 5.0, 10.0]
    assert L.ReLU(max_value=10, negative_slope=0.5)(x).numpy().tolist() == [-5, -2.5, 0, 5, 10]
    close(L.LeakyReLU()([-3.0, -1.0, 0.0, 2.0]).numpy(), [-0.9, -0.3, 0.0, 2.0])
    close(L.LeakyReLU(alpha=0.1)([-3.0, -1.0, 0.0, 2.0]).numpy(), [-0.3, -0.1, 0.0, 2.0])
    close(L.Softmax()(np.array([1.0, 2.0, 1.0])).numpy(), [0.21194157, 0.5761169, 0.21194157])
    assert L.ELU()([0.0]).numpy().tolist() == [0.0]


def test_default_names_are_tfs():
    assert [L.ReLU().name, L.LeakyReLU().name, L.Softmax().name, L.ELU().name] == NAMES


def test_softmax_mask_gives_masked_logits_no_weight():
    logits = np.array([[1.0, 5.0, 2.0, 0.5], [3.0, 3.0, -1.0, 9.0]], np.float32)
    keep = np.array([[True, False, True, True], [False, True, True, False]])
    for mask in (keep, keep.astype(np.int32), ek.constant(keep)):
        out = L.Softmax()(logits, mask=mask).numpy()
        expected = np.where(keep, scipy.special.softmax(np.where(keep, logits, -np.inf), -1), 0)
        close(out, expected, atol=1e-7)
    half = L.Softmax(dtype="float16")(logits, mask=keep).numpy()  # -1e9 would be -inf there
    assert half.dtype == np.float16 and np.all(np.isfinite(half))
    np.testing.assert_allclose(half.sum(-1), 1.0, rtol=1e-3)


def test_integer_inputs_relu_keeps_as_tf_and_softmax_refuses_with_the_cast():
    np.testing.assert_array_equal(L.ReLU(max_value=6)(ek.constant([-3, 2, 9])).numpy(), [0, 2, 6])
    with pytest.raises(InvalidArgumentError, match=r"^Softmax\(int32\[3\]\): .*ek.cast"):
        L.Softmax()(ek.constant([-3, 2, 9]))


# --- gradients --------------------------------------------------------------------------------
AWAY_FROM_KINKS = np.array([-3.1, -1.7, -0.4, 0.3, 1.2, 2.6, 4.4, 7.9])


@pytest.mark.parametrize(
    "make",
    [
        lambda: L.ReLU(dtype="float64"),
        lambda: L.ReLU(6.0, 0.2, 1.0, dtype="float64"),
        lambda: L.ReLU(max_value=2.0, dtype="float64"),
        lambda: L.LeakyReLU(0.1, dtype="float64"),
        lambda: L.ELU(0.7, dtype="float64"),
        lambda: L.Softmax(dtype="float64"),
        lambda: L.Softmax(axis=[0, 1], dtype="float64"),
    ],
)
def test_gradients_match_finite_differences(make):
    layer = make()
    x = AWAY_FROM_KINKS.reshape(2, 4)
    weights = ek.constant(np.linspace(-1, 2, 8).reshape(2, 4))
    check_grads(lambda v: ek.reduce_sum(layer(v) * weights), x, order=1)


def test_gradients_match_the_hand_formulas():
    x = ek.constant(AWAY_FROM_KINKS)
    cases = {
        L.ReLU(6.0, 0.2, 1.0): np.where(x.numpy() > 6, 0, np.where(x.numpy() > 1, 1, 0.2)),
        L.LeakyReLU(0.1): np.where(x.numpy() > 0, 1, 0.1),
        L.ELU(0.7): np.where(x.numpy() > 0, 1, 0.7 * np.exp(x.numpy())),
    }
    for layer, expected in cases.items():
        with ek.GradientTape() as tape:
            tape.watch(x)
            y = ek.reduce_sum(layer(x))
        close(tape.gradient(y, x).numpy(), expected.astype(np.float32), atol=1e-6)
    weights = np.linspace(-1, 2, 8).astype(np.float32)
    with ek.GradientTape() as tape:
        tape.watch(x)
        s = L.Softmax()(x)
        y = ek.reduce_sum(s * weights)
    s = s.numpy()
    close(tape.gradient(y, x).numpy(), s * (weights - np.sum(weights * s)), atol=1e-6)


# --- configs, models, saving --------------------------------------------------------------------
MADE = {
    "ReLU": lambda: L.ReLU(max_value=6.0, negative_slope=0.1, threshold=0.5, name="r"),
    "LeakyReLU": lambda: L.LeakyReLU(alpha=0.2, name="lr"),
    "Softmax": lambda: L.Softmax(axis=[0, 1], name="s"),
    "ELU": lambda: L.ELU(alpha=0.5, name="e"),
}
X = np.linspace(-4, 9, 12, dtype=np.float32).reshape(3, 4)


@pytest.mark.parametrize("name", sorted(MADE))
def test_config_rebuilds_the_same_layer(name):
    layer = MADE[name]()
    config = layer.get_config()
    clone = type(layer).from_config(config)
    assert clone.get_config() == config and clone.name == layer.name
    close(clone(X).numpy(), layer(X).numpy())
    again = L.deserialize(L.serialize(layer))
    assert type(again) is type(layer) and again.get_config() == config


def test_configs_name_tfs_arguments():
    assert MADE["ReLU"]().get_config()["max_value"] == 6.0
    leaky = MADE["LeakyReLU"]().get_config()
    assert leaky["negative_slope"] == 0.2 and "alpha" not in leaky  # TF 2.16+'s config
    assert L.LeakyReLU.from_config({"alpha": 0.25}).negative_slope == 0.25  # TF 2.15's config
    assert MADE["Softmax"]().get_config()["axis"] == [0, 1]
    assert MADE["ELU"]().get_config()["alpha"] == 0.5


def test_tf_beginner_tutorials_probability_model():
    ek.random.set_seed(0)
    model = ek.keras.Sequential([L.Flatten(), L.Dense(8, activation="relu"), L.Dense(3)])
    probability_model = ek.keras.Sequential([model, L.Softmax()])
    p = probability_model(np.ones([2, 2, 2], np.float32)).numpy()
    close(p, scipy.special.softmax(model(np.ones([2, 2, 2], np.float32)).numpy(), -1), 1e-7)
    close(p.sum(-1), [1.0, 1.0])


def test_sequential_and_functional_models_save_and_load(tmp_path):
    ek.random.set_seed(1)
    sequential = ek.keras.Sequential(
        [ek.keras.Input(shape=[4]), L.Dense(5), L.ReLU(6.0), L.LeakyReLU(alpha=0.1)]
        + [L.ELU(0.5), L.Dense(3), L.Softmax()]
    )
    inputs = ek.keras.Input(shape=[4])
    hidden = L.ReLU(max_value=1.0, threshold=0.5)(L.Dense(6)(inputs))
    functional = ek.keras.Model(inputs, L.Softmax(axis=1)(L.Dense(3)(hidden)))
    for model in (sequential, functional):
        expected = model(X).numpy()
        path = tmp_path / f"{model.name}.keras"
        model.save(path)
        again = ek.keras.models.load_model(path)
        close(again(X).numpy(), expected)
        assert [type(layer).__name__ for layer in again.layers] == [
            type(layer).__name__ for layer in model.layers
        ]
        assert [layer.get_config() for layer in again.layers] == [
            layer.get_config() for layer in model.layers
        ]


def test_a_model_trains_through_the_layers():
    ek.random.set_seed(2)
    model = ek.keras.Sequential([L.Dense(8), L.LeakyReLU(), L.Dense(3), L.Softmax()])
    model.compile(optimizer=ek.keras.optimizers.Adam(0.05), loss="sparse_categorical_crossentropy")
    labels = np.array([0, 1, 2])
    history = model.fit(X, labels, epochs=30, verbose=0).history["loss"]
    assert history[-1] < history[0] / 4


# --- refused arguments --------------------------------------------------------------------------
REFUSED = [
    (lambda: L.ReLU(max_value=-1.0), "ReLU: max_value must be a finite number >= 0.0, got -1.0"),
    (lambda: L.ReLU(negative_slope=None), "ReLU: negative_slope must be a finite number >= 0.0"),
    (lambda: L.ReLU(threshold=-0.5), "ReLU: threshold must be a finite number >= 0.0"),
    (lambda: L.ReLU(max_value="6"), "ReLU: max_value must be a finite number >= 0.0, got '6'"),
    (lambda: L.ReLU(negative_slope=np.nan), "ReLU: negative_slope must be a finite number"),
    (lambda: L.ReLU(threshold=True), "ReLU: threshold must be a finite number"),
    (lambda: L.LeakyReLU(-0.1), "LeakyReLU: negative_slope must be a finite number >= 0.0"),
    (lambda: L.LeakyReLU(alpha=np.inf), "LeakyReLU: negative_slope must be a finite number"),
    (lambda: L.LeakyReLU(0.1, alpha=0.2), "LeakyReLU: got both negative_slope and alpha"),
    (lambda: L.ELU(alpha=None), "ELU: alpha must be a finite number, got None"),
    (
        lambda: L.Softmax(axis=1.5),
        "Softmax: axis must be an integer or a list of distinct integers, got",
    ),
    (
        lambda: L.Softmax(axis=[1, 1]),
        "Softmax: axis must be an integer or a list of distinct integers, got",
    ),
    (
        lambda: L.Softmax(axis=[]),
        "Softmax: axis must be an integer or a list of distinct integers, got",
    ),
]


@pytest.mark.parametrize("make, message", REFUSED)
def test_bad_arguments_are_refused_and_make_nothing(make, message):
    with pytest.raises(InvalidArgumentError) as caught:
        make()
    assert str(caught.value).startswith(message)
    assert isinstance(caught.value, ValueError)  # what TF raises
    assert "e.g." in str(caught.value)  # the fix
    # The refused layer took no name: the next one gets the first.
    assert [L.ReLU().name, L.LeakyReLU().name, L.Softmax().name, L.ELU().name] == NAMES


def test_a_bad_call_names_the_layer_and_changes_nothing():
    layer = L.Softmax(axis=3)
    with pytest.raises(InvalidArgumentError, match="axis 3 is out of range for a tensor of rank 2"):
        layer(X[:2])
    assert not layer.built and layer(X[None, :, :, None]).shape == (1, 3, 4, 1)

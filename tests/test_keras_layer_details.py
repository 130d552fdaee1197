"""Keras layer details TF code relies on: Normalization's count weight, ReLU on integers,
a 1-D column fitted into Input(shape=[1]) (TF's regression tutorial), and build() called by
hand marking the layer built."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import eagerkit as ek
from eagerkit import keras
from eagerkit.errors import InvalidArgumentError

L = keras.layers


# --- Normalization keeps mean, variance and count, as TF ---------------------------------------
def test_normalization_counts_what_adapt_saw_and_saves_it(tmp_path):
    data = ek.data.Dataset.from_tensor_slices(np.arange(12.0).reshape(6, 2)).batch(4)
    layer = L.Normalization()
    layer.adapt(data)
    assert [v.name.split("/")[-1] for v in layer.weights] == ["mean:0", "variance:0", "count:0"]
    assert int(layer.count) == 6 and layer.count.dtype == ek.int64 and not layer.count.trainable
    layer.adapt(np.ones((3, 2)))  # adapt starts over, as TF's
    assert int(layer.count) == 3
    model = keras.Sequential([keras.Input(shape=[2]), layer, L.Dense(1)])
    model.save(str(tmp_path / "m.keras"))
    again = keras.models.load_model(str(tmp_path / "m.keras"))
    assert int(again.layers[0].count) == 3
    fixed = L.Normalization(mean=1.0, variance=4.0)
    fixed.build((None, 2))
    assert len(fixed.weights) == 2  # given statistics: nothing to count (TF has no count then)


# --- ReLU on integers -------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(
    x=hnp.arrays(
        st.sampled_from([np.int32, np.int64, np.uint8]),
        hnp.array_shapes(max_dims=3),
        elements=st.integers(0, 200),
    ).map(lambda a: a.astype(np.int64) - 100 if a.dtype != np.uint8 else a),
    cap=st.one_of(st.none(), st.integers(0, 50), st.integers(0, 50).map(float)),
)
def test_relu_keeps_integers_as_tf(x, cap):
    expected = np.maximum(x, 0) if cap is None else np.minimum(np.maximum(x, 0), int(cap))
    for relu in (L.ReLU(max_value=cap), lambda v: keras.activations.relu(v, max_value=cap)):
        got = relu(ek.constant(x))
        assert got.dtype == ek.as_dtype(x.dtype)
        np.testing.assert_array_equal(got.numpy(), expected)


@pytest.mark.parametrize(
    "options", [{"negative_slope": 0.1}, {"threshold": 1.0}, {"max_value": 2.5}]
)
def test_relu_options_that_need_fractions_refuse_integers(options):
    with pytest.raises(InvalidArgumentError) as caught:
        L.ReLU(**options)(ek.constant([-1, 2, 3]))
    assert "integer inputs (int32) take only a whole max_value" in str(caught.value)
    assert "ek.cast(x, ek.float32)" in str(caught.value)


# --- a 1-D column into Input(shape=[1]) --------------------------------------------------------
def test_the_regression_tutorials_horsepower_model_fits_a_1d_column():
    rng = np.random.default_rng(0)
    horsepower = rng.uniform(50, 200, size=64).astype("float32")
    mpg = (0.15 * (125 - horsepower) + rng.normal(size=64)).astype("float32")  # centred
    normalizer = L.Normalization(input_shape=[1], axis=None)
    normalizer.adapt(horsepower)
    model = keras.Sequential([normalizer, L.Dense(units=1)])
    model.compile(optimizer=keras.optimizers.Adam(learning_rate=0.1), loss="mean_absolute_error")
    history = model.fit(horsepower, mpg, epochs=30, verbose=0, validation_split=0.2)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert float(model.layers[1].kernel[0, 0]) < 0  # more horsepower, fewer miles per gallon
    x = ek.linspace(0.0, 250, 251)
    assert model.predict(x, verbose=0).shape == (251, 1)
    np.testing.assert_allclose(
        model.predict(horsepower, verbose=0), model.predict(horsepower[:, None], verbose=0)
    )
    assert np.isfinite(model.evaluate(horsepower, mpg, verbose=0))


@pytest.mark.parametrize("functional", [False, True])
def test_a_last_axis_of_one_is_added_or_dropped_and_nothing_else(functional):
    def make(shape):
        inputs = keras.Input(shape=shape)
        outputs = L.Flatten()(inputs)
        if functional:
            return keras.Model(inputs, outputs)
        return keras.Sequential([inputs, L.Flatten()])

    np.testing.assert_array_equal(make([1])(np.arange(4.0)).numpy(), np.arange(4.0)[:, None])
    np.testing.assert_array_equal(make([3])(np.ones((2, 3, 1))).numpy(), np.ones((2, 3)))
    with pytest.raises(InvalidArgumentError, match="expect|incompatible"):
        make([2])(np.arange(4.0))  # a 1-D column only fits an Input of one feature


# --- build() by hand --------------------------------------------------------------------------
class Scale(L.Layer):
    def build(self, input_shape):
        self.w = self.add_weight("w", [input_shape[-1]], initializer="ones")

    def call(self, inputs):
        return inputs * self.w


@pytest.mark.parametrize("make", [lambda: L.Dense(2), lambda: Scale()], ids=["Dense", "custom"])
def test_a_layer_built_by_hand_keeps_its_weights_at_its_first_call(make):
    layer = make()
    layer.build([2, 3])
    assert layer.built
    for variable in layer.variables:
        variable.assign(np.full(variable.shape, 0.5, dtype=np.float32))
    out = layer(ek.ones([2, 3]))
    assert (
        len(layer.variables)
        == len(layer.trainable_variables)
        == (2 if isinstance(layer, L.Dense) else 1)
    )
    expected = (
        np.full((2, 2), 0.5 * 3 + 0.5) if isinstance(layer, L.Dense) else np.full((2, 3), 0.5)
    )
    np.testing.assert_allclose(out.numpy(), expected)

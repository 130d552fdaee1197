"""How masks travel through layers, as in Keras 3: a layer that cannot keep one warns that
it drops it."""

import warnings

import numpy as np
import pytest

import eagerkit as ek

layers = ek.keras.layers
DROPPED = r"was passed an input with a mask attached to it.*destroy the mask information"


def mask_of(x):
    mask = getattr(x, "_keras_mask", None)
    return None if mask is None else mask.numpy().tolist()


def embedded(ids):
    """``ids`` embedded (2 features, a distinct pair per id) with the mask ``ids != 0``."""
    table = np.arange(10, dtype=np.float32)[:, None] * [1.0, -0.5] + 1.0
    layer = layers.Embedding(10, 2, mask_zero=True, embeddings_initializer="zeros")
    layer.build([None, None])
    layer.embeddings.assign(table)
    return layer(ek.constant(ids))


# --- the warning --------------------------------------------------------------------------
def test_a_layer_that_drops_a_mask_warns_naming_itself_its_class_and_the_fix():
    x = embedded([[3, 1, 0]])
    with pytest.warns(UserWarning, match=DROPPED) as caught:
        out = layers.Conv1D(2, 1, name="conv")(x)
    assert mask_of(out) is None
    text = str(caught[0].message)
    assert text.startswith("Layer 'conv' (of type Conv1D) was passed an input with a mask")
    assert "LSTM without return_sequences, GlobalAveragePooling1D" in text
    assert caught[0].filename == __file__  # the line that called the layer

    class Mine(layers.Layer):  # the user's own layer: the fix is to pass the mask on
        def call(self, inputs):
            return inputs

    with pytest.warns(UserWarning, match=r"If Mine keeps the time steps, set supports_masking"):
        Mine(name="mine")(x)


def test_the_warning_comes_once_per_call_site_and_never_where_the_mask_is_kept():
    x = embedded([[3, 1, 0]])
    flatten = layers.Flatten(name="flat")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")  # Python's own filter: once per line and text
        for _ in range(3):
            flatten(x)
    assert [str(w.message)[:26] for w in caught] == ["Layer 'flat' (of type Flat"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning at all from these
        for layer in [layers.Dense(2), layers.LSTM(2), layers.GlobalAveragePooling1D()]:
            layer(x)
        layers.Flatten()(ek.ones([1, 3, 2]))  # no mask: nothing to drop
        ids = ek.keras.Input(shape=[None], dtype="int32")
        steps = layers.Embedding(10, 2, mask_zero=True)(ids)
        model = ek.keras.Model(ids, [steps, steps._keras_mask])  # the mask read: no loss
        outer = ek.keras.Sequential([model.layers[1], layers.LSTM(2, return_sequences=True)])
        assert mask_of(outer(ek.constant([[4, 0]]))) == [[True, False]]


def test_models_warn_at_the_layer_that_drops_the_mask():
    ids = np.array([[3, 1, 0]], np.int32)
    sequential = ek.keras.Sequential(
        [layers.Embedding(10, 2, mask_zero=True), layers.Flatten(name="f1"), layers.Dense(1)]
    )
    with pytest.warns(UserWarning, match=r"Layer 'f1' \(of type Flatten\)"):
        sequential(ids)
    inputs = ek.keras.Input(shape=[3], dtype="int32")
    steps = layers.Embedding(10, 2, mask_zero=True)(inputs)
    with pytest.warns(UserWarning, match=r"Layer 'f2' \(of type Flatten\)"):
        flat = layers.Flatten(name="f2")(steps)  # building the model warns already
    model = ek.keras.Model(inputs, flat)
    with pytest.warns(UserWarning, match=r"Layer 'f2' \(of type Flatten\)"):
        model(ids)

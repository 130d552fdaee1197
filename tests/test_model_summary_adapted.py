"""``model.summary()`` of preprocessing layers adapted but never called, as Keras 3 prints it
(keras/src/utils/summary_utils.py): a layer built by ``adapt`` (``Normalization``) shows the
output shape of the input shape it was built for; a layer Keras 3 builds in its constructor
(the lookups, ``Discretization``, ``Hashing``, ``CategoryEncoding``, ``Rescaling``) shows ``?``
and ``0`` parameters; a layer not built yet shows ``?`` and ``0 (unbuilt)``.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.keras.model_summary import summary_lines

layers = ek.keras.layers


def rows(model):
    """``{layer name: (output shape, params)}`` from the printed table."""
    table = summary_lines(model)
    found = {}
    for line in table[4:-4]:
        name, shape, params = (cell.strip() for cell in _cells(line, table[2]))
        found[name.split(" (")[0]] = (shape, params)
    return found


def _cells(line, header):
    shape_at, params_at = header.index("Output Shape"), header.index("Param #")
    return line[:shape_at], line[shape_at:params_at], line[params_at:]


@settings(max_examples=10, deadline=None)
@given(examples=st.integers(1, 7), features=st.integers(1, 4))
def test_normalization_adapted_on_an_array_shows_the_arrays_shape(examples, features):
    normalize = layers.Normalization(name="normalize")
    normalize.adapt(np.arange(examples * features, dtype="float32").reshape(examples, features))
    model = ek.keras.Sequential([normalize, layers.Dense(1, name="out")])
    assert rows(model) == {
        "normalize": (f"({examples}, {features})", f"{2 * features + 1}"),
        "out": ("?", "0 (unbuilt)"),
    }


def test_normalization_adapted_on_batches_shows_none_for_their_size():
    data = ek.data.Dataset.from_tensor_slices(np.ones((10, 3), "float32")).batch(4)
    normalize = layers.Normalization(name="normalize")
    normalize.adapt(data)
    assert rows(ek.keras.Sequential([normalize]))["normalize"] == ("(None, 3)", "7")


def test_once_called_the_layer_shows_its_output():
    normalize = layers.Normalization(name="normalize")
    normalize.adapt(np.ones((6, 2), "float32"))
    model = ek.keras.Sequential([ek.keras.Input(shape=[2]), normalize, layers.Dense(1)])
    model(np.ones((3, 2), "float32"))
    assert rows(model)["normalize"] == ("(None, 2)", "5")


@pytest.mark.parametrize(
    ("make", "adapt_with"),
    [
        (lambda: layers.Discretization(num_bins=3, name="made"), np.arange(9.0)),
        (lambda: layers.StringLookup(name="made"), np.array(["a", "b", "a"])),
        (lambda: layers.IntegerLookup(name="made"), np.array([1, 2, 2])),
        (lambda: layers.Hashing(num_bins=4, name="made"), None),
        (lambda: layers.CategoryEncoding(num_tokens=3, name="made"), None),
        (lambda: layers.Rescaling(0.5, name="made"), None),
    ],
)
def test_layers_keras_builds_in_their_constructor_show_no_shape_and_zero(make, adapt_with):
    layer = make()
    if adapt_with is not None:
        layer.adapt(adapt_with)
    model = ek.keras.Sequential([layer, layers.Dense(2, name="later")])
    assert rows(model) == {"made": ("?", "0"), "later": ("?", "0 (unbuilt)")}


def test_a_failed_adapt_leaves_the_layer_unbuilt_in_the_summary():
    normalize = layers.Normalization(name="normalize")
    with pytest.raises(ValueError, match="holds no values"):
        normalize.adapt(np.zeros((0, 2), "float32"))
    assert rows(ek.keras.Sequential([normalize]))["normalize"] == ("?", "0 (unbuilt)")

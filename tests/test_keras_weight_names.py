"""The names of weights made by ``add_weight()`` without a ``name``: Keras 3's ``variable``,
``variable_1``, ... (keras/src/utils/naming.py auto_name: one count across layers, restarted
by ``clear_session``), under the layer (``<layer>/variable``); ``weight.path`` is that name
without TF's ``:0``. Files keep working: checkpoints key weights by the attributes that hold
them, never by their names.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit import keras


class Unnamed(keras.layers.Layer):
    """``count`` weights made without names, kept in attributes ``w0``, ``w1``, ..."""

    def __init__(self, count=2, **kwargs):
        super().__init__(**kwargs)
        self.count = count

    def build(self, input_shape):
        for i in range(self.count):
            setattr(self, f"w{i}", self.add_weight(shape=[input_shape[-1]], initializer="ones"))

    def call(self, inputs):
        return inputs * self.w0

    def get_config(self):
        return {**super().get_config(), "count": self.count}


@settings(max_examples=10, deadline=None)
@given(first=st.integers(1, 4), second=st.integers(1, 4))
def test_unnamed_weights_are_keras_3s_variable_counted_across_layers(first, second):
    keras.backend.clear_session()
    a, b = Unnamed(first, name="a"), Unnamed(second, name="b")
    a(np.ones((1, 2), "float32"))
    b(np.ones((1, 2), "float32"))
    expected = ["variable"] + [f"variable_{i}" for i in range(1, first + second)]
    assert [w.path for w in a.weights + b.weights] == [
        *(f"a/{name}" for name in expected[:first]),
        *(f"b/{name}" for name in expected[first:]),
    ]
    assert [w.name for w in a.weights] == [f"a/{name}:0" for name in expected[:first]]
    keras.backend.clear_session()
    again = Unnamed(1, name="again")
    again(np.ones((1, 2), "float32"))
    assert again.w0.name == "again/variable:0"  # counted from the start again


def test_a_named_weight_keeps_its_name_and_path_drops_the_suffix():
    keras.backend.clear_session()
    dense = keras.layers.Dense(2)
    dense(np.ones((1, 3), "float32"))
    assert [(w.name, w.path) for w in dense.weights] == [
        ("dense/kernel:0", "dense/kernel"),
        ("dense/bias:0", "dense/bias"),
    ]
    assert ek.Variable(1.0, name="v").path == "v"


def test_files_do_not_hold_the_names_so_they_round_trip(tmp_path):
    model = keras.Sequential([keras.Input(shape=[2]), Unnamed(2, name="scaled")])
    model.layers[0].w0.assign([2.0, 3.0])
    path = ek.train.Checkpoint(model=model).write(str(tmp_path / "ckpt"))
    keys = [name for name, _ in ek.train.list_variables(path)]
    assert not any("variable" in key for key in keys)  # keyed by w0, w1: names never matter
    fresh = keras.Sequential([keras.Input(shape=[2]), Unnamed(2, name="other")])
    ek.train.Checkpoint(model=fresh).read(path).assert_consumed()
    assert fresh.layers[0].w0.numpy().tolist() == [2.0, 3.0]
    model.save(tmp_path / "m.keras")
    loaded = keras.models.load_model(tmp_path / "m.keras", custom_objects={"Unnamed": Unnamed})
    assert loaded.layers[0].w0.numpy().tolist() == [2.0, 3.0]

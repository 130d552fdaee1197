"""save_weights / load_weights, model.save / load_model, configs: round trips and refusals.

A saved model is JSON plus a checksummed checkpoint: any model eagerkit can describe comes
back with the same predictions (hypothesis draws the architectures), and every way a load
can fail (missing, damaged, unknown class, other shapes, a crafted archive) raises a clear
error and changes nothing.
"""

import json
import os
import zipfile

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit import keras
from eagerkit.errors import DataLossError, NotFoundError


@pytest.fixture(autouse=True)
def in_scratch_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


LAYERS = st.one_of(
    st.builds(
        lambda units, activation: keras.layers.Dense(units, activation=activation),
        st.integers(1, 5),
        st.sampled_from([None, "relu", "tanh", "sigmoid", "softmax"]),
    ),
    st.just(None).map(lambda _: keras.layers.Dropout(0.3)),
    st.just(None).map(lambda _: keras.layers.BatchNormalization()),
)
DENSE_LAST = st.builds(lambda units: keras.layers.Dense(units), st.integers(1, 3))


@settings(max_examples=15, deadline=None)
@given(
    layers=st.lists(LAYERS, max_size=3),
    last=DENSE_LAST,
    archive=st.booleans(),
    trained=st.booleans(),
)
def test_any_sequential_model_comes_back_identical(layers, last, archive, trained):
    model = keras.Sequential([keras.Input(shape=[3]), *layers, last])
    model.compile(optimizer="adam", loss="mse")
    x = np.random.random((6, 3)).astype("float32")
    if trained:
        model.fit(x, np.random.random((6, model(x).shape[-1])), verbose=0)
    path = "model.keras" if archive else "model"
    model.save(path, zipped=None if archive else False)  # a .keras zip, or a folder
    again = keras.models.load_model(path)
    assert again.get_config() == model.get_config()
    np.testing.assert_array_equal(again.predict(x, verbose=0), model.predict(x, verbose=0))
    assert int(again.optimizer.iterations.numpy()) == int(model.optimizer.iterations.numpy())


def test_a_functional_graph_with_ops_shared_layers_and_two_outputs_comes_back():
    a, b = keras.Input(shape=[4], name="a"), keras.Input(shape=[4], name="b")
    shared = keras.layers.Dense(3, activation="relu", name="shared")
    joined = keras.layers.concatenate([shared(a), shared(b)])
    mixed = ek.nn.relu(joined) * 2.0 + ek.reduce_sum(joined, axis=1, keepdims=True)
    model = keras.Model(
        inputs={"a": a, "b": b},
        outputs=[
            keras.layers.Dense(1, name="score")(mixed),
            keras.layers.Dense(2, name="cls")(mixed),
        ],
    )
    model.compile("sgd", ["mse", "mse"], metrics={"cls": ["mae"]})
    data = {"a": np.random.random((5, 4)), "b": np.random.random((5, 4))}
    model.fit(data, [np.zeros((5, 1)), np.zeros((5, 2))], verbose=0)
    model.save("graph.keras")
    again = keras.models.load_model("graph.keras")
    for mine, theirs in zip(
        model.predict(data, verbose=0), again.predict(data, verbose=0), strict=True
    ):
        np.testing.assert_array_equal(mine, theirs)
    assert again.metrics_names == [] and again.compiled_loss is not None  # compiled again
    history = again.fit(data, [np.zeros((5, 1)), np.zeros((5, 2))], verbose=0)
    assert "cls_mae" in history.history


@keras.saving.register_keras_serializable(package="SavingTest")
class Scale(keras.layers.Layer):
    def __init__(self, factor, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor

    def build(self, input_shape):
        self.gain = self.add_weight("gain", [input_shape[-1]], initializer="ones")

    def call(self, inputs):
        return self.factor * inputs * self.gain

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}


@keras.saving.register_keras_serializable(package="SavingTest")
def cubed(x):
    return x * x * x


def test_registered_custom_layers_and_functions_come_back():
    inputs = keras.Input(shape=[2])
    outputs = keras.layers.Dense(2, activation=cubed)(Scale(3.0, name="scale")(inputs))
    model = keras.Model(inputs, outputs)
    model.get_layer("scale").gain.assign([2.0, -1.0])
    model.save("custom.keras")
    again = keras.models.load_model("custom.keras")
    assert again.get_layer("scale").factor == 3.0
    assert again.layers[2].activation is cubed
    x = np.array([[1.0, 2.0]], "float32")
    np.testing.assert_array_equal(again.predict(x, verbose=0), model.predict(x, verbose=0))


def test_get_config_needs_arguments_it_can_write():
    class Holder(keras.layers.Layer):
        def __init__(self, thing, **kwargs):
            super().__init__(**kwargs)
            self.thing = thing

    assert Holder(3).get_config()["thing"] == 3  # plain values: Keras 2.13's automatic config
    with pytest.raises(NotImplementedError, match="must override `get_config\\(\\)`"):
        Holder(object()).get_config()
    with pytest.raises(NotImplementedError, match="a lambda has no name"):
        keras.layers.Dense(2, activation=lambda x: x).get_config()


def test_weights_round_trip_and_refuse_hdf5():
    model = keras.Sequential([keras.Input(shape=[3]), keras.layers.Dense(2)])
    model.save_weights("ckpt")
    assert sorted(os.listdir(".")) == ["ckpt.index.json", "ckpt.npz"]
    other = keras.Sequential([keras.Input(shape=[3]), keras.layers.Dense(2)])
    other.load_weights("ckpt").assert_consumed()
    for a, b in zip(model.get_weights(), other.get_weights(), strict=True):
        np.testing.assert_array_equal(a, b)
    for call in (
        lambda: model.save_weights("w.h5"),
        lambda: model.save_weights("w", save_format="h5"),
        lambda: model.load_weights("w.hdf5"),
        lambda: model.save("m.h5"),
    ):
        with pytest.raises(NotImplementedError, match="does not write or read HDF5"):
            call()
    with pytest.raises(ValueError, match="overwrite=False"):
        model.save_weights("ckpt", overwrite=False)


def damaged_copies(model):
    """(description of the damage, path) of saves that must not load."""
    model.save("good.keras")
    with zipfile.ZipFile("good.keras") as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    copies = []

    def write(name, contents):
        with zipfile.ZipFile(name, "w") as archive:
            for member, data in contents.items():
                archive.writestr(member, data)
        copies.append(name)

    description = json.loads(members["keras_model.json"])
    description["model"]["config"]["layers"][1]["config"]["units"] = 7  # sealed: refused
    write("edited.keras", {**members, "keras_model.json": json.dumps(description)})
    flipped = bytearray(members["variables/variables.npz"])
    flipped[len(flipped) // 2] ^= 1
    write("flipped.keras", {**members, "variables/variables.npz": bytes(flipped)})
    write("escaping.keras", {**members, "../outside.txt": b"x"})
    write("empty.keras", {})
    with open("garbage.keras", "wb") as f:
        f.write(b"not a zip at all")
    copies.append("garbage.keras")
    return copies


def test_damaged_or_crafted_saves_are_refused():
    model = keras.Sequential([keras.Input(shape=[3]), keras.layers.Dense(2)])
    for path in damaged_copies(model):
        with pytest.raises(DataLossError):
            keras.models.load_model(path)
    assert not os.path.exists("../outside.txt")
    with pytest.raises(NotFoundError, match="No file or directory found at nowhere"):
        keras.models.load_model("nowhere")


def test_configs_name_only_known_classes():
    config = {"class_name": "os.system", "config": {"command": "echo hacked"}}
    with pytest.raises(ValueError, match="Unknown layer: 'os.system'"):
        keras.layers.deserialize(config)
    with pytest.raises(ValueError, match="Unknown layer: 'Evil'"):
        keras.models.model_from_json(json.dumps({"class_name": "Evil", "config": {}}))
    bad_op = {
        "name": "m",
        "layers": [
            {
                "class_name": "InputLayer",
                "config": {"batch_shape": [None, 2], "name": "x"},
                "name": "x",
            },
            {
                "class_name": "TFOpLambda",
                "config": {"function": "__import__", "name": "op"},
                "name": "op",
            },
        ],
        "nodes": [{"layer": "op", "args": [{"keras_tensor": ["x", 0, 0]}], "kwargs": {"dict": {}}}],
        "input_layers": {"keras_tensor": ["x", 0, 0]},
        "output_layers": {"keras_tensor": ["op", 0, 0]},
    }
    with pytest.raises(ValueError, match="unknown op '__import__'"):
        keras.Model.from_config(bad_op)


def test_a_failed_load_model_leaves_the_old_save_and_the_models_alone():
    model = keras.Sequential([keras.Input(shape=[3]), keras.layers.Dense(2)])
    model.save("m", zipped=False)
    before = os.listdir("m")
    with pytest.raises(Exception):  # noqa: B017 - whatever save refuses, it writes nothing
        model.save("m", save_format="h5")
    assert os.listdir("m") == before
    unknown = keras.Sequential([keras.Input(shape=[3]), Scale(2.0)])
    unknown.save("scaled.keras")
    del keras.saving.get_custom_objects()["SavingTest>Scale"]
    try:
        with pytest.raises(ValueError, match="Unknown layer: 'SavingTest>Scale'"):
            keras.models.load_model("scaled.keras")
    finally:
        keras.saving.register_keras_serializable(package="SavingTest")(Scale)
    assert keras.models.load_model("scaled.keras").layers[0].factor == 2.0

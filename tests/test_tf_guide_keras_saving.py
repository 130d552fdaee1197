"""TF2's guide "Save and load Keras models" (Keras 2, "Serialization and saving", last
modified 2020/04/28), ported with only the imports changed (``import eagerkit as tf``,
``from eagerkit import keras``); the files go to a scratch folder.

eagerkit's ``model.save`` writes the model's config as JSON and its weights as a
checksummed checkpoint (keras/model_files.py): nothing that can run code on load. So what
needs TF's SavedModel (traced call functions) or HDF5 is refused, clearly.

Cells of the guide: 22 code cells (a shell ``ls`` aside); 14 run unchanged (64%).

- changed (2): ``model.save("my_model")`` (a SavedModel folder in Keras 2) is refused, as
  Keras 3 refuses a path without an extension; the cells save ``"my_model.keras"``, Keras 3's
  guide's form (``zipped=False`` still writes a folder).

- not supported (6): loading a subclassed model whose class is gone (``del CustomModel``:
  SavedModel revives it from traced functions; eagerkit asks for the class), the three
  HDF5 cells (``.h5`` is refused with the way out), ``tf.saved_model.load``, and the
  nested-layer ``weights`` order after
  ``trainable = False`` (Keras lists trainable weights first; eagerkit lists a
  Sequential model's weights in creation order).
"""

import os

import numpy as np
import pytest

import eagerkit as tf
from eagerkit import keras


@pytest.fixture(autouse=True)
def in_scratch_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def get_model():
    # Create a simple model.
    inputs = keras.Input(shape=(32,))
    outputs = keras.layers.Dense(1)(inputs)
    model = keras.Model(inputs, outputs)
    model.compile(optimizer="adam", loss="mean_squared_error")
    return model


def test_whole_model_saving_and_loading():
    model = get_model()

    # Train the model.
    test_input = np.random.random((128, 32))
    test_target = np.random.random((128, 1))
    model.fit(test_input, test_target)

    # Keras 2's `save('my_model')` (a SavedModel folder) is refused, as Keras 3 refuses it.
    with pytest.raises(ValueError, match=r"save: invalid filepath extension.*'my_model\.keras'"):
        model.save("my_model")
    assert os.listdir(".") == []  # refused before anything was written
    model.save("my_model.keras")

    # It can be used to reconstruct the model identically.
    reconstructed_model = keras.models.load_model("my_model.keras")

    # Let's check:
    np.testing.assert_allclose(model.predict(test_input), reconstructed_model.predict(test_input))

    # The reconstructed model is already compiled and has retained the optimizer
    # state, so training can resume:
    reconstructed_model.fit(test_input, test_target)

    assert os.listdir(".") == ["my_model.keras"]
    # Adam's state came back too: the same data, in the same order, trains both alike.
    again = keras.models.load_model("my_model.keras")
    assert again.optimizer.iterations.numpy() == model.optimizer.iterations.numpy() == 4
    model.fit(test_input, test_target, shuffle=False, verbose=0)
    again.fit(test_input, test_target, shuffle=False, verbose=0)
    for a, b in zip(model.get_weights(), again.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-6)


class CustomModel(keras.Model):
    def __init__(self, hidden_units):
        super(CustomModel, self).__init__()
        self.hidden_units = hidden_units
        self.dense_layers = [keras.layers.Dense(u) for u in hidden_units]

    def call(self, inputs):
        x = inputs
        for layer in self.dense_layers:
            x = layer(x)
        return x

    def get_config(self):
        return {"hidden_units": self.hidden_units}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def test_a_subclassed_model_loads_with_its_class_and_only_with_it():
    model = CustomModel([16, 16, 10])
    # Build the model by calling it
    input_arr = tf.random.uniform((1, 5))
    outputs = model(input_arr)
    model.save("my_model.keras")

    # Option 1: Load with the custom_object argument.
    loaded_1 = keras.models.load_model(
        "my_model.keras", custom_objects={"CustomModel": CustomModel}
    )
    np.testing.assert_allclose(loaded_1(input_arr), outputs)
    assert type(loaded_1) is CustomModel

    # Option 2 (SavedModel revives a model without its class) is not supported: a saved
    # eagerkit model holds no code, so it names the class it needs.
    with pytest.raises(ValueError, match="Unknown layer: 'CustomModel'"):
        keras.models.load_model("my_model.keras")


def test_h5_files_are_refused_with_the_way_out():
    model = get_model()
    with pytest.raises(NotImplementedError, match=r"does not write or read HDF5.*\.keras"):
        model.save("my_h5_model.h5")
    with pytest.raises(NotImplementedError, match="HDF5"):
        model.save_weights("weights.h5")
    with pytest.raises(NotImplementedError, match="HDF5"):
        keras.models.load_model("my_h5_model.h5")
    assert os.listdir(".") == []  # nothing was written


def test_a_keras_file_is_one_archive():
    model = get_model()
    model.fit(np.random.random((8, 32)), np.random.random((8, 1)), verbose=0)
    model.save("my_model.keras")
    assert os.listdir(".") == ["my_model.keras"]
    again = keras.models.load_model("my_model.keras")
    x = np.random.random((4, 32))
    np.testing.assert_array_equal(again.predict(x, verbose=0), model.predict(x, verbose=0))


def test_get_config_and_from_config():
    layer = keras.layers.Dense(3, activation="relu")
    layer_config = layer.get_config()
    new_layer = keras.layers.Dense.from_config(layer_config)
    assert (new_layer.units, new_layer.activation) == (3, tf.nn.relu)

    model = keras.Sequential([keras.Input((32,)), keras.layers.Dense(1)])
    config = model.get_config()
    new_model = keras.Sequential.from_config(config)
    assert new_model(tf.ones([2, 32])).shape == (2, 1)

    inputs = keras.Input((32,))
    outputs = keras.layers.Dense(1)(inputs)
    model = keras.Model(inputs, outputs)
    config = model.get_config()
    new_model = keras.Model.from_config(config)
    assert [type(layer).__name__ for layer in new_model.layers] == ["InputLayer", "Dense"]

    model = keras.Sequential([keras.Input((32,)), keras.layers.Dense(1)])
    json_config = model.to_json()
    new_model = keras.models.model_from_json(json_config)
    assert new_model.get_config() == model.get_config()


def test_tensorflow_graph_only_loading_is_not_supported():
    assert not hasattr(tf, "saved_model")  # eagerkit saves no traced graphs


def test_defining_the_config_methods():
    class CustomLayer(keras.layers.Layer):  # the guide's first CustomLayer
        def __init__(self, a):
            self.var = tf.Variable(a, name="var_a")

        def call(self, inputs, training=False):
            if training:
                return inputs * self.var
            else:
                return inputs

        def get_config(self):
            return {"a": self.var.numpy()}

        # There's actually no need to define `from_config` here, since returning
        # `cls(**config)` is the default behavior.
        @classmethod
        def from_config(cls, config):
            return cls(**config)

    layer = CustomLayer(5)
    layer.var.assign(2)

    serialized_layer = keras.layers.serialize(layer)
    new_layer = keras.layers.deserialize(
        serialized_layer, custom_objects={"CustomLayer": CustomLayer}
    )
    assert serialized_layer == {"class_name": "CustomLayer", "config": {"a": 2}}
    assert new_layer.var.numpy() == 2


class CustomLayer(keras.layers.Layer):
    def __init__(self, units=32, **kwargs):
        super(CustomLayer, self).__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(
            shape=(input_shape[-1], self.units),
            initializer="random_normal",
            trainable=True,
        )
        self.b = self.add_weight(shape=(self.units,), initializer="random_normal", trainable=True)

    def call(self, inputs):
        return tf.matmul(inputs, self.w) + self.b

    def get_config(self):
        config = super(CustomLayer, self).get_config()
        config.update({"units": self.units})
        return config


def custom_activation(x):
    return tf.nn.tanh(x) ** 2


def test_custom_layer_and_function_and_cloning():
    # Make a model with the CustomLayer and custom_activation
    inputs = keras.Input((32,))
    x = CustomLayer(32)(inputs)
    outputs = keras.layers.Activation(custom_activation)(x)
    model = keras.Model(inputs, outputs)

    # Retrieve the config
    config = model.get_config()

    # At loading time, register the custom objects with a `custom_object_scope`:
    custom_objects = {"CustomLayer": CustomLayer, "custom_activation": custom_activation}
    with keras.utils.custom_object_scope(custom_objects):
        new_model = keras.Model.from_config(config)
    assert new_model.layers[2].activation is custom_activation
    with pytest.raises(ValueError, match="Unknown layer: 'CustomLayer'"):
        keras.Model.from_config(config)  # outside the scope, the name means nothing

    with keras.utils.custom_object_scope(custom_objects):
        new_model = keras.models.clone_model(model)
    x = np.random.random((2, 32))
    assert new_model(x).shape == (2, 32)
    assert not np.allclose(new_model.layers[1].w.numpy(), model.layers[1].w.numpy())


def create_layer():
    layer = keras.layers.Dense(64, activation="relu", name="dense_2")
    layer.build((None, 784))
    return layer


def three_layer_mlp(name="3_layer_mlp", dropout=False, units=10):
    inputs = keras.Input(shape=(784,), name="digits")
    x = keras.layers.Dense(64, activation="relu", name="dense_1")(inputs)
    x = keras.layers.Dense(64, activation="relu", name="dense_2")(x)
    if dropout:
        # Add a dropout layer, which does not contain any weights.
        x = keras.layers.Dropout(0.5)(x)
    outputs = keras.layers.Dense(units, name="predictions")(x)
    return keras.Model(inputs=inputs, outputs=outputs, name=name)


class SubclassedModel(keras.Model):
    def __init__(self, output_dim, name=None):
        super(SubclassedModel, self).__init__(name=name)
        self.output_dim = output_dim
        self.dense_1 = keras.layers.Dense(64, activation="relu", name="dense_1")
        self.dense_2 = keras.layers.Dense(64, activation="relu", name="dense_2")
        self.dense_3 = keras.layers.Dense(output_dim, name="predictions")

    def call(self, inputs):
        x = self.dense_1(inputs)
        x = self.dense_2(x)
        x = self.dense_3(x)
        return x

    def get_config(self):
        return {"output_dim": self.output_dim, "name": self.name}


def test_in_memory_weight_transfer():
    layer_1 = create_layer()
    layer_2 = create_layer()

    # Copy weights from layer 2 to layer 1
    layer_2.set_weights(layer_1.get_weights())
    for a, b in zip(layer_1.get_weights(), layer_2.get_weights()):
        np.testing.assert_array_equal(a, b)

    functional_model = three_layer_mlp()
    subclassed_model = SubclassedModel(10)
    # Call the subclassed model once to create the weights.
    subclassed_model(tf.ones((1, 784)))

    # Copy weights from functional_model to subclassed_model.
    subclassed_model.set_weights(functional_model.get_weights())

    assert len(functional_model.weights) == len(subclassed_model.weights)
    for a, b in zip(functional_model.weights, subclassed_model.weights):
        np.testing.assert_allclose(a.numpy(), b.numpy())

    functional_model = three_layer_mlp()
    functional_model_with_dropout = three_layer_mlp(dropout=True)
    functional_model_with_dropout.set_weights(functional_model.get_weights())

    # A list of the wrong length or shape changes nothing.
    before = functional_model.get_weights()
    with pytest.raises(ValueError, match="was expecting 6 weights"):
        functional_model.set_weights(before[:5])
    with pytest.raises(ValueError, match=r"not compatible with provided weight shape \(2, 2\)"):
        functional_model.set_weights([np.zeros((2, 2))] + before[1:])
    for a, b in zip(before, functional_model.get_weights()):
        np.testing.assert_array_equal(a, b)


def test_tf_checkpoint_format():
    # Runnable example
    sequential_model = keras.Sequential(
        [
            keras.Input(shape=(784,), name="digits"),
            keras.layers.Dense(64, activation="relu", name="dense_1"),
            keras.layers.Dense(64, activation="relu", name="dense_2"),
            keras.layers.Dense(10, name="predictions"),
        ]
    )
    sequential_model.save_weights("ckpt")
    load_status = sequential_model.load_weights("ckpt")

    # `assert_consumed` can be used as validation that all variable values have been
    # restored from the checkpoint. See `tf.train.Checkpoint.restore` for other
    # methods in the Status object.
    load_status.assert_consumed()

    # The next cell reads the checkpoint's keys; eagerkit's paths name the layers' list
    # (TF's name them layer_with_weights-0, ...), the shapes and dtypes are TF's
    reader = tf.train.load_checkpoint("ckpt")
    shape_from_key = reader.get_variable_to_shape_map()
    dtype_from_key = reader.get_variable_to_dtype_map()
    rows = [(key, shape_from_key[key], dtype_from_key[key]) for key in sorted(shape_from_key)]
    assert [(shape, dtype) for _, shape, dtype in rows] == [
        ([64], tf.float32),
        ([784, 64], tf.float32),
        ([64], tf.float32),
        ([64, 64], tf.float32),
        ([10], tf.float32),
        ([64, 10], tf.float32),
        ([], tf.int64),
    ]
    assert rows[-1][0] == "save_counter/.ATTRIBUTES/VARIABLE_VALUE"


def test_transfer_learning_with_checkpoints(capsys):
    functional_model = three_layer_mlp()

    # Extract a portion of the functional model defined in the Setup section.
    # The following lines produce a new model that excludes the final output
    # layer of the functional model.
    pretrained = keras.Model(
        functional_model.inputs, functional_model.layers[-1].input, name="pretrained_model"
    )
    # Randomly assign "trained" weights.
    for w in pretrained.weights:
        w.assign(tf.random.normal(w.shape))
    pretrained.save_weights("pretrained_ckpt")
    pretrained.summary()

    # Assume this is a separate program where only 'pretrained_ckpt' exists.
    # Create a new functional model with a different output dimension.
    model = three_layer_mlp(name="new_model", units=5)

    # Load the weights from pretrained_ckpt into model.
    model.load_weights("pretrained_ckpt")

    # Check that all of the pretrained weights have been loaded.
    for a, b in zip(pretrained.weights, model.weights):
        np.testing.assert_allclose(a.numpy(), b.numpy())

    print("\n", "-" * 50)
    model.summary()

    # Example 2: Sequential model
    # Recreate the pretrained model, and load the saved weights.
    inputs = keras.Input(shape=(784,), name="digits")
    x = keras.layers.Dense(64, activation="relu", name="dense_1")(inputs)
    x = keras.layers.Dense(64, activation="relu", name="dense_2")(x)
    pretrained_model = keras.Model(inputs=inputs, outputs=x, name="pretrained")

    # Sequential example:
    model = keras.Sequential([pretrained_model, keras.layers.Dense(5, name="predictions")])
    model.summary()

    pretrained_model.load_weights("pretrained_ckpt")
    for a, b in zip(pretrained.weights, pretrained_model.weights):
        np.testing.assert_allclose(a.numpy(), b.numpy())
    out = capsys.readouterr().out
    assert 'Model: "pretrained_model"' in out and 'Model: "new_model"' in out

    # A checkpoint that matches nothing is refused, and changes nothing.
    other = keras.Sequential([keras.Input(shape=(3,)), keras.layers.Dense(2)])
    before = other.get_weights()
    with pytest.raises(ValueError, match="does not match|no value"):
        other.load_weights("pretrained_ckpt")
    for a, b in zip(before, other.get_weights()):
        np.testing.assert_array_equal(a, b)


class ContrivedModel(keras.Model):
    def __init__(self):
        super(ContrivedModel, self).__init__()
        self.first_dense = keras.layers.Dense(64)
        self.kernel = self.add_variable("kernel", shape=(64, 10))
        self.bias = self.add_variable("bias", shape=(10,))

    def call(self, inputs):
        x = self.first_dense(inputs)
        return tf.matmul(x, self.kernel) + self.bias


def test_checkpoints_of_chosen_layers_and_variables():
    functional_model = three_layer_mlp()
    # First, save the weights of functional_model's first and last dense layers.
    first_dense = functional_model.layers[1]
    last_dense = functional_model.layers[-1]
    ckpt_path = tf.train.Checkpoint(
        dense=first_dense, kernel=last_dense.kernel, bias=last_dense.bias
    ).save("ckpt")

    model = ContrivedModel()
    # Call model on inputs to create the variables of the dense layer.
    _ = model(tf.ones((1, 784)))

    # Create a Checkpoint with the same structure as before, and load the weights.
    tf.train.Checkpoint(dense=model.first_dense, kernel=model.kernel, bias=model.bias).restore(
        ckpt_path
    ).assert_consumed()
    np.testing.assert_array_equal(model.kernel.numpy(), last_dense.kernel.numpy())


class NestedDenseLayer(keras.layers.Layer):
    def __init__(self, units, name=None):
        super(NestedDenseLayer, self).__init__(name=name)
        self.dense_1 = keras.layers.Dense(units, name="dense_1")
        self.dense_2 = keras.layers.Dense(units, name="dense_2")

    def call(self, inputs):
        return self.dense_2(self.dense_1(inputs))


def test_weights_order_after_freezing_a_nested_layer(capsys):
    nested_model = keras.Sequential([keras.Input((784,)), NestedDenseLayer(10, "nested")])
    nested_model(tf.ones([1, 784]))  # eagerkit builds a Sequential model on its first call
    variable_names = [v.name for v in nested_model.weights]
    nested_model.get_layer("nested").dense_1.trainable = False
    variable_names_2 = [v.name for v in nested_model.weights]
    # Keras lists trainable weights first, so the order changes; eagerkit keeps creation
    # order (the same names either way).
    assert sorted(variable_names) == sorted(variable_names_2)
    assert [v.name for v in nested_model.non_trainable_weights] == [
        "dense_1/kernel:0",
        "dense_1/bias:0",
    ]


def test_failed_loads_change_nothing():
    model = get_model()
    model.fit(np.random.random((8, 32)), np.random.random((8, 1)), verbose=0)
    model.save("my_model", zipped=False)  # a folder: its description can be damaged by hand
    model.save_weights("weights")
    with pytest.raises(tf.errors.NotFoundError, match="No file or directory found at missing"):
        keras.models.load_model("missing")
    with pytest.raises(tf.errors.NotFoundError):
        model.load_weights("missing")

    # A damaged description or weights file is an error, never a different model.
    path = os.path.join("my_model", "keras_model.json")
    text = open(path).read()
    with open(path, "w") as f:
        f.write(text.replace('"units": 1', '"units": 2'))
    with pytest.raises(tf.errors.DataLossError, match="checksum"):
        keras.models.load_model("my_model")
    with open("weights.npz", "r+b") as f:
        f.seek(100)
        byte = f.read(1)
        f.seek(100)
        f.write(bytes([byte[0] ^ 1]))
    before = model.get_weights()
    with pytest.raises(tf.errors.DataLossError):
        model.load_weights("weights")

    # A checkpoint of another shape is refused before anything is assigned.
    inputs = keras.Input(shape=(32,))
    keras.Model(inputs, keras.layers.Dense(3)(inputs)).save_weights("wide")
    with pytest.raises(ValueError, match="does not match the objects being restored"):
        model.load_weights("wide")
    # One of another kind of model matches nothing: refused too.
    keras.Sequential([keras.Input((32,)), keras.layers.Dense(1)]).save_weights("sequential")
    with pytest.raises(ValueError, match="no value in sequential matches"):
        model.load_weights("sequential")
    for a, b in zip(before, model.get_weights()):
        np.testing.assert_array_equal(a, b)

    # A class the loader does not know is named, not guessed.
    @keras.saving.register_keras_serializable(package="Test")
    class Doubling(keras.layers.Layer):
        def call(self, inputs):
            return 2.0 * inputs

    saved = keras.Sequential([keras.Input((2,)), Doubling()])
    saved.save("doubling.keras")
    del keras.saving.get_custom_objects()["Test>Doubling"]
    with pytest.raises(ValueError, match="Unknown layer: 'Test>Doubling'"):
        keras.models.load_model("doubling.keras")
    again = keras.models.load_model("doubling.keras", custom_objects={"Test>Doubling": Doubling})
    assert again(tf.ones([1, 2])).numpy().tolist() == [[2.0, 2.0]]

"""TF2's guide "Introduction to modules, layers, and models", ported with
``import eagerkit as tf``. SavedModel and TensorBoard parts are out of scope. The checkpoint
part writes, lists and restores as the guide does; the list has no
``_CHECKPOINTABLE_OBJECT_GRAPH`` entry (eagerkit keeps no object graph) and does have
``save_counter``, which TF makes only on a first ``save``."""

import numpy as np
import pytest

import eagerkit as tf
from eagerkit.errors import InvalidArgumentError


class SimpleModule(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.a_variable = tf.Variable(5.0, name="train_me")
        self.non_trainable_variable = tf.Variable(5.0, trainable=False, name="do_not_train_me")

    def __call__(self, x):
        return self.a_variable * x + self.non_trainable_variable


class Dense(tf.Module):
    def __init__(self, in_features, out_features, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.random.normal([in_features, out_features]), name="w")
        self.b = tf.Variable(tf.zeros([out_features]), name="b")

    def __call__(self, x):
        y = tf.matmul(x, self.w) + self.b
        return tf.nn.relu(y)


class SequentialModule(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.dense_1 = Dense(in_features=3, out_features=3)
        self.dense_2 = Dense(in_features=3, out_features=2)

    def __call__(self, x):
        x = self.dense_1(x)
        return self.dense_2(x)


def test_a_simple_module():
    simple_module = SimpleModule(name="simple")
    assert repr(simple_module(tf.constant(5.0))) == (
        "<ek.Tensor: shape=(), dtype=float32, numpy=30.0>"
    )
    # All trainable variables
    assert str(simple_module.trainable_variables) == (
        "(<ek.Variable 'train_me:0' shape=() dtype=float32, numpy=5.0>,)"
    )
    # Every variable
    assert str(simple_module.variables) == (
        "(<ek.Variable 'train_me:0' shape=() dtype=float32, numpy=5.0>, "
        "<ek.Variable 'do_not_train_me:0' shape=() dtype=float32, numpy=5.0>)"
    )


def test_modules_made_of_modules():
    # You have made a model!
    my_model = SequentialModule(name="the_model")
    # Call it, with random results
    result = my_model(tf.constant([[2.0, 2.0, 2.0]]))
    expected = np.maximum(
        np.maximum([[2.0, 2.0, 2.0]] @ my_model.dense_1.w.numpy(), 0) @ my_model.dense_2.w.numpy(),
        0,
    )
    np.testing.assert_allclose(result.numpy(), expected, rtol=1e-5)
    assert my_model.submodules == (my_model.dense_1, my_model.dense_2)
    assert [v.name for v in my_model.variables] == ["b:0", "w:0", "b:0", "w:0"]
    assert [v.shape for v in my_model.variables] == [[3], [3, 3], [2], [3, 2]]


class FlexibleDenseModule(tf.Module):
    # Note: No need for `in_features`
    def __init__(self, out_features, name=None):
        super().__init__(name=name)
        self.is_built = False
        self.out_features = out_features

    def __call__(self, x):
        # Create variables on first call.
        if not self.is_built:
            self.w = tf.Variable(tf.random.normal([x.shape[-1], self.out_features]), name="w")
            self.b = tf.Variable(tf.zeros([self.out_features]), name="b")
            self.is_built = True
        y = tf.matmul(x, self.w) + self.b
        return tf.nn.relu(y)


class MySequentialModule(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.dense_1 = FlexibleDenseModule(out_features=3)
        self.dense_2 = FlexibleDenseModule(out_features=2)

    def __call__(self, x):
        x = self.dense_1(x)
        return self.dense_2(x)


def test_waiting_to_create_variables_and_saving_weights(tmp_path):
    my_model = MySequentialModule(name="the_model")
    before = my_model(tf.constant([[2.0, 2.0, 2.0]]))
    assert before.shape == (1, 2) and len(my_model.variables) == 4

    chkp_path = str(tmp_path / "my_checkpoint")
    checkpoint = tf.train.Checkpoint(model=my_model)
    checkpoint.write(chkp_path)
    assert tf.train.list_variables(chkp_path) == [
        ("model/dense_1/b/.ATTRIBUTES/VARIABLE_VALUE", [3]),
        ("model/dense_1/w/.ATTRIBUTES/VARIABLE_VALUE", [3, 3]),
        ("model/dense_2/b/.ATTRIBUTES/VARIABLE_VALUE", [2]),
        ("model/dense_2/w/.ATTRIBUTES/VARIABLE_VALUE", [3, 2]),
        ("save_counter/.ATTRIBUTES/VARIABLE_VALUE", []),
    ]

    new_model = MySequentialModule()
    new_checkpoint = tf.train.Checkpoint(model=new_model)
    new_checkpoint.restore(chkp_path)
    # Should be the same result as above
    after = new_model(tf.constant([[2.0, 2.0, 2.0]]))
    np.testing.assert_array_equal(after.numpy(), before.numpy())


class TracedSequentialModule(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.dense_1 = Dense(in_features=3, out_features=3)
        self.dense_2 = Dense(in_features=3, out_features=2)

    @tf.function
    def __call__(self, x):
        x = self.dense_1(x)
        return self.dense_2(x)


def test_saving_functions_traces_a_method():
    my_model = TracedSequentialModule(name="the_model")
    eager = SequentialModule()
    eager.dense_1, eager.dense_2 = my_model.dense_1, my_model.dense_2
    for x in [tf.constant([[2.0, 2.0, 2.0]]), tf.constant([[[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]])]:
        np.testing.assert_allclose(my_model(x).numpy(), eager(x).numpy(), rtol=1e-6)


# --- Keras models and layers ---------------------------------------------------------------------
class MyDense(tf.keras.layers.Layer):
    # Adding **kwargs to support base Keras layer arguments
    def __init__(self, in_features, out_features, **kwargs):
        super().__init__(**kwargs)
        # This will soon move to the build step; see below
        self.w = tf.Variable(tf.random.normal([in_features, out_features]), name="w")
        self.b = tf.Variable(tf.zeros([out_features]), name="b")

    def call(self, x):
        y = tf.matmul(x, self.w) + self.b
        return tf.nn.relu(y)


def test_keras_layers():
    simple_layer = MyDense(name="simple", in_features=3, out_features=3)
    out = simple_layer([[2.0, 2.0, 2.0]])
    assert out.shape == (1, 3) and simple_layer.name == "simple"
    assert isinstance(simple_layer, tf.Module)


class FlexibleDense(tf.keras.layers.Layer):
    # Note the added `**kwargs`, as Keras supports many arguments
    def __init__(self, out_features, **kwargs):
        super().__init__(**kwargs)
        self.out_features = out_features

    def build(self, input_shape):  # Create the state of the layer (weights)
        self.w = tf.Variable(tf.random.normal([input_shape[-1], self.out_features]), name="w")
        self.b = tf.Variable(tf.zeros([self.out_features]), name="b")

    def call(self, inputs):  # Defines the computation from inputs to outputs
        return tf.matmul(inputs, self.w) + self.b


def test_the_build_step():
    # Create the instance of the layer
    flexible_dense = FlexibleDense(out_features=3)
    assert flexible_dense.variables == []
    # Call it, with predictably random results
    out = flexible_dense(tf.constant([[2.0, 2.0, 2.0], [3.0, 3.0, 3.0]]))
    np.testing.assert_allclose(out.numpy()[1], out.numpy()[0] * 1.5, rtol=1e-5)
    assert [v.shape for v in flexible_dense.variables] == [(3, 3), (3,)]
    with pytest.raises(InvalidArgumentError) as failure:
        flexible_dense(tf.constant([[2.0, 2.0, 2.0, 2.0]]))
    assert "matmul" in str(failure.value)


class MySequentialModel(tf.keras.Model):
    def __init__(self, name=None, **kwargs):
        super().__init__(**kwargs)
        self.dense_1 = FlexibleDense(out_features=3)
        self.dense_2 = FlexibleDense(out_features=2)

    def call(self, x):
        x = self.dense_1(x)
        return self.dense_2(x)


def test_keras_models(capsys):
    # You have made a Keras model!
    my_sequential_model = MySequentialModel(name="the_model")
    # Call it on a tensor, with random results
    out = my_sequential_model(tf.constant([[2.0, 2.0, 2.0]]))
    assert out.shape == (1, 2)
    assert len(my_sequential_model.variables) == 4
    assert my_sequential_model.submodules == (
        my_sequential_model.dense_1,
        my_sequential_model.dense_2,
    )
    my_sequential_model.summary()
    table = capsys.readouterr().out
    assert "(FlexibleDense)" in table and "Total params: 20" in table


def test_the_functional_api(capsys):
    inputs = tf.keras.Input(shape=[3])
    x = FlexibleDense(3)(inputs)
    x = FlexibleDense(2)(x)
    my_functional_model = tf.keras.Model(inputs=inputs, outputs=x)
    my_functional_model.summary()
    table = capsys.readouterr().out.splitlines()
    first, second = (layer.name for layer in my_functional_model.layers[1:])
    input_name = my_functional_model.layers[0].name
    assert table[0] == f'Model: "{my_functional_model.name}"'
    assert table[2].split() == ["Layer", "(type)", "Output", "Shape", "Param", "#"]
    assert [line.split() for line in table[4:7]] == [
        [input_name, "(InputLayer)", "[(None,", "3)]", "0"],
        [first, "(FlexibleDense)", "(None,", "3)", "12"],
        [second, "(FlexibleDense)", "(None,", "2)", "8"],
    ]
    assert table[8:] == ["Total params: 20", "Trainable params: 20", "Non-trainable params: 0"]

    out = my_functional_model(tf.constant([[2.0, 2.0, 2.0]]))
    w1, b1, w2, b2 = (v.numpy() for v in my_functional_model.variables)
    np.testing.assert_allclose(out.numpy(), ([[2.0, 2.0, 2.0]] @ w1 + b1) @ w2 + b2, rtol=1e-5)


def test_the_functional_api_on_layers_of_a_built_model():
    # The guide's sequential model's layers, called again on an Input: the same variables.
    my_sequential_model = MySequentialModel(name="the_model")
    eager = my_sequential_model(tf.constant([[2.0, 2.0, 2.0]]))
    inputs = tf.keras.Input(shape=[3])
    x = my_sequential_model.dense_1(inputs)
    x = my_sequential_model.dense_2(x)
    my_functional_model = tf.keras.Model(inputs=inputs, outputs=x)
    assert my_functional_model.variables == my_sequential_model.variables
    np.testing.assert_array_equal(
        my_functional_model(tf.constant([[2.0, 2.0, 2.0]])).numpy(), eager.numpy()
    )


def test_a_functional_model_is_checkpointed(tmp_path):
    def build():
        inputs = tf.keras.Input(shape=[3])
        return tf.keras.Model(inputs, FlexibleDense(2)(FlexibleDense(3)(inputs)))

    model = build()
    before = model(tf.constant([[2.0, 2.0, 2.0]]))
    save_path = tf.train.Checkpoint(model=model).save(str(tmp_path / "functional"))
    restored = build()  # other layer names, other random values
    assert not np.allclose(restored(tf.constant([[2.0, 2.0, 2.0]])).numpy(), before.numpy())
    tf.train.Checkpoint(model=restored).restore(save_path).assert_consumed()
    np.testing.assert_array_equal(restored(tf.constant([[2.0, 2.0, 2.0]])).numpy(), before.numpy())

"""The Keras guide "Making new layers and models via subclassing"
(keras.io/guides/making_new_layers_and_models_via_subclassing, also
tensorflow.org/guide/keras/making_new_layers_and_models_via_subclassing), its TF version,
ported with ``import eagerkit as tf`` and ``from eagerkit import keras``: each example runs and
gives the guide's values, shapes, weight counts, configs and losses.

Where eagerkit prints or behaves otherwise (on purpose):

- ``tf.zeros(1, 1)`` (the guide's call for a (1, 1) input): TF reads the second 1 as its number
  for float32; eagerkit takes dtypes by name and says so (InvalidArgumentError), so the ports
  write ``tf.zeros((1, 1))``.
- a layer's base config holds ``'dtype': 'float32'`` (Keras 3.0's form; later Keras 3 versions
  write a DTypePolicy dict there).

Examples skipped or changed, with why:

- the VAE trains on MNIST in the guide; eagerkit downloads nothing in tests, so it trains a
  few steps on a small synthetic batch of 64-pixel "images" (seeded) instead, with the same
  layers, losses and loops.
- the Keras 3 version's backend-agnostic spellings (``keras.ops.matmul``,
  ``keras.random.SeedGenerator``) are not ported: eagerkit has no ``keras.ops`` or
  ``keras.random`` (asking for them says what to use: the top-level ops, ``ek.random``); the
  TF version's ``tf.matmul`` and ``keras.backend.random_normal`` are.
- the ResNet outline leaves ``ResNetBlock`` and ``dataset`` to the reader; they are made
  here (two small convolutions with a skip connection; a seeded batch of 6x6 images), and
  ``resnet.save(filepath.keras)`` saves under pytest's tmp_path.
"""

import re

import numpy as np
import pytest

import eagerkit as tf
from eagerkit import keras
from eagerkit.errors import FailedPreconditionError, InvalidArgumentError
from eagerkit.keras import layers


class Linear(keras.layers.Layer):
    """The guide's first layer: its weights made in ``__init__`` by ``add_weight``."""

    def __init__(self, units=32, input_dim=32):
        super().__init__()
        self.w = self.add_weight(
            shape=(input_dim, units), initializer="random_normal", trainable=True
        )
        self.b = self.add_weight(shape=(units,), initializer="zeros", trainable=True)

    def call(self, inputs):
        return tf.matmul(inputs, self.w) + self.b


class VariableLinear(keras.layers.Layer):
    """The same layer with ``tf.Variable`` attributes made by TF 2's initializers."""

    def __init__(self, units=32, input_dim=32):
        super().__init__()
        w_init = tf.random_normal_initializer()
        self.w = tf.Variable(
            initial_value=w_init(shape=(input_dim, units), dtype="float32"),
            trainable=True,
        )
        b_init = tf.zeros_initializer()
        self.b = tf.Variable(initial_value=b_init(shape=(units,), dtype="float32"), trainable=True)

    def call(self, inputs):
        return tf.matmul(inputs, self.w) + self.b


class ComputeSum(keras.layers.Layer):
    def __init__(self, input_dim):
        super().__init__()
        self.total = self.add_weight(initializer="zeros", shape=(input_dim,), trainable=False)

    def call(self, inputs):
        self.total.assign_add(tf.reduce_sum(inputs, axis=0))
        return self.total


class LazyLinear(keras.layers.Layer):
    """The guide's ``Linear`` that makes its weights in ``build(input_shape)``."""

    def __init__(self, units=32):
        super().__init__()
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


class MLPBlock(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.linear_1 = LazyLinear(32)
        self.linear_2 = LazyLinear(32)
        self.linear_3 = LazyLinear(1)

    def call(self, inputs):
        x = self.linear_1(inputs)
        x = tf.nn.relu(x)
        x = self.linear_2(x)
        x = tf.nn.relu(x)
        return self.linear_3(x)


def test_a_layer_holds_weights_and_computes_with_them():
    x = tf.ones((2, 2))
    linear_layer = Linear(4, 2)
    y = linear_layer(x)
    assert y.shape == (2, 4) and y.dtype == tf.float32
    expected = np.ones((2, 2)) @ linear_layer.w.numpy() + linear_layer.b.numpy()
    np.testing.assert_allclose(y.numpy(), expected, rtol=1e-6)
    np.testing.assert_array_equal(y.numpy()[0], y.numpy()[1])  # both rows of x are ones
    printed = str(y)  # print(y)
    assert printed.startswith("ek.Tensor(\n[[") and printed.endswith("shape=(2, 4), dtype=float32)")
    assert linear_layer.weights == [linear_layer.w, linear_layer.b]  # tracked as attributes
    assert linear_layer.w.shape == (2, 4) and linear_layer.b.shape == (4,)
    np.testing.assert_array_equal(linear_layer.b.numpy(), np.zeros(4))
    assert 0 < np.std(linear_layer.w.numpy()) < 0.2  # random_normal: stddev 0.05


def test_tf_variable_attributes_are_tracked_as_weights():
    linear_layer = VariableLinear(4, 2)
    y = linear_layer(tf.ones((2, 2)))
    assert y.shape == (2, 4)
    assert linear_layer.weights == [linear_layer.w, linear_layer.b]
    assert linear_layer.trainable_weights == [linear_layer.w, linear_layer.b]
    np.testing.assert_array_equal(linear_layer.b.numpy(), np.zeros(4, np.float32))
    assert linear_layer.w.dtype == tf.float32 and linear_layer.w.shape == (2, 4)


def test_tf2_initializers_take_keyword_shape_and_dtype_and_keep_their_seed():
    normal = tf.random_normal_initializer(mean=1.0, stddev=0.5, seed=7)
    first = normal(shape=(300,), dtype="float32")
    np.testing.assert_array_equal(first.numpy(), normal(shape=(300,)).numpy())  # seeded
    assert first.dtype == tf.float32 and abs(float(np.mean(first.numpy())) - 1.0) < 0.1
    uniform = tf.random_uniform_initializer(-1.0, 1.0)(shape=(400,), dtype=tf.float64)
    assert uniform.dtype == tf.float64 and -1.0 <= uniform.numpy().min() < uniform.numpy().max()
    assert tf.ones_initializer()(shape=(2,)).numpy().tolist() == [1.0, 1.0]
    assert tf.constant_initializer(3)(shape=(1, 2)).numpy().tolist() == [[3.0, 3.0]]
    assert repr(tf.zeros_initializer()) == "ek.zeros_initializer()"
    with pytest.raises(InvalidArgumentError, match="random_normal_initializer: seed"):
        tf.random_normal_initializer(seed=1.5)


def test_a_non_trainable_weight_is_a_weight_but_not_a_trainable_one():
    x = tf.ones((2, 2))
    my_sum = ComputeSum(2)
    y = my_sum(x)
    assert y.numpy().tolist() == [2.0, 2.0]
    y = my_sum(x)
    assert y.numpy().tolist() == [4.0, 4.0]
    assert len(my_sum.weights) == 1
    assert len(my_sum.non_trainable_weights) == 1
    assert my_sum.trainable_weights == []


def test_weights_made_in_build_wait_for_the_first_call():
    x = tf.ones((2, 2))
    linear_layer = LazyLinear(32)
    assert linear_layer.weights == [] and not linear_layer.built
    y = linear_layer(x)  # the first call builds, with x's shape
    assert linear_layer.built and y.shape == (2, 32)
    assert [tuple(w.shape) for w in linear_layer.weights] == [(2, 32), (32,)]
    weights = list(linear_layer.weights)
    linear_layer(tf.ones((5, 2)))
    assert linear_layer.weights == weights  # later calls use the same weights


def test_weights_made_in_the_first_call_inside_tf_function_use_init_scope_once():
    # The guide's advice in words: a layer may make its weights in its first __call__, in
    # tf.init_scope (it may run inside a tf.function), and must reuse them afterwards.
    class MadeInCall(keras.layers.Layer):
        def call(self, inputs):
            if not self.weights:
                with tf.init_scope():
                    self.w = self.add_weight(shape=(inputs.shape[-1], 2), initializer="ones")
            return tf.matmul(inputs, self.w)

    layer = MadeInCall()

    @tf.function
    def forward(x):
        return layer(x)

    assert forward(tf.ones((1, 3))).numpy().tolist() == [[3.0, 3.0]]
    assert forward(tf.ones((4, 3))).shape == (4, 2) and len(layer.weights) == 1
    layer.w.assign(2 * tf.ones((3, 2)))  # the traced calls read the same variable
    assert forward(tf.ones((1, 3))).numpy().tolist() == [[6.0, 6.0]]


def test_nested_layers_track_their_inner_layers_weights():
    mlp = MLPBlock()
    assert mlp.weights == []
    y = mlp(tf.ones(shape=(3, 64)))  # the first call makes the weights
    assert y.shape == (3, 1)
    assert len(mlp.weights) == 6
    assert len(mlp.trainable_weights) == 6
    assert [tuple(w.shape) for w in mlp.weights] == [
        (64, 32),
        (32,),
        (32, 32),
        (32,),
        (32, 1),
        (1,),
    ]


def test_a_built_layer_called_on_the_wrong_input_names_the_layer_and_the_fix():
    linear_layer = LazyLinear(4)
    linear_layer(tf.ones((2, 3)))
    weights = [w.numpy().copy() for w in linear_layer.weights]
    with pytest.raises(InvalidArgumentError, match=r"LazyLinear\(float32\[2, 5\]\): matmul: inner"):
        linear_layer(tf.ones((2, 5)))
    with pytest.raises(InvalidArgumentError, match=r"ek\.cast\(x, ek\.float32\)"):
        linear_layer(tf.ones((2, 3), dtype=tf.int32))  # tf.matmul mixes no dtypes, as TF's
    with pytest.raises(InvalidArgumentError, match=r"LazyLinear\(string\[1, 3\]\)") as caught:
        linear_layer(tf.constant([["a", "b", "c"]]))
    assert "ek.strings.to_number(x)" in str(caught.value)
    assert "ek.cast(x, ek.string)" not in str(caught.value)  # no cast of the weights to text
    for before, after in zip(weights, linear_layer.weights):
        np.testing.assert_array_equal(before, after.numpy())


class ActivityRegularizationLayer(keras.layers.Layer):
    def __init__(self, rate=1e-2):
        super().__init__()
        self.rate = rate

    def call(self, inputs):
        self.add_loss(self.rate * tf.reduce_mean(inputs))
        return inputs


class OuterLayer(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.activity_reg = ActivityRegularizationLayer(1e-2)

    def call(self, inputs):
        return self.activity_reg(inputs)


class OuterLayerWithKernelRegularizer(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(32, kernel_regularizer=keras.regularizers.l2(1e-3))

    def call(self, inputs):
        return self.dense(inputs)


def test_losses_added_in_call_are_reset_at_each_outer_call():
    layer = OuterLayer()
    assert len(layer.losses) == 0  # never called yet
    _ = layer(tf.zeros((1, 1)))
    assert len(layer.losses) == 1
    assert float(layer.losses[0]) == 0.0
    _ = layer(tf.ones((1, 1)))
    assert len(layer.losses) == 1  # the loss of the latest call only
    assert float(layer.losses[0]) == pytest.approx(0.01)
    assert layer.activity_reg.losses == layer.losses  # the inner layer's own


def test_the_guides_tf_zeros_1_1_names_eagerkits_way_to_write_a_dtype():
    with pytest.raises(InvalidArgumentError, match=r"zeros\(1, 1\): 1 is not a dtype"):
        tf.zeros(1, 1)


def test_an_inner_dense_layers_kernel_regularizer_is_in_the_losses():
    layer = OuterLayerWithKernelRegularizer()
    _ = layer(tf.zeros((1, 1)))
    # print(layer.losses): 1e-3 * sum(layer.dense.kernel ** 2), made by the kernel_regularizer
    assert re.fullmatch(
        r"\[<ek\.Tensor: shape=\(\), dtype=float32, numpy=0\.00\d+>\]", str(layer.losses)
    )
    (penalty,) = layer.losses
    expected = 1e-3 * np.sum(layer.dense.kernel.numpy() ** 2)
    assert penalty.shape == () and penalty.dtype == tf.float32
    assert float(penalty) == pytest.approx(expected, rel=1e-6)


class RegularizedClassifier(keras.Model):
    """A model for the guide's training-loop snippet: an activity loss and a kernel one."""

    def __init__(self):
        super().__init__()
        self.hidden = keras.layers.Dense(
            8, activation="relu", kernel_regularizer=keras.regularizers.l2(1e-3)
        )
        self.activity = ActivityRegularizationLayer(1e-2)
        self.logits = keras.layers.Dense(3)

    def call(self, inputs):
        return self.logits(self.activity(self.hidden(inputs)))


def test_added_losses_join_the_loss_of_a_custom_training_loop():
    rng = np.random.default_rng(0)
    features = rng.normal(size=(32, 4)).astype("float32")
    labels = rng.integers(0, 3, size=32)
    train_dataset = tf.data.Dataset.from_tensor_slices((features, labels)).batch(16)
    model = RegularizedClassifier()
    optimizer = keras.optimizers.SGD(learning_rate=1e-3)
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    for x_batch_train, y_batch_train in train_dataset:
        with tf.GradientTape(persistent=True) as tape:
            logits = model(x_batch_train)
            data_loss = loss_fn(y_batch_train, logits)
            loss_value = data_loss + sum(model.losses)  # the guide's `+=`
        assert len(model.losses) == 2  # this pass's activity loss, and the kernel's penalty
        grads = tape.gradient(loss_value, model.trainable_weights)
        data_grads = tape.gradient(data_loss, model.trainable_weights)
        kernel = model.hidden.kernel
        index = [v is kernel for v in model.trainable_weights].index(True)
        activity = model.hidden(x_batch_train)  # (the same weights: before the update)
        assert float(model.losses[0]) == pytest.approx(
            1e-2 * float(np.mean(activity.numpy())), rel=1e-5
        )
        # The added losses' gradient: the kernel penalty's 2 * 1e-3 * kernel and the
        # activity loss's, through the hidden layer.
        extra = grads[index].numpy() - data_grads[index].numpy()
        penalty_part = 2e-3 * kernel.numpy()
        assert np.abs(extra - penalty_part).max() < np.abs(penalty_part).max()
        optimizer.apply_gradients(zip(grads, model.trainable_weights))
        del tape
    assert int(optimizer.iterations) == 2


def test_fit_adds_the_added_losses_to_the_compiled_loss_or_trains_on_them_alone():
    inputs = keras.Input(shape=(3,))
    outputs = ActivityRegularizationLayer()(inputs)
    model = keras.Model(inputs, outputs)
    x, y = np.random.random((2, 3)), np.random.random((2, 3))
    model.compile(optimizer="adam", loss="mse")  # the added loss joins mse
    history = model.fit(x, y, verbose=0)
    expected = np.mean((x - y) ** 2) + 1e-2 * np.mean(x)
    assert history.history["loss"][0] == pytest.approx(expected, rel=1e-5)

    model.compile(optimizer="adam")  # no loss given: the added loss is what fit minimizes
    x, y = np.random.random((2, 3)), np.random.random((2, 3))
    history = model.fit(x, y, verbose=0)
    assert history.history["loss"][0] == pytest.approx(1e-2 * np.mean(x), rel=1e-5)


def test_add_loss_refuses_what_holds_no_numbers():
    layer = ActivityRegularizationLayer()
    with pytest.raises(ValueError, match=r"add_loss: a loss must be a tensor of numbers.*'x'"):
        layer.add_loss("x")
    assert layer.losses == []  # nothing was added
    layer.add_loss(0.5)  # a number becomes a float32 tensor, as TF converts it
    assert [loss.dtype for loss in layer.losses] == [tf.float32]


class ConfigLinear(keras.layers.Layer):
    """The guide's ``Linear`` with a ``get_config`` of its own arguments only."""

    def __init__(self, units=32):
        super().__init__()
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(
            shape=(input_shape[-1], self.units), initializer="random_normal", trainable=True
        )
        self.b = self.add_weight(shape=(self.units,), initializer="random_normal", trainable=True)

    def call(self, inputs):
        return tf.matmul(inputs, self.w) + self.b

    def get_config(self):
        return {"units": self.units}


class BaseConfigLinear(keras.layers.Layer):
    """The guide's ``Linear`` that passes ``**kwargs`` on and starts from the base config."""

    def __init__(self, units=32, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(
            shape=(input_shape[-1], self.units), initializer="random_normal", trainable=True
        )
        self.b = self.add_weight(shape=(self.units,), initializer="random_normal", trainable=True)

    def call(self, inputs):
        return tf.matmul(inputs, self.w) + self.b

    def get_config(self):
        config = super().get_config()
        config.update({"units": self.units})
        return config


def test_a_layer_is_made_again_from_its_config():
    layer = ConfigLinear(64)
    config = layer.get_config()
    assert config == {"units": 64}
    new_layer = ConfigLinear.from_config(config)
    assert type(new_layer) is ConfigLinear and new_layer.units == 64

    layer = BaseConfigLinear(64)
    config = layer.get_config()
    # print(config) shows the base config's fields first, then the layer's own
    assert str(config) == (
        "{'name': 'base_config_linear', 'trainable': True, 'dtype': 'float32', 'units': 64}"
    )
    new_layer = BaseConfigLinear.from_config(config)
    assert (new_layer.name, new_layer.units, new_layer.trainable) == (layer.name, 64, True)
    assert new_layer.get_config() == config
    assert BaseConfigLinear(8, name="linear_8", trainable=False).get_config() == {
        "name": "linear_8",
        "trainable": False,
        "dtype": "float32",
        "units": 8,
    }


def test_a_base_config_given_to_an_init_without_kwargs_says_what_to_change():
    class NoKwargsLinear(keras.layers.Layer):  # the base config, but no **kwargs
        def __init__(self, units=32):
            super().__init__()
            self.units = units

        def get_config(self):
            config = super().get_config()
            config.update({"units": self.units})
            return config

    config = NoKwargsLinear(4).get_config()
    with pytest.raises(TypeError, match=r"NoKwargsLinear.from_config: .*unexpected keyword "):
        NoKwargsLinear.from_config(config)
    with pytest.raises(TypeError, match=r"\*\*kwargs and pass them on"):
        NoKwargsLinear.from_config(config)


def test_a_custom_layer_in_a_functional_model_is_rebuilt_from_the_models_config():
    inputs = keras.Input(shape=(3,))
    model = keras.Model(inputs, BaseConfigLinear(2, name="linear_2")(inputs))
    clone = keras.Model.from_config(
        model.get_config(), custom_objects={"BaseConfigLinear": BaseConfigLinear}
    )
    assert [type(layer).__name__ for layer in clone.layers] == ["InputLayer", "BaseConfigLinear"]
    assert clone.layers[1].units == 2 and clone(tf.ones((1, 3))).shape == (1, 2)


class CustomDropout(keras.layers.Layer):
    def __init__(self, rate, **kwargs):
        super().__init__(**kwargs)
        self.rate = rate

    def call(self, inputs, training=False):
        if training:
            return tf.nn.dropout(inputs, rate=self.rate)
        return inputs


def test_the_training_argument_switches_dropout_on_in_fit_and_off_in_predict():
    dropout = CustomDropout(0.5)
    x = tf.ones((4, 8))
    np.testing.assert_array_equal(dropout(x).numpy(), x.numpy())  # training=False by default
    dropped = dropout(x, training=True).numpy()
    assert set(np.unique(dropped)) == {0.0, 2.0}  # kept values scaled by 1 / (1 - rate)

    inputs = keras.Input(shape=(8,))
    model = keras.Model(inputs, CustomDropout(0.5)(inputs))
    np.testing.assert_array_equal(model.predict(x, verbose=0), x.numpy())
    seen = []

    class Record(keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            seen.append(logs["loss"])

    model.compile(optimizer="sgd", loss="mse")  # no weights: the loss shows what ran
    model.fit(x, x, epochs=1, verbose=0, callbacks=[Record()])
    assert seen[0] > 0.5  # fit ran the layer with training=True: about half are 0, half 2
    assert model.evaluate(x, x, verbose=0) == 0.0  # evaluate runs it with training=False


class DropoutModel(keras.Model):
    """A model whose ``call`` takes no ``training``: its layers get the flag of its call."""

    def __init__(self):
        super().__init__()
        self.dropout = CustomDropout(0.5)

    def call(self, inputs):
        return self.dropout(inputs)


def test_the_training_flag_reaches_layers_inside_a_call_that_does_not_pass_it_on():
    x = tf.ones((4, 8))
    model = DropoutModel()
    np.testing.assert_array_equal(model(x).numpy(), x.numpy())
    assert set(np.unique(model(x, training=True).numpy())) == {0.0, 2.0}
    np.testing.assert_array_equal(model.predict(x, verbose=0), x.numpy())
    model.compile(optimizer="sgd", loss="mse")
    history = model.fit(x, x, epochs=1, verbose=0)
    assert history.history["loss"][0] > 0.5  # fit's training=True reached the dropout
    assert model.evaluate(x, x, verbose=0) == 0.0

    seen = []

    class Shows(keras.layers.Layer):
        def call(self, inputs, training=None):
            seen.append(training)
            return inputs

    class Outer(keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.shows = Shows()

        def call(self, inputs, training=None):
            self.shows(inputs)  # not passed on: the outer call's flag
            self.shows(inputs, training=False)  # given: its own
            return self.shows(inputs)

    Outer()(x, training=True)
    Outer()(x)
    Shows()(x, True)  # by position, as call's second argument
    assert seen == [True, False, True, None, False, None, True]


class MaskedMean(keras.layers.Layer):
    """A layer that reads the privileged ``mask`` argument: a mean over the unmasked steps."""

    def call(self, inputs, mask=None):
        if mask is None:
            return tf.reduce_mean(inputs, axis=1)
        weights = tf.expand_dims(tf.cast(mask, inputs.dtype), -1)
        return tf.reduce_sum(inputs * weights, axis=1) / tf.reduce_sum(weights, axis=1)

    def compute_mask(self, inputs, mask=None):
        return None  # the time axis is gone: no mask after this layer


def test_the_mask_argument_is_passed_from_a_masking_layer():
    embedding = layers.Embedding(input_dim=5, output_dim=2, mask_zero=True)
    tokens = tf.constant([[1, 2, 0, 0], [3, 0, 0, 0]])
    vectors = embedding(tokens)
    pooled = MaskedMean()(vectors)
    table = embedding.embeddings.numpy()
    np.testing.assert_allclose(pooled.numpy()[0], (table[1] + table[2]) / 2, rtol=1e-6)
    np.testing.assert_allclose(pooled.numpy()[1], table[3], rtol=1e-6)

    inputs = keras.Input(shape=(4,), dtype="int32")  # the same in a functional model
    model = keras.Model(inputs, MaskedMean()(embedding(inputs)))
    np.testing.assert_allclose(model(tokens).numpy(), pooled.numpy(), rtol=1e-6)


def test_a_layer_that_cannot_keep_a_mask_warns_as_keras_3():
    class Ignores(keras.layers.Layer):
        def call(self, inputs):
            return inputs

    vectors = layers.Embedding(input_dim=5, output_dim=2, mask_zero=True)(tf.constant([[1, 0]]))
    with pytest.warns(UserWarning, match="does not support masking"):
        Ignores()(vectors)


class ResNetBlock(layers.Layer):
    """The block the guide's ResNet outline assumes: two convolutions and a skip."""

    def __init__(self, filters=4, **kwargs):
        super().__init__(**kwargs)
        self.conv_1 = layers.Conv2D(filters, 3, padding="same", activation="relu")
        self.conv_2 = layers.Conv2D(filters, 3, padding="same")

    def call(self, inputs):
        return tf.nn.relu(self.conv_2(self.conv_1(inputs)) + inputs)


class ResNet(keras.Model):
    def __init__(self, num_classes=1000):
        super().__init__()
        self.block_1 = ResNetBlock()
        self.block_2 = ResNetBlock()
        self.global_pool = layers.GlobalAveragePooling2D()
        self.classifier = layers.Dense(num_classes)

    def call(self, inputs):
        x = self.block_1(inputs)
        x = self.block_2(x)
        x = self.global_pool(x)
        return self.classifier(x)


def test_a_model_subclass_trains_with_fit_and_saves(tmp_path):
    rng = np.random.default_rng(1)
    images = rng.normal(size=(8, 6, 6, 4)).astype("float32")
    labels = rng.integers(0, 3, size=8)
    dataset = tf.data.Dataset.from_tensor_slices((images, labels)).batch(4)
    resnet = ResNet(num_classes=3)
    resnet.compile(
        optimizer=keras.optimizers.Adam(1e-2),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    )
    history = resnet.fit(dataset, epochs=3, verbose=0)
    losses = history.history["loss"]
    assert len(losses) == 3 and losses[-1] < losses[0]
    assert [type(layer).__name__ for layer in resnet.layers] == [
        "ResNetBlock",
        "ResNetBlock",
        "GlobalAveragePooling2D",
        "Dense",
    ]
    assert len(resnet.trainable_weights) == 2 * 4 + 2  # each block's two kernels and biases
    assert resnet.count_params() == 2 * (2 * (3 * 3 * 4 * 4 + 4)) + (4 * 3 + 3)

    resnet.save_weights(str(tmp_path / "resnet_ckpt"))
    again = ResNet(num_classes=3)
    again(images[:1])
    again.load_weights(str(tmp_path / "resnet_ckpt"))
    np.testing.assert_allclose(again(images).numpy(), resnet(images).numpy(), rtol=1e-5)
    resnet.save(str(tmp_path / "resnet.keras"))
    assert (tmp_path / "resnet.keras").exists()


def test_forgetting_super_init_is_named_before_add_weight_can_fail_inside():
    class Forgot(keras.layers.Layer):
        def __init__(self, units=4):
            self.w = self.add_weight(shape=(2, units), initializer="random_normal")

    with pytest.raises(RuntimeError, match=r"In layer 'Forgot', you forgot to call `super"):
        Forgot()
    assert isinstance(pytest.raises(FailedPreconditionError, Forgot).value, RuntimeError)


class Sampling(layers.Layer):
    """Uses (z_mean, z_log_var) to sample z, the vector encoding a digit."""

    def call(self, inputs):
        z_mean, z_log_var = inputs
        batch = tf.shape(z_mean)[0]
        dim = tf.shape(z_mean)[1]
        epsilon = keras.backend.random_normal(shape=(batch, dim))
        return z_mean + tf.exp(0.5 * z_log_var) * epsilon


class Encoder(layers.Layer):
    """Maps digits to a triplet (z_mean, z_log_var, z)."""

    def __init__(self, latent_dim=32, intermediate_dim=64, name="encoder", **kwargs):
        super().__init__(name=name, **kwargs)
        self.dense_proj = layers.Dense(intermediate_dim, activation="relu")
        self.dense_mean = layers.Dense(latent_dim)
        self.dense_log_var = layers.Dense(latent_dim)
        self.sampling = Sampling()

    def call(self, inputs):
        x = self.dense_proj(inputs)
        z_mean = self.dense_mean(x)
        z_log_var = self.dense_log_var(x)
        z = self.sampling((z_mean, z_log_var))
        return z_mean, z_log_var, z


class Decoder(layers.Layer):
    """Converts z, the encoded digit vector, back into a readable digit."""

    def __init__(self, original_dim, intermediate_dim=64, name="decoder", **kwargs):
        super().__init__(name=name, **kwargs)
        self.dense_proj = layers.Dense(intermediate_dim, activation="relu")
        self.dense_output = layers.Dense(original_dim, activation="sigmoid")

    def call(self, inputs):
        x = self.dense_proj(inputs)
        return self.dense_output(x)


class VariationalAutoEncoder(keras.Model):
    """Combines the encoder and decoder into an end-to-end model for training."""

    def __init__(
        self, original_dim, intermediate_dim=64, latent_dim=32, name="autoencoder", **kwargs
    ):
        super().__init__(name=name, **kwargs)
        self.original_dim = original_dim
        self.encoder = Encoder(latent_dim=latent_dim, intermediate_dim=intermediate_dim)
        self.decoder = Decoder(original_dim, intermediate_dim=intermediate_dim)

    def call(self, inputs):
        z_mean, z_log_var, z = self.encoder(inputs)
        reconstructed = self.decoder(z)
        # Add KL divergence regularization loss.
        kl_loss = -0.5 * tf.reduce_mean(z_log_var - tf.square(z_mean) - tf.exp(z_log_var) + 1)
        self.add_loss(kl_loss)
        return reconstructed


def synthetic_digits(count=256, pixels=64):
    """A stand-in for MNIST (no downloads): seeded blurry strokes, values in [0, 1]."""
    rng = np.random.default_rng(3)
    centres = rng.integers(0, pixels, size=(count, 1))
    positions = np.arange(pixels)[None, :]
    return np.exp(-0.05 * (positions - centres) ** 2).astype("float32")


def test_the_vae_trains_in_a_custom_loop_with_its_kl_loss():
    original_dim = 64  # the guide's 784 MNIST pixels, shrunk to 64 synthetic ones
    vae = VariationalAutoEncoder(original_dim, 32, 8)
    optimizer = keras.optimizers.Adam(learning_rate=1e-3)
    mse_loss_fn = keras.losses.MeanSquaredError()
    loss_metric = keras.metrics.Mean()
    x_train = synthetic_digits()
    train_dataset = tf.data.Dataset.from_tensor_slices(x_train)
    train_dataset = train_dataset.shuffle(buffer_size=1024, seed=1).batch(64)
    printed = []
    epochs = 2
    for epoch in range(epochs):
        printed.append("Start of epoch %d" % (epoch,))
        for step, x_batch_train in enumerate(train_dataset):
            with tf.GradientTape() as tape:
                reconstructed = vae(x_batch_train)
                # Compute reconstruction loss
                loss = mse_loss_fn(x_batch_train, reconstructed)
                loss += sum(vae.losses)  # Add KLD regularization loss
            grads = tape.gradient(loss, vae.trainable_weights)
            optimizer.apply_gradients(zip(grads, vae.trainable_weights))
            loss_metric(loss)
            if step % 2 == 0:  # (the guide prints every 100 of its 938 steps)
                printed.append("step %d: mean loss = %.4f" % (step, loss_metric.result()))
    assert [line.split(":")[0] for line in printed] == [
        "Start of epoch 0",
        "step 0",
        "step 2",
        "Start of epoch 1",
        "step 0",
        "step 2",
    ]
    means = [float(line.rsplit("= ", 1)[1]) for line in printed if line.startswith("step")]
    assert means == sorted(means, reverse=True) and means[-1] < means[0]  # it learns
    assert [layer.name for layer in vae.layers] == ["encoder", "decoder"]
    assert len(vae.trainable_weights) == 10  # five Dense layers' kernels and biases
    assert len(vae.losses) == 1
    vae(x_batch_train)  # a new forward pass (with the trained weights) replaces the loss
    (kl_loss,) = vae.losses
    z_mean = vae.encoder.dense_mean(vae.encoder.dense_proj(x_batch_train)).numpy()
    z_log_var = vae.encoder.dense_log_var(vae.encoder.dense_proj(x_batch_train)).numpy()
    expected = -0.5 * np.mean(z_log_var - z_mean**2 - np.exp(z_log_var) + 1)
    assert float(kl_loss) == pytest.approx(expected, rel=1e-4)


def test_the_vae_trains_with_fit_adding_its_kl_loss_to_the_compiled_one():
    x_train = synthetic_digits()
    vae = VariationalAutoEncoder(64, 32, 8)
    optimizer = keras.optimizers.Adam(learning_rate=1e-3)
    vae.compile(optimizer, loss=keras.losses.MeanSquaredError())
    history = vae.fit(x_train, x_train, epochs=2, batch_size=64, verbose=0)
    losses = history.history["loss"]
    assert len(losses) == 2 and losses[1] < losses[0]
    reconstructed = vae(x_train[:64])
    mse = float(np.mean((reconstructed.numpy() - x_train[:64]) ** 2))
    assert float(vae.losses[0]) > 0 and 0 < mse < 0.5
    sample = vae.decoder(tf.zeros((1, 8)))
    assert sample.shape == (1, 64) and 0 <= sample.numpy().min() <= sample.numpy().max() <= 1


def test_the_keras_3_spellings_say_what_to_use_instead():
    with pytest.raises(AttributeError, match=r"no tf\.keras\.ops\. Instead: .*ek\.matmul"):
        keras.ops  # noqa: B018 - the lookup is what is tested
    with pytest.raises(AttributeError, match=r"no tf\.keras\.random\. Instead: ek\.random"):
        keras.random  # noqa: B018

"""TF2's guide "Customizing what happens in fit()" (Keras 2), ported with only the imports
changed (``import eagerkit as tf``, ``from eagerkit import keras``).

The guide overrides ``train_step(self, data)`` on a ``keras.Model`` subclass built as a
functional model (``CustomModel(inputs, outputs)``) and unpacks ``x, y = data``; it uses
``self.compiled_loss`` and ``self.compiled_metrics`` (Keras 2) or ``self.compute_loss`` and
a loop over ``self.metrics`` (Keras 2.13+). Each test checks what the guide says: the logs'
keys, and that a ``train_step`` written like the built-in one trains exactly as ``fit`` does.
"""

import numpy as np
import pytest

import eagerkit as tf
from eagerkit import keras
from eagerkit.errors import InvalidArgumentError

RNG = np.random.default_rng(0)
X = RNG.random((64, 32)).astype("float32")
Y = RNG.random((64, 1)).astype("float32")


class CustomModel(keras.Model):  # the guide's first example, as written there
    def train_step(self, data):
        # Unpack the data. Its structure depends on your model and
        # on what you pass to `fit()`.
        x, y = data

        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)  # Forward pass
            # Compute the loss value
            # (the loss function is configured in `compile()`)
            loss = self.compiled_loss(y, y_pred, regularization_losses=self.losses)

        # Compute gradients
        trainable_vars = self.trainable_variables
        gradients = tape.gradient(loss, trainable_vars)
        # Update weights
        self.optimizer.apply_gradients(zip(gradients, trainable_vars))
        # Update metrics (includes the metric that tracks the loss)
        self.compiled_metrics.update_state(y, y_pred)
        # Return a dict mapping metric names to current value
        return {m.name: m.result() for m in self.metrics}


class ComputeLossModel(keras.Model):  # the Keras 2.13+ version of the same step
    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(y=y, y_pred=y_pred)
        trainable_vars = self.trainable_variables
        gradients = tape.gradient(loss, trainable_vars)
        self.optimizer.apply_gradients(zip(gradients, trainable_vars))
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}


def _trained(model_class, epochs=2):
    """A model of ``model_class`` (inputs 32 -> Dense(1)) fit on the guide's random data,
    from fixed weights and without shuffling; returns the model and its History."""
    inputs = keras.Input(shape=(32,))
    outputs = keras.layers.Dense(1, kernel_initializer="ones", bias_initializer="zeros")(inputs)
    model = model_class(inputs, outputs)
    model.compile(optimizer=keras.optimizers.SGD(0.01), loss="mse", metrics=["mae"])
    history = model.fit(X, Y, batch_size=16, epochs=epochs, shuffle=False, verbose=0)
    return model, history


@pytest.mark.parametrize("model_class", [CustomModel, ComputeLossModel])
def test_a_train_step_of_ones_own_trains_as_fit_does(model_class):
    model, history = _trained(model_class)
    reference, expected = _trained(keras.Model)  # the built-in train_step
    assert isinstance(model, model_class) and isinstance(model, keras.Model)
    assert sorted(history.history) == ["loss", "mae"]
    for key in ("loss", "mae"):
        np.testing.assert_allclose(history.history[key], expected.history[key], rtol=1e-6)
    for got, want in zip(model.get_weights(), reference.get_weights(), strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-6)


def test_a_subclass_built_from_inputs_and_outputs_is_a_functional_model():
    inputs = keras.Input(shape=(3,), name="features")
    hidden = keras.layers.Dense(4, name="hidden")(inputs)
    model = CustomModel(inputs, keras.layers.Dense(2, name="out")(hidden), name="custom")
    assert type(model).__name__ == "CustomModel" and model.name == "custom"
    assert [layer.name for layer in model.layers] == ["features", "hidden", "out"]
    assert model.output_shape == (None, 2)
    assert model(tf.ones([5, 3])).shape == (5, 2)
    again = CustomModel(inputs=inputs, outputs=hidden)  # by keyword too
    assert type(again) is type(model) and again.output_shape == (None, 4)


def test_the_guides_custom_test_step_evaluates_as_evaluate_does():
    class TestStepModel(keras.Model):
        def test_step(self, data):
            x, y = data
            y_pred = self(x, training=False)
            self.compiled_loss(y, y_pred, regularization_losses=self.losses)
            self.compiled_metrics.update_state(y, y_pred)
            return {m.name: m.result() for m in self.metrics}

    inputs = keras.Input(shape=(32,))
    outputs = keras.layers.Dense(1, kernel_initializer="ones")(inputs)
    model = TestStepModel(inputs, outputs)
    model.compile(loss="mse", metrics=["mae"])
    logs = model.evaluate(X, Y, batch_size=16, verbose=0, return_dict=True)
    reference = keras.Model(inputs, outputs)
    reference.compile(loss="mse", metrics=["mae"])
    expected = reference.evaluate(X, Y, batch_size=16, verbose=0, return_dict=True)
    assert sorted(logs) == ["loss", "mae"]
    for key in logs:
        assert logs[key] == pytest.approx(expected[key], rel=1e-6)


def test_train_step_gets_what_fit_was_given_as_keras_packs_it():
    seen = []

    class Recording(keras.Model):
        def train_step(self, data):
            seen.append(data)
            return super().train_step(data)

    inputs = keras.Input(shape=(2,))
    model = Recording(inputs, keras.layers.Dense(1)(inputs))
    model.compile(optimizer="sgd", loss="mse")
    x, y, w = np.ones((4, 2), "float32"), np.ones((4, 1), "float32"), np.ones(4, "float32")
    model.fit(x, y, batch_size=4, verbose=0)
    model.fit(x, y, sample_weight=w, batch_size=4, verbose=0)
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(4)
    model.fit(dataset, verbose=0)
    pairs, triples, from_dataset = seen
    assert isinstance(pairs, tuple) and len(pairs) == 2  # (x, y): no weights, no None
    assert isinstance(triples, tuple) and len(triples) == 3
    np.testing.assert_array_equal(triples[2].numpy(), w)
    assert len(from_dataset) == 2 and from_dataset[0].shape == (4, 2)


def test_compiled_loss_and_metrics_before_compile_and_before_data():
    inputs = keras.Input(shape=(2,))
    model = CustomModel(inputs, keras.layers.Dense(1)(inputs))
    assert model.compiled_loss is None and model.compiled_metrics is None  # not compiled
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    assert model.metrics == [] and model.compiled_metrics.metrics == []  # no data seen yet
    loss = model.compiled_loss(tf.ones([3, 1]), tf.zeros([3, 1]))
    assert float(loss) == 1.0
    assert [m.name for m in model.compiled_loss.metrics] == ["loss"]


def test_a_model_without_trainable_weights_fits_with_a_keras_optimizer():
    # the guide on layers: a model of one activity-penalty layer has nothing to train
    class ActivityRegularizationLayer(keras.layers.Layer):
        def call(self, inputs):
            self.add_loss(1e-2 * tf.reduce_sum(inputs))
            return inputs

    inputs = keras.Input(shape=(3,))
    model = keras.Model(inputs, ActivityRegularizationLayer()(inputs))
    model.compile(optimizer="adam", loss="mse")
    history = model.fit(np.ones((2, 3)), np.zeros((2, 3)), verbose=0)
    assert history.history["loss"] == [pytest.approx(1.0 + 0.06)]  # mse 1 + 0.01 * 6
    assert int(model.optimizer.iterations) == 0  # an empty update is no step


def test_a_keras_optimizer_skips_no_pairs_but_refuses_all_none_gradients():
    optimizer = keras.optimizers.Adam()
    assert optimizer.apply_gradients([]) is None and int(optimizer.iterations) == 0
    variable = tf.Variable(1.0)
    with pytest.raises(InvalidArgumentError, match="No gradients provided for any variable"):
        optimizer.apply_gradients([(None, variable)])
    assert float(variable) == 1.0 and int(optimizer.iterations) == 0

"""TF2's guide "Training & evaluation with the built-in methods" (Keras 2, last modified
2020/04/13), ported with only the imports changed (``import eagerkit as tf``, ``from
eagerkit import keras``, ``from eagerkit.keras import layers``).

The guide's numbers come from MNIST and random weights; the tests check what the guide
says about them: which keys the History and the logs have, the shapes ``evaluate`` and
``predict`` return, that training lowers the loss, what each callback does.

Cells of the guide: 41 code cells; 30 run unchanged (73%).

- changed (5): the MNIST download and preprocessing (no network in tests: synthetic
  "digits" of the same shapes and dtypes stand in, smaller); the two ``tf.one_hot(y_train,
  depth=10)`` cells, whose labels the guide has just made float32 (TF's ``one_hot`` takes
  integer indices; so does eagerkit's: ``y_train.astype("int32")``); the multi-input model,
  whose timeseries branch uses ``Conv1D`` and ``GlobalMaxPooling1D``, which eagerkit lacks
  (``tf.reduce_max`` over time stands in), so that the 7 cells after it run unchanged.
- not supported (6): ``model.add_loss`` / ``add_metric`` on a functional model's symbolic
  tensors (refused with a clear error; inside a layer's ``call`` they work), ``plot_model``,
  learning-rate schedule objects (``keras.optimizers.schedules``), the TensorBoard callback,
  and the ``keras.utils.Sequence`` cell (it reads image files with scikit-image; eagerkit's
  ``fit`` takes arrays and Datasets).
"""

import os

import numpy as np
import pytest

import eagerkit as tf
from eagerkit import keras
from eagerkit.keras import layers


def load_data():
    """Stands in for keras.datasets.mnist.load_data(): each class lights its own pattern."""
    rng = np.random.default_rng(0)
    patterns = rng.random((10, 784))

    def digits(n):
        labels = rng.integers(0, 10, n)
        images = 0.7 * patterns[labels] + 0.3 * rng.random((n, 784))
        return images.astype("float32"), labels.astype("float32")

    return digits(5000), digits(500)


@pytest.fixture(scope="module")
def mnist():
    # changed: generated, not downloaded; reshaped and scaled already
    (x_train, y_train), (x_test, y_test) = load_data()
    # Reserve 1,000 samples for validation
    x_val = x_train[-1000:]
    y_val = y_train[-1000:]
    x_train = x_train[:-1000]
    y_train = y_train[:-1000]
    return x_train, y_train, x_val, y_val, x_test, y_test


def get_uncompiled_model():
    inputs = keras.Input(shape=(784,), name="digits")
    x = layers.Dense(64, activation="relu", name="dense_1")(inputs)
    x = layers.Dense(64, activation="relu", name="dense_2")(x)
    outputs = layers.Dense(10, activation="softmax", name="predictions")(x)
    model = keras.Model(inputs=inputs, outputs=outputs)
    return model


def get_compiled_model():
    model = get_uncompiled_model()
    model.compile(
        optimizer="rmsprop",
        loss="sparse_categorical_crossentropy",
        metrics=["sparse_categorical_accuracy"],
    )
    return model


def test_api_overview_a_first_end_to_end_example(mnist, capsys):
    x_train, y_train, x_val, y_val, x_test, y_test = mnist
    inputs = keras.Input(shape=(784,), name="digits")
    x = layers.Dense(64, activation="relu", name="dense_1")(inputs)
    x = layers.Dense(64, activation="relu", name="dense_2")(x)
    outputs = layers.Dense(10, activation="softmax", name="predictions")(x)

    model = keras.Model(inputs=inputs, outputs=outputs)

    model.compile(
        optimizer=keras.optimizers.RMSprop(),  # Optimizer
        # Loss function to minimize
        loss=keras.losses.SparseCategoricalCrossentropy(),
        # List of metrics to monitor
        metrics=[keras.metrics.SparseCategoricalAccuracy()],
    )

    print("Fit model on training data")
    history = model.fit(
        x_train,
        y_train,
        batch_size=64,
        epochs=2,
        # We pass some validation for
        # monitoring validation loss and metrics
        # at the end of each epoch
        validation_data=(x_val, y_val),
    )
    out = capsys.readouterr().out.splitlines()
    assert out[:3] == ["Fit model on training data", "Epoch 1/2", out[2]]
    assert out[2].startswith("63/63 [==============================] - loss: ")
    assert " - val_loss: " in out[2] and " - val_sparse_categorical_accuracy: " in out[2]

    # The returned "history" object holds a record of the loss values and metric values
    assert list(history.history) == [
        "loss",
        "sparse_categorical_accuracy",
        "val_loss",
        "val_sparse_categorical_accuracy",
    ]
    assert all(len(values) == 2 for values in history.history.values())
    assert history.history["loss"][1] < history.history["loss"][0]
    assert history.history["val_sparse_categorical_accuracy"][-1] > 0.9  # learnable digits

    # Evaluate the model on the test data using `evaluate`
    print("Evaluate on test data")
    results = model.evaluate(x_test, y_test, batch_size=128)
    print("test loss, test acc:", results)

    # Generate predictions (probabilities -- the output of the last layer)
    # on new data using `predict`
    print("Generate predictions for 3 samples")
    predictions = model.predict(x_test[:3])
    print("predictions shape:", predictions.shape)
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Evaluate on test data"
    assert out[1].startswith("4/4 [==============================] - loss: ")
    assert out[2] == f"test loss, test acc: {results}"
    assert isinstance(results, list) and len(results) == 2
    assert out[3:] == [
        "Generate predictions for 3 samples",
        "1/1 [==============================]",
        "predictions shape: (3, 10)",
    ]
    np.testing.assert_allclose(predictions.sum(axis=1), 1.0, rtol=1e-5)  # softmax rows


def test_compile_takes_objects_or_string_identifiers(mnist):
    model = get_uncompiled_model()
    model.compile(
        optimizer=keras.optimizers.RMSprop(learning_rate=1e-3),
        loss=keras.losses.SparseCategoricalCrossentropy(),
        metrics=[keras.metrics.SparseCategoricalAccuracy()],
    )
    model.compile(
        optimizer="rmsprop",
        loss="sparse_categorical_crossentropy",
        metrics=["sparse_categorical_accuracy"],
    )
    assert type(model.optimizer).__name__ == "RMSprop"
    assert model.optimizer.learning_rate == 1e-3


def custom_mean_squared_error(y_true, y_pred):
    return tf.math.reduce_mean(tf.square(y_true - y_pred))


class CustomMSE(keras.losses.Loss):
    def __init__(self, regularization_factor=0.1, name="custom_mse"):
        super().__init__(name=name)
        self.regularization_factor = regularization_factor

    def call(self, y_true, y_pred):
        mse = tf.math.reduce_mean(tf.square(y_true - y_pred))
        reg = tf.math.reduce_mean(tf.square(0.5 - y_pred))
        return mse + reg * self.regularization_factor


def test_custom_losses(mnist):
    x_train, y_train = mnist[:2]
    model = get_uncompiled_model()
    model.compile(optimizer=keras.optimizers.Adam(), loss=custom_mean_squared_error)

    # We need to one-hot encode the labels to use MSE
    y_train_one_hot = tf.one_hot(y_train.astype("int32"), depth=10)  # changed: int labels
    history = model.fit(x_train, y_train_one_hot, batch_size=64, epochs=1, verbose=0)
    assert list(history.history) == ["loss"] and history.history["loss"][0] < 0.09

    model = get_uncompiled_model()
    model.compile(optimizer=keras.optimizers.Adam(), loss=CustomMSE())

    y_train_one_hot = tf.one_hot(y_train.astype("int32"), depth=10)  # changed: int labels
    history = model.fit(x_train, y_train_one_hot, batch_size=64, epochs=1, verbose=0)
    assert model.loss.name == "custom_mse" and history.history["loss"][0] > 0


class CategoricalTruePositives(keras.metrics.Metric):
    def __init__(self, name="categorical_true_positives", **kwargs):
        super(CategoricalTruePositives, self).__init__(name=name, **kwargs)
        self.true_positives = self.add_weight(name="ctp", initializer="zeros")

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = tf.reshape(tf.argmax(y_pred, axis=1), shape=(-1, 1))
        values = tf.cast(y_true, "int32") == tf.cast(y_pred, "int32")
        values = tf.cast(values, "float32")
        if sample_weight is not None:
            sample_weight = tf.cast(sample_weight, "float32")
            values = tf.multiply(values, sample_weight)
        self.true_positives.assign_add(tf.reduce_sum(values))

    def result(self):
        return self.true_positives

    def reset_states(self):
        # The state of the metric will be reset at the start of each epoch.
        self.true_positives.assign(0.0)


def test_custom_metrics(mnist):
    x_train, y_train = mnist[:2]
    model = get_uncompiled_model()
    model.compile(
        optimizer=keras.optimizers.RMSprop(learning_rate=1e-3),
        loss=keras.losses.SparseCategoricalCrossentropy(),
        metrics=[CategoricalTruePositives()],
    )
    history = model.fit(x_train, y_train, batch_size=64, epochs=3, verbose=0)
    # y_true (batch,) against argmax reshaped to (batch, 1): the comparison broadcasts to
    # batch x batch, as in TF, so the count is that of equal label pairs; it is reset (by
    # the overridden reset_states) at each epoch, so each epoch counts its own batches.
    counts = history.history["categorical_true_positives"]
    assert len(counts) == 3 and all(c > 0 for c in counts)
    assert model.metrics_names == ["loss", "categorical_true_positives"]


class ActivityRegularizationLayer(layers.Layer):
    def call(self, inputs):
        self.add_loss(tf.reduce_sum(inputs) * 0.1)
        return inputs  # Pass-through layer.


class MetricLoggingLayer(layers.Layer):
    def call(self, inputs):
        # The `aggregation` argument defines
        # how to aggregate the per-batch values
        # over each epoch:
        # in this case we simply average them.
        self.add_metric(keras.backend.std(inputs), name="std_of_activation", aggregation="mean")
        return inputs  # Pass-through layer.


def test_losses_and_metrics_added_by_layers(mnist):
    x_train, y_train = mnist[:2]
    inputs = keras.Input(shape=(784,), name="digits")
    x = layers.Dense(64, activation="relu", name="dense_1")(inputs)

    # Insert activity regularization as a layer
    x = ActivityRegularizationLayer()(x)

    x = layers.Dense(64, activation="relu", name="dense_2")(x)
    outputs = layers.Dense(10, name="predictions")(x)

    model = keras.Model(inputs=inputs, outputs=outputs)
    model.compile(
        optimizer=keras.optimizers.RMSprop(learning_rate=1e-3),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    )

    # The displayed loss will be much higher than before
    # due to the regularization component.
    history = model.fit(x_train, y_train, batch_size=64, epochs=1, verbose=0)
    assert len(model.losses) == 1  # the latest forward pass's
    # The loss is the cross-entropy plus the penalty: minimizing it drives activity to 0.
    hidden = model.get_layer("dense_1")(x_train[:64])
    assert float(tf.reduce_sum(hidden)) * 0.1 < history.history["loss"][0]

    inputs = keras.Input(shape=(784,), name="digits")
    x = layers.Dense(64, activation="relu", name="dense_1")(inputs)

    # Insert std logging as a layer.
    x = MetricLoggingLayer()(x)

    x = layers.Dense(64, activation="relu", name="dense_2")(x)
    outputs = layers.Dense(10, name="predictions")(x)

    model = keras.Model(inputs=inputs, outputs=outputs)
    model.compile(
        optimizer=keras.optimizers.RMSprop(learning_rate=1e-3),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    )
    history = model.fit(x_train, y_train, batch_size=64, epochs=1, verbose=0)
    assert list(history.history) == ["loss", "std_of_activation"]
    assert history.history["std_of_activation"][0] > 0


def test_add_loss_on_a_functional_models_tensors_is_refused_clearly():
    inputs = keras.Input(shape=(784,), name="digits")
    x1 = layers.Dense(64, activation="relu", name="dense_1")(inputs)
    x2 = layers.Dense(64, activation="relu", name="dense_2")(x1)
    outputs = layers.Dense(10, name="predictions")(x2)
    model = keras.Model(inputs=inputs, outputs=outputs)

    with pytest.raises(NotImplementedError, match="add it inside a layer's call"):
        model.add_loss(tf.reduce_sum(x1) * 0.1)
    with pytest.raises(NotImplementedError, match="inside a layer's call"):
        model.add_metric(keras.backend.std(x1), name="std_of_activation", aggregation="mean")


class LogisticEndpoint(keras.layers.Layer):
    def __init__(self, name=None):
        super(LogisticEndpoint, self).__init__(name=name)
        self.loss_fn = keras.losses.BinaryCrossentropy(from_logits=True)
        self.accuracy_fn = keras.metrics.BinaryAccuracy()

    def call(self, targets, logits, sample_weights=None):
        # Compute the training-time loss value and add it
        # to the layer using `self.add_loss()`.
        loss = self.loss_fn(targets, logits, sample_weights)
        self.add_loss(loss)

        # Log accuracy as a metric and add it
        # to the layer using `self.add_metric()`.
        acc = self.accuracy_fn(targets, logits, sample_weights)
        self.add_metric(acc, name="accuracy")

        # Return the inference-time prediction tensor (for `.predict()`).
        return tf.nn.softmax(logits)


def test_a_model_compiled_without_a_loss_trains_on_added_losses():
    inputs = keras.Input(shape=(3,), name="inputs")
    targets = keras.Input(shape=(10,), name="targets")
    logits = keras.layers.Dense(10)(inputs)
    predictions = LogisticEndpoint(name="predictions")(logits, targets)

    model = keras.Model(inputs=[inputs, targets], outputs=predictions)
    model.compile(optimizer="adam")  # No loss argument!

    data = {
        "inputs": np.random.random((3, 3)),
        "targets": np.random.random((3, 10)),
    }
    history = model.fit(data, verbose=0)
    assert list(history.history) == ["loss", "accuracy"]
    assert history.history["loss"][0] > 0


def test_validation_split_holds_out_the_last_samples(mnist):
    x_train, y_train = mnist[:2]
    model = get_compiled_model()
    history = model.fit(x_train, y_train, batch_size=64, validation_split=0.2, epochs=1, verbose=0)
    assert set(history.history) == {
        "loss",
        "sparse_categorical_accuracy",
        "val_loss",
        "val_sparse_categorical_accuracy",
    }
    # The held-out part is the last 20% of the arrays, never trained on.
    check = get_compiled_model()
    check.set_weights(model.get_weights())
    loss, _ = check.evaluate(x_train[3200:], y_train[3200:], verbose=0)
    assert loss == pytest.approx(history.history["val_loss"][0], rel=1e-5)


def test_training_and_evaluation_from_datasets(mnist, capsys):
    x_train, y_train, x_val, y_val, x_test, y_test = mnist
    model = get_compiled_model()

    # First, let's create a training Dataset instance.
    # For the sake of our example, we'll use the same MNIST data as before.
    train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train))
    # Shuffle and slice the dataset.
    train_dataset = train_dataset.shuffle(buffer_size=1024).batch(64)

    # Now we get a test dataset.
    test_dataset = tf.data.Dataset.from_tensor_slices((x_test, y_test))
    test_dataset = test_dataset.batch(64)

    # Since the dataset already takes care of batching,
    # we don't pass a `batch_size` argument.
    model.fit(train_dataset, epochs=3)

    # You can also evaluate or predict on a dataset.
    print("Evaluate")
    result = model.evaluate(test_dataset)
    shown = dict(zip(model.metrics_names, result))
    assert list(shown) == ["loss", "sparse_categorical_accuracy"]
    out = capsys.readouterr().out.splitlines()
    # The datasets' cardinality gives their sizes, from the first epoch on (as in Keras).
    assert out[1].startswith("63/63 [==============================] - loss: ")
    assert out[3].startswith("63/63 [==============================] - loss: ")
    assert out[-1].startswith("8/8 [==============================] - loss: ")

    model = get_compiled_model()
    # Only use the 100 batches per epoch (that's 64 * 100 samples)
    with pytest.warns(UserWarning, match="Your input ran out of data"):
        history = model.fit(train_dataset, epochs=3, steps_per_epoch=100, verbose=0)
    assert history.epoch == [0]  # 63 batches only: training stops, as in Keras

    model = get_compiled_model()
    # Prepare the validation dataset
    val_dataset = tf.data.Dataset.from_tensor_slices((x_val, y_val))
    val_dataset = val_dataset.batch(64)
    history = model.fit(train_dataset, epochs=1, validation_data=val_dataset, verbose=0)
    full = model.evaluate(val_dataset, verbose=0)[0]
    assert history.history["val_loss"][0] == pytest.approx(full, rel=1e-5)

    model = get_compiled_model()
    seen = []
    model.fit(
        train_dataset,
        epochs=1,
        # Only run validation using the first 10 batches of the dataset
        # using the `validation_steps` argument
        validation_data=val_dataset,
        validation_steps=10,
        verbose=0,
        callbacks=[
            keras.callbacks.LambdaCallback(on_test_batch_end=lambda batch, logs: seen.append(batch))
        ],
    )
    assert seen == list(range(10))

    with pytest.raises(ValueError, match="`validation_split` is only supported for Tensors"):
        model.fit(train_dataset, validation_split=0.2)


def test_class_weights_and_sample_weights(mnist):
    x_train, y_train = mnist[:2]
    class_weight = {
        0: 1.0,
        1: 1.0,
        2: 1.0,
        3: 1.0,
        4: 1.0,
        # Set weight "2" for class "5",
        # making this class 2x more important
        5: 2.0,
        6: 1.0,
        7: 1.0,
        8: 1.0,
        9: 1.0,
    }
    print("Fit with class weight")
    model = get_compiled_model()
    model.fit(x_train, y_train, class_weight=class_weight, batch_size=64, epochs=1, verbose=0)

    sample_weight = np.ones(shape=(len(y_train),))
    sample_weight[y_train == 5] = 2.0
    print("Fit with sample weight")
    model = get_compiled_model()
    model.fit(x_train, y_train, sample_weight=sample_weight, batch_size=64, epochs=1, verbose=0)

    # Create a Dataset that includes sample weights
    # (3rd element in the return tuple).
    train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train, sample_weight))
    # Shuffle and slice the dataset.
    train_dataset = train_dataset.shuffle(buffer_size=1024).batch(64)
    model = get_compiled_model()
    model.fit(train_dataset, epochs=1, verbose=0)

    # The weights enter the loss: a batch of class 5 counts twice.
    model = get_compiled_model()
    fives = x_train[y_train == 5][:8], y_train[y_train == 5][:8]
    plain = model.test_on_batch(*fives)[0]
    weighted = model.test_on_batch(*fives, sample_weight=np.full(8, 2.0))[0]
    assert weighted == pytest.approx(2 * plain, rel=1e-5)


def multi_input_model():
    image_input = keras.Input(shape=(32, 32, 3), name="img_input")
    timeseries_input = keras.Input(shape=(None, 10), name="ts_input")

    x1 = layers.Conv2D(3, 3)(image_input)
    x1 = layers.GlobalMaxPooling2D()(x1)

    x2 = tf.reduce_max(timeseries_input, axis=1)  # changed: no Conv1D / GlobalMaxPooling1D

    x = layers.concatenate([x1, x2])

    score_output = layers.Dense(1, name="score_output")(x)
    class_output = layers.Dense(5, name="class_output")(x)

    model = keras.Model(
        inputs=[image_input, timeseries_input], outputs=[score_output, class_output]
    )
    return model


def test_multi_input_multi_output_models():
    model = multi_input_model()
    model.compile(
        optimizer=keras.optimizers.RMSprop(1e-3),
        loss=[keras.losses.MeanSquaredError(), keras.losses.CategoricalCrossentropy()],
    )
    model.compile(
        optimizer=keras.optimizers.RMSprop(1e-3),
        loss=[keras.losses.MeanSquaredError(), keras.losses.CategoricalCrossentropy()],
        metrics=[
            [
                keras.metrics.MeanAbsolutePercentageError(),
                keras.metrics.MeanAbsoluteError(),
            ],
            [keras.metrics.CategoricalAccuracy()],
        ],
    )
    model.compile(
        optimizer=keras.optimizers.RMSprop(1e-3),
        loss={
            "score_output": keras.losses.MeanSquaredError(),
            "class_output": keras.losses.CategoricalCrossentropy(),
        },
        metrics={
            "score_output": [
                keras.metrics.MeanAbsolutePercentageError(),
                keras.metrics.MeanAbsoluteError(),
            ],
            "class_output": [keras.metrics.CategoricalAccuracy()],
        },
        loss_weights={"score_output": 2.0, "class_output": 1.0},
    )
    img_data = np.random.random_sample(size=(100, 32, 32, 3))
    ts_data = np.random.random_sample(size=(100, 20, 10))
    score_targets = np.random.random_sample(size=(100, 1))
    class_targets = np.random.random_sample(size=(100, 5))
    logs = model.fit(
        [img_data, ts_data], [score_targets, class_targets], batch_size=32, epochs=1, verbose=0
    ).history
    assert list(logs) == [
        "loss",
        "score_output_loss",
        "class_output_loss",
        "score_output_mean_absolute_percentage_error",
        "score_output_mean_absolute_error",
        "class_output_categorical_accuracy",
    ]
    # The total is the weighted sum of the outputs' losses (each a mean over batches).
    total = 2.0 * logs["score_output_loss"][0] + logs["class_output_loss"][0]
    assert logs["loss"][0] == pytest.approx(total, rel=1e-4)

    # List loss version
    model.compile(
        optimizer=keras.optimizers.RMSprop(1e-3),
        loss=[None, keras.losses.CategoricalCrossentropy()],
    )
    # Or dict loss version
    model.compile(
        optimizer=keras.optimizers.RMSprop(1e-3),
        loss={"class_output": keras.losses.CategoricalCrossentropy()},
    )
    history = model.fit(
        [img_data, ts_data], {"class_output": class_targets}, batch_size=32, epochs=1, verbose=0
    )
    assert list(history.history) == ["loss", "class_output_loss"]  # Keras logs it per output

    model.compile(
        optimizer=keras.optimizers.RMSprop(1e-3),
        loss=[keras.losses.MeanSquaredError(), keras.losses.CategoricalCrossentropy()],
    )
    # Fit on lists
    model.fit([img_data, ts_data], [score_targets, class_targets], batch_size=32, epochs=1)
    # Alternatively, fit on dicts
    model.fit(
        {"img_input": img_data, "ts_input": ts_data},
        {"score_output": score_targets, "class_output": class_targets},
        batch_size=32,
        epochs=1,
    )
    train_dataset = tf.data.Dataset.from_tensor_slices(
        (
            {"img_input": img_data, "ts_input": ts_data},
            {"score_output": score_targets, "class_output": class_targets},
        )
    )
    train_dataset = train_dataset.shuffle(buffer_size=1024).batch(64)
    history = model.fit(train_dataset, epochs=1)
    assert list(history.history) == ["loss", "score_output_loss", "class_output_loss"]


def test_early_stopping(mnist, capsys):
    x_train, y_train = mnist[:2]
    model = get_compiled_model()
    callbacks = [
        keras.callbacks.EarlyStopping(
            # Stop training when `val_loss` is no longer improving
            monitor="val_loss",
            # "no longer improving" being defined as "no better than 1e-2 less"
            min_delta=1e-2,
            # "no longer improving" being further defined as "for at least 2 epochs"
            patience=2,
            verbose=1,
        )
    ]
    history = model.fit(
        x_train,
        y_train,
        epochs=20,
        batch_size=64,
        callbacks=callbacks,
        validation_split=0.2,
    )
    stopped = callbacks[0].stopped_epoch
    assert 0 < stopped < 19 and history.epoch == list(range(stopped + 1))
    assert capsys.readouterr().out.splitlines()[-1] == f"Epoch {stopped + 1}: early stopping"
    losses = history.history["val_loss"]
    best = min(range(stopped - 1), key=lambda i: losses[i])
    assert all(loss > losses[best] - 1e-2 for loss in losses[-2:])  # 2 epochs without gain


class LossHistory(keras.callbacks.Callback):
    def on_train_begin(self, logs):
        self.per_batch_losses = []

    def on_batch_end(self, batch, logs):
        self.per_batch_losses.append(logs.get("loss"))


def test_checkpointing_models(mnist, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    x_train, y_train = mnist[:2]
    model = get_compiled_model()
    losses = LossHistory()
    callbacks = [
        keras.callbacks.ModelCheckpoint(
            # Path where to save the model
            # The two parameters below mean that we will overwrite
            # the current checkpoint if and only if
            # the `val_loss` score has improved.
            # The saved model name will include the current epoch.
            filepath="mymodel_{epoch}.keras",  # Keras 3's guide: a whole model is a .keras file
            save_best_only=True,  # Only save a model if `val_loss` has improved.
            monitor="val_loss",
            verbose=1,
        ),
        losses,
    ]
    history = model.fit(
        x_train, y_train, epochs=2, batch_size=64, callbacks=callbacks, validation_split=0.2
    )
    assert len(losses.per_batch_losses) == 2 * 50
    out = capsys.readouterr().out
    first = history.history["val_loss"][0]
    assert (
        f"Epoch 1: val_loss improved from inf to {first:.5f}, saving model to mymodel_1.keras"
        in out
    )
    assert os.path.isfile("mymodel_1.keras")
    restored = keras.models.load_model(max(os.listdir("."), key=os.path.getctime))
    np.testing.assert_allclose(restored.predict(x_train[:5]), model.predict(x_train[:5]), rtol=1e-6)
    capsys.readouterr()

    # Prepare a directory to store all the checkpoints.
    checkpoint_dir = "./ckpt"
    if not os.path.exists(checkpoint_dir):
        os.makedirs(checkpoint_dir)

    def make_or_restore_model():
        # Either restore the latest model, or create a fresh one
        # if there is no checkpoint available.
        checkpoints = [checkpoint_dir + "/" + name for name in os.listdir(checkpoint_dir)]
        if checkpoints:
            latest_checkpoint = max(checkpoints, key=os.path.getctime)
            print("Restoring from", latest_checkpoint)
            return keras.models.load_model(latest_checkpoint)
        print("Creating a new model")
        return get_compiled_model()

    model = make_or_restore_model()
    callbacks = [
        # This callback saves a SavedModel every 100 batches.
        # We include the training loss in the saved model name.
        keras.callbacks.ModelCheckpoint(
            filepath=checkpoint_dir + "/ckpt-loss={loss:.2f}.keras", save_freq=100
        )
    ]
    model.fit(x_train, y_train, epochs=1, callbacks=callbacks)
    assert capsys.readouterr().out.startswith("Creating a new model")
    saved = os.listdir(checkpoint_dir)
    assert len(saved) == 1 and saved[0].startswith("ckpt-loss=")  # 125 batches: one save

    model = make_or_restore_model()
    assert capsys.readouterr().out == f"Restoring from ./ckpt/{saved[0]}\n"
    assert model.optimizer.iterations.numpy() == 100  # compiled, its optimizer's state kept
    model.fit(x_train[:64], y_train[:64], epochs=1, verbose=0)
    assert model.optimizer.iterations.numpy() == 102

"""TF2's guide "Writing a training loop from scratch" (Keras 2), its first half, ported with
only the imports changed (``import eagerkit as tf``, ``from eagerkit import keras``).

The guide trains an MNIST model with a ``GradientTape`` loop, then keeps a training and a
validation ``SparseCategoricalAccuracy`` updated at each step, read with ``result()`` and
cleared with ``reset_states()`` at each epoch's end; then it decorates ``train_step`` and
``test_step`` with ``@tf.function`` and runs the same loop. Here the data are random arrays
of MNIST's shapes (784 pixels in [0, 1], labels 0-9; fewer of them), and every value the
guide prints is checked against numpy: the losses and accuracies are recomputed from the
model's weights before each step (a numpy forward pass of its three Dense layers).
"""

import numpy as np
import pytest

import eagerkit as tf
from eagerkit import keras
from eagerkit.keras import layers

TRAIN, VALIDATION, BATCH_SIZE, EPOCHS = 384, 128, 64, 2  # whole batches: one trace each


def get_model():
    inputs = keras.Input(shape=(784,), name="digits")
    x1 = layers.Dense(64, activation="relu")(inputs)
    x2 = layers.Dense(64, activation="relu")(x1)
    outputs = layers.Dense(10, name="predictions")(x2)
    return keras.Model(inputs=inputs, outputs=outputs)


def datasets(seed):
    rng = np.random.default_rng(seed)
    x = rng.random((TRAIN + VALIDATION, 784)).astype("float32")
    y = rng.integers(0, 10, TRAIN + VALIDATION).astype("uint8")  # as MNIST's labels
    x_train, y_train = x[:-VALIDATION], y[:-VALIDATION]
    x_val, y_val = x[-VALIDATION:], y[-VALIDATION:]
    train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train))
    train_dataset = train_dataset.shuffle(buffer_size=1024).batch(BATCH_SIZE)
    val_dataset = tf.data.Dataset.from_tensor_slices((x_val, y_val))
    val_dataset = val_dataset.batch(BATCH_SIZE)
    return train_dataset, val_dataset


def numpy_logits(model, x):
    """The model's forward pass in numpy, from its weights now."""
    w1, b1, w2, b2, w3, b3 = model.get_weights()
    h = np.maximum(np.asarray(x, np.float64) @ w1 + b1, 0)
    h = np.maximum(h @ w2 + b2, 0)
    return h @ w3 + b3


def numpy_loss_and_hits(model, x, y):
    logits = numpy_logits(model, x)
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_softmax = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    labels = np.asarray(y).astype(np.int64)
    loss = -log_softmax[np.arange(len(labels)), labels].mean()
    return loss, list(np.argmax(logits, axis=1) == labels)


class Guide:
    """The guide's objects, made as it makes them."""

    def __init__(self, seed):
        tf.random.set_seed(seed)
        self.model = get_model()
        self.optimizer = keras.optimizers.SGD(learning_rate=1e-3)
        self.loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
        self.train_acc_metric = keras.metrics.SparseCategoricalAccuracy()
        self.val_acc_metric = keras.metrics.SparseCategoricalAccuracy()
        self.train_dataset, self.val_dataset = datasets(seed)


def run_loop(guide, train_step, test_step):
    """The guide's epoch loop around ``train_step``/``test_step``; returns what it printed,
    and what numpy says each printed value should be."""
    printed, expected = [], []
    for _epoch in range(EPOCHS):
        train_hits = []
        for _step, (x_batch_train, y_batch_train) in enumerate(guide.train_dataset):
            loss_np, hits = numpy_loss_and_hits(guide.model, x_batch_train, y_batch_train)
            loss_value = train_step(x_batch_train, y_batch_train)
            printed.append(("loss", float(loss_value)))
            expected.append(("loss", loss_np))
            train_hits += hits

        # Display metrics at the end of each epoch.
        train_acc = guide.train_acc_metric.result()
        printed.append(("train acc", float(train_acc)))
        expected.append(("train acc", np.mean(train_hits)))
        # Reset training metrics at the end of each epoch
        guide.train_acc_metric.reset_states()

        # Run a validation loop at the end of each epoch.
        val_hits = []
        for x_batch_val, y_batch_val in guide.val_dataset:
            val_hits += numpy_loss_and_hits(guide.model, x_batch_val, y_batch_val)[1]
            test_step(x_batch_val, y_batch_val)

        val_acc = guide.val_acc_metric.result()
        guide.val_acc_metric.reset_states()
        printed.append(("val acc", float(val_acc)))
        expected.append(("val acc", np.mean(val_hits)))
    return printed, expected


def eager_steps(guide):
    """The guide's loop body with its metrics, before ``tf.function``."""
    model, optimizer, loss_fn = guide.model, guide.optimizer, guide.loss_fn

    def train_step(x_batch_train, y_batch_train):
        with tf.GradientTape() as tape:
            logits = model(x_batch_train, training=True)
            loss_value = loss_fn(y_batch_train, logits)
        grads = tape.gradient(loss_value, model.trainable_weights)
        optimizer.apply_gradients(zip(grads, model.trainable_weights))

        # Update training metric.
        guide.train_acc_metric.update_state(y_batch_train, logits)
        return loss_value

    def test_step(x_batch_val, y_batch_val):
        val_logits = model(x_batch_val, training=False)
        # Update val metrics
        guide.val_acc_metric.update_state(y_batch_val, val_logits)

    return train_step, test_step


def function_steps(guide):
    """The guide's "Speeding-up your training step with tf.function", as written there."""
    model, optimizer, loss_fn = guide.model, guide.optimizer, guide.loss_fn
    train_acc_metric, val_acc_metric = guide.train_acc_metric, guide.val_acc_metric

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            logits = model(x, training=True)
            loss_value = loss_fn(y, logits)
        grads = tape.gradient(loss_value, model.trainable_weights)
        optimizer.apply_gradients(zip(grads, model.trainable_weights))
        train_acc_metric.update_state(y, logits)
        return loss_value

    @tf.function
    def test_step(x, y):
        val_logits = model(x, training=False)
        val_acc_metric.update_state(y, val_logits)

    return train_step, test_step


@pytest.mark.parametrize("make_steps", [eager_steps, function_steps])
def test_the_printed_losses_and_accuracies_are_numpys(make_steps):
    guide = Guide(seed=0)
    train_step, test_step = make_steps(guide)
    printed, expected = run_loop(guide, train_step, test_step)
    assert [what for what, _ in printed] == [what for what, _ in expected]
    assert len(printed) == EPOCHS * (TRAIN // BATCH_SIZE + 2)
    for (what, value), (_, reference) in zip(printed, expected, strict=True):
        assert value == pytest.approx(reference, rel=1e-4, abs=1e-6), what
    accuracies = [value for what, value in printed if what != "loss"]
    assert all(0 <= value <= 1 for value in accuracies)
    if make_steps is function_steps:  # traced once, replayed at every other batch
        assert train_step.experimental_get_tracing_count() == 1
        assert test_step.experimental_get_tracing_count() == 1


def test_the_function_loop_trains_as_the_eager_loop():
    """Same seed, same batches: ``@tf.function`` changes how fast, not what."""
    results = []
    for make_steps in (eager_steps, function_steps):
        guide = Guide(seed=3)
        printed, _ = run_loop(guide, *make_steps(guide))
        results.append((printed, guide.model.get_weights()))
    (eager_printed, eager_weights), (graph_printed, graph_weights) = results
    for (what, a), (_, b) in zip(eager_printed, graph_printed, strict=True):
        assert a == pytest.approx(b, rel=1e-5, abs=1e-7), what
    for a, b in zip(eager_weights, graph_weights, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_a_last_partial_batch_traces_once_more_and_counts_right():
    """The guide's real data end with a smaller batch: a second trace, counted right."""
    guide = Guide(seed=5)
    x = np.random.default_rng(5).random((100, 784)).astype("float32")
    y = np.arange(100) % 10
    guide.val_dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(BATCH_SIZE)  # 64 + 36
    _, test_step = function_steps(guide)
    hits = []
    for x_batch_val, y_batch_val in guide.val_dataset:
        hits += numpy_loss_and_hits(guide.model, x_batch_val, y_batch_val)[1]
        test_step(x_batch_val, y_batch_val)
    assert test_step.experimental_get_tracing_count() == 2
    assert float(guide.val_acc_metric.result()) == pytest.approx(np.mean(hits), abs=1e-7)
    assert float(guide.val_acc_metric.count) == 100

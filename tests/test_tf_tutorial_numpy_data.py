"""TF's tutorial "Load NumPy data" (tensorflow.org/tutorials/load_data/numpy) runs on
eagerkit, with ``import eagerkit as tf``.

The ``mnist.npz`` it downloads is written to ``tmp_path`` in the same format: an ``np.savez``
archive with the arrays ``x_train``, ``y_train``, ``x_test`` and ``y_test``, the images 28x28
``uint8`` (black background, strokes of ink 128-255) and the labels ``uint8`` 0-9. 640
training and 128 test images, seeded: each digit is a pattern of strokes of its own, a part
of it drawn in each image, with stray specks, so the model learns it over the tutorial's 10
epochs without being perfect on the test set. Every cell after the download runs as
written: ``np.load`` as a context manager, ``Dataset.from_tensor_slices`` on the
``(examples, labels)`` pair, ``shuffle`` and ``batch``, the Flatten/Dense model fed the
``uint8`` pixels unscaled (Keras casts them to the float32 Input), ``compile`` with
``RMSprop`` and ``'sparse_categorical_accuracy'``, ``fit`` and ``evaluate``.

Examples not run as written, and why:

- ``tf.keras.utils.get_file('mnist.npz', DATA_URL)``: eagerkit works offline and has no
  downloader for any file; the missing name says so, checked here.
"""

import re

import numpy as np
import pytest

import eagerkit as tf

DATA_URL = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/mnist.npz"
BATCH_SIZE = 64
SHUFFLE_BUFFER_SIZE = 100


def write_mnist_npz(path, train_count=640, test_count=128, seed=0):
    """A small ``mnist.npz`` in the downloaded file's format."""
    rng = np.random.default_rng(seed)
    strokes = np.zeros((10, 28, 28), bool)
    strokes[:, 4:24, 4:24] = rng.random((10, 20, 20)) < 0.15  # each digit's own strokes

    def images_and_labels(count):
        labels = rng.integers(0, 10, count).astype(np.uint8)
        drawn = strokes[labels] & (rng.random((count, 28, 28)) < 0.5)
        specks = rng.random((count, 28, 28)) < 0.08
        ink = rng.integers(128, 256, (count, 28, 28))
        return np.where(drawn | specks, ink, 0).astype(np.uint8), labels

    x_train, y_train = images_and_labels(train_count)
    x_test, y_test = images_and_labels(test_count)
    np.savez(path, x_train=x_train, y_train=y_train, x_test=x_test, y_test=y_test)
    return path


@pytest.fixture()
def path(tmp_path):
    return write_mnist_npz(tmp_path / "mnist.npz")


def test_get_file_is_missing_and_says_what_to_do():
    with pytest.raises(AttributeError, match=r"no tf\.keras\.utils\.get_file.*local path"):
        tf.keras.utils.get_file("mnist.npz", DATA_URL)


def test_load_from_npz_file(path):
    with np.load(path) as data:
        train_examples = data["x_train"]
        train_labels = data["y_train"]
        test_examples = data["x_test"]
        test_labels = data["y_test"]

    assert train_examples.shape == (640, 28, 28) and train_labels.shape == (640,)
    assert test_examples.shape == (128, 28, 28) and test_labels.shape == (128,)
    assert train_examples.dtype == train_labels.dtype == np.uint8
    assert train_examples.min() == 0 and 128 <= train_examples[train_examples > 0].min()
    assert set(np.unique(train_labels)) == set(range(10))

    # --- Load NumPy arrays with tf.data.Dataset ---
    train_dataset = tf.data.Dataset.from_tensor_slices((train_examples, train_labels))
    test_dataset = tf.data.Dataset.from_tensor_slices((test_examples, test_labels))

    assert train_dataset.element_spec == (
        tf.TensorSpec(shape=(28, 28), dtype=tf.uint8),
        tf.TensorSpec(shape=(), dtype=tf.uint8),
    )
    assert len(train_dataset) == 640 and len(test_dataset) == 128
    first_image, first_label = next(iter(train_dataset))
    np.testing.assert_array_equal(first_image, train_examples[0])
    assert first_label.dtype == tf.uint8 and int(first_label) == train_labels[0]


def test_use_the_datasets_shuffle_batch_and_train(path, capsys):
    tf.keras.utils.set_random_seed(0)  # the tutorial's shuffle and weights are unseeded
    with np.load(path) as data:
        train_examples = data["x_train"]
        train_labels = data["y_train"]
        test_examples = data["x_test"]
        test_labels = data["y_test"]
    train_dataset = tf.data.Dataset.from_tensor_slices((train_examples, train_labels))
    test_dataset = tf.data.Dataset.from_tensor_slices((test_examples, test_labels))

    # --- Shuffle and batch the datasets ---
    train_dataset = train_dataset.shuffle(SHUFFLE_BUFFER_SIZE).batch(BATCH_SIZE)
    test_dataset = test_dataset.batch(BATCH_SIZE)

    assert int(train_dataset.cardinality()) == 10 and int(test_dataset.cardinality()) == 2
    batches = list(train_dataset)
    assert [len(labels) for _, labels in batches] == [64] * 10
    seen = np.concatenate([labels.numpy() for _, labels in batches])
    assert sorted(seen) == sorted(train_labels) and not np.array_equal(seen, train_labels)

    # --- Build and train a model ---
    model = tf.keras.Sequential(
        [
            tf.keras.layers.Flatten(input_shape=(28, 28)),
            tf.keras.layers.Dense(128, activation="relu"),
            tf.keras.layers.Dense(10),
        ]
    )

    model.compile(
        optimizer=tf.keras.optimizers.RMSprop(),
        loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["sparse_categorical_accuracy"],
    )

    capsys.readouterr()
    history = model.fit(train_dataset, epochs=10)
    out = capsys.readouterr().out
    # The dataset's cardinality is known: every epoch's bar shows 10/10, the first too.
    epochs = re.findall(
        r"Epoch (\d+)/10\n10/10 \[=+\] - loss: (\S+) - sparse_categorical_accuracy: (\S+)\n", out
    )
    assert [int(epoch) for epoch, _, _ in epochs] == list(range(1, 11))
    assert list(history.history) == ["loss", "sparse_categorical_accuracy"]
    np.testing.assert_allclose(
        [float(loss) for _, loss, _ in epochs], history.history["loss"], rtol=1e-3, atol=5e-5
    )  # 4 decimals, or 4 digits in e-notation for tiny losses
    losses, accuracies = history.history["loss"], history.history["sparse_categorical_accuracy"]
    assert losses[-1] < losses[0] / 10 and accuracies[-1] > 0.95

    result = model.evaluate(test_dataset)
    out = capsys.readouterr().out
    assert re.fullmatch(
        r"2/2 \[=+\] - loss: \d+\.\d{4} - sparse_categorical_accuracy: \d\.\d{4}\n", out
    )
    loss, accuracy = result
    assert type(loss) is float and type(accuracy) is float
    assert 0.7 < accuracy <= accuracies[-1]  # it learned the digits, and overfits a little
    guesses = np.argmax(model.predict(test_examples, verbose=0), axis=1)
    assert (guesses == test_labels).mean() == pytest.approx(accuracy, abs=1e-6)

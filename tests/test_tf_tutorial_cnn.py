"""TF's tutorial "Convolutional Neural Network (CNN)" (tensorflow.org/tutorials/images/cnn)
runs on eagerkit, with ``import eagerkit as tf`` and ``from eagerkit.keras import datasets,
layers, models``.

CIFAR-10 (50,000 + 10,000 images the tutorial downloads) is replaced by a small seeded set of
the same format: 32x32x3 ``uint8`` images and ``uint8`` labels 0-9 of shape ``(N, 1)`` (CIFAR's
labels are arrays, hence the tutorial's ``train_labels[i][0]``), returned as
``(train_images, train_labels), (test_images, test_labels)`` like ``load_data()``. Each class
is a faint colour pattern of its own under heavy noise, so the CNN learns it over the
tutorial's 10 epochs (160 training images keep them fast; the tutorial's ~70% test accuracy is
CIFAR-10's and not checked, the loss must fall and the accuracy rise).
Every cell after the download runs as written: scaling to [0, 1], the 5x5 grid of images
(matplotlib's Agg backend), the convolutional base and its ``summary()``, the Dense layers on
top and the second ``summary()`` (the tutorial's output shapes and parameter counts),
``compile`` with ``adam`` and ``SparseCategoricalCrossentropy(from_logits=True)``, ``fit``
with ``validation_data``, the accuracy plot, and ``evaluate(verbose=2)``.

Examples not run as written, and why:

- ``datasets.cifar10.load_data()``: eagerkit has no CIFAR-10 loader (its downloader fetches
  MNIST, and the tests run offline); the missing name says so and what to use, checked here.
"""

import re

import matplotlib
import numpy as np
import pytest

import eagerkit as tf
from eagerkit.keras import datasets, layers, models

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 - after choosing the backend

CLASS_NAMES = [
    "airplane",
    "automobile",
    "bird",
    "cat",
    "deer",
    "dog",
    "frog",
    "horse",
    "ship",
    "truck",
]
EPOCHS = 10


def load_data(train_count=160, test_count=40, seed=0):
    """A small stand-in for ``cifar10.load_data()``, in its format."""
    rng = np.random.default_rng(seed)
    patterns = rng.integers(0, 256, (10, 32, 32, 3))

    def images_and_labels(count):
        labels = rng.permutation(np.arange(count) % 10).astype(np.uint8)  # every class
        noise = rng.integers(0, 128, (count, 32, 32, 3))
        images = np.clip(0.5 * patterns[labels] + noise, 0, 255).astype(np.uint8)
        return images, labels[:, None]

    return images_and_labels(train_count), images_and_labels(test_count)


@pytest.fixture(scope="module")
def dataset():
    (train_images, train_labels), (test_images, test_labels) = load_data()
    # Normalize pixel values to be between 0 and 1
    train_images, test_images = train_images / 255.0, test_images / 255.0
    return (train_images, train_labels), (test_images, test_labels)


def summary_rows(text):
    """(layer (type), output shape, params) for each layer row of a printed summary."""
    row = re.compile(r"^(\w+ \(\w+\))\s+(\(.*?\))\s+(\S+)\s*$")
    return [match.groups() for line in text.splitlines() if (match := row.match(line))]


def test_cifar10_is_missing_and_says_what_to_use():
    with pytest.raises(AttributeError, match=r"no tf\.keras\.datasets\.cifar10.*\(N, 32, 32, 3\)"):
        datasets.cifar10.load_data()  # the tutorial's download
    assert not hasattr(tf.keras.datasets, "cifar10")


def test_the_data_in_cifar10s_format_and_its_plot():
    (train_images, train_labels), (test_images, test_labels) = load_data()
    assert train_images.shape == (160, 32, 32, 3) and train_labels.shape == (160, 1)
    assert test_images.shape == (40, 32, 32, 3) and test_labels.shape == (40, 1)
    assert train_images.dtype == train_labels.dtype == np.uint8
    assert set(np.unique(train_labels)) == set(range(10))

    train_images, test_images = train_images / 255.0, test_images / 255.0
    assert train_images.dtype == np.float64 and 0 <= train_images.min() <= train_images.max() <= 1

    # --- Verify the data ---
    plt.figure(figsize=(10, 10))
    for i in range(25):
        plt.subplot(5, 5, i + 1)
        plt.xticks([])
        plt.yticks([])
        plt.grid(False)
        plt.imshow(train_images[i])
        # The CIFAR labels happen to be arrays,
        # which is why you need the extra index
        plt.xlabel(CLASS_NAMES[train_labels[i][0]])
    figure_axes = plt.gcf().axes
    assert [axes.get_xlabel() for axes in figure_axes] == [
        CLASS_NAMES[label] for label in train_labels[:25, 0]
    ]
    np.testing.assert_array_equal(figure_axes[3].images[0].get_array(), train_images[3])
    plt.close("all")


def test_build_train_and_evaluate_the_cnn(dataset, capsys):
    (train_images, train_labels), (test_images, test_labels) = dataset
    tf.keras.utils.set_random_seed(0)  # the tutorial's weights are drawn unseeded

    # --- Create the convolutional base ---
    model = models.Sequential()
    model.add(layers.Conv2D(32, (3, 3), activation="relu", input_shape=(32, 32, 3)))
    model.add(layers.MaxPooling2D((2, 2)))
    model.add(layers.Conv2D(64, (3, 3), activation="relu"))
    model.add(layers.MaxPooling2D((2, 2)))
    model.add(layers.Conv2D(64, (3, 3), activation="relu"))

    capsys.readouterr()
    model.summary()
    out = capsys.readouterr().out
    base = [  # the tutorial's table: 3x3 'valid' convolutions take 2 off, pooling halves
        ("conv2d (Conv2D)", "(None, 30, 30, 32)", "896"),
        ("max_pooling2d (MaxPooling2D)", "(None, 15, 15, 32)", "0"),
        ("conv2d_1 (Conv2D)", "(None, 13, 13, 64)", "18,496"),
        ("max_pooling2d_1 (MaxPooling2D)", "(None, 6, 6, 64)", "0"),
        ("conv2d_2 (Conv2D)", "(None, 4, 4, 64)", "36,928"),
    ]
    assert out.startswith('Model: "sequential"\n') and summary_rows(out) == base
    assert "Total params: 56,320" in out and "Trainable params: 56,320" in out
    assert "Non-trainable params: 0" in out

    # --- Add Dense layers on top ---
    model.add(layers.Flatten())
    model.add(layers.Dense(64, activation="relu"))
    model.add(layers.Dense(10))

    model.summary()
    out = capsys.readouterr().out
    assert summary_rows(out) == base + [
        ("flatten (Flatten)", "(None, 1024)", "0"),  # 4 * 4 * 64
        ("dense (Dense)", "(None, 64)", "65,600"),
        ("dense_1 (Dense)", "(None, 10)", "650"),
    ]
    assert "Total params: 122,570" in out and "Trainable params: 122,570" in out
    assert model.count_params() == 122_570

    # --- Compile and train the model ---
    model.compile(
        optimizer="adam",
        loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )

    history = model.fit(
        train_images, train_labels, epochs=EPOCHS, validation_data=(test_images, test_labels)
    )
    out = capsys.readouterr().out
    number = r"(\d\.\d{4})"
    epochs = re.findall(
        rf"Epoch (\d+)/{EPOCHS}\n5/5 .* - loss: {number} - accuracy: {number} - "
        rf"val_loss: {number} - val_accuracy: {number}\n",
        out,
    )
    assert [int(row[0]) for row in epochs] == list(range(1, EPOCHS + 1))  # 160 / 32 = 5 steps
    assert list(history.history) == ["loss", "accuracy", "val_loss", "val_accuracy"]
    for column, key in enumerate(history.history, start=1):
        assert len(history.history[key]) == EPOCHS
        shown = [float(row[column]) for row in epochs]
        np.testing.assert_allclose(shown, history.history[key], atol=5e-5)
    losses = history.history["loss"]
    assert losses[-1] < losses[0] - 0.2 and history.history["accuracy"][-1] > 0.5
    assert history.history["val_loss"][-1] < history.history["val_loss"][0] - 0.2
    assert history.history["val_accuracy"][-1] > 0.5  # above the plot's floor, plt.ylim 0.5

    # --- Evaluate the model ---
    plt.plot(history.history["accuracy"], label="accuracy")
    plt.plot(history.history["val_accuracy"], label="val_accuracy")
    plt.xlabel("Epoch")
    plt.ylabel("Accuracy")
    plt.ylim([0.5, 1])
    plt.legend(loc="lower right")
    axes = plt.gca()
    assert [line.get_label() for line in axes.get_lines()] == ["accuracy", "val_accuracy"]
    np.testing.assert_allclose(axes.get_lines()[1].get_ydata(), history.history["val_accuracy"])
    assert axes.get_ylim() == (0.5, 1) and axes.get_xlabel() == "Epoch"
    assert [text.get_text() for text in axes.get_legend().get_texts()] == [
        "accuracy",
        "val_accuracy",
    ]
    plt.close("all")

    test_loss, test_acc = model.evaluate(test_images, test_labels, verbose=2)
    print(test_acc)
    out = capsys.readouterr().out
    assert re.fullmatch(rf"2/2 - loss: {number} - accuracy: {number}\n{test_acc}\n", out)
    assert type(test_loss) is float and type(test_acc) is float
    # The last epoch's validation is this same evaluation, on the same weights.
    assert test_loss == pytest.approx(history.history["val_loss"][-1], rel=1e-6)
    assert test_acc == pytest.approx(history.history["val_accuracy"][-1], abs=1e-6)
    guesses = np.argmax(model.predict(test_images, verbose=0), axis=1)
    assert (guesses == test_labels[:, 0]).mean() == pytest.approx(test_acc, abs=1e-6)

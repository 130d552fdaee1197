"""TF's tutorial "Basic classification: Classify images of clothing" (tensorflow.org/
tutorials/keras/classification) runs on eagerkit, with ``import eagerkit as tf``.

Fashion-MNIST (60,000 + 10,000 images the tutorial downloads) is replaced by a small seeded
set of the same format: 28x28 ``uint8`` images and ``uint8`` labels 0-9, returned as
``(train_images, train_labels), (test_images, test_labels)`` like ``load_data()``. Each class
is a faint pattern of its own under heavy noise, so the model learns it over the tutorial's 10
epochs without being perfect. Every cell after the download runs as written: scaling,
the plots (matplotlib's Agg backend), Flatten/Dense, ``compile`` with
``SparseCategoricalCrossentropy(from_logits=True)`` and ``'accuracy'``, ``fit``,
``evaluate(verbose=2)``, the probability model with ``Softmax``, ``predict`` and
``np.argmax``, and one image through the model.

Examples not run as written, and why:

- ``tf.keras.datasets.fashion_mnist.load_data()``: eagerkit has no Fashion-MNIST loader (its
  downloader fetches MNIST); the missing name says so and points to ``mnist``, checked here.
"""

import re

import matplotlib
import numpy as np
import pytest

import eagerkit as tf

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 - after choosing the backend

CLASS_NAMES = [
    "T-shirt/top",
    "Trouser",
    "Pullover",
    "Dress",
    "Coat",
    "Sandal",
    "Shirt",
    "Sneaker",
    "Bag",
    "Ankle boot",
]


def load_data(train_count=480, test_count=120, seed=0):
    """A small stand-in for ``fashion_mnist.load_data()``, in its format."""
    rng = np.random.default_rng(seed)
    patterns = rng.integers(0, 256, (10, 28, 28))

    def images_and_labels(count):
        labels = rng.integers(0, 10, count).astype(np.uint8)
        noise = rng.integers(0, 200, (count, 28, 28))
        images = np.clip(0.16 * patterns[labels] + noise, 0, 255).astype(np.uint8)
        return images, labels

    return images_and_labels(train_count), images_and_labels(test_count)


@pytest.fixture(scope="module")
def dataset():
    return load_data()


def plot_image(i, predictions_array, true_label, img):
    true_label, img = true_label[i], img[i]
    plt.grid(False)
    plt.xticks([])
    plt.yticks([])

    plt.imshow(img, cmap=plt.cm.binary)

    predicted_label = np.argmax(predictions_array)
    if predicted_label == true_label:
        color = "blue"
    else:
        color = "red"

    plt.xlabel(
        "{} {:2.0f}% ({})".format(
            CLASS_NAMES[predicted_label], 100 * np.max(predictions_array), CLASS_NAMES[true_label]
        ),
        color=color,
    )


def plot_value_array(i, predictions_array, true_label):
    true_label = true_label[i]
    plt.grid(False)
    plt.xticks(range(10))
    plt.yticks([])
    thisplot = plt.bar(range(10), predictions_array, color="#777777")
    plt.ylim([0, 1])
    predicted_label = np.argmax(predictions_array)

    thisplot[predicted_label].set_color("red")
    thisplot[true_label].set_color("blue")


def test_fashion_mnist_is_missing_and_says_what_to_use():
    with pytest.raises(AttributeError, match=r"no tf\.keras\.datasets\.fashion_mnist.*mnist"):
        tf.keras.datasets.fashion_mnist  # noqa: B018 - the tutorial's first line


def test_the_data_and_its_plots(dataset):
    (train_images, train_labels), (test_images, test_labels) = dataset
    assert train_images.shape == (480, 28, 28) and len(train_labels) == 480
    assert test_images.shape == (120, 28, 28) and len(test_labels) == 120
    assert train_images.dtype == train_labels.dtype == np.uint8
    assert set(np.unique(train_labels)) == set(range(10))

    plt.figure()
    plt.imshow(train_images[0])
    plt.colorbar()
    plt.grid(False)
    assert plt.gca().images[0].get_array().max() <= 255
    plt.close("all")

    train_images = train_images / 255.0
    test_images = test_images / 255.0
    assert train_images.dtype == np.float64 and 0 <= train_images.min() <= train_images.max() <= 1

    plt.figure(figsize=(10, 10))
    for i in range(25):
        plt.subplot(5, 5, i + 1)
        plt.xticks([])
        plt.yticks([])
        plt.grid(False)
        plt.imshow(train_images[i], cmap=plt.cm.binary)
        plt.xlabel(CLASS_NAMES[train_labels[i]])
    labels = [axes.get_xlabel() for axes in plt.gcf().axes]
    assert labels == [CLASS_NAMES[label] for label in train_labels[:25]]
    plt.close("all")


def test_build_train_evaluate_and_predict(dataset, capsys):
    (train_images, train_labels), (test_images, test_labels) = dataset
    train_images = train_images / 255.0
    test_images = test_images / 255.0
    tf.keras.utils.set_random_seed(0)  # the tutorial's weights are drawn unseeded

    # --- Build the model ---
    model = tf.keras.Sequential(
        [
            tf.keras.layers.Flatten(input_shape=(28, 28)),
            tf.keras.layers.Dense(128, activation="relu"),
            tf.keras.layers.Dense(10),
        ]
    )

    model.compile(
        optimizer="adam",
        loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )
    assert model.count_params() == 784 * 128 + 128 + 128 * 10 + 10

    # --- Train the model ---
    history = model.fit(train_images, train_labels, epochs=10)
    out = capsys.readouterr().out
    epochs = re.findall(
        r"Epoch (\d+)/10\n15/15 .* - loss: (\d\.\d{4}) - accuracy: (\d\.\d{4})", out
    )
    assert [int(epoch) for epoch, _, _ in epochs] == list(range(1, 11))  # 480 / 32 = 15 steps
    losses = [float(loss) for _, loss, _ in epochs]
    np.testing.assert_allclose(losses, history.history["loss"], atol=5e-5)
    assert losses[-1] < losses[0] / 2 and float(epochs[-1][2]) > 0.9

    # --- Evaluate accuracy ---
    test_loss, test_acc = model.evaluate(test_images, test_labels, verbose=2)

    print("\nTest accuracy:", test_acc)
    out = capsys.readouterr().out
    assert re.fullmatch(r"4/4 - loss: \d\.\d{4} - accuracy: \d\.\d{4}\n\nTest accuracy: .+\n", out)
    assert type(test_loss) is float and type(test_acc) is float
    assert 0.5 < test_acc < float(epochs[-1][2])  # it learned, and it overfits a little
    assert f"{test_acc:.4f}" in out and out.endswith(f"Test accuracy: {test_acc}\n")

    # --- Make predictions ---
    probability_model = tf.keras.Sequential([model, tf.keras.layers.Softmax()])

    predictions = probability_model.predict(test_images)
    assert predictions.shape == (120, 10) and predictions.dtype == np.float32
    np.testing.assert_allclose(predictions.sum(axis=1), 1.0, rtol=1e-5)
    np.testing.assert_allclose(
        predictions, tf.nn.softmax(model.predict(test_images, verbose=0)).numpy(), rtol=1e-5
    )
    guesses = np.argmax(predictions, axis=1)
    assert np.argmax(predictions[0]) == guesses[0] and guesses[0] in range(10)
    assert (guesses == test_labels).mean() == pytest.approx(test_acc, abs=1e-6)

    # --- Verify predictions ---
    for i in (0, 12):
        plt.figure(figsize=(6, 3))
        plt.subplot(1, 2, 1)
        plot_image(i, predictions[i], test_labels, test_images)
        plt.subplot(1, 2, 2)
        plot_value_array(i, predictions[i], test_labels)
        image_axes, bar_axes = plt.gcf().axes
        right = guesses[i] == test_labels[i]
        assert image_axes.xaxis.label.get_color() == ("blue" if right else "red")
        assert image_axes.get_xlabel().startswith(CLASS_NAMES[guesses[i]])
        bars = [bar.get_height() for bar in bar_axes.patches]
        np.testing.assert_allclose(bars, predictions[i])
        plt.close("all")

    num_rows = 5
    num_cols = 3
    num_images = num_rows * num_cols
    plt.figure(figsize=(2 * 2 * num_cols, 2 * num_rows))
    for i in range(num_images):
        plt.subplot(num_rows, 2 * num_cols, 2 * i + 1)
        plot_image(i, predictions[i], test_labels, test_images)
        plt.subplot(num_rows, 2 * num_cols, 2 * i + 2)
        plot_value_array(i, predictions[i], test_labels)
    plt.tight_layout()
    assert len(plt.gcf().axes) == 2 * num_images
    plt.close("all")

    # --- Use the trained model ---
    capsys.readouterr()
    img = test_images[1]

    print(img.shape)

    img = np.expand_dims(img, 0)

    print(img.shape)

    predictions_single = probability_model.predict(img)

    print(predictions_single)
    out = capsys.readouterr().out
    assert out.startswith("(28, 28)\n(1, 28, 28)\n1/1 [")
    assert predictions_single.shape == (1, 10)
    np.testing.assert_allclose(predictions_single[0], predictions[1], rtol=1e-5, atol=1e-7)

    plot_value_array(1, predictions_single[0], test_labels)
    _ = plt.xticks(range(10), CLASS_NAMES, rotation=45)
    assert [t.get_text() for t in plt.gca().get_xticklabels()] == CLASS_NAMES
    plt.close("all")

    assert np.argmax(predictions_single[0]) == guesses[1]

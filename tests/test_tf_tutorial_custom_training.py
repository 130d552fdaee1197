"""TF's tutorial "Custom training: walkthrough" (tensorflow.org/tutorials/customization/
custom_training_walkthrough, the eager-execution walkthrough of the Iris flowers) runs on
eagerkit, with ``import eagerkit as tf``.

Its two CSV files (downloaded there with ``tf.keras.utils.get_file``) are written here in the
same format: a header line ``120,4,setosa,versicolor,virginica``, then four measurements and a
label per row, drawn (seeded) around the three species' mean measurements, so the classes
separate as the real ones do. Every cell of the tutorial runs as written; what it prints is
checked for the form TF gives it, and the trained model for what the tutorial reports (loss
down, accuracy up, the three unlabeled examples named right).
"""

import collections
import re

import matplotlib
import numpy as np
import pytest

import eagerkit as tf

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 - after choosing the backend

COLUMN_NAMES = ["sepal_length", "sepal_width", "petal_length", "petal_width", "species"]
CLASS_NAMES = ["Iris setosa", "Iris versicolor", "Iris virginica"]
MEANS = np.array([[5.0, 3.4, 1.5, 0.2], [5.9, 2.8, 4.3, 1.3], [6.6, 3.0, 5.6, 2.0]])


def _write_iris(path, count, seed):
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 3, count)
    rows = MEANS[labels] + rng.normal(0, 0.25, (count, 4))
    lines = [f"{count},4,setosa,versicolor,virginica"]
    lines += [
        ",".join(f"{v:.1f}" for v in row) + f",{label}"
        for row, label in zip(rows, labels, strict=True)
    ]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("iris")
    return _write_iris(folder / "iris_training.csv", 120, 0), _write_iris(
        folder / "iris_test.csv", 30, 1
    )


def pack_features_vector(features, labels):
    """Pack the features into a single array."""
    features = tf.stack(list(features.values()), axis=1)
    return features, labels


def test_the_walkthrough_trains_evaluates_and_predicts(files, capsys):
    train_dataset_fp, test_fp = files
    tf.random.set_seed(0)
    print("Eager execution: {}".format(tf.executing_eagerly()))
    feature_names, label_name = COLUMN_NAMES[:-1], COLUMN_NAMES[-1]

    # --- Create a tf.data.Dataset ---
    batch_size = 32
    train_dataset = tf.data.experimental.make_csv_dataset(
        train_dataset_fp, batch_size, column_names=COLUMN_NAMES, label_name=label_name, num_epochs=1
    )
    features, labels = next(iter(train_dataset))
    print(features)
    assert type(features) is collections.OrderedDict  # as TF's make_csv_dataset gives it
    assert list(features) == feature_names
    assert all(v.dtype == tf.float32 and v.shape == (32,) for v in features.values())
    assert labels.dtype == tf.int32 and labels.shape == (32,)

    plt.scatter(features["petal_length"], features["sepal_length"], c=labels, cmap="viridis")
    plt.xlabel("Petal length")
    plt.ylabel("Sepal length")
    points = plt.gca().collections[0].get_offsets()
    np.testing.assert_array_equal(points[:, 0], features["petal_length"].numpy())
    plt.close("all")

    train_dataset = train_dataset.map(pack_features_vector)
    features, labels = next(iter(train_dataset))
    print(features[:5])
    assert features.shape == (32, 4) and features.dtype == tf.float32

    # --- The model, and what it does before training ---
    model = tf.keras.Sequential(
        [
            tf.keras.layers.Dense(10, activation=tf.nn.relu, input_shape=(4,)),
            tf.keras.layers.Dense(10, activation=tf.nn.relu),
            tf.keras.layers.Dense(3),
        ]
    )
    predictions = model(features)
    print(predictions[:5])
    probabilities = tf.nn.softmax(predictions[:5])
    np.testing.assert_allclose(tf.reduce_sum(probabilities, axis=1).numpy(), 1.0, rtol=1e-6)
    print("Prediction: {}".format(tf.argmax(predictions, axis=1)))
    print("    Labels: {}".format(labels))
    assert tf.argmax(predictions, axis=1).dtype == tf.int64  # TF's default output_type

    # --- Loss, gradients, one optimizer step ---
    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    def loss(model, x, y, training):
        y_ = model(x, training=training)
        return loss_object(y_true=y, y_pred=y_)

    l = loss(model, features, labels, training=False)  # noqa: E741 - the tutorial's name
    print("Loss test: {}".format(l))

    def grad(model, inputs, targets):
        with tf.GradientTape() as tape:
            loss_value = loss(model, inputs, targets, training=True)
        return loss_value, tape.gradient(loss_value, model.trainable_variables)

    optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)
    loss_value, grads = grad(model, features, labels)
    print("Step: {}, Initial Loss: {}".format(optimizer.iterations.numpy(), loss_value.numpy()))
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    after = loss(model, features, labels, training=True).numpy()
    print("Step: {},         Loss: {}".format(optimizer.iterations.numpy(), after))
    assert optimizer.iterations.numpy() == 1 and after < loss_value.numpy()

    # --- The training loop ---
    train_loss_results = []
    train_accuracy_results = []
    num_epochs = 201
    for epoch in range(num_epochs):
        epoch_loss_avg = tf.keras.metrics.Mean()
        epoch_accuracy = tf.keras.metrics.SparseCategoricalAccuracy()
        for x, y in train_dataset:
            loss_value, grads = grad(model, x, y)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            epoch_loss_avg.update_state(loss_value)
            epoch_accuracy.update_state(y, model(x, training=True))
        train_loss_results.append(epoch_loss_avg.result())
        train_accuracy_results.append(epoch_accuracy.result())
        if epoch % 50 == 0:
            print(
                "Epoch {:03d}: Loss: {:.3f}, Accuracy: {:.3%}".format(
                    epoch, epoch_loss_avg.result(), epoch_accuracy.result()
                )
            )
    assert optimizer.iterations.numpy() == 1 + num_epochs * 4  # 120 rows: 4 batches an epoch
    assert float(train_loss_results[-1]) < float(train_loss_results[0]) / 3
    assert float(train_accuracy_results[-1]) > 0.9

    fig, axes = plt.subplots(2, sharex=True, figsize=(12, 8))
    fig.suptitle("Training Metrics")
    axes[0].set_ylabel("Loss", fontsize=14)
    axes[0].plot(train_loss_results)
    axes[1].set_ylabel("Accuracy", fontsize=14)
    axes[1].set_xlabel("Epoch", fontsize=14)
    axes[1].plot(train_accuracy_results)
    plotted = axes[0].lines[0].get_ydata()
    np.testing.assert_allclose(plotted, [float(v) for v in train_loss_results])
    plt.close(fig)

    # --- Evaluate on the test set ---
    test_dataset = tf.data.experimental.make_csv_dataset(
        test_fp,
        batch_size,
        column_names=COLUMN_NAMES,
        label_name="species",
        num_epochs=1,
        shuffle=False,
    )
    test_dataset = test_dataset.map(pack_features_vector)
    test_accuracy = tf.keras.metrics.Accuracy()
    for x, y in test_dataset:
        logits = model(x, training=False)
        prediction = tf.argmax(logits, axis=1, output_type=tf.int32)
        test_accuracy(prediction, y)
    print("Test set accuracy: {:.3%}".format(test_accuracy.result()))
    assert float(test_accuracy.result()) > 0.9
    pairs = tf.stack([y, prediction], axis=1)
    assert pairs.shape == (30, 2) and pairs.dtype == tf.int32
    np.testing.assert_array_equal(
        pairs.numpy()[:, 0], np.loadtxt(test_fp, delimiter=",", skiprows=1)[:, 4]
    )

    # --- Predictions on unlabeled examples ---
    predict_dataset = tf.convert_to_tensor(
        [[5.1, 3.3, 1.7, 0.5], [5.9, 3.0, 4.2, 1.5], [6.9, 3.1, 5.4, 2.1]]
    )
    predictions = model(predict_dataset, training=False)
    for i, logits in enumerate(predictions):
        class_idx = tf.argmax(logits).numpy()
        p = tf.nn.softmax(logits)[class_idx]
        name = CLASS_NAMES[class_idx]
        print("Example {} prediction: {} ({:4.1f}%)".format(i, name, 100 * p))

    out = capsys.readouterr().out
    assert "Eager execution: True" in out
    assert out.count("OrderedDict([('sepal_length', <ek.Tensor: shape=(32,), dtype=float32") == 1
    assert re.search(r"Prediction: \[[0-2 ]+\]\n    Labels: \[[0-2 ]+\]", out)
    assert re.search(r"Loss test: \d\.\d+\n", out)
    assert re.search(r"Step: 0, Initial Loss: \d\.\d+\nStep: 1,         Loss: \d\.\d+\n", out)
    epochs = re.findall(r"Epoch (\d{3}): Loss: \d\.\d{3}, Accuracy: \d{1,3}\.\d{3}%", out)
    assert epochs == ["000", "050", "100", "150", "200"]
    assert re.search(r"Test set accuracy: \d{2,3}\.\d{3}%", out)
    named = re.findall(r"Example (\d) prediction: (Iris \w+) \( ?\d{1,3}\.\d%\)", out)
    assert named == [("0", "Iris setosa"), ("1", "Iris versicolor"), ("2", "Iris virginica")]

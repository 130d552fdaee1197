"""TF's tutorial "Basic regression: Predict fuel efficiency" (tensorflow.org/tutorials/keras/
regression) runs on eagerkit, with ``import eagerkit as tf``.

The Auto MPG file it downloads from the UCI repository is written here in the same format
(``auto-mpg.data``: eight space-aligned columns, ``?`` for a missing horsepower, a tab and the
car's quoted name), 398 cars drawn (seeded) so that MPG falls with horsepower and weight and
rises with the model year, as the real ones do; six horsepowers are missing, as there.

pandas is no dependency of eagerkit, so the tutorial's DataFrame steps are done on numpy
arrays, each beside the pandas line it stands for: ``read_csv`` (``read_auto_mpg``),
``isna().sum()``, ``dropna()``, the one-hot ``Origin`` (``get_dummies``: ``Europe``, ``Japan``,
``USA`` last), ``sample(frac=0.8)`` and ``drop`` for the split, ``pop('MPG')``, and
``describe()``'s mean and standard deviation. Every Keras cell runs as written on those
arrays, and what it shows is checked: the Normalization layer's mean, variance and the
printed first example, the summaries, ``fit``'s history, ``evaluate``, ``predict``, the
plots (matplotlib's Agg backend) and ``model.save``/``keras.models.load_model``.

Examples not run as written, and why:

- ``sns.pairplot`` (seaborn: no dependency) and the DataFrame displays (``dataset.tail()``,
  ``describe().transpose()``, ``pd.DataFrame(test_results)``): pandas is no dependency; the
  numpy equivalents above are checked instead;
- ``%%time`` (a notebook magic): the fits run without it.
"""

import re

import matplotlib
import numpy as np
import pytest

import eagerkit as tf
from eagerkit import keras
from eagerkit.keras import layers

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 - after choosing the backend

COLUMN_NAMES = [
    "MPG",
    "Cylinders",
    "Displacement",
    "Horsepower",
    "Weight",
    "Acceleration",
    "Model Year",
    "Origin",
]
FEATURE_NAMES = COLUMN_NAMES[1:-1] + ["Europe", "Japan", "USA"]  # get_dummies puts them last
HORSEPOWER = FEATURE_NAMES.index("Horsepower")


def _write_auto_mpg(path, count=398, missing=6, seed=0):
    """``count`` cars in auto-mpg.data's format, ``missing`` of them without a horsepower."""
    rng = np.random.default_rng(seed)
    origin = rng.choice([1, 2, 3], count, p=[0.62, 0.18, 0.20])
    cylinders = np.where(origin == 1, rng.choice([4, 6, 8], count), rng.choice([4, 4, 6], count))
    displacement = cylinders * 38 + rng.normal(0, 15, count)
    horsepower = 0.45 * displacement + 25 + rng.normal(0, 8, count)
    weight = 1500 + 11 * horsepower + 3 * displacement + rng.normal(0, 150, count)
    acceleration = 22 - 0.05 * horsepower + rng.normal(0, 1.2, count)
    year = rng.integers(70, 83, count)
    mpg = 50 - 0.07 * horsepower - 0.005 * weight + 0.6 * (year - 70) + rng.normal(0, 1.5, count)
    unknown = set(rng.choice(count, missing, replace=False).tolist())
    lines = []
    for i in range(count):
        hp = "?" if i in unknown else f"{horsepower[i]:.1f}"
        lines.append(
            f"{max(mpg[i], 9.0):<7.1f}{cylinders[i]:<4d}{displacement[i]:<11.1f}{hp:<11}"
            f"{weight[i]:<11.0f}{acceleration[i]:<7.1f}{year[i]:<4d}{origin[i]}"
            f'\t"car {i}"'
        )
    path.write_text("\n".join(lines) + "\n")
    return path


def read_auto_mpg(path):
    """``pd.read_csv(path, names=column_names, na_values='?', comment='\\t', sep=' ',
    skipinitialspace=True)`` on numpy: one row per car, NaN where the file says ``?``."""
    rows = []
    with open(path) as f:
        for line in f:
            fields = line.split("\t")[0].split()  # comment='\t': the car's name is dropped
            rows.append([np.nan if value == "?" else float(value) for value in fields])
    return np.array(rows)


@pytest.fixture(scope="module")
def data_file(tmp_path_factory):
    return _write_auto_mpg(tmp_path_factory.mktemp("auto_mpg") / "auto-mpg.data")


@pytest.fixture(scope="module")
def splits(data_file):
    """The tutorial's "Clean the data" and "Split the data" sections, on numpy arrays."""
    dataset = read_auto_mpg(data_file).copy()  # dataset = raw_dataset.copy()
    dataset = dataset[~np.isnan(dataset).any(axis=1)]  # dataset.dropna()
    origin = dataset[:, -1]  # map({1: 'USA', 2: 'Europe', 3: 'Japan'}), then get_dummies
    one_hot = [(origin == code).astype(float) for code in (2, 3, 1)]  # Europe, Japan, USA
    dataset = np.column_stack([dataset[:, :-1], *one_hot])
    rows = np.random.default_rng(0).permutation(len(dataset))  # sample(frac=0.8, random_state=0)
    train_count = round(0.8 * len(dataset))
    train_dataset = dataset[rows[:train_count]]
    test_dataset = dataset[np.sort(rows[train_count:])]  # dataset.drop(train_dataset.index)
    return {  # train_features.pop('MPG'): the label is the first column
        "train_features": train_dataset[:, 1:],
        "test_features": test_dataset[:, 1:],
        "train_labels": train_dataset[:, 0],
        "test_labels": test_dataset[:, 0],
    }


def summary_rows(text):
    """(layer (type), output shape, params) for each layer row of a printed summary."""
    row = re.compile(r"^(\w+ \(\w+\))\s+(\(.*?\)|\?)\s+(\S.*?)\s*$")
    return [match.groups() for line in text.splitlines() if (match := row.match(line))]


def plot_loss(history):
    plt.plot(history.history["loss"], label="loss")
    plt.plot(history.history["val_loss"], label="val_loss")
    plt.ylim([0, 10])
    plt.xlabel("Epoch")
    plt.ylabel("Error [MPG]")
    plt.legend()
    plt.grid(True)


def check_loss_plot(history):
    """What ``plot_loss`` drew: both curves, 100 epochs each, labelled, on [0, 10]."""
    axes = plt.gca()
    loss, val_loss = axes.lines
    np.testing.assert_allclose(loss.get_ydata(), history.history["loss"])
    np.testing.assert_allclose(val_loss.get_ydata(), history.history["val_loss"])
    assert [t.get_text() for t in axes.get_legend().get_texts()] == ["loss", "val_loss"]
    assert axes.get_ylim() == (0.0, 10.0) and axes.get_ylabel() == "Error [MPG]"
    plt.close("all")


# --- The data ----------------------------------------------------------------------------------
def test_the_data_reads_cleans_and_splits_as_the_tutorials_dataframe(data_file, splits):
    raw_dataset = read_auto_mpg(data_file)
    assert raw_dataset.shape == (398, 8) and raw_dataset.dtype == np.float64
    missing = dict(zip(COLUMN_NAMES, np.isnan(raw_dataset).sum(axis=0).tolist(), strict=True))
    assert missing == {name: 6 if name == "Horsepower" else 0 for name in COLUMN_NAMES}

    train_features, test_features = splits["train_features"], splits["test_features"]
    assert train_features.shape == (314, 9) and test_features.shape == (78, 9)
    assert splits["train_labels"].shape == (314,) and splits["test_labels"].shape == (78,)
    one_hot = train_features[:, -3:]
    assert set(np.unique(one_hot)) == {0.0, 1.0} and (one_hot.sum(axis=1) == 1).all()
    # describe()'s std (ddof=1): the features' ranges differ widely, the tutorial's reason
    # to normalize them
    std = train_features.std(axis=0, ddof=1)
    assert std[FEATURE_NAMES.index("Weight")] > 100 * std[FEATURE_NAMES.index("Acceleration")]


# --- Normalization -------------------------------------------------------------------------------
def test_the_normalization_layer_adapts_to_the_features_mean_and_variance(splits, capsys):
    train_features = splits["train_features"]
    np.set_printoptions(precision=3, suppress=True)  # the tutorial's first cell

    normalizer = tf.keras.layers.Normalization(axis=-1)
    normalizer.adapt(np.array(train_features))
    print(normalizer.mean.numpy())

    first = np.array(train_features[:1])

    with np.printoptions(precision=2, suppress=True):
        print("First example:", first)
        print()
        print("Normalized:", normalizer(first).numpy())

    mean, variance = normalizer.mean.numpy(), normalizer.variance.numpy()
    assert mean.shape == variance.shape == (1, 9) and mean.dtype == np.float32
    np.testing.assert_allclose(mean[0], train_features.mean(axis=0), rtol=1e-5)
    np.testing.assert_allclose(variance[0], train_features.var(axis=0), rtol=1e-4)  # ddof=0
    normalized = normalizer(first)
    assert normalized.shape == (1, 9) and normalized.dtype == tf.float32
    want = (first - train_features.mean(axis=0)) / train_features.std(axis=0)
    np.testing.assert_allclose(normalized.numpy(), want, rtol=1e-4, atol=1e-5)

    out = capsys.readouterr().out
    means = re.fullmatch(r"\[\[([-\d. \n]+)\]\]\n", out.split("First example")[0])
    assert len(means.group(1).split()) == 9
    shown = re.search(r"First example: \[\[(.+?)\]\]\n\nNormalized: \[\[(.+?)\]\]\n", out, re.S)
    assert [float(v) for v in shown.group(1).split()] == pytest.approx(first[0], abs=0.005)
    assert [float(v) for v in shown.group(2).split()] == pytest.approx(want[0], abs=0.006)
    assert all(re.fullmatch(r"-?\d+\.\d{0,2}", v) for v in shown.group(2).split())


# --- Linear regression with one variable ----------------------------------------------------------
def test_linear_regression_on_horsepower(splits, capsys):
    train_features, train_labels = splits["train_features"], splits["train_labels"]
    test_features, test_labels = splits["test_features"], splits["test_labels"]
    tf.keras.utils.set_random_seed(0)  # the tutorial's weights are drawn unseeded
    horsepower = np.array(train_features[:, HORSEPOWER])  # train_features['Horsepower']

    horsepower_normalizer = layers.Normalization(input_shape=[1], axis=None)
    horsepower_normalizer.adapt(horsepower)

    horsepower_model = tf.keras.Sequential([horsepower_normalizer, layers.Dense(units=1)])

    horsepower_model.summary()
    assert summary_rows(capsys.readouterr().out) == [
        ("normalization (Normalization)", "(None, 1)", "3"),  # mean, variance, count
        ("dense (Dense)", "(None, 1)", "2"),
    ]

    predicted = horsepower_model.predict(horsepower[:10])
    assert predicted.shape == (10, 1) and predicted.dtype == np.float32  # (10,) grew an axis
    assert "1/1 [" in capsys.readouterr().out  # predict's progress bar

    horsepower_model.compile(
        optimizer=tf.keras.optimizers.Adam(learning_rate=0.1), loss="mean_absolute_error"
    )
    history = horsepower_model.fit(
        train_features[:, HORSEPOWER],
        train_labels,
        epochs=100,
        # Suppress logging.
        verbose=0,
        # Calculate validation results on 20% of the training data.
        validation_split=0.2,
    )
    assert capsys.readouterr().out == ""  # verbose=0
    assert list(history.history) == ["loss", "val_loss"] and history.epoch == list(range(100))
    assert all(type(v) is float for v in history.history["loss"])
    losses = history.history["loss"]
    assert losses[-1] < losses[0] / 3
    # validation_split holds out the last 20% (Keras: floor(314 * 0.8) = 251 rows to train on)
    held_out = horsepower_model.evaluate(
        train_features[251:, HORSEPOWER], train_labels[251:], verbose=0
    )
    assert history.history["val_loss"][-1] == pytest.approx(held_out, rel=1e-5)

    plot_loss(history)
    check_loss_plot(history)

    test_results = {}
    test_results["horsepower_model"] = horsepower_model.evaluate(
        test_features[:, HORSEPOWER], test_labels, verbose=0
    )
    assert type(test_results["horsepower_model"]) is float
    assert test_results["horsepower_model"] < np.abs(test_labels - test_labels.mean()).mean()

    x = tf.linspace(0.0, 250, 251)
    y = horsepower_model.predict(x)
    assert x.dtype == tf.float32 and y.shape == (251, 1)
    slope = np.diff(y[:, 0])
    assert (slope < 0).all() and np.allclose(slope, slope[0], rtol=1e-3)  # a line, falling

    plt.scatter(train_features[:, HORSEPOWER], train_labels, label="Data")
    plt.plot(x, y, color="k", label="Predictions")
    plt.xlabel("Horsepower")
    plt.ylabel("MPG")
    plt.legend()
    np.testing.assert_allclose(plt.gca().lines[0].get_xdata(), x.numpy())
    plt.close("all")


# --- Multiple inputs: the linear model, the DNNs, saving -----------------------------------------
def build_and_compile_model(norm):
    model = keras.Sequential(
        [
            norm,
            layers.Dense(64, activation="relu"),
            layers.Dense(64, activation="relu"),
            layers.Dense(1),
        ]
    )

    model.compile(loss="mean_absolute_error", optimizer=tf.keras.optimizers.Adam(0.001))
    return model


def test_all_inputs_linear_then_dnns_then_save_and_reload(splits, tmp_path, capsys):
    """The tutorial from "Linear regression with multiple inputs" on, in its order: the
    all-inputs normalizer is called by the linear model before the DNN's summary shows it."""
    train_features, train_labels = splits["train_features"], splits["train_labels"]
    test_features, test_labels = splits["test_features"], splits["test_labels"]
    spread = np.abs(test_labels - test_labels.mean()).mean()  # predicting the mean does this
    tf.keras.utils.set_random_seed(0)  # the tutorial's weights are drawn unseeded
    normalizer = tf.keras.layers.Normalization(axis=-1)
    normalizer.adapt(np.array(train_features))
    horsepower_normalizer = layers.Normalization(input_shape=[1], axis=None)
    horsepower_normalizer.adapt(np.array(train_features[:, HORSEPOWER]))
    test_results = {}

    # --- Linear regression with multiple inputs ---
    linear_model = tf.keras.Sequential([normalizer, layers.Dense(units=1)])

    assert linear_model.predict(train_features[:10]).shape == (10, 1)
    kernel = linear_model.layers[1].kernel
    assert kernel.shape == (9, 1) and kernel.dtype == tf.float32
    assert repr(kernel).startswith("<ek.Variable 'dense/kernel:0' shape=(9, 1) dtype=float32")

    linear_model.compile(
        optimizer=tf.keras.optimizers.Adam(learning_rate=0.1), loss="mean_absolute_error"
    )
    history = linear_model.fit(
        train_features,
        train_labels,
        epochs=100,
        # Suppress logging.
        verbose=0,
        # Calculate validation results on 20% of the training data.
        validation_split=0.2,
    )
    plot_loss(history)
    check_loss_plot(history)
    test_results["linear_model"] = linear_model.evaluate(test_features, test_labels, verbose=0)
    # All the inputs know the weight and the model year, which horsepower alone does not.
    assert test_results["linear_model"] < spread / 2

    # --- Regression using a DNN and a single input ---
    capsys.readouterr()
    dnn_horsepower_model = build_and_compile_model(horsepower_normalizer)
    dnn_horsepower_model.summary()
    out = capsys.readouterr().out
    assert summary_rows(out) == [
        ("normalization_1 (Normalization)", "(None, 1)", "3"),
        ("dense_1 (Dense)", "(None, 64)", "128"),
        ("dense_2 (Dense)", "(None, 64)", "4,160"),
        ("dense_3 (Dense)", "(None, 1)", "65"),
    ]
    assert "Total params: 4,356" in out and "Trainable params: 4,353" in out

    history = dnn_horsepower_model.fit(
        train_features[:, HORSEPOWER], train_labels, validation_split=0.2, verbose=0, epochs=100
    )
    plot_loss(history)
    check_loss_plot(history)

    x = tf.linspace(0.0, 250, 251)
    y = dnn_horsepower_model.predict(x)
    assert y.shape == (251, 1)
    assert not np.allclose(np.diff(y[:, 0]), np.diff(y[:2, 0]))  # no line: it bends

    test_results["dnn_horsepower_model"] = dnn_horsepower_model.evaluate(
        test_features[:, HORSEPOWER], test_labels, verbose=0
    )

    # --- Regression using a DNN and multiple inputs ---
    capsys.readouterr()
    dnn_model = build_and_compile_model(normalizer)
    dnn_model.summary()
    out = capsys.readouterr().out
    assert summary_rows(out) == [  # Keras 3: the Dense layers are built on the first call
        ("normalization (Normalization)", "(None, 9)", "19"),
        ("dense_4 (Dense)", "?", "0 (unbuilt)"),
        ("dense_5 (Dense)", "?", "0 (unbuilt)"),
        ("dense_6 (Dense)", "?", "0 (unbuilt)"),
    ]
    assert "Total params: 19" in out and "Trainable params: 0" in out

    history = dnn_model.fit(
        train_features, train_labels, validation_split=0.2, verbose=0, epochs=100
    )
    plot_loss(history)
    check_loss_plot(history)

    test_results["dnn_model"] = dnn_model.evaluate(test_features, test_labels, verbose=0)
    assert test_results["dnn_model"] < test_results["dnn_horsepower_model"]
    assert test_results["dnn_model"] < spread / 2

    # --- Make predictions ---
    test_predictions = dnn_model.predict(test_features).flatten()
    assert test_predictions.shape == (78,) and test_predictions.dtype == np.float32

    a = plt.axes(aspect="equal")
    plt.scatter(test_labels, test_predictions)
    plt.xlabel("True Values [MPG]")
    plt.ylabel("Predictions [MPG]")
    lims = [0, 50]
    plt.xlim(lims)
    plt.ylim(lims)
    _ = plt.plot(lims, lims)
    np.testing.assert_allclose(a.collections[0].get_offsets()[:, 1], test_predictions)
    plt.close("all")

    error = test_predictions - test_labels
    counts, _, _ = plt.hist(error, bins=25)
    plt.xlabel("Prediction Error [MPG]")
    _ = plt.ylabel("Count")
    assert counts.sum() == 78
    assert np.abs(error).mean() == pytest.approx(test_results["dnn_model"], rel=1e-4)
    plt.close("all")

    # --- Save, reload: the same model ---
    dnn_model.save(tmp_path / "dnn_model.keras")

    reloaded = tf.keras.models.load_model(tmp_path / "dnn_model.keras")

    test_results["reloaded"] = reloaded.evaluate(test_features, test_labels, verbose=0)
    assert test_results["reloaded"] == pytest.approx(test_results["dnn_model"], rel=1e-6)
    np.testing.assert_array_equal(reloaded.predict(test_features).flatten(), test_predictions)
    assert [layer.name for layer in reloaded.layers] == [layer.name for layer in dnn_model.layers]

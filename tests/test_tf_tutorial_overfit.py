"""TF's tutorial "Overfit and underfit" (tensorflow.org/tutorials/keras/overfit_and_underfit)
runs on eagerkit, with ``import eagerkit as tf`` and ``from eagerkit.keras import layers,
regularizers``.

The Higgs dataset (11 million rows the tutorial downloads as ``HIGGS.csv.gz``) is written here
in the same format: a gzipped CSV, one event per line, the label (``1.0`` signal or ``0.0``
background) then 28 float features, each as ``%.18e``. 1,400 events are drawn (seeded): 21
"low-level" features (positive momenta and angles) and 7 "high-level" ones computed from
them, with the label depending on a few of them and noise, so that a small model learns and a
large one overfits. The rows are read as the tutorial reads them (``CsvDataset`` with
``compression_type="GZIP"``, ``batch(10000).map(pack_row).unbatch()``, ``take``/``skip``,
``cache``, ``shuffle().repeat().batch()``), and every Keras cell runs as written: the
``InverseTimeDecay`` schedule and its plot, ``compile_and_fit`` (Adam on the schedule,
``BinaryCrossentropy(from_logits=True)``, the ``binary_crossentropy`` metric and
``'accuracy'``, ``summary()``, ``fit`` with ``steps_per_epoch``, ``validation_data`` and the
``EarlyStopping``/``TensorBoard`` callbacks), the tiny and small models, ``regularizers.l2``
(and ``tf.add_n(l2_model.losses)``), ``Dropout`` and the two combined.

Examples not run as written, and why:

- ``tf.keras.utils.get_file`` (the download): eagerkit works offline; the file is written to
  ``tmp_path`` instead;
- the sizes: ``N_TRAIN = int(1e4)``, ``N_VALIDATION = int(1e3)``, ``BATCH_SIZE = 500``,
  ``max_epochs=10000`` and ``patience=200`` become 1,000, 200, 50, 40 and 10 to keep the tests
  fast (``STEPS_PER_EPOCH`` stays the tutorial's 20, so the schedule's plot is the tutorial's);
- the medium (3x64) and large (4x512) size models: the tiny, small and regularized models show
  the same calls; a 2x256 model shows early stopping;
- ``tensorflow_docs`` (``tfdocs.modeling.EpochDots``, ``tfdocs.plots.HistoryPlotter``): not
  TensorFlow and not installed; ``plot_histories`` below draws what ``HistoryPlotter.plot``
  draws (a solid training and a dashed validation curve per model, in one colour) without its
  smoothing, and no dots are printed;
- ``%tensorboard --logdir`` (a notebook magic): the logs the ``TensorBoard`` callback wrote are
  checked instead.
"""

import gzip

import matplotlib
import numpy as np
import pytest

import eagerkit as tf
from eagerkit.keras import layers, regularizers

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 - after choosing the backend

FEATURES = 28
N_VALIDATION = 200
N_TRAIN = 1000
BUFFER_SIZE = 1000
BATCH_SIZE = 50
STEPS_PER_EPOCH = N_TRAIN // BATCH_SIZE
MAX_EPOCHS = 40
PATIENCE = 10


def write_higgs(path, count=1400, seed=0):
    """``count`` events in HIGGS.csv.gz's format: label, then 28 features, gzipped."""
    rng = np.random.default_rng(seed)
    momenta = rng.exponential(1.0, (count, 7))
    angles = rng.uniform(-np.pi, np.pi, (count, 14))
    low_level = np.concatenate([momenta, angles], axis=1)
    high_level = np.log1p(momenta[:, :7] * rng.exponential(1.0, (count, 7)))
    features = np.concatenate([low_level, high_level], axis=1)
    signal = 1.5 * high_level[:, 0] - momenta[:, 1] + np.sin(angles[:, 0]) + rng.normal(0, 1, count)
    labels = (signal > np.median(signal)).astype(np.float64)
    rows = np.concatenate([labels[:, None], features], axis=1)
    with gzip.open(path, "wt") as file:
        for row in rows:
            file.write(",".join(f"{value:.18e}" for value in row) + "\n")
    return rows


def pack_row(*row):
    label = row[0]
    features = tf.stack(row[1:], 1)
    return features, label


@pytest.fixture(scope="module")
def higgs(tmp_path_factory):
    gz = tmp_path_factory.mktemp("higgs") / "HIGGS.csv.gz"
    rows = write_higgs(gz)
    ds = tf.data.experimental.CsvDataset(
        str(gz),
        [0.0] * (FEATURES + 1),  # the tutorial writes [float(),]*(FEATURES+1)
        compression_type="GZIP",
    )
    packed_ds = ds.batch(10000).map(pack_row).unbatch()
    return rows, packed_ds


@pytest.fixture()
def datasets(higgs):
    tf.keras.utils.set_random_seed(0)  # shuffle() takes its seed when it is made
    _, packed_ds = higgs
    validate_ds = packed_ds.take(N_VALIDATION).cache()
    train_ds = packed_ds.skip(N_VALIDATION).take(N_TRAIN).cache()

    validate_ds = validate_ds.batch(BATCH_SIZE)
    train_ds = train_ds.shuffle(BUFFER_SIZE).repeat().batch(BATCH_SIZE)
    return train_ds, validate_ds


lr_schedule = tf.keras.optimizers.schedules.InverseTimeDecay(
    0.001, decay_steps=STEPS_PER_EPOCH * 1000, decay_rate=1, staircase=False
)


def get_optimizer():
    return tf.keras.optimizers.Adam(lr_schedule)


def get_callbacks(name, logdir):
    return [
        tf.keras.callbacks.EarlyStopping(monitor="val_binary_crossentropy", patience=PATIENCE),
        tf.keras.callbacks.TensorBoard(logdir / name),
    ]


def compile_and_fit(model, name, datasets, logdir, optimizer=None, max_epochs=MAX_EPOCHS):
    train_ds, validate_ds = datasets
    if optimizer is None:
        optimizer = get_optimizer()
    model.compile(
        optimizer=optimizer,
        loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
        metrics=[
            tf.keras.metrics.BinaryCrossentropy(from_logits=True, name="binary_crossentropy"),
            "accuracy",
        ],
    )

    model.summary()

    history = model.fit(
        train_ds,
        steps_per_epoch=STEPS_PER_EPOCH,
        epochs=max_epochs,
        validation_data=validate_ds,
        callbacks=get_callbacks(name, logdir),
        verbose=0,
    )
    return history


def plot_histories(histories, metric="binary_crossentropy"):
    """What ``tfdocs.plots.HistoryPlotter(metric=metric).plot(histories)`` draws, unsmoothed."""
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for color, (name, history) in zip(colors, histories.items()):
        plt.plot(history.epoch, history.history[metric], color=color, label=f"{name.title()} Train")
        plt.plot(
            history.epoch,
            history.history["val_" + metric],
            "--",
            color=color,
            label=f"{name.title()} Val",
        )
    plt.xlabel("Epochs")
    plt.ylabel(metric.replace("_", " ").title())
    plt.legend()
    plt.xlim([0, max(max(history.epoch) for history in histories.values())])


def check_plot(histories, metric="binary_crossentropy"):
    """Two curves per model (training, then dashed validation), with the history's values."""
    lines = plt.gca().get_lines()
    assert [line.get_label() for line in lines] == [
        f"{name.title()} {part}" for name in histories for part in ("Train", "Val")
    ]
    for (train, val), history in zip(zip(lines[::2], lines[1::2]), histories.values()):
        np.testing.assert_allclose(train.get_ydata(), history.history[metric])
        np.testing.assert_allclose(val.get_ydata(), history.history["val_" + metric])
        assert val.get_linestyle() == "--" and val.get_color() == train.get_color()


def summary_params(text):
    """Each layer row's parameter count, and the total, of a printed summary."""
    rows = [line.split() for line in text.splitlines() if "(Dense)" in line or "(Dropout)" in line]
    total = next(line for line in text.splitlines() if line.startswith("Total params"))
    return [row[-1] for row in rows], total


def test_the_higgs_rows_packed_as_features_and_labels(higgs):
    rows, packed_ds = higgs
    for features, label in packed_ds.batch(1000).take(1):  # noqa: B007 - the tutorial's loop
        print(features[0])
        plt.hist(features.numpy().flatten(), bins=101)

    assert features.shape == (1000, FEATURES) and features.dtype == tf.float32
    assert label.shape == (1000,) and label.dtype == tf.float32
    np.testing.assert_array_equal(features.numpy(), rows[:1000, 1:].astype(np.float32))
    np.testing.assert_array_equal(label.numpy(), rows[:1000, 0].astype(np.float32))
    assert set(np.unique(label.numpy())) == {0.0, 1.0}
    counts = [patch.get_height() for patch in plt.gca().patches]
    assert len(counts) == 101 and sum(counts) == 1000 * FEATURES
    plt.close("all")

    assert str(features[0]).startswith("ek.Tensor(\n[")
    assert str(features[0]).endswith("], shape=(28,), dtype=float32)")


def test_the_train_and_validation_sets(datasets):
    train_ds, validate_ds = datasets
    batches = list(validate_ds)
    assert len(batches) == N_VALIDATION // BATCH_SIZE
    assert [tuple(part.shape) for part in batches[0]] == [(BATCH_SIZE, FEATURES), (BATCH_SIZE,)]
    features, labels = next(iter(train_ds))  # repeat(): it never ends, take what fit takes
    assert features.shape == (BATCH_SIZE, FEATURES) and labels.shape == (BATCH_SIZE,)


def test_the_inverse_time_decay_schedule_as_the_tutorial_plots_it():
    step = np.linspace(0, 100000)
    lr = lr_schedule(step)
    assert lr.shape == (50,) and lr.dtype == tf.float32

    plt.figure(figsize=(8, 6))
    plt.plot(step / STEPS_PER_EPOCH, lr)
    plt.ylim([0, max(plt.ylim())])
    plt.xlabel("Epoch")
    _ = plt.ylabel("Learning Rate")
    line = plt.gca().get_lines()[0]
    np.testing.assert_allclose(line.get_xdata(), np.linspace(0, 5000, 50))
    np.testing.assert_allclose(line.get_ydata(), 0.001 / (1 + step / 20000), rtol=1e-6)
    assert plt.ylim()[0] == 0 and plt.ylim()[1] > 0.001
    plt.close("all")

    # "decrease the learning rate to 1/2 of the base rate at 1,000 epochs, 1/3 at 2,000"
    at_epochs = lr_schedule(np.array([0, 1000, 2000, 5000]) * STEPS_PER_EPOCH).numpy()
    np.testing.assert_allclose(at_epochs, [0.001, 0.001 / 2, 0.001 / 3, 0.001 / 6], rtol=1e-6)


def test_tiny_and_small_models_and_the_history_plot(datasets, tmp_path, capsys):
    tf.keras.utils.set_random_seed(0)  # the tutorial's weights are drawn unseeded
    tiny_model = tf.keras.Sequential(
        [layers.Dense(16, activation="elu", input_shape=(FEATURES,)), layers.Dense(1)]
    )

    size_histories = {}
    size_histories["Tiny"] = compile_and_fit(tiny_model, "sizes/Tiny", datasets, tmp_path)
    params, total = summary_params(capsys.readouterr().out)
    assert params == ["464", "17"] and total.startswith("Total params: 481")

    small_model = tf.keras.Sequential(
        [
            # `input_shape` is only required here so that `.summary` works.
            layers.Dense(16, activation="elu", input_shape=(FEATURES,)),
            layers.Dense(16, activation="elu"),
            layers.Dense(1),
        ]
    )
    size_histories["Small"] = compile_and_fit(small_model, "sizes/Small", datasets, tmp_path)
    params, total = summary_params(capsys.readouterr().out)
    assert params == ["464", "272", "17"] and total.startswith("Total params: 753")

    for history in size_histories.values():
        keys = ["loss", "binary_crossentropy", "accuracy"]
        assert list(history.history) == keys + ["val_" + key for key in keys]
        epochs = len(history.epoch)
        assert history.epoch == list(range(epochs)) and PATIENCE < epochs <= MAX_EPOCHS
        for values in history.history.values():
            assert len(values) == epochs
        # No regularization: the loss is the binary cross-entropy the metric reports.
        np.testing.assert_allclose(
            history.history["loss"], history.history["binary_crossentropy"], rtol=1e-5
        )
        val = history.history["val_binary_crossentropy"]
        assert val[-1] < val[0] - 0.05 and history.history["val_accuracy"][-1] > 0.6
        if epochs < MAX_EPOCHS:  # stopped early: no better epoch in the last PATIENCE
            assert int(np.argmin(val)) == epochs - PATIENCE - 1

    plot_histories(size_histories)
    plt.ylim([0.5, 0.7])
    check_plot(size_histories)
    assert plt.gca().get_ylabel() == "Binary Crossentropy"
    plt.close("all")

    plot_histories(size_histories)
    a = plt.xscale("log")
    plt.xlim([5, max(plt.xlim())])
    plt.ylim([0.5, 0.7])
    plt.xlabel("Epochs [Log Scale]")
    assert a is None and plt.gca().get_xscale() == "log" and plt.xlim()[0] == 5
    plt.close("all")

    # The TensorBoard callback wrote each model's training and validation logs.
    for name in ("sizes/Tiny", "sizes/Small"):
        for part in ("train", "validation"):
            assert list((tmp_path / name / part).glob("events.*")), (name, part)


def l2_dense(units, **kwargs):
    return layers.Dense(
        units, activation="elu", kernel_regularizer=regularizers.l2(0.001), **kwargs
    )


def test_l2_regularization_adds_its_penalty_to_the_loss(datasets, higgs, tmp_path, capsys):
    rows, _ = higgs
    tf.keras.utils.set_random_seed(0)
    l2_model = tf.keras.Sequential(
        [l2_dense(64, input_shape=(FEATURES,)), l2_dense(64), l2_dense(64), layers.Dense(1)]
    )
    history = compile_and_fit(l2_model, "regularizers/l2", datasets, tmp_path, max_epochs=15)
    params, total = summary_params(capsys.readouterr().out)
    assert params == ["1,856", "4,160", "4,160", "65"] and total.startswith("Total params: 10,241")

    features = rows[:1000, 1:].astype(np.float32)
    result = l2_model(features)
    regularization_loss = tf.add_n(l2_model.losses)
    assert result.shape == (1000, 1) and len(l2_model.losses) == 3  # the last Dense has none
    kernels = [layer.kernel.numpy() for layer in l2_model.layers[:3]]
    penalty = sum(0.001 * np.sum(np.square(kernel)) for kernel in kernels)
    assert float(regularization_loss) == pytest.approx(penalty, rel=1e-5)

    # The training loss is the cross-entropy plus the penalty; the metric is without it.
    loss, binary_crossentropy = history.history["loss"], history.history["binary_crossentropy"]
    assert all(total > bce for total, bce in zip(loss, binary_crossentropy))
    _, validate_ds = datasets
    val_loss, val_bce, _ = l2_model.evaluate(validate_ds, verbose=0)
    assert val_loss - val_bce == pytest.approx(float(regularization_loss), rel=1e-4)


def test_dropout_and_dropout_with_l2(datasets, higgs, tmp_path, capsys):
    rows, _ = higgs
    tf.keras.utils.set_random_seed(0)
    regularizer_histories = {}
    dropout_model = tf.keras.Sequential(
        [
            layers.Dense(64, activation="elu", input_shape=(FEATURES,)),
            layers.Dropout(0.5),
            layers.Dense(64, activation="elu"),
            layers.Dropout(0.5),
            layers.Dense(1),
        ]
    )
    regularizer_histories["dropout"] = compile_and_fit(
        dropout_model, "regularizers/dropout", datasets, tmp_path, max_epochs=15
    )
    params, _ = summary_params(capsys.readouterr().out)
    assert params == ["1,856", "0", "4,160", "0", "65"]
    assert dropout_model.losses == []  # dropout adds no loss term

    features = rows[:100, 1:].astype(np.float32)
    # Dropout is on in training only: inference is deterministic, training draws masks.
    np.testing.assert_array_equal(dropout_model(features), dropout_model(features))
    trained = [dropout_model(features, training=True).numpy() for _ in range(2)]
    assert not np.array_equal(trained[0], trained[1])

    combined_model = tf.keras.Sequential(
        [
            l2_dense(64, input_shape=(FEATURES,)),
            layers.Dropout(0.5),
            l2_dense(64),
            layers.Dropout(0.5),
            layers.Dense(1),
        ]
    )
    regularizer_histories["combined"] = compile_and_fit(
        combined_model, "regularizers/combined", datasets, tmp_path, max_epochs=15
    )
    capsys.readouterr()
    assert len(combined_model.losses) == 2

    plot_histories(regularizer_histories)
    plt.ylim([0.5, 0.7])
    check_plot(regularizer_histories)
    plt.close("all")


def test_early_stopping_stops_an_overfitting_model(datasets, tmp_path, capsys):
    tf.keras.utils.set_random_seed(0)
    large_model = tf.keras.Sequential(
        [
            layers.Dense(256, activation="elu", input_shape=(FEATURES,)),
            layers.Dense(256, activation="elu"),
            layers.Dense(1),
        ]
    )
    history = compile_and_fit(large_model, "sizes/large", datasets, tmp_path)
    capsys.readouterr()
    val = history.history["val_binary_crossentropy"]
    epochs = len(val)
    # It learns the 1,000 events' noise: the training loss still falls while the validation
    # loss no longer does, and after PATIENCE epochs without a new best EarlyStopping ends
    # the fit, long before MAX_EPOCHS.
    assert epochs < MAX_EPOCHS and int(np.argmin(val)) == epochs - PATIENCE - 1
    train = history.history["binary_crossentropy"]
    assert train[-1] < train[int(np.argmin(val))] and train[-1] < val[-1]

"""TF's tutorials (tensorflow.org/tutorials) run on eagerkit, with ``import eagerkit as tf``
and small synthetic data of the tutorials' shapes and dtypes in place of their downloads.

Each test is a place where a tutorial's code failed or answered differently before, with
TF's (Keras 3's) answer: "Custom layers" (a Model subclass whose constructor takes two
arguments), "Overfit and underfit" (a learning-rate schedule plotted over an array of
steps), "Intro to autoencoders" (``tensor[bool_mask]``), and "Time series forecasting"
(``set_shape`` and ``timeseries_dataset_from_array`` in its ``WindowGenerator``).
"""

import gzip

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import eagerkit as tf
from eagerkit import keras
from eagerkit.errors import InvalidArgumentError

schedules = keras.optimizers.schedules


# --- customization/custom_layers: "Models: composing layers" ----------------------------------
class ResnetIdentityBlock(tf.keras.Model):  # the tutorial's block, as written there
    def __init__(self, kernel_size, filters):
        super(ResnetIdentityBlock, self).__init__(name="")  # noqa: UP008 (as written)
        filters1, filters2, filters3 = filters

        self.conv2a = tf.keras.layers.Conv2D(filters1, (1, 1))
        self.bn2a = tf.keras.layers.BatchNormalization()

        self.conv2b = tf.keras.layers.Conv2D(filters2, kernel_size, padding="same")
        self.bn2b = tf.keras.layers.BatchNormalization()

        self.conv2c = tf.keras.layers.Conv2D(filters3, (1, 1))
        self.bn2c = tf.keras.layers.BatchNormalization()

    def call(self, input_tensor, training=False):
        x = self.conv2a(input_tensor)
        x = self.bn2a(x, training=training)
        x = tf.nn.relu(x)

        x = self.conv2b(x)
        x = self.bn2b(x, training=training)
        x = tf.nn.relu(x)

        x = self.conv2c(x)
        x = self.bn2c(x, training=training)

        x += input_tensor
        return tf.nn.relu(x)


def test_custom_layers_block_with_two_constructor_arguments_is_a_subclassed_model():
    """Two positional arguments to a subclass's own constructor are its own (Keras decides
    "functional" on what reaches Model.__init__); they were taken for (inputs, outputs)."""
    block = ResnetIdentityBlock(1, [1, 2, 3])
    out = block(tf.zeros([1, 2, 3, 3]))
    assert out.shape == (1, 2, 3, 3)
    np.testing.assert_array_equal(out.numpy(), np.zeros((1, 2, 3, 3)))
    assert [type(layer).__name__ for layer in block.layers] == ["Conv2D", "BatchNormalization"] * 3
    assert len(block.variables) == 18 and len(block.trainable_variables) == 12


def test_a_subclass_passing_inputs_and_outputs_on_is_still_functional():
    """The other side of the same rule: a subclass constructor that hands inputs and outputs
    to ``super().__init__`` makes a functional model of that subclass, as in Keras 3."""

    class Tagged(keras.Model):
        def __init__(self, inputs, outputs, tag):
            super().__init__(inputs, outputs)
            self.tag = tag

    inputs = keras.Input(shape=[3])
    model = Tagged(inputs, keras.layers.Dense(2)(inputs), tag="mine")
    assert isinstance(model, Tagged) and model.tag == "mine"
    assert model(np.ones((4, 3), np.float32)).shape == (4, 2)
    assert len(model.layers) == 2  # the Input and the Dense, as a functional model lists them


# --- keras/overfit_and_underfit: the learning-rate schedule, plotted ------------------------
@settings(max_examples=40, deadline=None)
@given(
    steps=hnp.arrays(np.int64, st.integers(1, 20), elements=st.integers(0, 10**6)),
    staircase=st.booleans(),
)
def test_schedules_take_an_array_of_steps_and_give_one_rate_each(steps, staircase):
    """``lr_schedule(np.linspace(0, 100000))`` in the tutorial: TF's schedules are ops, so an
    array of steps gives an array of rates (eagerkit refused anything but a scalar)."""
    inverse = schedules.InverseTimeDecay(0.001, 20, 1.0, staircase=staircase)
    fraction = np.floor(steps / 20) if staircase else steps / 20
    rates = inverse(steps)
    assert rates.dtype == tf.float32 and rates.shape == steps.shape
    np.testing.assert_allclose(rates.numpy(), 0.001 / (1 + fraction), rtol=1e-6)
    for schedule in (
        inverse,
        schedules.ExponentialDecay(0.1, 7, 0.5, staircase=staircase),
        schedules.PiecewiseConstantDecay([5, 5000], [1.0, 0.5, 0.1]),
        schedules.PolynomialDecay(1.0, 9, end_learning_rate=0.1, cycle=staircase),
        schedules.CosineDecay(1.0, 300, alpha=0.1),
    ):  # each rate is the rate of that step alone
        one_by_one = [float(schedule(int(step))) for step in steps]
        np.testing.assert_allclose(schedule(steps).numpy(), one_by_one, rtol=1e-6)


def test_the_tutorials_schedule_curve():
    lr_schedule = schedules.InverseTimeDecay(0.001, decay_steps=20 * 1000, decay_rate=1)
    step = np.linspace(0, 100000)
    lr = lr_schedule(step)
    assert lr.shape == (50,)
    np.testing.assert_allclose((lr / 0.001).numpy()[[0, -1]], [1.0, 1 / 6], rtol=1e-6)
    with pytest.raises(InvalidArgumentError, match="step must be a number of steps"):
        lr_schedule(np.array(["1"]))


# --- generative/autoencoder: selecting rows by a bool array ---------------------------------
@settings(max_examples=40, deadline=None)
@given(
    mask=hnp.arrays(np.bool_, st.integers(1, 6)),
    as_tensor=st.booleans(),
)
def test_a_bool_array_as_the_index_selects_rows(mask, as_tensor):
    """``train_data[train_labels]`` with ``train_labels.astype(bool)``: TF's ``__getitem__``
    treats a bool array or tensor as the whole index as ``boolean_mask``."""
    data = tf.cast(np.arange(mask.size * 3, dtype=np.float64).reshape(-1, 3), tf.float32)
    key = tf.constant(mask) if as_tensor else mask
    with tf.GradientTape() as tape:
        tape.watch(data)
        picked = data[key]
        total = tf.reduce_sum(picked)
    np.testing.assert_array_equal(picked.numpy(), data.numpy()[mask])
    gradient = tape.gradient(total, data).numpy()
    np.testing.assert_array_equal(gradient, np.repeat(mask[:, None], 3, axis=1).astype(np.float32))
    np.testing.assert_array_equal(data[~mask].numpy(), data.numpy()[~mask])


def test_a_bool_index_of_the_wrong_length_says_so():
    data = tf.zeros([4, 140])
    with pytest.raises(InvalidArgumentError, match=r"tensor shape \(4, 140\), mask bool shape"):
        data[np.array([True, False])]


# --- structured_data/time_series: the WindowGenerator ---------------------------------------
def _windows(data, targets, length, stride, rate, start, end):
    """Keras' windows, written out: every start p that leaves room for the whole window."""
    starts = range(0, end - start - (length - 1) * rate, stride)
    if targets is not None:
        starts = [p for p in starts if start + p < len(targets)]
    windows = [data[start + p : start + p + length * rate : rate] for p in starts]
    labels = None if targets is None else [targets[start + p] for p in starts]
    return windows, labels


@settings(max_examples=60, deadline=None)
@given(
    steps=st.integers(4, 30),
    length=st.integers(1, 6),
    stride=st.integers(1, 3),
    rate=st.integers(1, 3),
    batch=st.one_of(st.none(), st.integers(1, 5)),
    with_targets=st.booleans(),
    data=st.data(),
)
def test_timeseries_dataset_from_array_makes_keras_windows(
    steps, length, stride, rate, batch, with_targets, data
):
    series = np.arange(steps * 2, dtype=np.float32).reshape(steps, 2)
    targets = np.arange(steps) * 10 if with_targets else None
    start = data.draw(st.one_of(st.none(), st.integers(1, steps - 2)), label="start_index")
    end = data.draw(st.one_of(st.none(), st.integers((start or 0) + 1, steps - 1)), label="end")
    ds = keras.utils.timeseries_dataset_from_array(
        series, targets, length, stride, rate, batch_size=batch, start_index=start, end_index=end
    )
    windows, labels = _windows(series, targets, length, stride, rate, start or 0, end or steps)
    elements = list(ds)
    if batch is not None:  # batches of `batch` windows, the last one shorter
        sizes = [len(e[0] if with_targets else e) for e in elements]
        assert sizes == [min(batch, len(windows) - i) for i in range(0, len(windows), batch)]
        unbatched = list(ds.unbatch())
    else:
        unbatched = elements
    got = [e[0] if with_targets else e for e in unbatched]
    assert len(got) == len(windows)
    for window, expected in zip(got, windows, strict=True):
        assert window.dtype == tf.float32
        np.testing.assert_array_equal(window.numpy(), expected)
    if with_targets:
        assert [int(e[1]) for e in unbatched] == labels


def test_timeseries_shuffle_keeps_every_window_and_follows_the_seed():
    series = np.arange(40)
    make = lambda seed: keras.utils.timeseries_dataset_from_array(  # noqa: E731
        series, series * 2, 5, batch_size=4, shuffle=True, seed=seed
    )
    first = [(x.numpy().tolist(), y.numpy().tolist()) for x, y in make(7)]
    assert first == [(x.numpy().tolist(), y.numpy().tolist()) for x, y in make(7)]
    windows = sorted(w for x, _ in first for w in x)
    assert windows == [list(range(p, p + 5)) for p in range(36)]
    pairs = [(w[0], t) for x, y in first for w, t in zip(x, y, strict=True)]
    assert all(t == 2 * p for p, t in pairs)  # each window keeps its own target
    assert [w for x, _ in first for w in x] != [list(range(p, p + 5)) for p in range(36)]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"start_index": 20}, "start_index must be lower than the length of the data"),
        ({"start_index": 5, "end_index": 5}, "end_index must be higher than start_index"),
        ({"end_index": 20}, "end_index must be lower than the length of the data"),
        ({"sampling_rate": 0}, "sampling_rate must be >= 1"),
        ({"sequence_stride": 20}, "sequence_stride must be lower than the length"),
        ({"sequence_length": 2.5}, "sequence_length must be an integer"),
        ({"batch_size": 0}, "batch_size must be >= 1"),
        ({"data": 3.0}, "data must be an array of numbers with time on axis 0"),
    ],
)
def test_timeseries_arguments_are_checked_as_keras_checks_them(arguments, message):
    call = {"data": np.zeros((20, 2)), "targets": None, "sequence_length": 3, **arguments}
    with pytest.raises(InvalidArgumentError, match=message) as raised:
        keras.utils.timeseries_dataset_from_array(**call)
    assert isinstance(raised.value, ValueError)  # Keras raises ValueError
    assert str(raised.value).startswith("timeseries_dataset_from_array: ")


class WindowGenerator:  # the tutorial's class, its pandas frames as numpy arrays
    def __init__(self, input_width, label_width, shift, train_df, columns, label_columns=None):
        self.train_df = train_df
        self.label_columns = label_columns
        self.column_indices = {name: i for i, name in enumerate(columns)}
        self.input_width = input_width
        self.label_width = label_width
        self.shift = shift
        self.total_window_size = input_width + shift
        self.input_slice = slice(0, input_width)
        self.label_start = self.total_window_size - self.label_width
        self.labels_slice = slice(self.label_start, None)

    def split_window(self, features):
        inputs = features[:, self.input_slice, :]
        labels = features[:, self.labels_slice, :]
        if self.label_columns is not None:
            labels = tf.stack(
                [labels[:, :, self.column_indices[name]] for name in self.label_columns],
                axis=-1,
            )
        # Slicing doesn't preserve static shape information, so set the shapes
        # manually. This way the `tf.data.Datasets` are easier to inspect.
        inputs.set_shape([None, self.input_width, None])
        labels.set_shape([None, self.label_width, None])
        return inputs, labels

    def make_dataset(self, data):
        data = np.array(data, dtype=np.float32)
        ds = tf.keras.utils.timeseries_dataset_from_array(
            data=data,
            targets=None,
            sequence_length=self.total_window_size,
            sequence_stride=1,
            shuffle=True,
            batch_size=32,
        )
        return ds.map(self.split_window)


def test_time_series_window_generator_splits_windows_and_feeds_fit():
    columns = ["p (mbar)", "T (degC)", "rh (%)"]
    series = np.random.default_rng(0).standard_normal((120, 3))
    w2 = WindowGenerator(6, 1, 1, series, columns, label_columns=["T (degC)"])
    example_window = tf.stack([np.array(series[: w2.total_window_size])] * 3)
    example_inputs, example_labels = w2.split_window(example_window)
    assert (example_window.shape, example_inputs.shape, example_labels.shape) == (
        (3, 7, 3),
        (3, 6, 3),
        (3, 1, 1),
    )
    np.testing.assert_array_equal(example_labels.numpy()[0, 0], series[6, 1:2])
    batches = list(w2.make_dataset(series))
    assert [b[0].shape for b in batches] == [(32, 6, 3)] * 3 + [(18, 6, 3)]
    single_step_window = WindowGenerator(1, 1, 1, series, columns, label_columns=["T (degC)"])
    dense = tf.keras.Sequential([tf.keras.layers.Dense(units=1)])
    dense.compile(loss=tf.keras.losses.MeanSquaredError(), optimizer="adam")
    history = dense.fit(single_step_window.make_dataset(series), epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2 and dense(example_inputs).shape == (3, 6, 1)


@settings(max_examples=40, deadline=None)
@given(
    shape=hnp.array_shapes(min_dims=1, max_dims=4, max_side=4),
    data=st.data(),
)
def test_set_shape_checks_the_known_shape_and_changes_nothing(shape, data):
    """TF's eager ``set_shape``: a shape that fits (None matches any size) is accepted and
    the tensor stays as it was; one that does not is refused (TF: ValueError)."""
    tensor = tf.zeros(shape)
    fits = [data.draw(st.sampled_from([size, None])) for size in shape]
    assert tensor.set_shape(fits) is None and tensor.shape == shape
    wrong = list(fits)
    wrong[0] = shape[0] + 1
    for bad in (wrong, list(shape) + [1]):
        with pytest.raises(InvalidArgumentError, match="set_shape: the tensor's shape") as raised:
            tensor.set_shape(bad)
        assert isinstance(raised.value, ValueError)


# --- keras/overfit_and_underfit: the HIGGS rows, and a TensorBoard log per model ------------
def _higgs_file(tmp_path, rows):
    """A gzipped CSV as the tutorial downloads it: a 0/1 label, then 28 features."""
    path = tmp_path / "HIGGS.csv.gz"
    with gzip.open(path, "wt") as file:
        file.writelines(",".join(f"{v:.6e}" for v in row) + "\n" for row in rows)
    return str(path)


def test_overfit_tutorial_reads_its_rows_with_csv_dataset(tmp_path):
    rng = np.random.default_rng(1)
    rows = np.concatenate([rng.integers(0, 2, (30, 1)), rng.standard_normal((30, 28))], axis=1)
    gz = _higgs_file(tmp_path, rows)
    FEATURES = 28
    ds = tf.data.experimental.CsvDataset(gz, [float()] * (FEATURES + 1), compression_type="GZIP")  # noqa: UP018
    assert ds.element_spec == tuple([tf.TensorSpec((), tf.float32)] * 29)

    def pack_row(*row):
        label = row[0]
        features = tf.stack(row[1:], 1)
        return features, label

    packed_ds = ds.batch(10).map(pack_row).unbatch()
    features, labels = zip(*[(f.numpy(), float(y)) for f, y in packed_ds], strict=True)
    np.testing.assert_allclose(np.array(features), rows[:, 1:], rtol=1e-6)
    assert list(labels) == rows[:, 0].tolist()


@settings(max_examples=30, deadline=None)
@given(
    table=hnp.arrays(
        np.int32, st.tuples(st.integers(1, 5), st.integers(2, 5)), elements=st.integers(-99, 99)
    ),
    header=st.booleans(),
    data=st.data(),
)
def test_csv_dataset_picks_columns_as_tf(tmp_path_factory, table, header, data):
    path = tmp_path_factory.mktemp("csv") / "table.csv"
    lines = [",".join(f"c{i}" for i in range(table.shape[1]))] if header else []
    path.write_text("\n".join(lines + [",".join(map(str, row)) for row in table]) + "\n")
    columns = range(table.shape[1])
    chosen = sorted(data.draw(st.sets(st.sampled_from(columns), min_size=1), label="chosen"))
    if data.draw(st.booleans(), label="by exclusion") and len(chosen) < table.shape[1]:
        dropped = [i for i in columns if i not in chosen]
        ds = tf.data.experimental.CsvDataset(
            str(path), [0] * len(chosen), header=header, exclude_cols=dropped
        )
    else:
        ds = tf.data.experimental.CsvDataset(
            str(path), [tf.int32] * len(chosen), header=header, select_cols=chosen
        )
    got = [[int(v) for v in record] for record in ds]
    assert got == table[:, chosen].tolist()


def test_csv_dataset_says_what_is_wrong(tmp_path):
    path = tmp_path / "short.csv"
    path.write_text("1,2,3\n4,5\n")
    rows = iter(tf.data.experimental.CsvDataset(str(path), [0, 0, 0]))
    assert [int(v) for v in next(rows)] == [1, 2, 3]
    with pytest.raises(
        InvalidArgumentError, match="CsvDataset: row 2 has 2 fields but record_defaults"
    ):
        next(rows)
    with pytest.raises(InvalidArgumentError, match="select_cols or exclude_cols, not both"):
        tf.data.experimental.CsvDataset(str(path), [0], select_cols=[0], exclude_cols=[1])
    with pytest.raises(
        InvalidArgumentError, match="select_cols picks 2 columns but record_defaults gives 1"
    ):
        tf.data.experimental.CsvDataset(str(path), [0], select_cols=[0, 1])
    with pytest.raises(InvalidArgumentError, match="ascending order"):
        tf.data.experimental.CsvDataset(str(path), [0, 0], select_cols=[1, 0])
    with pytest.raises(InvalidArgumentError, match="compression_type must be None"):
        tf.data.experimental.CsvDataset(str(path), [0], compression_type="BZ2")
    missing = tf.data.experimental.CsvDataset(str(path), [0, tf.int32, 0], select_cols=None)
    with pytest.raises(InvalidArgumentError, match="row 2 has 2 fields"):
        list(missing)


def test_tensorboard_callback_logs_each_models_curves(tmp_path):
    """``callbacks=[..., tf.keras.callbacks.TensorBoard(logdir/name)]`` in the tutorial's
    compile_and_fit: Keras' tags and steps, as ek.summary files (it was missing)."""
    logdir = tmp_path / "tensorboard_logs"
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((40, 28)).astype("float32"), rng.integers(0, 2, (40, 1))
    lr_schedule = schedules.InverseTimeDecay(0.001, decay_steps=4, decay_rate=1)
    model = tf.keras.Sequential([keras.layers.Dense(4, activation="elu"), keras.layers.Dense(1)])
    model.compile(
        optimizer=tf.keras.optimizers.Adam(lr_schedule),
        loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )
    callback = tf.keras.callbacks.TensorBoard(
        logdir / "sizes/Tiny", histogram_freq=2, update_freq=3
    )
    history = model.fit(
        x,
        y,
        batch_size=10,
        epochs=3,
        validation_data=(x[:10], y[:10]),
        callbacks=[callback],
        verbose=0,
    )
    train = tf.summary.read_events(str(logdir / "sizes/Tiny/train"))
    scalars = {(e["tag"], e["step"]): e["value"] for e in train if e["kind"] == "scalar"}
    for epoch in range(3):
        assert scalars[("epoch_loss", epoch)] == pytest.approx(history.history["loss"][epoch])
        rate = 0.001 / (1 + 4 * (epoch + 1) / 4)  # the schedule at the steps taken so far
        assert scalars[("epoch_learning_rate", epoch)] == pytest.approx(rate, rel=1e-6)
    assert sorted(step for tag, step in scalars if tag == "batch_loss") == [3, 6, 9, 12]
    histograms = {(e["tag"], e["step"]) for e in train if e["kind"] == "histogram"}
    assert {step for _, step in histograms} == {0, 2} and len(histograms) == 2 * 4
    validation = tf.summary.read_events(str(logdir / "sizes/Tiny/validation"))
    val = {(e["tag"], e["step"]): e["value"] for e in validation}
    assert [val[("epoch_accuracy", e)] for e in range(3)] == pytest.approx(
        history.history["val_accuracy"]
    )
    with pytest.raises(InvalidArgumentError, match="update_freq must be 'epoch', 'batch'"):
        tf.keras.callbacks.TensorBoard(logdir, update_freq="step")


def test_tutorials_print_the_version():
    assert tf.version.VERSION == tf.__version__  # save_and_load prints tf.version.VERSION


def test_the_time_series_feedback_model_hears_how_to_step_an_lstm():
    with pytest.raises(
        AttributeError, match="no tf.keras.layers.LSTMCell. Instead: ek.keras.layers.LSTM"
    ):
        tf.keras.layers.LSTMCell(32)

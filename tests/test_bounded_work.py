"""Bounded work: every public size or count, found by walking signatures, is refused at once
when it is huge, or is declared safe with the reason.

A size that would run for minutes (a gradient check of order 2**31, 20 million generators,
a batch collected from a dataset that repeats forever) or allocate more than the machine
has must be refused before the work starts, with an eagerkit error. The walk finds every
parameter whose name says it is a size or a count, in every public function and in the
methods of every public class; a new one fails test_every_size_parameter_is_declared until
it is added below.
"""

import inspect
import os
import tempfile

import numpy as np
import pytest
from stateful_classes import public_classes

import eagerkit as ek
from eagerkit import limits, namespaces
from eagerkit.errors import InvalidArgumentError, ResourceExhaustedError

SIZE_NAMES = frozenset(
    """shape dims depth num units filters kernel_size multiples repeats batch_size buffer_size
    shuffle_buffer_size num_samples order count max_queue buckets max_to_keep history_size
    max_iterations num_rows num_columns k size target_height target_width input_dim
    output_dim pool_size strides num_epochs num_rows_for_inference n maxlen
    num_or_size_splits limit paddings epochs steps steps_per_epoch validation_steps
    num_thresholds num_labels num_heads key_dim value_dim""".split()
)
HUGE = 2**40
HUGE_SHAPE = [2**40, 2**40]  # numpy refuses it before allocating anything


def size_parameters():
    """``{"function.parameter"}`` for every public callable's size or count parameter."""
    found = set()
    modules = [ek, *namespaces.module_namespaces(ek, ek.PUBLIC_NAMESPACES)]
    for module in modules:
        for name in sorted(getattr(module, "__all__", None) or dir(module)):
            value = getattr(module, name, None)
            if (
                name.startswith("_")
                or inspect.isclass(value)
                or not callable(value)
                or not getattr(value, "__module__", "").startswith("eagerkit")
            ):
                continue
            found |= _declared_sizes(getattr(value, "__qualname__", name), value)
    for cls in public_classes():
        for method_name, method in inspect.getmembers(cls, inspect.isfunction):
            if method_name in ("__init__", "__call__") or not method_name.startswith("_"):
                found |= _declared_sizes(method.__qualname__, method)  # where it is defined
    return found


def _declared_sizes(name, function):
    try:
        parameters = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return set()
    return {f"{name}.{p}" for p in parameters if p in SIZE_NAMES}


def _csv():
    path = os.path.join(tempfile.mkdtemp(), "rows.csv")
    with open(path, "w") as f:
        f.write("a,b\n1,2\n3,4\n")
    return path


def _built(layer, inputs):
    return lambda: layer()(inputs)


def _model():
    """A compiled model whose training step raises: a loop that starts is a failure here."""
    model = ek.keras.Sequential([ek.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    model(ek.ones([1, 2]))
    model.train_step = model.test_step = model.predict_step = _no_step
    return model


def _batches(arrays):
    """A dataset of batches that repeats forever: only a count of steps ends a loop over it."""
    return ek.data.Dataset.from_tensor_slices(arrays).batch(2).repeat()


def _no_step(batch):
    raise AssertionError("a step ran: the count was not refused before the work started")


image = ek.ones([1, 4, 4, 1])
rows = ek.ones([2, 3])
sequence = ek.ones([1, 2, 3])

# A call with a huge value that must be refused at once (ResourceExhausted or InvalidArgument).
BOUNDED = {
    "TensorArray.__init__.size": lambda: ek.TensorArray(ek.float32, size=HUGE, element_shape=[2]),
    "check_grads.order": lambda: ek.testing.check_grads(lambda x: x * x, [1.0], order=HUGE),
    "first_gradient_error.order": lambda: ek.testing.first_gradient_error(
        lambda x: x * x, [1.0], order=HUGE
    ),
    "Metric.add_weight.shape": lambda: ek.keras.metrics.Mean().add_weight("w", shape=[HUGE, HUGE]),
    "Generator.split.count": lambda: ek.random.Generator.from_seed(1).split(20_000_000),
    "Dataset.batch.batch_size": lambda: next(iter(ek.data.Dataset.range(3).repeat().batch(HUGE))),
    "sequence_mask.maxlen": lambda: ek.sequence_mask([1, 2], maxlen=HUGE),
    "pad_sequences.maxlen": lambda: ek.keras.utils.pad_sequences([[1, 2]], maxlen=HUGE),
    "RepeatVector.__init__.n": lambda: ek.keras.layers.RepeatVector(HUGE)(ek.ones([2, 3])),
    "Joining.padded_batch.batch_size": lambda: next(
        iter(ek.data.Dataset.range(3).repeat().padded_batch(HUGE))
    ),
    "Combining.window.size": lambda: next(iter(ek.data.Dataset.range(3).repeat().window(HUGE))),
    "Grouping.rebatch.batch_size": lambda: next(
        iter(ek.data.Dataset.range(3).repeat().batch(2).rebatch(HUGE))
    ),
    "Dataset.shuffle.buffer_size": lambda: next(
        iter(ek.data.Dataset.range(3).repeat().shuffle(HUGE))
    ),
    "make_csv_dataset.batch_size": lambda: ek.data.experimental.make_csv_dataset(_csv(), HUGE),
    "make_csv_dataset.shuffle_buffer_size": lambda: ek.data.experimental.make_csv_dataset(
        _csv(), 2, shuffle_buffer_size=HUGE
    ),
    "timeseries_dataset_from_array.batch_size": lambda: next(
        iter(ek.keras.utils.timeseries_dataset_from_array(range(10), None, 3, batch_size=HUGE))
    ),
    "histogram.buckets": lambda: ek.summary.histogram("h", [1.0], step=0, buckets=HUGE),
    "zeros.shape": lambda: ek.zeros(HUGE_SHAPE),
    "ones.shape": lambda: ek.ones(HUGE_SHAPE),
    "fill.dims": lambda: ek.fill(HUGE_SHAPE, 1.0),
    "constant.shape": lambda: ek.constant(1.0, shape=HUGE_SHAPE),
    "eye.num_rows": lambda: ek.eye(HUGE),
    "eye.num_columns": lambda: ek.eye(2, HUGE),
    "range.limit": lambda: ek.range(2**62),
    "linspace.num": lambda: ek.linspace(0.0, 1.0, 2**62),
    "broadcast_to.shape": lambda: ek.broadcast_to([1.0], HUGE_SHAPE) + 1.0,
    "reshape.shape": lambda: ek.reshape([1.0], HUGE_SHAPE),
    "scatter_nd.shape": lambda: ek.scatter_nd([[0, 0]], [1.0], HUGE_SHAPE),
    "RaggedTensor.to_tensor.shape": lambda: ek.ragged.constant([[1.0], []]).to_tensor(
        shape=HUGE_SHAPE
    ),
    "tile.multiples": lambda: ek.tile([1.0], [2**62]),
    "repeat.repeats": lambda: ek.repeat([1.0], 2**62),
    "one_hot.depth": lambda: ek.one_hot([0, 1], 2**62),
    "pad.paddings": lambda: ek.pad([1.0], [[2**62, 0]]),
    "top_k.k": lambda: ek.math.top_k([1.0, 2.0], HUGE),
    "split.num_or_size_splits": lambda: ek.split([1.0, 2.0], HUGE),
    "unstack.num": lambda: ek.unstack([1.0, 2.0], num=HUGE),
    "categorical.num_samples": lambda: ek.random.categorical([[0.0, 1.0]], 2**62),
    "normal.shape": lambda: ek.random.normal(HUGE_SHAPE),
    "uniform.shape": lambda: ek.random.uniform(HUGE_SHAPE),
    "truncated_normal.shape": lambda: ek.random.truncated_normal(HUGE_SHAPE),
    "stateless_normal.shape": lambda: ek.random.stateless_normal(HUGE_SHAPE, [1, 2]),
    "stateless_uniform.shape": lambda: ek.random.stateless_uniform(HUGE_SHAPE, [1, 2]),
    "stateless_truncated_normal.shape": lambda: ek.random.stateless_truncated_normal(
        HUGE_SHAPE, [1, 2]
    ),
    "Generator.normal.shape": lambda: ek.random.Generator.from_seed(1).normal(HUGE_SHAPE),
    "Generator.uniform.shape": lambda: ek.random.Generator.from_seed(1).uniform(HUGE_SHAPE),
    "Generator.uniform_full_int.shape": lambda: ek.random.Generator.from_seed(1).uniform_full_int(
        HUGE_SHAPE
    ),
    "Generator.make_seeds.count": lambda: ek.random.Generator.from_seed(1).make_seeds(HUGE * HUGE),
    "Generator.truncated_normal.shape": lambda: ek.random.Generator.from_seed(1).truncated_normal(
        HUGE_SHAPE
    ),
    "Zeros.__call__.shape": lambda: ek.keras.initializers.Zeros()(HUGE_SHAPE),
    "Ones.__call__.shape": lambda: ek.keras.initializers.Ones()(HUGE_SHAPE),
    "Constant.__call__.shape": lambda: ek.keras.initializers.Constant(2.0)(HUGE_SHAPE),
    "RandomNormal.__call__.shape": lambda: ek.keras.initializers.RandomNormal()(HUGE_SHAPE),
    "RandomUniform.__call__.shape": lambda: ek.keras.initializers.RandomUniform()(HUGE_SHAPE),
    "GlorotUniform.__call__.shape": lambda: ek.keras.initializers.GlorotUniform()(HUGE_SHAPE),
    "VarianceScaling.__call__.shape": lambda: ek.keras.initializers.HeNormal()(HUGE_SHAPE),
    "TruncatedNormal.__call__.shape": lambda: ek.keras.initializers.TruncatedNormal()(HUGE_SHAPE),
    "Orthogonal.__call__.shape": lambda: ek.keras.initializers.Orthogonal()(HUGE_SHAPE),
    "Identity.__call__.shape": lambda: ek.keras.initializers.Identity()(HUGE_SHAPE),
    "AUC.__init__.num_thresholds": lambda: ek.keras.metrics.AUC(num_thresholds=HUGE),
    "AUC.__init__.num_labels": lambda: ek.keras.metrics.AUC(multi_label=True, num_labels=HUGE),
    "Layer.add_weight.shape": lambda: ek.keras.layers.Layer().add_weight("w", HUGE_SHAPE),
    "Dense.__init__.units": _built(lambda: ek.keras.layers.Dense(2**62), rows),
    "Embedding.__init__.input_dim": _built(
        lambda: ek.keras.layers.Embedding(2**62, 2), ek.constant([1])
    ),
    "Embedding.__init__.output_dim": _built(
        lambda: ek.keras.layers.Embedding(2, 2**62), ek.constant([1])
    ),
    "Conv2D.__init__.filters": _built(lambda: ek.keras.layers.Conv2D(2**62, 1), image),
    "Conv2D.__init__.kernel_size": _built(lambda: ek.keras.layers.Conv2D(1, 2**31), image),
    "Conv1D.__init__.filters": _built(lambda: ek.keras.layers.Conv1D(2**62, 1), sequence),
    "Conv1D.__init__.kernel_size": _built(lambda: ek.keras.layers.Conv1D(1, 2**62), sequence),
    "Conv2DTranspose.__init__.filters": _built(
        lambda: ek.keras.layers.Conv2DTranspose(2**62, 1), image
    ),
    "Conv2DTranspose.__init__.kernel_size": _built(
        lambda: ek.keras.layers.Conv2DTranspose(1, 2**31), image
    ),
    "Conv2DTranspose.__init__.strides": _built(
        lambda: ek.keras.layers.Conv2DTranspose(1, 1, strides=2**31), image
    ),
    "UpSampling2D.__init__.size": _built(lambda: ek.keras.layers.UpSampling2D(2**31), image),
    "conv2d_transpose.strides": lambda: ek.nn.conv2d_transpose(
        image, ek.ones([1, 1, 1, 1]), [1, 2**33, 2**33, 1], 2**31
    ),
    "conv1d_transpose.strides": lambda: ek.nn.conv1d_transpose(
        sequence, ek.ones([1, 1, 3]), [1, 2**62, 1], 2**61
    ),
    "LSTM.__init__.units": _built(lambda: ek.keras.layers.LSTM(2**62), sequence),
    "_Gated.__init__.units": _built(lambda: ek.keras.layers.GRU(2**62), sequence),
    "_Recurrent.__init__.units": _built(lambda: ek.keras.layers.SimpleRNN(2**62), sequence),
    "MultiHeadAttention.__init__.num_heads": lambda: ek.keras.layers.MultiHeadAttention(2**62, 2)(
        sequence, sequence
    ),
    "MultiHeadAttention.__init__.key_dim": lambda: ek.keras.layers.MultiHeadAttention(2, 2**62)(
        sequence, sequence
    ),
    "MultiHeadAttention.__init__.value_dim": lambda: ek.keras.layers.MultiHeadAttention(
        2, 2, value_dim=2**62
    )(sequence, sequence),
    "Training.fit.epochs": lambda: _model().fit(rows[:, :2], rows[:, :1], epochs=10**30),
    "Training.fit.steps_per_epoch": lambda: _model().fit(
        _batches((rows[:, :2], rows[:, :1])), steps_per_epoch=HUGE
    ),
    "Training.fit.validation_steps": lambda: _model().fit(
        rows[:, :2], rows[:, :1], validation_data=(rows[:, :2], rows[:, :1]), validation_steps=HUGE
    ),
    "Training.evaluate.steps": lambda: _model().evaluate(
        _batches((rows[:, :2], rows[:, :1])), steps=HUGE
    ),
    "Training.predict.steps": lambda: _model().predict(_batches(rows[:, :2]), steps=HUGE),
    "random_normal.shape": lambda: ek.keras.backend.random_normal(HUGE_SHAPE),
    "random_uniform.shape": lambda: ek.keras.backend.random_uniform(HUGE_SHAPE),
    "resize.size": lambda: ek.image.resize(image, [2**31, 2**31]),
    "pad_to_bounding_box.target_height": lambda: ek.image.pad_to_bounding_box(
        image[0], 0, 0, 2**62, 4
    ),
    "pad_to_bounding_box.target_width": lambda: ek.image.pad_to_bounding_box(
        image[0], 0, 0, 4, 2**62
    ),
    "resize_with_crop_or_pad.target_height": lambda: ek.image.resize_with_crop_or_pad(
        image[0], 2**62, 4
    ),
    "resize_with_crop_or_pad.target_width": lambda: ek.image.resize_with_crop_or_pad(
        image[0], 4, 2**62
    ),
    "crop_to_bounding_box.target_height": lambda: ek.image.crop_to_bounding_box(
        image[0], 0, 0, 2**62, 4
    ),
    "crop_to_bounding_box.target_width": lambda: ek.image.crop_to_bounding_box(
        image[0], 0, 0, 4, 2**62
    ),
}

LAZY = "lazy: it only counts elements as they are read, one at a time, as TF's does"
SAFE = {
    "ensure_shape.shape": "a shape to compare with: allocates nothing",
    "Dataset.take.count": LAZY,
    "Dataset.skip.count": LAZY,
    "Dataset.repeat.count": LAZY,
    "Dataset.prefetch.buffer_size": "accepted for TF compatibility and ignored",
    "TextLineDataset.__init__.buffer_size": "bytes to buffer: checked to be a whole number, "
    "then not used (lines are read whole)",
    "CsvDataset.__init__.buffer_size": "bytes to buffer: checked to be a whole number, "
    "then not used (lines are read whole)",
    "Tensor.set_shape.shape": "a shape to compare with: allocates nothing",
    "make_csv_dataset.num_epochs": LAZY,
    # A preprocessing layer's adapt reads at most `steps` batches of data that exists.
    "Discretization.adapt.steps": "reads at most that many batches, of the data given",
    "IndexLookup.adapt.steps": "reads at most that many batches, of the data given",
    "TextVectorization.adapt.steps": "reads at most that many batches, of the data given",
    "make_csv_dataset.num_rows_for_inference": "reads at most the rows the files have",
    "TensorSpec.__init__.shape": "describes a shape; allocates nothing",
    "Variable.__init__.shape": "the shapes the value may take; allocates nothing",
    "Layer.__init__.input_dim": "describes the input's shape; allocates nothing",
    "Training.fit.batch_size": "slices of arrays that exist: a batch larger than the data is "
    "all of it",
    "Training.evaluate.batch_size": "slices of arrays that exist: a batch larger than the data "
    "is all of it",
    "Training.predict.batch_size": "slices of arrays that exist: a batch larger than the data "
    "is all of it",
    "Progbar.add.n": "moves a counter; nothing is made per step",
    "in_top_k.k": "a threshold compared with a count: allocates nothing",
    "Input.shape": "a symbolic stand-in: describes a shape, allocates nothing",
    "Input.batch_size": "a symbolic stand-in: describes a shape, allocates nothing",
    "InputLayer.__init__.batch_size": "describes the input's shape; allocates nothing",
    "slice.size": "a window into a sparse tensor that exists: it can only shrink it",
    "_Pooling2D.__init__.pool_size": "a window larger than the input is refused by its call",
    "_Pooling2D.__init__.strides": "a larger stride only shrinks the output",
    "Conv2D.__init__.strides": "a larger stride only shrinks the output",
    "strided_slice.strides": "a larger stride only shrinks the slice",
    "conv2d.strides": "a larger stride only shrinks the output",
    "max_pool.strides": "a larger stride only shrinks the output",
    "avg_pool.strides": "a larger stride only shrinks the output",
    "conv2d.filters": "a tensor of weights that exists already",
    "conv1d.filters": "a tensor of weights that exists already",
    "conv2d_transpose.filters": "a tensor of weights that exists already",
    "conv1d_transpose.filters": "a tensor of weights that exists already",
    "Conv1D.__init__.strides": "a larger stride only shrinks the output",
    "_Pooling1D.__init__.pool_size": "a window larger than the input is refused by its call",
    "_Pooling1D.__init__.strides": "a larger stride only shrinks the output",
    "max_pool1d.strides": "a larger stride only shrinks the output",
    "avg_pool1d.strides": "a larger stride only shrinks the output",
    "rot90.k": "taken modulo 4",
    "Permute.__init__.dims": "a permutation of the input's axes, checked against its rank",
    "normalize.order": "the norm's exponent: allocates nothing",
    "random_crop.size": "a crop no larger than the image (a larger one is refused)",
    "top_k_categorical_accuracy.k": "compared with a count of higher scores: allocates nothing",
    "sparse_top_k_categorical_accuracy.k": "compared with a count of higher scores: allocates "
    "nothing",
    "TopKCategoricalAccuracy.__init__.k": "compared with a count of higher scores",
    "SparseTopKCategoricalAccuracy.__init__.k": "compared with a count of higher scores",
    "create_file_writer.max_queue": "a flush threshold: the queue holds only what was logged",
    "SummaryWriter.__init__.max_queue": "a flush threshold: the queue holds only what was logged",
    "record_summaries_every_n_global_steps.n": "a modulus: nothing is made per unit",
    "CheckpointManager.__init__.max_to_keep": "a threshold: saves are made one per call",
    "lbfgs_minimize.history_size": "a bound: the history grows one pair per iteration run",
    "lbfgs_minimize.max_iterations": "an upper bound the caller chooses; it stops at "
    "convergence, and each iteration is one step of real work",
}


def test_every_size_parameter_is_declared():
    found = size_parameters()
    assert sorted(found - set(BOUNDED) - set(SAFE)) == []
    assert sorted((set(BOUNDED) | set(SAFE)) - found) == []  # and none is stale


@pytest.mark.parametrize("name", sorted(BOUNDED))
def test_a_huge_size_is_refused_at_once(name, tmp_path):
    writer = ek.summary.create_file_writer(str(tmp_path))
    with writer.as_default(), pytest.raises((ResourceExhaustedError, InvalidArgumentError)) as e:
        BOUNDED[name]()
    # By eagerkit's own check, not by numpy failing to allocate: where the kernel overcommits
    # memory numpy's allocation succeeds, and the process is killed while filling it.
    assert not _numpy_refusal(e.value), f"{name}: numpy refused it, not eagerkit: {e.value!r}"


def _numpy_refusal(error):
    """Python's MemoryError (or numpy's "array is too big") in ``error``'s chain, if any."""
    while error is not None:
        raised_by_numpy = not isinstance(error, ek.errors.OpError)
        if raised_by_numpy and (isinstance(error, MemoryError) or "too big" in str(error)):
            return error
        if "Unable to allocate" in str(error):  # numpy's MemoryError, converted
            return error
        error = error.__cause__ or error.__context__
    return None


# Sizes numpy would allocate here (tens of MiB), on a machine patched to have 1 MiB: refused
# by eagerkit's own checks, so no refusal above depends on how this machine's numpy and
# kernel treat a huge allocation.
N = 2**12
SMALL_MACHINE = {
    "RaggedTensor.to_tensor": lambda: ek.ragged.constant([[1.0], []]).to_tensor(shape=[N, N]),
    "zeros": lambda: ek.zeros([N, N]),
    "fill": lambda: ek.fill([N, N], 1.0),
    "eye": lambda: ek.eye(N),
    "range": lambda: ek.range(N * N),
    "one_hot": lambda: ek.one_hot([0, 1], N * N),
    "normal": lambda: ek.random.normal([N, N]),
    "categorical": lambda: ek.random.categorical([[0.0, 1.0]], N * N),
    "tile": lambda: ek.tile([1.0], [N * N]),
    "repeat": lambda: ek.repeat([1.0, 2.0], [1, N * N]),
    "pad": lambda: ek.pad([1.0], [[N * N, 0]]),
    "pad_to_bounding_box": lambda: ek.image.pad_to_bounding_box(image[0], 0, 0, N * N, 4),
    "resize": lambda: ek.image.resize(image, [N, N]),
    "Dense": _built(lambda: ek.keras.layers.Dense(N * N), rows),
    "TensorArray": lambda: ek.TensorArray(ek.float32, size=N * N, element_shape=[2]),
}


@pytest.mark.parametrize("name", sorted(SMALL_MACHINE))
def test_a_tensor_larger_than_memory_is_refused_before_numpy_allocates(name, monkeypatch):
    monkeypatch.setattr(limits, "physical_memory", lambda: 2**20)
    with pytest.raises(ResourceExhaustedError, match="more than this machine's memory"):
        SMALL_MACHINE[name]()


@pytest.mark.parametrize(
    "draw",
    [
        lambda shape: ek.random.normal(shape),
        lambda shape: ek.random.uniform(shape, dtype=ek.float64),
        lambda shape: ek.random.uniform(shape, 0, 9, dtype=ek.int32),
        lambda shape: ek.random.truncated_normal(shape),
        lambda shape: ek.random.Generator.from_seed(1).normal(shape),
        lambda shape: ek.keras.initializers.LecunUniform()(shape),
    ],
)
def test_a_draw_counts_its_float64_samples_and_its_result(monkeypatch, draw):
    # Samples are drawn in float64, then cast (and scaled): at least 16 bytes an element are
    # held at once. A draw whose float64 samples alone would fit in memory, but not with its
    # result beside them, is refused before anything is drawn (else the machine kills it).
    monkeypatch.setattr(limits, "physical_memory", lambda: 2**30)
    shape = [2**30 // 12 // 4, 4]  # float64 samples: 2/3 of the memory
    ek.random.set_seed(5)
    with pytest.raises(ek.errors.ResourceExhaustedError, match=r"a draw of shape \(22369621, 4\)"):
        draw(shape)
    after_refusal = draw([3, 4]).numpy()  # a small draw, as before: nothing was drawn
    ek.random.set_seed(5)
    np.testing.assert_array_equal(after_refusal, draw([3, 4]).numpy())

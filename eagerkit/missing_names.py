"""TF names eagerkit does not have, and what to use instead.

eagerkit is a teaching subset of TensorFlow. Code ported from TF's tutorials meets names it
lacks; rather than Python's bare "module 'eagerkit' has no attribute 'compat'", every
public namespace (``ek``, ``ek.keras``, ``ek.losses``, ...) answers a lookup of such a name
(PEP 562's module ``__getattr__``) with an ``AttributeError`` that says so and names what to
use instead. It is still an ``AttributeError`` (``hasattr`` says False), and for a name not
in the table (a typo) Python's own "Did you mean ...?" still follows. The error names the
namespace as the user wrote it, ``module 'eagerkit.losses'``, even where the module behind
it has another name (``eagerkit.keras.tf1_losses``).

Examples
--------
>>> import eagerkit as ek
>>> ek.estimator
Traceback (most recent call last):
...
AttributeError: module 'eagerkit' has no attribute 'estimator': eagerkit, a teaching ...
>>> hasattr(ek, "estimator")
False
"""

_EAGER_METRIC = (
    "a metric object, {}: call it on each batch and read .result() (TF1's tf.metrics "
    "functions do not run eagerly)"
)

_HASH_BINS = (
    "ek.keras.layers.Hashing(num_bins, salt=...) puts strings (and integers) in bins, with "
    "BLAKE2b: a value always lands in the same bin, but not in TF's bin (TF's FarmHash/SipHash "
    "bins cannot be reproduced in eagerkit; learn the bins here)"
)

# What each module lacks: TF's name -> what to use instead ("" where eagerkit has nothing).
MISSING = {
    "eagerkit": {
        "compat": "drop the prefix: eagerkit's top level has TF1's eager names "
        "(ek.layers, ek.losses, ek.train) beside TF2's",
        "saved_model": "save a Keras model with model.save('model.keras') and "
        "ek.keras.models.load_model, or variables with ek.train.Checkpoint",
        "estimator": "write the training loop with ek.GradientTape, or use model.compile "
        "and model.fit",
        "distribute": "train on one device; ek.device('/gpu:0') places the ops",
        "lite": "",
        "tpu": "",
        "feature_column": "turn features into numbers with numpy or ek.data.Dataset.map, "
        "then use ek.keras.layers",
        "Session": "eager execution runs each op at once; wrap a function in ek.function "
        "for a graph",
        "placeholder": "pass values as arguments to a Python function (ek.function traces it)",
        "global_variables_initializer": "an ek.Variable holds its value from creation",
        "get_variable": "make one with ek.Variable(initial_value)",
        "variable_scope": "layers own their variables; ek.name_scope names ops",
        # Lesson 14 teaches the first way: one op over the whole batch, not one per row.
        "map_fn": "write the function for the whole batch at once (elementwise ops, and "
        "reductions with axis=, such as ek.reduce_max(x, axis=1)); where no op fits, "
        "loop in Python and ek.stack the results (one op per element: slow)",
        "vectorized_map": "write the function for the whole batch at once (elementwise ops, "
        "and reductions with axis=, such as ek.reduce_max(x, axis=1)), which is what "
        "vectorized_map makes of it",
        "mixed_precision": "train in float32 (the default)",
        "profiler": "time steps with Python's time.perf_counter",
        # TF 2's top level, met in ported code; autodiff first: the course is about it.
        "autodiff": "reverse mode with ek.GradientTape (tape.jacobian for whole Jacobians); "
        "eagerkit has no forward mode (ForwardAccumulator)",
        "IndexedSlices": "a gather's gradient is a dense tensor in eagerkit (the values TF's "
        "IndexedSlices hold, scattered into zeros)",
        "no_gradient": "ek.stop_gradient on the op's result",
        "recompute_grad": "the tape keeps each value its gradient needs; to recompute instead, "
        "write the block as a function and run it again inside an ek.custom_gradient",
        "scan": "a Python loop that keeps each step's result, then ek.stack of the results",
        "switch_case": "ek.cond for two branches, or Python's if/elif on the index",
        "dynamic_partition": "ek.boolean_mask, once per partition (mask: partitions == i)",
        "dynamic_stitch": "ek.tensor_scatter_nd_update of the pieces into ek.zeros",
        "realdiv": "ek.divide (ek.truediv)",
        "timestamp": "Python's time.time(): eager ops run as they are called",
        "test": "pytest with ek.testing (numpy.testing for values); "
        "ek.config.list_physical_devices('GPU') for tf.test.is_gpu_available()",
        "lookup": "ek.keras.layers.StringLookup and ek.keras.layers.IntegerLookup",
        "queue": "ek.data.Dataset (batch, shuffle and prefetch)",
        "signal": "numpy's np.fft on the tensor's values (np.asarray(t)), outside the tape",
        "audio": "",
        "bitwise": "",
        "quantization": "",
        "sets": "",
        "types": "",
        "xla": "",
        "experimental": "",
        # TF's default for Generator.uniform_full_int; eagerkit's gives int64 (the same bits).
        "uint32": "ek.int32 or ek.int64 (the unsigned dtypes are ek.uint8 and ek.uint16)",
        "uint64": "ek.int64, which holds the same 64 bits (Generator.uniform_full_int "
        "draws int64 by default; the unsigned dtypes are ek.uint8 and ek.uint16)",
    },
    "eagerkit.keras": {
        "applications": "build the network from ek.keras.layers (no pretrained weights)",
        "preprocessing": "ek.data.Dataset to batch and map the data, ek.image for images",
        "mixed_precision": "train in float32 (the default)",
        "wrappers": "",
        "premade": "",
        "export": "save with model.save('model.keras')",
        # Keras 3's guides write a layer's math with keras.ops and keras.random.
        "ops": "TF's functions at eagerkit's top level: ek.matmul, ek.exp, ek.zeros, "
        "ek.reduce_sum for keras.ops.sum, ek.reduce_mean for keras.ops.mean",
        "random": "ek.random.normal(shape, seed=...), or ek.random.Generator.from_seed(1337) "
        "for a layer's own stream of numbers (Keras 3's SeedGenerator)",
        "experimental": "",
    },
    "eagerkit.keras.layers": {
        "RandomFlip": "ek.image.flip_left_right in a Dataset.map",
        # Keras' transfer-learning guide augments its images with both before its base model.
        "RandomRotation": "ek.image.rot90 (quarter turns) or ek.image.random_flip_left_right "
        "in a Dataset.map",
        # TF's time-series tutorial steps an LSTMCell by hand (its FeedBack model).
        "LSTMCell": "ek.keras.layers.LSTM(units, return_state=True) called on one-step "
        "sequences (shape [batch, 1, features]) with initial_state=[h, c] steps it by hand",
        "RNN": "the recurrent layers SimpleRNN, LSTM and GRU (return_sequences=, return_state=)",
        "experimental": "",
        # Layers of TF 2 / Keras 3 tutorials beyond the kit's 1-D and 2-D convolutions.
        "Conv3D": "ek.keras.layers.TimeDistributed(ek.keras.layers.Conv2D(...)) runs a 2-D "
        "convolution on each frame of a video (no mixing across frames)",
        "DepthwiseConv2D": "ek.keras.layers.Conv2D(filters, kernel_size), a full convolution "
        "(it mixes the channels that a depthwise one keeps apart)",
        "SeparableConv2D": "ek.keras.layers.Conv2D(filters, kernel_size): the same output "
        "shapes (a separable convolution is a per-channel one, then a 1x1 Conv2D, with "
        "fewer weights)",
        "Resizing": "ek.image.resize(images, [height, width]) in a Dataset.map, or in a "
        "ek.keras.layers.Lambda",
        "CenterCrop": "ek.image.resize_with_crop_or_pad(images, height, width) (crops the "
        "centre) in a Dataset.map, or in a ek.keras.layers.Lambda",
        "RandomZoom": "ek.image.central_crop then ek.image.resize in a Dataset.map",
        "RandomContrast": "ek.image.adjust_contrast(image, factor) with a factor drawn by "
        "ek.random.uniform, in a Dataset.map",
        "RandomTranslation": "ek.image.pad_to_bounding_box then ek.image.crop_to_bounding_box "
        "at an offset drawn by ek.random.uniform, in a Dataset.map",
    },
    # GPU set-up code of TF 2.0-2.3 tutorials (list_physical_devices, set_memory_growth)
    "eagerkit.config": {
        "experimental": "ek.config.list_physical_devices and ek.config.list_logical_devices "
        "(TF 2's names for them); memory growth has nothing to set: cupy's memory pool grows "
        "as arrays need it",
    },
    # What TF's tf.data guide uses beyond the kit's scope: record files, protos, downloads
    "eagerkit.data": {
        "TFRecordDataset": "keep the data in text or CSV files (ek.data.TextLineDataset, "
        "ek.data.experimental.CsvDataset) or numpy arrays (ek.data.Dataset.from_tensor_slices)",
        "Options": "drop the options (and the dataset.with_options call): eagerkit's "
        "datasets run in Python, in order, with nothing to tune",
    },
    "eagerkit.math": {
        "accumulate_n": "ek.math.add_n(inputs), the same sum",
        "zeta": "scipy.special.zeta(x, q) on the values (np.asarray(t)), outside the tape",
    },
    "eagerkit.nn": {
        "depthwise_conv2d": "ek.nn.conv2d on each input channel (ek.split the channels, "
        "ek.concat the results along the last axis)",
        "local_response_normalization": "ek.keras.layers.BatchNormalization or "
        "LayerNormalization, the normalizations that replaced AlexNet's LRN",
        "log_poisson_loss": "ek.exp(log_input) - targets * log_input (TF's formula without "
        "compute_full_loss), or ek.keras.losses.poisson on the rates",
        "ctc_loss": "",
        "scale_regularization_loss": "sum(model.losses) as it is: eagerkit trains on one "
        "replica, so there is nothing to scale",
    },
    "eagerkit.random": {
        "gamma": "np.random.default_rng(seed).gamma(alpha, 1 / beta, shape), then "
        "ek.constant (no gradient through the draw)",
        "poisson": "np.random.default_rng(seed).poisson(lam, shape), then ek.constant",
    },
    "eagerkit.image": {
        "resize_with_pad": "ek.image.resize to the size that keeps the aspect ratio, then "
        "ek.image.pad_to_bounding_box to the target size",
        "extract_patches": "ek.reshape and ek.transpose: an image [h, w, c] cut into p x p "
        "patches is ek.transpose(ek.reshape(image, [h // p, p, w // p, p, c]), "
        "[0, 2, 1, 3, 4])",
    },
    # TF's string hashes: FarmHash Fingerprint64 and keyed SipHash, which eagerkit lacks.
    "eagerkit.strings": {
        "format": "Python's f-strings on the values: f'{t.numpy()}'",
        "to_hash_bucket_fast": _HASH_BINS,
        "to_hash_bucket": _HASH_BINS,
        "to_hash_bucket_strong": _HASH_BINS + " (salt= keys the hash, as key= does here)",
    },
    "eagerkit.io": {
        "decode_jpeg": "decode images with an image library (PIL: np.asarray(Image.open(path))) "
        "and slice the arrays with ek.data.Dataset.from_tensor_slices",
        "decode_png": "decode images with an image library (PIL: np.asarray(Image.open(path))) "
        "and slice the arrays with ek.data.Dataset.from_tensor_slices",
        "parse_example": "keep the features in numpy arrays, CSV or text files (eagerkit reads "
        "no tf.Example records)",
        "FixedLenFeature": "keep the features in numpy arrays, CSV or text files (eagerkit "
        "reads no tf.Example records)",
        "gfile": "Python's open, os and glob (eagerkit reads local files only)",
    },
    "eagerkit.train": {
        "Example": "keep the features in numpy arrays, CSV or text files (eagerkit reads no "
        "tf.Example records)",
        "ExponentialMovingAverage": "keep the averages yourself: after each step, "
        "average.assign(decay * average + (1 - decay) * variable) for each variable",
    },
    "eagerkit.keras.utils": {
        "get_file": "download the file yourself and pass its local path (eagerkit works offline)",
        "plot_model": "model.summary() prints the layers, their output shapes and parameters",
        "Sequence": "ek.data.Dataset.from_tensor_slices (or Dataset.from_generator) with "
        ".batch(); model.fit takes the dataset",
        "split_dataset": "dataset.take(n) for the first part and dataset.skip(n) for the rest "
        "(shuffle once before, with reshuffle_each_iteration=False)",
        "image_dataset_from_directory": "list the files with glob, decode them with PIL "
        "(np.asarray(Image.open(path))), label them by folder, then "
        "ek.data.Dataset.from_tensor_slices((images, labels))",
        "text_dataset_from_directory": "read the files with open(path).read(), label them by "
        "folder, then ek.data.Dataset.from_tensor_slices((texts, labels))",
    },
    "eagerkit.keras.optimizers": {
        "Ftrl": "ek.keras.optimizers.Adagrad (FTRL's per-coordinate rates are Adagrad's), "
        "with a kernel_regularizer for its L1/L2 terms",
        "Lion": "ek.keras.optimizers.AdamW (Lion is a sign-of-momentum variant of it)",
    },
    "eagerkit.keras.callbacks": {
        "BackupAndRestore": "ek.keras.callbacks.ModelCheckpoint(path, save_weights_only=True) "
        "each epoch, then model.load_weights(path) and fit(initial_epoch=...) to resume",
    },
    "eagerkit.keras.metrics": {
        "MeanIoU": "ek.math.confusion_matrix(labels, predictions, num_classes); the IoU of "
        "class i is cm[i, i] / (row i's sum + column i's sum - cm[i, i])",
    },
    "eagerkit.keras.backend": {
        "set_floatx": "pass dtype= to each layer (ek.keras.layers.Dense(3, dtype='float64')) "
        "and feed float64 data; eagerkit's default float stays float32",
    },
    "eagerkit.keras.datasets": {
        "fashion_mnist": "ek.keras.datasets.mnist, the same shapes: 28x28 uint8 images in "
        "10 classes",
        # the CNN tutorial's first line; eagerkit's downloader fetches MNIST only
        "cifar10": "ek.keras.datasets.mnist (28x28 grey images), or your own arrays in "
        "CIFAR-10's format: (N, 32, 32, 3) uint8 images and (N, 1) uint8 labels 0-9",
    },
    "eagerkit.debugging": {
        # TF's variable guide turns it on to show where ops run; eagerkit logs nothing
        "set_log_device_placement": "read the .device of a tensor or variable to see where "
        "it was placed",
    },
    "eagerkit.losses": {
        "add_loss": "add the terms yourself, total = loss_a + loss_b (executing eagerly, "
        "nothing collects losses)",
        "get_losses": "keep the losses you compute in a Python list",
        "get_total_loss": "add the losses yourself, plus sum(model.losses) for a Keras "
        "model's regularization terms",
        "get_regularization_loss": "sum(model.losses) for a Keras model's regularization terms",
        "get_regularization_losses": "model.losses, a Keras model's regularization terms",
    },
    # TF1's tf.metrics functions build graph update ops and raise "not supported when eager
    # execution is enabled"; executing eagerly, TF1 used the tfe.metrics objects instead.
    "eagerkit.metrics": {
        "accuracy": _EAGER_METRIC.format("ek.metrics.Accuracy()"),
        "mean": _EAGER_METRIC.format("ek.metrics.Mean()"),
        "auc": _EAGER_METRIC.format("ek.keras.metrics.AUC()"),
        "precision": _EAGER_METRIC.format("ek.keras.metrics.Precision()"),
        "recall": _EAGER_METRIC.format("ek.keras.metrics.Recall()"),
        "precision_at_thresholds": _EAGER_METRIC.format(
            "ek.keras.metrics.Precision(thresholds=[...])"
        ),
        "recall_at_thresholds": _EAGER_METRIC.format("ek.keras.metrics.Recall(thresholds=[...])"),
        "true_positives": _EAGER_METRIC.format("ek.keras.metrics.TruePositives()"),
        "false_positives": _EAGER_METRIC.format("ek.keras.metrics.FalsePositives()"),
        "true_negatives": _EAGER_METRIC.format("ek.keras.metrics.TrueNegatives()"),
        "false_negatives": _EAGER_METRIC.format("ek.keras.metrics.FalseNegatives()"),
        "mean_squared_error": _EAGER_METRIC.format("ek.keras.metrics.MeanSquaredError()"),
        "mean_absolute_error": _EAGER_METRIC.format("ek.keras.metrics.MeanAbsoluteError()"),
        "root_mean_squared_error": _EAGER_METRIC.format("ek.keras.metrics.RootMeanSquaredError()"),
        "mean_iou": "",
        "mean_per_class_accuracy": "",
    },
}
# The name users write for a public namespace whose module has another one (ek.losses is
# eagerkit.keras.tf1_losses); filled by name_namespace when eagerkit is imported.
SHOWN_AS = {}


def shown_name(module):
    """``module``'s name as users write it: ``eagerkit.losses``, not its file's name."""
    return SHOWN_AS.get(module, module.__name__)


def tf_spelling(shown, name):
    """TF's spelling of eagerkit's ``shown.name``: ``eagerkit.keras.X`` -> ``tf.keras.X``."""
    return f"tf{shown[len('eagerkit') :]}.{name}"


def name_namespace(module, shown):
    """Let ``module`` answer a missing name as the namespace ``shown`` (``eagerkit.losses``),
    through its own ``__getattr__`` where it has one, else through one given here."""
    SHOWN_AS[module] = shown
    if "__getattr__" not in vars(module):

        def missing(name):  # PEP 562: called only for names the module lacks
            raise attribute_error(module, name)

        module.__getattr__ = missing


def attribute_error(module, name):
    """The ``AttributeError`` for ``module.name`` (raise it from the module's ``__getattr__``).

    A name in the table says what to use instead; any other one gets Python's own message
    and ``name``/``obj`` set, so Python adds "Did you mean ...?" for a typo.
    """
    shown = shown_name(module)
    plain = f"module '{shown}' has no attribute '{name}'"
    if name[:2] == "__":  # at once: IPython and pytest probe modules for dunders
        return AttributeError(plain, name=name, obj=module)
    instead = MISSING.get(shown, {}).get(name)
    if instead is None:
        return AttributeError(plain, name=name, obj=module)
    tf_name = tf_spelling(shown, name)
    told = f"{plain}: eagerkit, a teaching subset of TensorFlow, has no {tf_name}"
    return AttributeError(f"{told}. Instead: {instead}" if instead else f"{told}.")

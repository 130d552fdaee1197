"""The engine reaches tensor data only through the tensor's backend (``xp``), never numpy.

A forward that calls ``np.exp(x)`` works on the CPU and breaks on a GPU, so this test reads
the engine's source (with ``ast``) and fails on any call of a numpy *function* outside the
modules whose job is numpy. Naming numpy *types* (``np.float32``, ``np.dtype``, ``np.iinfo``,
``isinstance(x, np.ndarray)``) is fine: they describe data, they do not compute on it. The
simulated device (test_simulated_device.py) catches what a reading cannot: data that reaches
numpy through a back door.
"""

import ast
import pathlib

import numpy
import pytest

ENGINE = pathlib.Path(__file__).resolve().parents[1] / "eagerkit"

# Modules whose job is numpy, and why.
ALLOWED = {
    "backends/": "the backends are the array libraries' wrappers: numpy is their material",
    "device_class.py": "declares each device's kernel table in numpy dtypes",
    "dtypes.py": "TF's dtype rules are stated over numpy dtypes and host Python values",
    "tensor.py": "turns host values into device arrays (backend.asarray) and back "
    "(numpy(), __array__): the explicit doors between host and device",
    "testing.py": "check_grads compares host copies (.numpy()) with finite differences",
    "datasets/": "bundled and downloaded datasets are host data (files, generators) until "
    "they become tensors",
    "ragged/": "a ragged tensor's row partition (its splits) is host metadata, like a shape; "
    "its values stay a tensor on their device, reached only through ops (gather, ...)",
    "sparse/": "a sparse tensor's indices and dense shape are host metadata, like a shape; "
    "its values stay a tensor on their device, reached only through ops",
    "random/": "random numbers are drawn on the host (one seed, the same numbers on every "
    "device), then copied to the device with backend.asarray",
}

_PREPROCESSING = (
    "the preprocessing layers (lookups, encodings, Hashing, Discretization, "
    "TextVectorization) work on host copies (.numpy()) inside ek.py_function, as Keras runs "
    "them in tf.data on the CPU; their output becomes a tensor on the current device"
)

# Numpy calls elsewhere that touch only host data, per module, and why. Any other numpy call
# in these modules still fails the test.
HOST_ONLY = {
    "jacobians.py": (
        {"numpy.prod", "numpy.zeros"},
        "jacobian: the size of a shape tuple, and one-hot seeds built on the host that "
        "convert_to_tensor then copies to the target's device",
    ),
    "data/dataset.py": ({"numpy.random.default_rng"}, "the shuffle order is drawn on the host"),
    "data/csv_dataset.py": ({"numpy.asarray"}, "a CSV field parsed on the host, then a tensor"),
    "data/combining.py": (
        {"numpy.random.default_rng"},
        "sample_from_datasets draws which dataset is next on the host",
    ),
    "data/mixing.py": (
        {"numpy.full", "numpy.all", "numpy.any", "numpy.isfinite"},
        "sample_from_datasets' weights are checked and normalized on the host, from host "
        "copies (.numpy()), for the host's random draw",
    ),
    "data/stateful_steps.py": (
        {
            "numpy.random.default_rng",
            "numpy.asarray",
            "numpy.any",
            "numpy.isclose",
            "numpy.where",
            "numpy.isfinite",
            "numpy.zeros",
            "numpy.full",
            "numpy.ndim",
            "numpy.issubdtype",
        },
        "rejection_resample's class frequencies and acceptance probabilities are host "
        "numbers (from host copies, .numpy()) for the host's random draw",
    ),
    "data/iterator.py": ({"numpy.asarray"}, "a checkpoint saves the position, a host int"),
    "data/text.py": ({"numpy.asarray"}, "file names read from a host copy (.numpy())"),
    "data/grouping.py": (
        {"numpy.random.default_rng"},
        "Dataset.random draws its numbers on the host, then makes them tensors",
    ),
    "arguments.py": ({"numpy.asarray"}, "a Python value (a list, a number) read on the host"),
    "io.py": (
        {"numpy.array", "numpy.asarray", "numpy.frombuffer", "numpy.shape"},
        "CSV fields parsed, and decode_raw's bytes read, on the host become tensors (strings "
        "live on the host, as in TF)",
    ),
    "ops/complex.py": ({"numpy.broadcast_shapes"}, "complex(): the output's shape, from shapes"),
    "ops/text_split.py": (
        {"numpy.array", "numpy.asarray", "numpy.empty"},
        "splitting and decoding text works on host strings (strings live on the host, as in "
        "TF) and their code points, then makes tensors",
    ),
    "graph/graph.py": ({"numpy.asarray"}, "prints a constant after an explicit to_host copy"),
    "graph/optimize.py": ({"numpy.asarray"}, "hashes a constant after an explicit to_host copy"),
    "keras/metric_inputs.py": (
        {"numpy.asarray", "numpy.shape"},
        "a Python value given to a metric (a number, a list) is read on the host, then a "
        "tensor; the shape of such a value is read there too (same_rank)",
    ),
    "keras/confusion_counts.py": (
        {"numpy.all", "numpy.nanmax", "numpy.nanmin"},
        "the check that predictions are probabilities reads them on the host (at every call, "
        "as TF's assert ops), to name the values in its message",
    ),
    "keras/confusion_metrics.py": (
        {"numpy.zeros"},
        "a confusion metric's count variables start from host zeros",
    ),
    "keras/auc_metric.py": (
        {"numpy.any"},
        "AUC checks its label_weights option (host numbers given to the constructor)",
    ),
    "keras/topk_metrics.py": (
        {"numpy.any", "numpy.round"},
        "the check of class ids reads them on the host (at every call, as TF's assert ops), "
        "to name them in its message",
    ),
    "keras/adaptive_optimizers.py": (
        {"numpy.arange", "numpy.prod"},
        "Nadam's momentum product is a function of the step number, computed on the host",
    ),
    "keras/scaled_initializers.py": (
        {"numpy.linalg.qr", "numpy.diag", "numpy.sign"},
        "Orthogonal's QR runs on the host copy of a draw (as random numbers are drawn there)",
    ),
    "keras/host_arrays.py": (
        {"numpy.array", "numpy.asarray", "numpy.argmax", "numpy.arange", "numpy.concatenate"},
        "fit's arrays are held on the host and cut into batches there (and class weights "
        "looked up there); each batch becomes a tensor on the current device",
    ),
    "keras/sequence_utils.py": (
        {
            "numpy.asarray",
            "numpy.full",
            "numpy.atleast_1d",
            "numpy.linalg.norm",
            "numpy.where",
        },
        "pad_sequences takes Python lists and gives a numpy array, as Keras; normalize's "
        "numpy branch is for numpy input (a Tensor goes through ops)",
    ),
    "ops/bincount.py": (
        {"numpy.where", "numpy.arange"},
        "the bin of each value is worked out on a host copy of arr (as segment ids are "
        "read, segment.py), then copied to arr's device",
    ),
    "ops/segment_stats.py": (
        {"numpy.bincount", "numpy.maximum", "numpy.full"},
        "the row count of each segment comes from a host copy of the ids (as segment_sum "
        "reads them); segment_max's starting rows (the dtype's lowest value, 0 for an empty "
        "segment) are built on "
        "the host and copied to the data's device",
    ),
    # Keras runs its preprocessing layers in tf.data, on the CPU; strings live on the host.
    **{
        f"keras/layers/{name}.py": (set(calls.split()), _PREPROCESSING)
        for name, calls in {
            "category_outputs": "numpy.ones numpy.zeros numpy.arange numpy.broadcast_to "
            "numpy.add.at numpy.array",
            "discretization": "numpy.digitize numpy.asarray numpy.any numpy.diff",
            "quantile_summary": "numpy.zeros numpy.asarray numpy.sort numpy.full_like "
            "numpy.stack numpy.concatenate numpy.argsort numpy.arange numpy.interp numpy.diff",
            "hashing": "numpy.where",
            "index_lookup": "numpy.array numpy.empty",
            "lookup_layers": "numpy.mod",
            "text_tokens": "numpy.asarray",
            "text_vectorization": "numpy.full",
            "token_hash": "numpy.array numpy.isfinite numpy.where",
        }.items()
    },
    "keras/layers/weight_lists.py": (
        {"numpy.array", "numpy.asarray"},
        "get_weights / set_weights speak numpy arrays, as Keras: host copies (.numpy())",
    ),
    "keras/model_config.py": ({"numpy.asarray"}, "a config holds host copies of constants"),
    "keras/model_files.py": ({"numpy.asarray"}, "JSON holds host copies of config values"),
    "keras/steps.py": (
        {"numpy.ndim", "numpy.asarray", "numpy.concatenate"},
        "predict returns numpy arrays (host copies joined), logs hold Python numbers",
    ),
    "keras/utils.py": ({"numpy.random.seed"}, "set_random_seed seeds numpy too, as Keras"),
    "keras/schedules.py": (
        {"numpy.asarray", "numpy.floor", "numpy.ceil", "numpy.maximum", "numpy.minimum"}
        | {"numpy.cos", "numpy.log"},
        "a schedule's rate is computed on the host from the step count(s) (host numbers, "
        "read with .numpy()), then becomes a float32 tensor",
    ),
    "keras/timeseries.py": (
        {"numpy.arange", "numpy.asarray", "numpy.random.randint"},
        "timeseries_dataset_from_array holds the series on the host and cuts windows there "
        "(as fit's arrays are cut into batches); each window becomes a tensor",
    ),
    "asserts.py": (
        {
            "numpy.asarray",
            "numpy.broadcast_shapes",
            "numpy.broadcast_to",
            "numpy.argwhere",
            "numpy.abs",
            "numpy.zeros",
        },
        "ek.debugging.assert_* compare host copies (.numpy()) to print the values that differ",
    ),
    "summary.py": (
        {"numpy.asarray", "numpy.isfinite", "numpy.histogram"},
        "summaries describe host copies (.numpy()) of the values they log",
    ),
    "strings.py": (
        {"numpy.array", "numpy.empty"},
        "Python text becomes a string tensor's value; strings live on the host, as in TF",
    ),
    "train/checkpoint.py": ({"numpy.asarray"}, "a checkpoint holds host copies (.numpy())"),
    "train/checkpoint_io.py": ({"numpy.savez", "numpy.load"}, "reads and writes .npz files"),
    "image/resize.py": (
        {"numpy.arange", "numpy.floor", "numpy.ceil", "numpy.maximum", "numpy.minimum"}
        | {"numpy.round", "numpy.zeros", "numpy.add.at"},
        "the interpolation matrices (and nearest indices) come from the sizes alone, built "
        "on the host; matmul and gather move them to the image's device",
    ),
}

# Device data handed to a numpy function: reported to the module's owner. Remove when fixed
# (test_the_exceptions_are_still_needed fails once the call is gone).
REPORTED = {
    ("graph/optimize.py", "numpy.size"): "np.size(node.value) should read node.value.size",
}


def _excused(name, call):
    calls, _ = HOST_ONLY.get(name, ((), ""))
    return call in calls or (name, call) in REPORTED


def numpy_calls(source):
    """``(line, "numpy.function")`` for every call of a numpy function (not a type) in ``source``.

    Examples
    --------
    >>> numpy_calls("import numpy as np\\nx = np.exp(y)\\nz = np.float32(1)")
    [(2, 'numpy.exp')]
    """
    tree = ast.parse(source)
    modules, names = {}, {}  # local name -> the numpy path it stands for
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "numpy":
                    local = alias.asname or alias.name.split(".")[0]
                    modules[local] = alias.name if alias.asname else "numpy"
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "numpy":
            for alias in node.names:
                names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        parts = _dotted(node.func)
        if not parts or (parts[0] not in modules and parts[0] not in names):
            continue
        path = ".".join([modules.get(parts[0]) or names[parts[0]], *parts[1:]])
        if not isinstance(_resolve(path), type):
            found.append((node.lineno, path))
    return sorted(found)


def _dotted(node):
    """``np.random.default_rng`` as ["np", "random", "default_rng"]; None for other calls."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.insert(0, node.attr)
        node = node.value
    return [node.id, *parts] if isinstance(node, ast.Name) else None


def _resolve(path):
    value = numpy
    for part in path.split(".")[1:]:
        value = getattr(value, part, None)
    return value


def _engine_modules():
    for path in sorted(ENGINE.rglob("*.py")):
        name = path.relative_to(ENGINE).as_posix()
        if not any(name == allowed or name.startswith(allowed) for allowed in ALLOWED):
            yield name, path


def test_no_engine_module_calls_numpy_on_tensor_data():
    violations = []
    for name, path in _engine_modules():
        for line, call in numpy_calls(path.read_text()):
            if not _excused(name, call):
                violations.append(f"eagerkit/{name}:{line} calls {call}")
    assert not violations, (
        "these calls bypass the tensor's backend; use the device's namespace (xp.<fn>, "
        "tensor._device.xp) or an eagerkit op instead:\n" + "\n".join(violations)
    )


def test_the_exceptions_are_still_needed():
    used = {
        (name, call)
        for name, path in _engine_modules()
        for _, call in numpy_calls(path.read_text())
    }
    listed = {(name, call) for name, (calls, _) in HOST_ONLY.items() for call in calls}
    assert listed | set(REPORTED) <= used, (
        f"no longer used, remove: {(listed | set(REPORTED)) - used}"
    )


@pytest.mark.parametrize(
    ("source", "calls"),
    [
        ("import numpy as np\nnp.exp(x)", [(2, "numpy.exp")]),
        ("import numpy\nnumpy.random.default_rng(0)", [(2, "numpy.random.default_rng")]),
        ("from numpy import asarray as aa\naa(x)", [(2, "numpy.asarray")]),
        ("def f(x):\n    import numpy as np\n    return np.add.at(x, 0, 1)", [(3, "numpy.add.at")]),
        ("import numpy as np\nisinstance(x, np.ndarray)\nnp.dtype('f')\nnp.iinfo(np.int32)", []),
        ("xp.exp(x)\nnp = xp\nnp.exp(x)", []),
    ],
)
def test_the_scanner_finds_numpy_calls_however_numpy_is_imported(source, calls):
    assert numpy_calls(source) == calls

"""fit's arrays on the host: made numpy arrays of samples, checked for one sample count,
cut by rows, put in an epoch's order and weighted by class, before each batch becomes
tensors (data_adapter.py serves the batches).

Examples
--------
>>> import numpy as np
>>> take_rows({"a": np.arange(4), "b": np.arange(4) * 10}, [3, 0])
{'a': array([3, 0]), 'b': array([30,  0])}
"""

import numbers

import numpy as np

from eagerkit import nest
from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError
from eagerkit.tensor import Tensor, convert_to_tensor


def class_weights(y, class_weight):
    """One weight per sample: ``class_weight[class of that sample's target]``."""
    if not isinstance(class_weight, dict):
        raise InvalidArgumentError(
            f"class_weight must be a dict {{class id: weight}}, got {class_weight!r:.100}",
            op="fit",
        )
    if y is None or isinstance(y, (dict, list, tuple)):
        raise InvalidArgumentError(
            "`class_weight` is only supported for Models with a single output (and needs "
            "its targets)",
            op="fit",
        )
    ids = sorted(class_weight)
    if ids != list(range(len(ids))):
        raise InvalidArgumentError(
            "Expected `class_weight` to be a dict with keys from 0 to one less than the "
            f"number of classes, found {class_weight}",
            op="fit",
        )
    table = np.array([float(class_weight[i]) for i in ids])
    y = np.asarray(y)
    classes = np.argmax(y, axis=-1) if y.ndim == 2 and y.shape[1] > 1 else y.reshape(len(y))
    if classes.size and (classes.min() < 0 or classes.max() >= len(table)):
        raise InvalidArgumentError(
            f"class_weight has weights for classes 0 to {len(table) - 1} but the targets "
            f"hold class {int(classes.max() if classes.max() >= len(table) else classes.min())}",
            op="fit",
        )
    return table[classes.astype(np.int64)]


def host_arrays(value, what):
    """``value``'s arrays as numpy arrays, in the same structure (None stays None)."""
    if value is None:
        return None
    if numbers_only(value):
        try:
            value = np.asarray(value)
        except ValueError:  # numpy's "inhomogeneous shape": rows of different lengths
            raise InvalidArgumentError(
                f"{what} holds nested lists of different lengths, which make no array; pad "
                "the shorter rows to one length (or use ek.ragged.constant and a Dataset)",
                op="fit",
            ) from None
    leaves = [sample_array(leaf, what) for leaf in nest.flatten(value)]
    return nest.pack_sequence_as(value, leaves)


def numbers_only(value):
    """A (nested) list of plain numbers is one array, not several inputs."""
    return isinstance(value, (list, tuple)) and all(
        isinstance(leaf, numbers.Number) for leaf in nest.flatten(value)
    )


def sample_array(value, what="y"):
    """``value`` (a tensor or array-like) as a numpy array of samples: a scalar or what
    holds no numbers is refused, naming ``what``."""
    array = np.asarray(value.numpy()) if isinstance(value, Tensor) else np.asarray(value)
    numbers = isinstance(value, Tensor) or array.dtype.kind in "biuf"  # (a tensor: as it is)
    numbers = numbers or _text(array)  # strings, for a model that starts with StringLookup
    if array.ndim == 0 or not numbers:  # (a scalar is no batch of samples)
        shown = describe(value) if isinstance(value, Tensor) else f"{value!r:.80}"
        raise InvalidArgumentError(
            f"{what} must hold arrays of numbers with a first (sample) axis, got {shown}; "
            "pass e.g. np.array(...) or a tensor (one sample x as x[None], or [x])",
            op="fit",
        )
    return array


def _text(array):
    """Whether ``array`` holds strings (numpy's str or bytes, or Python ones in an object
    array), as Keras' fit takes for a model that looks text up itself."""
    if array.dtype.kind in "US":
        return True
    return (
        array.dtype == object
        and array.size > 0
        and all(isinstance(v, (str, bytes)) for v in array.flat)
    )


def common_size(*structures):
    """How many samples the arrays of x, y and sample_weight hold; an error listing each
    one's count when they differ."""
    sizes = {}
    for name, structure in zip(("x", "y", "sample_weight"), structures, strict=True):
        if structure is not None:
            sizes[name] = [leaf.shape[0] for leaf in nest.flatten(structure)]
    found = {size for leaves in sizes.values() for size in leaves}
    if len(found) > 1:
        lines = "\n".join(f"  {name} sizes: {', '.join(map(str, s))}" for name, s in sizes.items())
        raise InvalidArgumentError(
            f"Data cardinality is ambiguous:\n{lines}\nMake sure all arrays contain the same "
            "number of samples.",
            op="fit",
        )
    return found.pop() if found else 0


def take_rows(structure, rows):
    """The same structure (None stays None) with each array's ``rows``."""
    if structure is None:
        return None
    return nest.pack_sequence_as(structure, [leaf[rows] for leaf in nest.flatten(structure)])


def as_tensors(structure):
    """The same structure (None stays None) with each array a tensor."""
    if structure is None:
        return None
    leaves = [convert_to_tensor(leaf) for leaf in nest.flatten(structure)]
    return nest.pack_sequence_as(structure, leaves)


def epoch_order(size, batch_size, shuffle):
    """The sample order of one epoch: as stored, shuffled, or shuffled by batches."""
    if not shuffle:
        return np.arange(size)
    from eagerkit.random import shuffle as random_shuffle

    if shuffle == "batch":  # whole batches in a random order, each shuffled inside
        blocks = [np.arange(s, min(s + batch_size, size)) for s in range(0, size, batch_size)]
        order = random_shuffle(np.arange(len(blocks))).numpy()
        return np.concatenate([random_shuffle(blocks[i]).numpy() for i in order])
    return random_shuffle(np.arange(size)).numpy()

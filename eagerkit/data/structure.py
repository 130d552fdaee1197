"""Dataset elements: a tensor, or tuples and dicts of them (nested).

As in ``tf.data``, tuples and dicts are structure and a Python list is a value: ``([1, 2],
3)`` is a pair whose first part is one tensor of shape ``(2,)``.
"""

import sys

from eagerkit.errors import InvalidArgumentError
from eagerkit.limits import TENSOR_OVERHEAD_BYTES
from eagerkit.nest import _mapping_like
from eagerkit.tensor import Tensor, convert_to_tensor


def flatten(element):
    """The tensors of ``element`` in order (dict entries by sorted key)."""
    if isinstance(element, dict):
        return [leaf for key in sorted(element) for leaf in flatten(element[key])]
    if isinstance(element, tuple):
        return [leaf for item in element for leaf in flatten(item)]
    return [element]


def pack(structure, leaves):
    """Put ``leaves`` back into the shape of ``structure``."""
    remaining = iter(leaves)

    def build(node):
        if isinstance(node, dict):
            built = {key: build(node[key]) for key in sorted(node)}
            if type(node) is dict:
                return {key: built[key] for key in node}
            return _mapping_like(node, [(key, built[key]) for key in node])  # an OrderedDict
        if isinstance(node, tuple):
            items = [build(item) for item in node]
            return type(node)(*items) if hasattr(node, "_fields") else tuple(items)
        return next(remaining)

    return build(structure)


def to_tensors(element, dtypes=None):
    """``element`` with every leaf converted to a Tensor (``dtypes``: same structure, optional)."""
    leaves = flatten(element)
    wanted = [None] * len(leaves) if dtypes is None else flatten(dtypes)
    return pack(
        element, [convert_to_tensor(x, dtype=d) for x, d in zip(leaves, wanted, strict=True)]
    )


def nbytes(element):
    """About how much memory ``element`` holds: its tensors' data and their overhead."""
    return sum(
        leaf._data.nbytes + TENSOR_OVERHEAD_BYTES
        if isinstance(leaf, Tensor)
        else sys.getsizeof(leaf)
        for leaf in flatten(element)
    )


def same_structure(a, b):
    """True when ``a`` and ``b`` nest tuples and dicts the same way."""
    if isinstance(a, dict) or isinstance(b, dict):
        return (
            isinstance(a, dict)
            and isinstance(b, dict)
            and sorted(a) == sorted(b)
            and all(same_structure(a[k], b[k]) for k in a)
        )
    if isinstance(a, tuple) or isinstance(b, tuple):
        return (
            isinstance(a, tuple)
            and isinstance(b, tuple)
            and len(a) == len(b)
            and all(same_structure(x, y) for x, y in zip(a, b, strict=True))
        )
    return True


def stack(elements, what="batch"):
    """One element whose tensors stack those of ``elements`` along a new first axis."""
    first = elements[0]
    columns = [flatten(first)]
    for position, element in enumerate(elements[1:], start=1):
        if not same_structure(first, element):
            raise InvalidArgumentError(
                f"{what}: element {position} is structured differently from element 0; "
                "every element must have the same tuple/dict layout",
                op=what,
            )
        columns.append(flatten(element))
    stacked = []
    for leaf_index, reference in enumerate(columns[0]):
        arrays = []
        for position, leaves in enumerate(columns):
            leaf = leaves[leaf_index]
            if leaf.shape != reference.shape or leaf.dtype != reference.dtype:
                raise InvalidArgumentError(
                    f"{what}: cannot put element {position} ({leaf.dtype.name} shape "
                    f"{leaf.shape}) in one batch with element 0 ({reference.dtype.name} shape "
                    f"{reference.shape}); make the elements the same shape first, e.g. with "
                    ".map() or by batching 1 at a time",
                    op=what,
                )
            arrays.append(leaf._data)
        stacked.append(Tensor(reference._device.xp.stack(arrays), reference._device))
    return pack(first, stacked)


def map_structure(fn, node):
    """``node`` with ``fn`` applied to each leaf (lists count as structure here: TF's
    ``output_types`` may be given as lists)."""
    if isinstance(node, dict):
        return {key: map_structure(fn, value) for key, value in node.items()}
    if isinstance(node, (tuple, list)):
        return tuple(map_structure(fn, value) for value in node)
    return fn(node)


def check_shapes(element, shapes, position):
    """Walk ``element`` and ``from_generator``'s ``output_shapes`` together; each tensor must
    fit its shape (``None`` matches any size)."""
    if isinstance(element, dict):
        for key in element:
            check_shapes(element[key], shapes[key], position)
    elif isinstance(element, tuple):
        if len(shapes) != len(element):
            raise InvalidArgumentError(
                f"from_generator: output_shapes has {len(shapes)} parts but element "
                f"{position} has {len(element)}",
                op="from_generator",
            )
        for part, shape in zip(element, shapes, strict=True):
            check_shapes(part, shape, position)
    elif shapes is not None:  # None: any shape (a TensorSpec of unknown rank)
        shape = tuple(shapes)
        fits = len(shape) == element.ndim and all(
            wanted is None or wanted == size
            for wanted, size in zip(shape, element.shape, strict=True)
        )
        if not fits:
            raise InvalidArgumentError(
                f"from_generator: element {position} has shape {element.shape} but "
                f"output_shapes says {shape} (None matches any size)",
                op="from_generator",
            )

"""``padded_batch``'s padding: the elements of one batch padded to one shape per tensor.

TF's rules: ``padded_shapes`` has the element's structure and gives each tensor's shape, a
size ``None`` meaning "the longest in this batch" (the default for every size); a tensor
longer than a given size is an error. ``padding_values`` is one scalar for every tensor or
the element's structure of scalars; by default 0 (b'' for strings, False for bools).

Examples
--------
>>> import eagerkit as ek
>>> rows = [ek.constant([1, 2]), ek.constant([3])]
>>> [t.numpy().tolist() for t in padded(rows, None, None, "padded_batch")]
[[1, 2], [3, 0]]
"""

from eagerkit import dtypes
from eagerkit.arguments import whole_number
from eagerkit.data import structure
from eagerkit.errors import InvalidArgumentError
from eagerkit.tensor import Tensor, convert_to_tensor


def padded(elements, padded_shapes, padding_values, op):
    """``elements`` (one batch) with each tensor padded to its batch-wide shape."""
    first = elements[0]
    shapes = per_tensor(first, padded_shapes, "padded_shapes", op)
    fills = per_tensor(first, padding_values, "padding_values", op)
    columns = [structure.flatten(first)]
    for position, element in enumerate(elements[1:], start=1):
        if not structure.same_structure(first, element):
            raise InvalidArgumentError(
                f"{op}: element {position} is structured differently from element 0; every "
                "element must have the same tuple/dict layout",
                op=op,
            )
        columns.append(structure.flatten(element))
    for index in range(len(columns[0])):
        tensors = [leaves[index] for leaves in columns]
        target = _target_shape(tensors, shapes[index], op)
        fill = _fill_value(fills[index], tensors[0].dtype, op)
        for leaves in columns:
            leaves[index] = _pad(leaves[index], target, fill)
    return [structure.pack(first, leaves) for leaves in columns]


def per_tensor(element, given, what, op):
    """``given`` (None, one value for all, or the element's structure) as one entry per
    tensor of ``element``, in ``structure.flatten``'s order."""
    count = len(structure.flatten(element))
    if given is None:
        return [None] * count
    if what == "padding_values" and not isinstance(given, (tuple, dict)):
        return [given] * count  # one padding value for every tensor
    try:
        return list(_walk(element, given))
    except (KeyError, TypeError, ValueError):  # `given` is not laid out like the element
        raise InvalidArgumentError(
            f"{op}: {what} {given!r} does not have the structure of the elements (a "
            f"{type(element).__name__} of {count} tensor(s)): give one entry per tensor, "
            "laid out as the elements are",
            op=op,
        ) from None


def _walk(element, given):
    """The entries of ``given`` that sit where ``element``'s tensors sit (a shape, a list,
    is one entry: tuples and dicts are structure, as in ``structure``)."""
    if isinstance(element, dict):
        if not isinstance(given, dict) or sorted(given) != sorted(element):
            raise KeyError(given)
        for key in sorted(element):
            yield from _walk(element[key], given[key])
    elif isinstance(element, tuple):
        if not isinstance(given, tuple) or len(given) != len(element):
            raise ValueError(given)
        for part, entry in zip(element, given, strict=True):
            yield from _walk(part, entry)
    else:
        yield given


def _target_shape(tensors, wanted, op):
    """The shape the tensors of one position are padded to (sizes None: the batch's longest)."""
    rank = tensors[0].ndim
    if any(t.ndim != rank for t in tensors):
        raise InvalidArgumentError(
            f"{op}: cannot pad tensors of different ranks to one shape: "
            f"{[tuple(t.shape) for t in tensors]}",
            op=op,
        )
    longest = [max(t.shape[axis] for t in tensors) for axis in range(rank)]
    if wanted is None:
        return longest
    sizes = [None if s is None else whole_number(s, "each size", op) for s in sizes_of(wanted)]
    if len(sizes) != rank:
        raise InvalidArgumentError(
            f"{op}: padded_shapes {sizes} has rank {len(sizes)} but the elements' tensors "
            f"have rank {rank} (shape {tuple(tensors[0].shape)})",
            op=op,
        )
    for position, tensor in enumerate(tensors):
        if any(s is not None and have > s for s, have in zip(sizes, tensor.shape, strict=True)):
            raise InvalidArgumentError(
                f"{op}: element {position} of the batch has shape {tuple(tensor.shape)}, larger "
                f"than padded_shapes {sizes} allows; give larger sizes, or None (the longest "
                "in each batch)",
                op=op,
            )
    return [most if size is None else size for size, most in zip(sizes, longest, strict=True)]


def sizes_of(shape):
    """A padded shape as a list: a list, tuple, TensorShape or int tensor of sizes."""
    if isinstance(shape, Tensor):
        return [int(s) for s in shape.numpy().reshape(-1)]
    if hasattr(shape, "as_list"):
        return shape.as_list()
    return list(shape)


def _fill_value(value, dtype, op):
    """The padding scalar for tensors of ``dtype`` (its zero by default)."""
    if value is None:
        return b"" if dtype == dtypes.string else 0  # np.pad casts 0 to the dtype (False)
    fill = convert_to_tensor(value, dtype=dtype)
    if fill.ndim != 0:
        raise InvalidArgumentError(
            f"{op}: each padding value must be a scalar, got shape {tuple(fill.shape)}", op=op
        )
    return fill._data.item() if dtype == dtypes.string else fill._data[()]


def _pad(tensor, target, fill):
    """``tensor`` padded at the end of each axis up to ``target`` with ``fill``."""
    widths = [(0, size - have) for size, have in zip(target, tensor.shape, strict=True)]
    if not any(after for _, after in widths):
        return tensor
    xp = tensor._device.xp
    return Tensor(xp.pad(tensor._data, widths, constant_values=fill), tensor._device)


def padded_spec(spec, padded_shapes, op):
    """The element spec after padding: each tensor's ``padded_shapes`` entry (None and -1:
    open), or every size open when none is given (the batch's longest varies)."""
    from eagerkit.graph.signature import TensorSpec

    leaves = structure.flatten(spec)
    wanted = per_tensor(spec, padded_shapes, "padded_shapes", op)
    padded = []
    for leaf, shape in zip(leaves, wanted, strict=True):
        rank = None if leaf.shape is None else len(leaf.shape)
        if shape is None:
            sizes = None if rank is None else (None,) * rank
        else:
            sizes = tuple(None if s is None or s == -1 else int(s) for s in sizes_of(shape))
        padded.append(TensorSpec(sizes, leaf.dtype))
    return structure.pack(spec, padded)

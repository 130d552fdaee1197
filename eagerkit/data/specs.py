"""``Dataset.element_spec``: the TensorSpecs of a dataset's elements, known without reading.

Each step says how it changes its input's spec (``batch`` adds an axis, of size None unless
``drop_remainder``, as TF's; ``unbatch`` drops one; ``zip`` nests them). Where TF traces a
function (``map``, ``flat_map``, ``interleave``), eagerkit runs it on the first two elements
of its input when ``element_spec`` is first asked for (never when the dataset is built), and
keeps the answer: its results' dtypes and ranks are the spec's, and their sizes too, except
sizes that differ between the two, which are None (TF's trace may know a size these two
happen to share: eagerkit's spec is then more specific), and all sizes when the input's spec
leaves one open (None).

Examples
--------
>>> import eagerkit as ek
>>> ek.data.Dataset.range(5).batch(2).element_spec
TensorSpec(shape=(None,), dtype=ek.int64, name=None)
>>> x, y = ek.data.Dataset.from_tensor_slices(([[1.0, 2.0]], [3])).element_spec
>>> x
TensorSpec(shape=(2,), dtype=ek.float32, name=None)
"""

from eagerkit import dtypes
from eagerkit.data import structure
from eagerkit.data.steps import Failed, call
from eagerkit.errors import InvalidArgumentError
from eagerkit.graph.signature import TensorSpec


class DatasetSpec:
    """The spec of an element that is itself a dataset (``window``'s): its elements' spec.

    >>> import eagerkit as ek
    >>> ek.data.Dataset.range(5).window(2).element_spec
    DatasetSpec(TensorSpec(shape=(), dtype=ek.int64, name=None), TensorShape([]))
    """

    def __init__(self, element_spec):
        self.element_spec = element_spec

    def __eq__(self, other):
        return isinstance(other, DatasetSpec) and other.element_spec == self.element_spec

    __hash__ = None

    def __repr__(self):
        return f"DatasetSpec({self.element_spec!r}, TensorShape([]))"


def of_tensor(tensor, open_sizes=False):
    """The spec of ``tensor``; ``open_sizes``: every size None (its rank kept)."""
    shape = (None,) * tensor.ndim if open_sizes else tuple(tensor.shape)
    return TensorSpec(shape, tensor.dtype)


def of_element(element, open_sizes=False):
    """The specs of ``element``'s tensors, in its structure."""
    leaves = structure.flatten(element)
    return structure.pack(element, [of_tensor(leaf, open_sizes) for leaf in leaves])


def scalar(dtype):
    return TensorSpec((), dtypes.as_dtype(dtype))


def with_shapes(spec, change):
    """``spec`` with each TensorSpec's shape replaced by ``change(shape)``."""
    leaves = [
        TensorSpec(None if s.shape is None else change(s.shape), s.dtype)
        for s in structure.flatten(spec)
    ]
    return structure.pack(spec, leaves)


def batched(spec, size):
    """A batch of elements of ``spec``: a new first axis of ``size`` (None: may vary)."""
    return with_shapes(spec, lambda shape: (size, *shape))


def unbatched(spec):
    return with_shapes(spec, lambda shape: shape[1:])


def relaxed(first, second):
    """The most specific spec both fit (sizes that differ become None; TF's concatenate)."""
    from eagerkit.graph.signature import relaxed as relaxed_one

    pairs = zip(structure.flatten(first), structure.flatten(second), strict=True)
    return structure.pack(first, [relaxed_one(a, b) for a, b in pairs])


def common(found, op):
    """The spec of elements from any of several datasets with the specs ``found``: the same
    structure and dtypes, or TF's error; sizes that differ are None."""
    spec = found[0]
    for other in found[1:]:
        dtypes_of = [[s.dtype for s in structure.flatten(x)] for x in (spec, other)]
        if not structure.same_structure(spec, other) or dtypes_of[0] != dtypes_of[1]:
            raise InvalidArgumentError(
                f"{op}: the datasets' elements differ: {spec!r} and {other!r}; all must have "
                "the same structure and dtypes",
                op=op,
            )
        spec = relaxed(spec, other)
    return spec


def has_open_sizes(spec):
    return any(s.shape is None or None in s.shape for s in structure.flatten(spec))


def first_elements(dataset, op, count=2):
    """Up to ``count`` first elements of ``dataset`` (read now); TF's error if it has none."""
    found = []
    for element in dataset._make_iterator():
        if type(element) is Failed:
            raise element.error
        found.append(element)
        if len(found) == count:
            break
    if not found:
        raise InvalidArgumentError(
            f"{op}: element_spec runs the function on the first elements of its input "
            f"(eagerkit does not trace it as TF does), and {dataset!r} has none; give the "
            "function a non-empty input",
            op=op,
        )
    return found


def of_function(dataset, function):
    """The spec of ``function``'s results on the first two elements of ``dataset``: sizes
    that differ between them, or that the input's spec leaves open, are None."""
    results = [
        of_element(structure.to_tensors(call(function, element)))
        for element in first_elements(dataset, "element_spec")
    ]
    spec = results[0] if len(results) == 1 else relaxed(*results)
    return with_shapes(spec, _all_open) if has_open_sizes(dataset.element_spec) else spec


def of_datasets(dataset, function, op):
    """The element spec of the datasets ``function`` returns (``flat_map``, ``interleave``),
    from those of the first two elements of ``dataset``."""
    from eagerkit.data.joining import Joining

    found = []
    for element in first_elements(dataset, "element_spec"):
        inner = call(function, element)
        if not isinstance(inner, Joining):
            raise InvalidArgumentError(
                f"{op}: map_func must return an ek.data.Dataset, got {type(inner).__name__}",
                op=op,
            )
        found.append(inner.element_spec)
    return found[0] if len(found) == 1 else relaxed(*found)


def _all_open(shape):
    return (None,) * len(shape)

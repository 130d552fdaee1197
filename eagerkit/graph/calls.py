"""One call of an ``ek.function`` in canonical form, and how it finds its trace.

A call is flattened to leaves (tensors where tensors go, other Python values as they are)
and keyed by what decides the graph: the tensors' shapes, dtypes and devices and the other
values (graph/signature.py). A trace is reused when its input specs fit the call's tensors.
"""

from eagerkit import dtypes, nest
from eagerkit.graph.cache import MAX_TRACES
from eagerkit.tensor import Tensor, convert_to_tensor


class Call:
    """One call, canonical: ``structure`` (args, kwargs), flat ``leaves`` (tensors where
    tensors go), where the tensors are, and the cache keys."""

    def __init__(self, structure, leaves, key, specs, given_specs=None):
        self.structure = structure
        self.leaves = leaves
        self.key = key
        self.specs = specs  # the input_signature, when there is one
        self.given_specs = given_specs or {}
        self.general = None  # the key shared by calls of other sizes (reduce_retracing)
        self.positions = [
            i for i, leaf in enumerate(leaves) if isinstance(leaf, Tensor) and not leaf._is_variable
        ]


def fits(concrete, call):
    tensors = [call.leaves[i] for i in call.positions]
    return len(tensors) == len(concrete.input_specs) and all(
        spec.is_compatible_with(t) for spec, t in zip(concrete.input_specs, tensors, strict=True)
    )


def argument_names(structure, signature):
    """Flat leaf index -> the name its placeholder gets (``"x"``, ``"x_1"`` for nested)."""
    args, kwargs = structure
    names = []
    parameters = [] if signature is None else list(signature.parameters)
    for i, value in enumerate(args):
        base = parameters[i] if i < len(parameters) else f"args_{i}"
        count = len(nest.flatten(value))
        names += [base] if count == 1 else [f"{base}_{k}" for k in range(count)]
    for key in sorted(kwargs):
        count = len(nest.flatten(kwargs[key]))
        names += [key] if count == 1 else [f"{key}_{k}" for k in range(count)]
    return dict(enumerate(names))


def keep(keys, key, concrete):
    """``keys[key] = concrete``, forgetting the oldest key beyond MAX_TRACES."""
    keys[key] = concrete
    if len(keys) > MAX_TRACES:
        del keys[next(iter(keys))]


def tensor_shapes_key(args):
    """(shape, dtype, device) per argument when every argument is a plain Tensor, else None."""
    key = []
    for x in args:
        if type(x) is not Tensor:
            return None
        key.append((x._data.shape, x._data.dtype, x._device))
    return tuple(key)


def as_tensor(leaf):
    """numpy arrays act as tensors (as in TF); other Python values stay as they are."""
    if isinstance(leaf, Tensor) or not hasattr(leaf, "__array_interface__"):
        return leaf
    return convert_to_tensor(leaf)


def example(spec):
    """A tensor fitting ``spec`` to trace on: open sizes 1, an unknown shape a scalar; ones
    (no division by zero while tracing), empty strings for a string spec."""
    from eagerkit.ops.creation import ones, zeros

    shape = () if spec.shape is None else [1 if n is None else n for n in spec.shape]
    return (zeros if spec.dtype == dtypes.string else ones)(shape, dtype=spec.dtype)


def call_sizes(call):
    """The shapes of a call's tensor arguments: the key of a trace bound to them."""
    return tuple(tuple(call.leaves[i].shape) for i in call.positions)


def guards_hold(concrete):
    """Whether a call may replay ``concrete``: what its trace assumed still holds (an
    iterator its loop read to the end holds as many elements as the trace read)."""
    return all(holds() for holds in concrete.guards)

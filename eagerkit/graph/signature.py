"""Input signatures: when may a call reuse a trace, and when must it trace again?

A trace is valid for calls whose tensor arguments have the same shapes and dtypes (the
graph's ops were chosen for them) and whose other arguments have the same *values* (the
Python code branched on them while tracing). ``TensorSpec`` describes the tensors a trace
accepts; ``None`` in its shape means "any size here".
"""

import inspect

from eagerkit import dtypes, nest
from eagerkit.errors import InvalidArgumentError, type_error
from eagerkit.tensor import Tensor, convert_to_tensor


def _spec_shape(shape):
    """Each size a whole number >= 0 or None: TensorSpec([1.5, 2]) is refused, not (1, 2)."""
    from eagerkit.arguments import size

    if isinstance(shape, Tensor):
        shape = shape.numpy().tolist()
    try:
        sizes = list(shape)
    except TypeError:
        sizes = [shape]  # one size, as TF's TensorShape(3) is (3,)
    return tuple(None if n is None else size(n, "each size of shape", "TensorSpec") for n in sizes)


class TensorSpec:
    """The shape and dtype a function's tensor argument must have.

    Parameters
    ----------
    shape : a tuple of sizes, ``None`` for a size that may vary; ``None`` for any shape.
    dtype : the dtype (default float32).
    name : a label (shown, otherwise unused).

    Examples
    --------
    >>> import eagerkit as ek
    >>> spec = ek.TensorSpec([None, 3], ek.float32)
    >>> spec
    TensorSpec(shape=(None, 3), dtype=ek.float32, name=None)
    >>> spec.is_compatible_with(ek.zeros([5, 3])), spec.is_compatible_with(ek.zeros([5, 2]))
    (True, False)
    """

    def __init__(self, shape=None, dtype=dtypes.float32, name=None):
        self.shape = None if shape is None else _spec_shape(shape)
        self.dtype = dtypes.as_dtype(dtype)
        self.name = name

    @classmethod
    def from_tensor(cls, tensor, name=None):
        """The spec of exactly this tensor's shape and dtype."""
        if not isinstance(tensor, Tensor):  # a tensor's own shape and dtype, nothing else's
            from eagerkit.arguments import describe

            raise InvalidArgumentError(
                f"TensorSpec.from_tensor: tensor must be an ek.Tensor, got {describe(tensor)}; "
                "for other values write TensorSpec(shape, dtype)",
                op="TensorSpec.from_tensor",
            )
        spec = cls.__new__(cls)  # a tensor's shape needs no checking: made at every trace
        spec.shape, spec.dtype, spec.name = tuple(tensor._data.shape), tensor.dtype, name
        return spec

    @property
    def fully_defined(self):
        """True when every size is known."""
        return self.shape is not None and None not in self.shape

    def is_compatible_with(self, tensor):
        """Whether ``tensor`` (or another spec) has this dtype and a shape that fits."""
        if tensor.dtype != self.dtype:
            return False
        if self.shape is None or tensor.shape is None:
            return True
        return len(tensor.shape) == len(self.shape) and all(
            want is None or got is None or want == got
            for want, got in zip(self.shape, tensor.shape, strict=True)
        )

    def __eq__(self, other):
        return isinstance(other, TensorSpec) and (self.shape, self.dtype) == (
            other.shape,
            other.dtype,
        )

    def __hash__(self):
        return hash((self.shape, self.dtype.name))

    def __repr__(self):
        shape = "<unknown>" if self.shape is None else self.shape
        return f"TensorSpec(shape={shape}, dtype={self.dtype!r}, name={self.name!r})"


def bind(signature, args, kwargs):
    """``(args, kwargs)`` in one canonical form: every argument that can be given by position
    is, defaults filled in, so ``f(x, k=2)``, ``f(x, 2)`` and (default 2) ``f(x)`` agree."""
    if signature is None:
        return tuple(args), dict(kwargs)
    bound = signature.bind(*args, **kwargs)
    bound.apply_defaults()
    return tuple(bound.args), dict(bound.kwargs)


def signature_of(function):
    """``inspect.signature(function)``, or None for callables that have none."""
    try:
        return inspect.signature(function)
    except (TypeError, ValueError):
        return None


def call_key(structure, leaves, function_name):
    """The cache key of one call: argument structure, tensor shapes/dtypes, Python values.

    A Variable counts by identity, as in TF: the graph reads (and writes) that variable.
    """
    skeleton = repr(nest.pack_sequence_as(structure, [None] * len(leaves)))
    return (skeleton, tuple(_leaf_key(leaf, function_name) for leaf in leaves))


def general_key(structure, leaves, function_name):
    """The key shared by calls that differ only in tensor sizes (``reduce_retracing``)."""
    skeleton = repr(nest.pack_sequence_as(structure, [None] * len(leaves)))
    keys = []
    for leaf in leaves:
        if isinstance(leaf, Tensor) and not leaf._is_variable:
            keys.append(("tensor", leaf._data.dtype.str, leaf._device.name))
        else:
            keys.append(_leaf_key(leaf, function_name))
    return (skeleton, tuple(keys))


def relaxed(spec, other):
    """The most specific spec both fit: sizes that differ (or a rank that does) left open."""
    if spec.shape is None or other.shape is None or len(spec.shape) != len(other.shape):
        return TensorSpec(None, spec.dtype, spec.name)
    sizes = [a if a == b else None for a, b in zip(spec.shape, other.shape, strict=True)]
    return TensorSpec(sizes, spec.dtype, spec.name)


def call_error(message):
    """A TypeError for a call of an ek.function that does not fit it. Its op is ``Function``,
    the class whose call failed, so the boundary shows ``message`` as it is (it names the
    function already) instead of putting ``Function(...)`` in front."""
    return type_error(message, op="Function")


def _leaf_key(leaf, function_name):
    if isinstance(leaf, Tensor) and leaf._is_variable:
        return ("variable", id(leaf))  # the trace keeps the variable, so the id stays its own
    if isinstance(leaf, Tensor):
        return ("tensor", leaf.shape, leaf._data.dtype.str, leaf._device.name)
    try:
        hash(leaf)
    except TypeError:
        raise call_error(
            f"ek.function {function_name!r}: cannot use an argument of type "
            f"{type(leaf).__name__} ({leaf!r:.60}): arguments that are not tensors select a "
            "trace by their value, so they must be hashable. Pass a tensor, a tuple, or a "
            "number instead."
        ) from None
    return ("python", type(leaf).__qualname__, leaf)


def match_signature(specs, args, kwargs, function_name):
    """``args`` as tensors of the specs' dtypes, or a clear error when they do not fit."""
    if kwargs or len(args) != len(specs):
        given = len(args) + len(kwargs)
        raise call_error(
            f"ek.function {function_name!r} has an input_signature of {len(specs)} tensors "
            f"({', '.join(map(repr, specs))}) but was called with {given} arguments"
            f"{' (some by keyword)' if kwargs else ''}; pass exactly one tensor per spec, "
            "by position."
        )
    tensors = []
    for position, (spec, value) in enumerate(zip(specs, args, strict=True)):
        if isinstance(value, Tensor) and value.dtype != spec.dtype:
            tensor = value  # no silent casting: the check below names both dtypes
        else:
            tensor = convert_to_tensor(value, dtype=spec.dtype)
        if not spec.is_compatible_with(tensor):
            raise call_error(
                f"ek.function {function_name!r}: argument {position} has shape {tensor.shape} "
                f"and dtype {tensor.dtype.name}, which does not match its input_signature "
                f"entry {spec!r}. Pass a tensor of that shape and dtype (None sizes may be "
                "anything), or drop input_signature to trace once per shape."
            )
        tensors.append(tensor)
    return tensors

"""``Dataset.from_generator``: elements from a Python generator, typed as TF's are.

The types and shapes come either as ``output_types`` (and optional ``output_shapes``), the
TF 1 / early TF 2 spelling, or as ``output_signature``, a structure of ``ek.TensorSpec``
(TF 2.4 on). ``args`` are passed to the generator as numpy values, as TF passes them.
"""

from eagerkit import dtypes, errors
from eagerkit.arguments import describe
from eagerkit.data import steps, structure
from eagerkit.errors import InvalidArgumentError
from eagerkit.graph.signature import TensorSpec
from eagerkit.tensor import convert_to_tensor

_OP = "from_generator"


def from_generator(
    generator, output_types=None, output_shapes=None, args=None, output_signature=None
):
    """Elements from ``generator(*args)`` (a callable), converted to ``output_types``.

    ``output_shapes`` (same structure, ``None`` for any size) is checked per element.
    ``output_signature`` (TensorSpecs, in the elements' structure) gives both at once.

    Examples
    --------
    >>> import eagerkit as ek
    >>> def pairs():
    ...     for i in range(3):
    ...         yield i, [i * 0.5]
    >>> ds = ek.data.Dataset.from_generator(pairs, (ek.int64, ek.float32), ((), (1,)))
    >>> [(int(i), float(x[0])) for i, x in ds]
    [(0, 0.0), (1, 0.5), (2, 1.0)]
    >>> def count(stop):
    ...     yield from range(stop)
    >>> spec = ek.TensorSpec(shape=(), dtype=ek.int32)
    >>> [int(x) for x in ek.data.Dataset.from_generator(count, args=[3], output_signature=spec)]
    [0, 1, 2]
    """
    if not callable(generator):
        raise errors.type_error(
            "from_generator: `generator` must be callable (pass the generator function "
            f"itself, e.g. from_generator(gen, ...), not gen()); got {describe(generator)}",
            op=_OP,
        )
    output_types, output_shapes = _types_and_shapes(output_types, output_shapes, output_signature)
    types = structure.map_structure(dtypes.as_dtype, output_types)
    arguments = [convert_to_tensor(a).numpy() for a in (() if args is None else args)]

    def convert(position, raw):
        if not structure.same_structure(types, raw):
            raise InvalidArgumentError(
                f"from_generator: element {position} ({raw!r}) does not have the "
                f"structure of output_types {output_types!r}",
                op=_OP,
            )
        element = structure.to_tensors(raw, types)
        if output_shapes is not None:
            structure.check_shapes(element, output_shapes, position)
        return element

    from eagerkit.data.dataset import Dataset  # (it imports this module)

    name = getattr(generator, "__name__", "generator")
    return Dataset(
        lambda: steps.generated(lambda: generator(*arguments), convert),
        f"from_generator({name})",
        spec=lambda: _spec(types, output_shapes),
    )


def _spec(types, shapes):
    """The element spec: ``types`` with ``output_shapes`` (None: any shape, as TF's), walked
    along the structure of ``types`` (a shape is a tuple too)."""
    if isinstance(types, dict):
        return {key: _spec(types[key], None if shapes is None else shapes[key]) for key in types}
    if isinstance(types, tuple):
        parts = [None] * len(types) if shapes is None else shapes
        return tuple(_spec(t, s) for t, s in zip(types, parts, strict=True))
    return TensorSpec(shapes, types)


def _types_and_shapes(output_types, output_shapes, output_signature):
    """``(output_types, output_shapes)`` from either spelling; both at once is refused."""
    if output_signature is None:
        if output_types is None:
            raise InvalidArgumentError(
                "from_generator: give the elements' types: output_signature (a TensorSpec, "
                "or a tuple/dict of them) or output_types (dtypes)",
                op=_OP,
            )
        return output_types, output_shapes
    if output_types is not None or output_shapes is not None:
        raise errors.type_error(
            "from_generator: give output_signature alone, or output_types (and "
            "output_shapes), not both",
            op=_OP,
        )
    specs = structure.map_structure(lambda spec: spec, output_signature)
    if not all(isinstance(spec, TensorSpec) for spec in structure.flatten(specs)):
        raise errors.type_error(
            "from_generator: output_signature must be an ek.TensorSpec, or a tuple/dict of "
            f"them, got {output_signature!r}",
            op=_OP,
        )
    return (
        structure.map_structure(lambda spec: spec.dtype, specs),
        structure.map_structure(lambda spec: spec.shape, specs),
    )

"""Flatten nested lists/tuples/dicts of tensors and rebuild the same structure.

``tape.gradient(loss, {"w": w, "b": [b]})`` answers ``{"w": dw, "b": [db]}``: the sources
are flattened, differentiated, and packed back with these two functions.
"""

from collections import defaultdict


def flatten(structure):
    """The leaves of ``structure`` in order (dicts by sorted key, like TF).

    Examples
    --------
    >>> from eagerkit.nest import flatten
    >>> flatten({"b": 2, "a": [1, (3,)]})
    [1, 3, 2]
    """
    leaves = []
    _flatten_into(structure, leaves)
    return leaves


def _flatten_into(structure, leaves):
    """Append the leaves of ``structure`` to ``leaves``. Private, so that the recursion
    calls the plain function, not the public one inside the error boundary (namespaces.py
    wraps ``flatten``, as ``ek.nest.flatten``, where it is defined)."""
    if isinstance(structure, dict):
        for key in sorted(structure):
            _flatten_into(structure[key], leaves)
    elif isinstance(structure, (list, tuple)):
        for item in structure:
            _flatten_into(item, leaves)
    else:
        leaves.append(structure)


def pack_sequence_as(structure, leaves):
    """Put ``leaves`` back into the shape of ``structure``.

    Examples
    --------
    >>> from eagerkit.nest import pack_sequence_as
    >>> pack_sequence_as({"b": 0, "a": [0, (0,)]}, [1, 3, 2])
    {'b': 2, 'a': [1, (3,)]}
    """
    kind = type(structure)
    if (kind is list or kind is tuple) and type(leaves) is list and len(leaves) == len(structure):
        for item in structure:  # a flat list (tape.gradient(loss, variables)): a copy will do
            if isinstance(item, (dict, list, tuple)):
                break
        else:
            return kind(leaves)
    remaining = iter(leaves)
    packed = _packed(structure, remaining, structure, leaves)
    if next(remaining, _END) is not _END:
        raise _count_error(structure, leaves)
    return packed


def is_nested(structure):
    """Whether ``structure`` is a nest (a list, tuple or dict) rather than a leaf, as
    ``tf.nest.is_nested`` answers.

    Examples
    --------
    >>> from eagerkit.nest import is_nested
    >>> is_nested([1]), is_nested({"a": 1}), is_nested("text"), is_nested(None)
    (True, True, False, False)
    """
    return isinstance(structure, (dict, list, tuple))


def assert_same_structure(nest1, nest2, check_types=True, expand_composites=False):
    """Raise unless ``nest1`` and ``nest2`` nest the same way (their leaves may differ).

    As ``tf.nest.assert_same_structure``: a ValueError for a different nesting, number of
    items or set of dict keys; with ``check_types``, a TypeError for sequences of different
    types (a list against a tuple). ``expand_composites`` is accepted, as TF's.

    Examples
    --------
    >>> from eagerkit.nest import assert_same_structure
    >>> assert_same_structure({"a": [1, 2]}, {"a": [3, 4]})  # the same: nothing happens
    >>> assert_same_structure([1, 2], [1])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    eagerkit.errors.InvalidArgumentError: assert_same_structure: the two structures don't ...
    """
    found = _difference(nest1, nest2, check_types)
    if found is not None:
        from eagerkit.errors import InvalidArgumentError, type_error

        kind, detail = found
        message = (
            "assert_same_structure: the two structures don't have the same nested "
            f"structure.\n\nFirst structure: {nest1!r}\n\nSecond structure: {nest2!r}\n\n"
            f"More specifically: {detail}. Give both the same lists, tuples and dict keys; "
            "only their leaves may differ"
        )  # TF's words; a TypeError where TF raises one, else (also) a ValueError
        op = "assert_same_structure"
        raise type_error(message, op) if kind is TypeError else InvalidArgumentError(message, op=op)


def _difference(a, b, check_types):
    """The first place ``a`` and ``b`` nest differently, as (error class, what differs), or
    None where they nest the same way."""
    if is_nested(a) != is_nested(b):
        nested, leaf = (a, b) if is_nested(a) else (b, a)
        return ValueError, f"{nested!r} is a nest, while {leaf!r} is not"
    if not is_nested(a):
        return None
    if check_types and type(a) is not type(b):
        return TypeError, (
            f"{a!r} is a {type(a).__name__} and {b!r} a {type(b).__name__}; pass "
            "check_types=False to compare only how they nest"
        )
    if isinstance(a, dict) != isinstance(b, dict):
        return ValueError, f"{a!r} and {b!r} are not both dicts"
    if isinstance(a, dict):
        if set(a) != set(b):
            return ValueError, (
                f"the two dicts have different keys: {sorted(a, key=repr)} and "
                f"{sorted(b, key=repr)}"
            )
        pairs = [(a[key], b[key]) for key in sorted(a)]
    elif len(a) != len(b):
        return ValueError, f"{a!r} has {len(a)} items and {b!r} has {len(b)}"
    else:
        pairs = zip(a, b, strict=True)
    for x, y in pairs:
        found = _difference(x, y, check_types)
        if found is not None:
            return found
    return None


def map_structure(func, *structure, check_types=True, expand_composites=False):
    """``func`` applied to the leaves of one or more structures that nest the same way; the
    answer nests as the first one (``tf.nest.map_structure``).

    Examples
    --------
    >>> from eagerkit.nest import map_structure
    >>> map_structure(lambda a, b: a + b, {"x": 1, "y": [2]}, {"x": 10, "y": [20]})
    {'x': 11, 'y': [22]}
    """
    from eagerkit.errors import InvalidArgumentError, type_error

    if not callable(func):
        raise type_error(f"map_structure: func must be callable, got {func!r}", "map_structure")
    if not structure:
        raise InvalidArgumentError(
            "map_structure: must provide at least one structure after func", op="map_structure"
        )
    for other in structure[1:]:
        assert_same_structure(structure[0], other, check_types=check_types)
    columns = [flatten(s) for s in structure]
    return pack_sequence_as(structure[0], [func(*leaves) for leaves in zip(*columns, strict=True)])


def _packed(node, remaining, structure, leaves):
    """``node`` with each leaf replaced by the next of ``remaining``. A module function, not
    a closure calling itself: such a closure is a reference cycle, which would keep the
    leaves (a gradient's arrays) alive until the garbage collector runs."""
    if isinstance(node, dict):
        built = {key: _packed(node[key], remaining, structure, leaves) for key in sorted(node)}
        if type(node) is dict:
            return {key: built[key] for key in node}
        return _mapping_like(node, [(key, built[key]) for key in node])
    if isinstance(node, (list, tuple)):
        items = [_packed(item, remaining, structure, leaves) for item in node]
        if isinstance(node, tuple) and hasattr(node, "_fields"):
            return type(node)(*items)
        return type(node)(items)
    try:
        return next(remaining)
    except StopIteration:
        raise _count_error(structure, leaves) from None


def _mapping_like(node, pairs):
    """A mapping of ``node``'s own type (an OrderedDict stays one, as in TF's nest) with
    ``pairs`` in it; a defaultdict keeps its default factory."""
    if isinstance(node, defaultdict):
        return type(node)(node.default_factory, pairs)
    return type(node)(pairs)


_END = object()


def _count_error(structure, leaves):
    from eagerkit.arguments import describe
    from eagerkit.errors import InvalidArgumentError

    return InvalidArgumentError(
        f"pack_sequence_as: the structure holds {len(flatten(structure))} leaves but "
        f"{describe(leaves)} was given; pass exactly one leaf per place (nest.flatten(structure) "
        "lists them)",
        op="pack_sequence_as",
    )


# What this namespace exports (to ``import *`` and to the error boundary, namespaces.py);
# the helpers it imports or keeps for itself stay out.
__all__ = ["assert_same_structure", "flatten", "is_nested", "map_structure", "pack_sequence_as"]

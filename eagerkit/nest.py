"""Flatten nested lists/tuples/dicts of tensors and rebuild the same structure.

``tape.gradient(loss, {"w": w, "b": [b]})`` answers ``{"w": dw, "b": [db]}``: the sources
are flattened, differentiated, and packed back with these two functions.
"""


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


def _packed(node, remaining, structure, leaves):
    """``node`` with each leaf replaced by the next of ``remaining``. A module function, not
    a closure calling itself: such a closure is a reference cycle, which would keep the
    leaves (a gradient's arrays) alive until the garbage collector runs."""
    if isinstance(node, dict):
        built = {key: _packed(node[key], remaining, structure, leaves) for key in sorted(node)}
        return {key: built[key] for key in node}
    if isinstance(node, (list, tuple)):
        items = [_packed(item, remaining, structure, leaves) for item in node]
        if isinstance(node, tuple) and hasattr(node, "_fields"):
            return type(node)(*items)
        return type(node)(items)
    try:
        return next(remaining)
    except StopIteration:
        raise _count_error(structure, leaves) from None


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
__all__ = ["flatten", "pack_sequence_as"]

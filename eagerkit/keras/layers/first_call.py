"""Undoing a layer's failed first call: the build it started is taken back.

A layer builds its variables on its first call. If that call then fails (wrong dtype, a
shape the layer cannot take), the layer would be left built for input it never accepted;
``Layer.__call__`` instead puts back the attributes it had before, for it and every layer
inside it, so a failed call changes nothing.
"""


def attributes_before(layer):
    """The attributes of ``layer`` and of every layer inside it, to undo a failed build."""
    from eagerkit.keras.layers.base import Layer, _attribute_values

    found, pending = {}, [layer]
    while pending:
        current = pending.pop()
        if id(current) not in found:
            attributes = dict(vars(current))
            if "_weights" in attributes:  # add_weight appends to it: keep a copy of the list
                attributes["_weights"] = list(attributes["_weights"])
            found[id(current)] = (current, attributes)
            pending.extend(v for v in _attribute_values(current) if isinstance(v, Layer))
    return list(found.values())


def restore(saved):
    """Put back what ``attributes_before`` saw."""
    for layer, attributes in saved:
        vars(layer).clear()
        vars(layer).update(attributes)

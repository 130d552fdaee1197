"""A layer's build: on its first call, or by hand; and undone when the first call fails.

A layer builds its variables on its first call. If that call then fails (wrong dtype, a
shape the layer cannot take), the layer would be left built for input it never accepted;
``Layer.__call__`` instead puts back the attributes it had before, for it and every layer
inside it, so a failed call changes nothing.
"""

import functools

from eagerkit.errors import FailedPreconditionError
from eagerkit.keras.layers.layer_tree import attribute_values
from eagerkit.train.tracking import restore_deferred


def check_initialized(layer, used):
    """Keras 3's error (a RuntimeError) for a layer whose ``__init__`` has not called
    ``super().__init__()`` yet, where ``used`` (``"add_weight"``, a call) needs what it sets."""
    if "built" not in vars(layer):
        name = type(layer).__name__
        raise FailedPreconditionError(
            f"In layer '{name}', you forgot to call `super().__init__()` as the first "
            f"statement in the `__init__()` method ({name}.__init__ must call "
            f"super().__init__() before {used}). Go back and add it.",
            op=used,
        )


def attributes_before(layer):
    """The attributes of ``layer`` and of every layer inside it, to undo a failed build."""
    from eagerkit.keras.layers.base import Layer

    found, pending = {}, [layer]
    while pending:
        current = pending.pop()
        if id(current) not in found:
            attributes = dict(vars(current))
            if "_weights" in attributes:  # add_weight appends to it: keep a copy of the list
                attributes["_weights"] = list(attributes["_weights"])
            found[id(current)] = (current, attributes)
            pending.extend(v for v in attribute_values(current) if isinstance(v, Layer))
    return list(found.values())


def restore(saved):
    """Put back what ``attributes_before`` saw."""
    for layer, attributes in saved:
        vars(layer).clear()
        vars(layer).update(attributes)


def shape_of(inputs):
    """What ``build`` is given: the shape of ``inputs`` (a list of shapes for several)."""
    if isinstance(inputs, (list, tuple)):
        return [tuple(x.shape) for x in inputs]
    return tuple(inputs.shape)


def marking_built(build):
    """``build`` that marks the layer built when it returns: after ``layer.build(shape)``
    called by hand (then ``layer.kernel.assign(...)``), the first call uses those weights
    instead of building new ones. Values a checkpoint restored before the weights existed
    are put in them then, as a first call does."""

    @functools.wraps(build)
    def build_and_mark(self, *args, **kwargs):
        result = build(self, *args, **kwargs)
        self.built = True
        restore_deferred(self)
        return result

    return build_and_mark

"""What a layer owns: the layers, modules and variables kept in its attributes, directly
or inside lists, tuples and dicts (and containers inside them), found by walking them.

Examples
--------
>>> import eagerkit as ek
>>> from eagerkit.keras.layers.layer_tree import owned_variables
>>> first, second = ek.layers.Dense(2, name="a"), ek.layers.Dense(1, use_bias=False, name="b")
>>> model = ek.keras.Sequential([first, second])
>>> second.trainable = False
>>> _ = model(ek.ones([1, 3]))
>>> [(v.name, trainable) for v, trainable in owned_variables(model)]
[('a/kernel:0', True), ('a/bias:0', True), ('b/kernel:0', False)]
"""

from eagerkit.module import Module
from eagerkit.variables import Variable


def attribute_values(obj):
    """The values of ``obj``'s attributes, in assignment order, with the items of lists,
    tuples and dicts (and of containers inside them) in place of the containers."""
    stack = list(reversed(list(vars(obj).values())))
    while stack:
        value = stack.pop()
        if isinstance(value, (list, tuple)):
            stack.extend(reversed(value))
        elif isinstance(value, dict):
            stack.extend(reversed(list(value.values())))
        else:
            yield value


def owned_variables(layer):
    """(variable, trainable) for every variable reachable from ``layer``, by creation order."""
    found, seen_layers, seen_vars = [], set(), set()
    pending = [(layer, layer.trainable)]
    while pending:
        current, trainable = pending.pop()
        if id(current) in seen_layers:
            continue
        seen_layers.add(id(current))
        for value in attribute_values(current):
            if isinstance(value, Variable):
                if id(value) not in seen_vars:
                    seen_vars.add(id(value))
                    found.append((value, trainable and value.trainable))
            elif isinstance(value, Module):  # a Layer, or a plain ek.Module inside one
                pending.append((value, trainable and getattr(value, "trainable", True)))
    found.sort(key=lambda pair: pair[0]._creation_index)
    return found


def modules_within(layer):
    """``layer`` and every Module reachable through its attributes, each once."""
    found, seen, pending = [], {id(layer)}, [layer]
    while pending:
        current = pending.pop()
        found.append(current)
        for value in attribute_values(current):
            if isinstance(value, Module) and id(value) not in seen:
                seen.add(id(value))
                pending.append(value)
    return found

"""Names of a model's variables that the student wrote: ``hidden/kernel``, not ``dense_21/kernel``.

A layer's own name (``dense_21``) is counted up each time a cell makes a new one, so it
changes when the cell re-runs. The attribute that holds the layer (``self.hidden``) does
not. Layers kept only in a list (``Sequential``) are named by their place in it
(``layers[0]``) unless they were given a name of their own.
"""

import re

from eagerkit.module import snake_case


def named_variables(source):
    """``(name or None, variable)`` pairs from a model, a list or a dict of variables."""
    if source is None:
        return []
    if isinstance(source, dict):
        return list(source.items())
    if hasattr(source, "trainable_variables"):
        return model_variable_names(source)
    return [(None, v) for v in source]


def model_variable_names(model):
    """``(name, variable)`` for each trainable variable of ``model``, named by attribute path.

    Examples
    --------
    >>> import eagerkit as ek
    >>> class MLP(ek.Model):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.hidden = ek.layers.Dense(4)
    ...         self.logits = ek.layers.Dense(2)
    ...     def call(self, x):
    ...         return self.logits(self.hidden(x))
    >>> model = MLP()
    >>> _ = model(ek.ones([1, 3]))
    >>> [name for name, _ in model_variable_names(model)]
    ['hidden/kernel', 'hidden/bias', 'logits/kernel', 'logits/bias']
    >>> seq = ek.Sequential([ek.layers.Dense(2), ek.layers.Dense(1, name="out")])
    >>> _ = seq(ek.ones([1, 3]))
    >>> [name for name, _ in model_variable_names(seq)]
    ['layers[0]/kernel', 'layers[0]/bias', 'out/kernel', 'out/bias']
    """
    owner = {}  # id(variable) -> (path of the layer that made it, the layer's own name)
    for path, layer in _named_layers(model, ""):
        for variable in getattr(layer, "trainable_variables", ()):
            owner.setdefault(id(variable), (path, layer.name))
    named = []
    for variable in model.trainable_variables:
        full = variable.name.rsplit(":", 1)[0]
        if id(variable) not in owner:
            named.append((full, variable))
            continue
        path, layer_name = owner[id(variable)]
        suffix = full[len(layer_name) + 1 :] if full.startswith(layer_name + "/") else full
        named.append((f"{path}/{suffix}", variable))
    return named


def layer_paths(model):
    """``{id(layer): path}`` for every layer inside ``model`` (``hidden``, ``block.conv``,
    ``layers[0]``), by the same rules as ``model_variable_names``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> seq = ek.Sequential([ek.layers.Conv2D(2, 3), ek.layers.Dense(1, name="out")])
    >>> sorted(layer_paths(seq).values())  # conv2d is the name it gave itself: not kept
    ['layers[0]', 'out']
    """
    return {id(layer): path for path, layer in _named_layers(model, "")}


def _named_layers(layer, prefix):
    """``(path, layer)`` for every layer inside ``layer``, innermost last, depth first.

    Public attributes give their names; layers found only through private ones (a
    ``Sequential``'s list, ``track_layer``) are ``layers[i]``, or their own name when it
    was given by hand.
    """
    found, seen = [], {id(layer)}
    public = [(k, v) for k, v in vars(layer).items() if not k.startswith("_")]
    private = [(k, v) for k, v in vars(layer).items() if k.startswith("_")]
    for is_public, items in ((True, public), (False, private)):
        for key, value in items:
            for path, child in _layers_in(value, key if is_public else None):
                if id(child) in seen:
                    continue
                seen.add(id(child))
                if path is None:
                    path = child.name if _given_name(child) else f"layers[{_index(layer, child)}]"
                found.append((prefix + path, child))
                found += _named_layers(child, prefix + path + ".")
    return found


def _layers_in(value, path):
    """The layers in an attribute's value (itself, or inside lists, tuples and dicts)."""
    if _is_layer(value):
        return [(path, value)]
    items = []
    if isinstance(value, (list, tuple)):
        items = [(f"[{i}]", item) for i, item in enumerate(value)]
    elif isinstance(value, dict):
        items = [(f"[{key!r}]", item) for key, item in value.items()]
    return [
        (None if path is None else path + sub_path, layer)
        for sub, item in items
        for sub_path, layer in _layers_in(item, sub)
    ]


def _is_layer(value):
    return (
        hasattr(value, "trainable_variables")
        and hasattr(value, "name")
        and hasattr(value, "__dict__")
    )


def _given_name(layer):
    """Whether the layer's name was chosen by hand (not ``dense`` / ``dense_21``)."""
    automatic = snake_case(type(layer).__name__)  # as the layer names itself: conv2d
    return re.fullmatch(rf"{re.escape(automatic)}(_\d+)?", layer.name) is None


def _index(parent, child):
    layers = getattr(parent, "layers", None) or []
    return next((i for i, layer in enumerate(layers) if layer is child), 0)

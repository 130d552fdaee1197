"""The paths to a saved value: one variable reached two ways is saved once, restored by both.

TF's checkpoints save objects, not paths: in ``Checkpoint(a=layer, b=layer.kernel)`` the kernel
is one object with two names, written once. eagerkit writes its value once too, under its
shortest path (``b``), and lists its other paths (``a/kernel``) as *aliases* of that key in the
checkpoint's index. A restore follows every path it was saved under, so
``Checkpoint(a=fresh_layer)`` finds its kernel through ``a/kernel`` even though no ``b`` is given.

A value whose variable does not exist yet waits with the last object on its path that exists
and is not a plain list or dict (a layer, a module, the checkpoint, a list given to a
checkpoint: list_wrapper.py): a plain list has no hook that runs when an item is appended, but
the layer that appends to it in ``build`` calls ``tracking.restore_deferred(layer)`` right
after, and a module does when a variable is assigned. When more of the path appears (an
attribute set to a list, say) the value moves on to wait with the new last object.

Examples
--------
>>> import eagerkit as ek, os, tempfile
>>> layer = ek.keras.layers.Dense(2)
>>> _ = layer(ek.ones([1, 3]))
>>> path = ek.train.Checkpoint(a=layer, b=layer.kernel).write(
...     os.path.join(tempfile.mkdtemp(), "ckpt"))
>>> [name for name, _ in ek.train.list_variables(path)]  # the kernel once, under "b"
['a/bias/.ATTRIBUTES/VARIABLE_VALUE', 'b/.ATTRIBUTES/VARIABLE_VALUE', \
'save_counter/.ATTRIBUTES/VARIABLE_VALUE']
>>> fresh = ek.keras.layers.Dense(2)
>>> _ = ek.train.Checkpoint(a=fresh).read(path)  # no "b" here: restored through a/kernel
>>> _ = fresh(ek.ones([1, 3]))
>>> bool((fresh.kernel.numpy() == layer.kernel.numpy()).all())
True
"""

from eagerkit.train import checkpoint_keys as keys
from eagerkit.train import tracking

_CONTAINERS = (list, tuple, dict)


def alias_keys(saved, reachable, alias_edges):
    """``{alias key: saved key}`` for the values that are also reachable by another path.

    ``saved`` lists ``(path, make_key)`` for each saved value (``make_key(path)`` is its key),
    ``reachable`` is ``tracking.walk``'s list (each object under its shortest path) and
    ``alias_edges`` the ``(path, object)`` edges that reached an object seen before: each names
    everything saved below that object's shortest path a second way, unless it passes through
    a private attribute of its own (``_weights``, the list a layer keeps of its weights).
    """
    shortest = {id(obj): path for path, obj in reachable}
    aliases = {}
    for alias_path, obj in alias_edges:
        prefix = shortest.get(id(obj))
        if prefix is None:
            continue  # an edge back to the root: the root has no path to rename
        if any(name.startswith("_") and name not in prefix for name in alias_path):
            continue  # a bookkeeping list (a layer's _weights): a second name no one uses
        for path, make_key in saved:
            if path[: len(prefix)] == prefix:
                alias = make_key((*alias_path, *path[len(prefix) :]))
                aliases.setdefault(alias, make_key(path))
    return aliases


def routes(key, aliases_of):
    """Every key a saved value answers to: its own, then its aliases."""
    return [key, *aliases_of.get(key, ())]


def resolve(root, names):
    """``(owner, name, target)`` for a path of attribute names from ``root``.

    ``target`` is the object at the path, or ``None`` when a step is missing; then ``owner``
    is the last object on the path that exists and is not a plain list or dict (it hears of
    new attributes and appends: tracking.restore_deferred) and ``name`` the rest of the path,
    a string for one step, a tuple of names for more.
    """
    holder, since, obj = root, 0, root
    for i, name in enumerate(names):
        found = tracking.child(obj, name)
        if found is None:
            rest = tuple(names[since:])
            return holder, rest[0] if len(rest) == 1 else rest, None
        if not isinstance(found, _CONTAINERS):
            holder, since = found, i + 1
        obj = found
    return None, None, obj


def shown(name):
    """A deferred name as a path for messages: ``'kernel'`` or ``'listed/0'``."""
    return name if isinstance(name, str) else "/".join(name)


def split_value_key(key):
    """The attribute names of a variable's value key."""
    return keys.split(key[: -len(keys.VALUE) - 1])

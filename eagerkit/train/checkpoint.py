"""Checkpoint: save and restore variables, models and optimizers by the paths that reach them.

``ek.train.Checkpoint(model=model, optimizer=opt, step=global_step)`` names the roots; the
variables below them get keys like ``model/dense/kernel/.ATTRIBUTES/VARIABLE_VALUE``, and an
optimizer's slot for a variable is stored next to that variable as
``<variable path>/.OPTIMIZER_SLOT/<optimizer path>/<slot name>`` (TF's layout); a dataset
iterator's position is saved as ``<path>/.ATTRIBUTES/ITERATOR_STATE``. See tracking.py for
how the paths are found, checkpoint_keys.py for the keys, checkpoint_paths.py for a variable
reached by two paths (saved once, restored by both) and checkpoint_io.py for the files.

A restore first reads and checks the whole checkpoint, then matches every key to a variable
and checks dtypes and shapes, and only then assigns: any error leaves every variable as it
was.
"""

import os

import numpy as np

from eagerkit import dtypes, errors
from eagerkit.tensor import Tensor
from eagerkit.train import (
    checkpoint_io,
    checkpoint_paths,
    checkpoint_plan,
    checkpoint_state,
    tracking,
)
from eagerkit.train import checkpoint_keys as keys
from eagerkit.train.atomic_files import all_or_nothing
from eagerkit.train.checkpoint_status import LoadStatus
from eagerkit.train.deferred_value import DeferredValue
from eagerkit.train.list_wrapper import wrapped
from eagerkit.train.optimizer import Optimizer
from eagerkit.variables import Variable

SLOT, STATE, VALUE = keys.SLOT, keys.STATE, keys.VALUE


class Checkpoint:
    """Groups the objects to save; ``save(prefix)`` writes ``prefix-N``, ``restore`` reads it.

    Examples
    --------
    >>> import eagerkit as ek, os, tempfile
    >>> x, y = ek.Variable(10.0), ek.Variable(5.0)
    >>> checkpoint = ek.train.Checkpoint(x=x, y=y)
    >>> _ = x.assign(2.0)
    >>> save_path = checkpoint.save(os.path.join(tempfile.mkdtemp(), "ckpt"))
    >>> os.path.basename(save_path)
    'ckpt-1'
    >>> _ = x.assign(11.0)
    >>> float(x + y)
    16.0
    >>> status = checkpoint.restore(save_path)
    >>> float(x + y)
    7.0
    """

    def __init__(self, **objects):
        for name, obj in objects.items():
            _check_root(name, obj)
        self._objects = {name: wrapped(obj) for name, obj in objects.items()}
        self._save_counter = Variable(0, dtype=dtypes.int64, trainable=False, name="save_counter")

    @property
    def save_counter(self):
        """How many times ``save`` has run (an int64 Variable, restored with the rest).

        Only the Checkpoint being saved or restored stores its counter: one nested in
        another (``Checkpoint(net=Checkpoint(...))``) adds no ``net/save_counter``, as in TF.
        """
        return self._save_counter

    def __getattr__(self, name):
        objects = self.__dict__.get("_objects", {})
        if name in objects:
            return objects[name]
        raise AttributeError(f"this Checkpoint has no object {name!r}; it has {list(objects)}")

    def __setattr__(self, name, value):
        """``checkpoint.name = obj`` adds a dependency, as the keyword argument does; a value
        a restore left waiting for ``name`` is assigned now (TF's delayed restoration)."""
        if name.startswith("_"):
            object.__setattr__(self, name, value)
            return
        _check_root(name, value)
        self._objects[name] = wrapped(value)  # a list: appends to it restore (list_wrapper.py)
        tracking.restore_deferred(self)

    def _checkpoint_dependencies(self):
        return list(self._objects.items())  # the root's save_counter is added by _values

    # --- saving -------------------------------------------------------------------------------
    def save(self, file_prefix):
        """Write checkpoint ``<file_prefix>-<n>`` (n counts saves from 1) and return its path.

        Also records it in the ``checkpoint`` state file of that directory, which
        ``ek.train.latest_checkpoint`` reads. If any step fails (a full disk, say), no file
        changes and the counter stays.
        """
        number = self._next_number()
        path = f"{os.fspath(file_prefix)}-{number}"
        directory = os.path.dirname(os.path.abspath(path))
        arrays, aliases = self._contents(save_counter=number)
        earlier = [
            p
            for p in checkpoint_state.state_prefixes(directory)
            if os.path.abspath(p) != os.path.abspath(path)
        ]
        state_file = os.path.join(directory, checkpoint_state.STATE_FILE)
        with all_or_nothing([*checkpoint_io.files(path), state_file], directory):
            checkpoint_io.write(path, arrays, aliases)
            checkpoint_state.write_state(directory, [*earlier, os.path.abspath(path)])
        self._count_save()
        return path

    def _next_number(self):
        """The number the next ``save`` gets (the counter moves only once its files exist)."""
        return int(self.save_counter._data) + 1

    def _count_save(self):
        self.save_counter._write(self.save_counter._data + 1, "save")

    def write(self, file_prefix):
        """Write checkpoint ``file_prefix`` itself: no number, no state file, counter unchanged.

        Examples
        --------
        >>> import eagerkit as ek, os, tempfile
        >>> v = ek.Variable(3.0)
        >>> checkpoint = ek.train.Checkpoint(v=v)
        >>> path = checkpoint.write(os.path.join(tempfile.mkdtemp(), "weights"))
        >>> os.path.basename(path), int(checkpoint.save_counter)
        ('weights', 0)
        >>> _ = v.assign(0.0)
        >>> _ = checkpoint.read(path)
        >>> float(v)
        3.0
        """
        path = os.fspath(file_prefix)
        arrays, aliases = self._contents(save_counter=int(self.save_counter._data))
        with all_or_nothing(checkpoint_io.files(path), os.path.dirname(os.path.abspath(path))):
            checkpoint_io.write(path, arrays, aliases)
        return path

    def read(self, save_path):
        """Load a checkpoint written by ``write`` (or ``save``); the same as ``restore``."""
        return self.restore(save_path)

    def _contents(self, save_counter):
        """``({key: host numpy array}, {alias key: key})``: every variable and slot reachable
        from here, each once, and the other paths that reach them (checkpoint_paths.py)."""
        arrays, paths, saved, alias_edges = {}, {}, [], []
        reachable = tracking.walk(self, alias_edges)
        for path, obj in reachable:
            if isinstance(obj, Variable):
                paths[id(obj)] = path
                arrays[keys.value_key(path)] = np.asarray(obj.numpy())  # to the host, from a device
                saved.append((path, keys.value_key))
            elif callable(getattr(obj, "_checkpoint_state", None)):
                arrays[keys.state_key(path)] = obj._checkpoint_state()
                saved.append((path, keys.state_key))
        arrays[keys.value_key(("save_counter",))] = np.asarray(save_counter, dtype=np.int64)
        for path, obj in reachable:
            if isinstance(obj, Optimizer):
                for variable, slot_name, slot in obj._slot_items():
                    if id(variable) in paths:  # TF too drops slots of variables it does not save
                        key = keys.slot_key(paths[id(variable)], path, slot_name)
                        arrays[key] = np.asarray(slot.numpy())
        return arrays, checkpoint_paths.alias_keys(saved, reachable, alias_edges)

    # --- restoring ----------------------------------------------------------------------------
    def restore(self, save_path):
        """Load ``save_path`` into the objects; returns a status (``assert_consumed()``, ...).

        Variables that do not exist yet (layers not called yet) get their values when they
        are created. ``save_path=None`` restores nothing (so ``restore(latest_checkpoint(d))``
        also works on a first run).
        """
        if save_path is None:
            return LoadStatus(None, self, set(), {})
        arrays, aliases = checkpoint_io.read_with_aliases(os.fspath(save_path))
        plan = checkpoint_plan.plan_restore(self, arrays, aliases, str(save_path))
        matched = {id(v) for v, _ in plan.assignments}
        for variable, array in plan.assignments:
            variable._write(variable._device.backend.asarray(array), "restore")
        for iterator, array in plan.states:
            iterator._restore_checkpoint_state(array)
        for variable, optimizer, slot_name, array in plan.slots:
            optimizer._defer_slot_value(
                variable, slot_name, variable._device.backend.asarray(array)
            )
        unconsumed = dict(plan.unresolved)
        for owner, name, key, slot_values in plan.deferred:
            shown = checkpoint_paths.shown(name)
            unconsumed[key] = (
                f"no object at this path yet: checkpoint.{shown} = ... restores it"
                if owner is self
                else f"waiting for '{shown}' to be created"
            )
            restore = DeferredValue(key, shown, arrays[key], slot_values, matched, unconsumed)
            tracking.defer(owner, name, restore)
        return LoadStatus(str(save_path), self, matched, unconsumed)


def _check_root(name, obj):
    if isinstance(obj, Tensor) and not isinstance(obj, Variable):
        raise errors.type_error(
            f"Checkpoint: {name!r} is a Tensor, which is immutable and holds no state; "
            f"save an ek.Variable instead (ek.Variable(value))",
            op="Checkpoint",
        )
    if not (isinstance(obj, Variable) or tracking._may_hold_state(obj)):
        raise errors.type_error(
            f"Checkpoint: {name!r} is a {type(obj).__name__}; pass Variables, models, layers, "
            "optimizers or other objects that hold Variables",
            op="Checkpoint",
        )
    if name == "save_counter":
        raise errors.converted_class(ValueError)(
            "Checkpoint: 'save_counter' is reserved for the checkpoint's own counter; give "
            "your object another name",
            op="Checkpoint",
        )

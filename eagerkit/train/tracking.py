"""Which objects a checkpoint saves, under which names, and restoring variables made later.

A checkpoint does not save variables by their ``name`` (in eager mode many share one), but
by the *path of attributes* that leads to them from the objects given to ``Checkpoint``:
``model/dense1/kernel``. The protocol, duck-typed (nothing to inherit):

* ``obj._checkpoint_dependencies()``, if defined, returns ``[(name, child), ...]``: the
  children to follow, in order. Optimizers and ``Checkpoint`` define it.
* otherwise lists and tuples give their items (named ``"0"``, ``"1"``, ...), dicts their
  string-keyed values, and any other object its attributes (``vars(obj)``) that can hold
  Variables: Variables, containers and objects, but not Tensors, arrays or plain values.
  So a plain class with ``self.W = ek.Variable(...)`` is checkpointable as it is.
* the graph is walked breadth first; an object reached twice keeps its shortest path.

Deferred restore: layers create their variables on the first call, which may come after
``restore()``. A value whose owner exists but lacks the attribute is kept pending; the
owner calls ``restore_deferred(owner)`` right after it makes its variables (``Layer.__call__``
does, after ``build``), and each pending value whose attribute now exists is assigned. If
the first call that built them then fails, its build is taken back and so are the restores
it made (``taking_back_restores``): the values wait again for the next build, and the
status says so, instead of being lost with the discarded variables.
"""

import collections
import contextlib
import types
import weakref

import numpy as np

from eagerkit.tensor import Tensor
from eagerkit.variables import Variable

_PLAIN = (str, bytes, int, float, complex, bool, type(None), np.ndarray, np.generic, range)
_NOT_STATE = (types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType)


def dependencies(obj):
    """The ``(name, child)`` pairs a checkpoint follows from ``obj``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> class Model:
    ...     def __init__(self):
    ...         self.W = ek.Variable(5.0)
    ...         self.scale = 2.0  # a plain number: not state
    >>> [name for name, _ in dependencies(Model())]
    ['W']
    """
    method = getattr(obj, "_checkpoint_dependencies", None)
    if callable(method) and not isinstance(obj, type):
        return list(method())
    if isinstance(obj, (list, tuple)):
        pairs = [(str(i), child) for i, child in enumerate(obj)]
    elif isinstance(obj, dict):
        pairs = [(key, child) for key, child in obj.items() if isinstance(key, str)]
    elif hasattr(obj, "__dict__") and not isinstance(obj, (type, *_NOT_STATE)):
        pairs = list(vars(obj).items())
    else:
        return []
    return [(name, child) for name, child in pairs if _may_hold_state(child)]


def _may_hold_state(value):
    if isinstance(value, Variable):
        return True
    if isinstance(value, (Tensor, *_PLAIN, type, *_NOT_STATE)):
        return False
    return isinstance(value, (list, tuple, dict)) or hasattr(value, "__dict__")


def walk(root, alias_edges=None):
    """Every object reachable from ``root``, breadth first: ``[(path tuple, object), ...]``.

    Each object appears once, under its shortest path; ``root`` itself is not listed. Given a
    list, ``alias_edges`` receives the ``(path, object)`` of each other edge to an object
    already found (its second name: checkpoint_paths.py).
    """
    seen = {id(root)}
    found = []
    queue = collections.deque([((), root)])
    while queue:
        path, obj = queue.popleft()
        if isinstance(obj, Variable):
            continue  # a leaf
        for name, child in dependencies(obj):
            if id(child) in seen:
                if alias_edges is not None:
                    alias_edges.append(((*path, name), child))
                continue
            seen.add(id(child))
            found.append(((*path, name), child))
            queue.append(((*path, name), child))
    return found


def child(obj, name):
    """The dependency of ``obj`` called ``name``, or ``None``."""
    for candidate, value in dependencies(obj):
        if candidate == name:
            return value
    return None


def _at(owner, names):
    """``(object at the path, None)``, or ``(None, (nearer owner, rest))`` when part of the
    path exists up to an object that is not a plain list or dict, or ``(None, None)``."""
    obj, nearer = owner, None
    for i, name in enumerate(names):
        obj = child(obj, name)
        if obj is None:
            return None, nearer
        if not isinstance(obj, (list, tuple, dict)) and i < len(names) - 1:
            rest = tuple(names[i + 1 :])
            nearer = (obj, rest[0] if len(rest) == 1 else rest)
    return obj, None


# --- deferred restore ---------------------------------------------------------------------
_pending = {}  # id(owner) -> {name: [callback(variable), ...]}; a callback has .undo(variable)
_journals = []  # one list per first call in progress: (owner id, name, callback, variable) done


def defer(owner, name, callback):
    """Call ``callback(variable)`` once ``owner`` has a variable ``name`` (restore_deferred)."""
    key = id(owner)
    if key not in _pending:
        try:  # forget the pending values when the owner is garbage collected
            weakref.finalize(owner, _pending.pop, key, None)
        except TypeError:
            pass  # objects without weak references keep theirs until consumed
    _pending.setdefault(key, {}).setdefault(name, []).append(callback)


def restore_deferred(owner):
    """Give ``owner``'s newly created variables the values a checkpoint restore left pending.

    ``Checkpoint.restore`` keeps the value of a variable that does not exist yet (a layer
    not called yet). Whatever creates variables lazily calls this right after doing so
    (``Layer.__call__`` after ``build``); without pending values it costs one dict lookup.

    Examples
    --------
    >>> import eagerkit as ek, os, tempfile
    >>> class Lazy:
    ...     def build(self):
    ...         self.w = ek.Variable(0.0)
    ...         ek.train.restore_deferred(self)
    >>> saved = Lazy(); saved.build(); _ = saved.w.assign(4.0)
    >>> prefix = os.path.join(tempfile.mkdtemp(), "ckpt")
    >>> path = ek.train.Checkpoint(layer=saved).save(prefix)
    >>> fresh = Lazy()
    >>> status = ek.train.Checkpoint(layer=fresh).restore(path)  # fresh.w does not exist yet
    >>> fresh.build()
    >>> float(fresh.w)
    4.0
    """
    waiting = _pending.get(id(owner))
    if not waiting:
        return
    for name in list(waiting):
        variable, nearer = (child(owner, name), None) if isinstance(name, str) else _at(owner, name)
        if nearer is not None:  # part of the path appeared: wait with its last object
            for callback in waiting.pop(name):
                defer(*nearer, callback)
            restore_deferred(nearer[0])
            continue
        if variable is None:
            continue
        callbacks = waiting[name]
        while callbacks:
            callbacks[0](variable)  # if it raises (a wrong shape), the value keeps waiting
            done = callbacks.pop(0)
            if _journals:
                _journals[-1].append((id(owner), name, done, variable))
        del waiting[name]


@contextlib.contextmanager
def taking_back_restores():
    """Inside: deferred restores are journaled; on an error they are undone and wait again.

    ``Layer.__call__`` builds inside this block, so a first call that fails (after its
    variables took their checkpointed values) leaves the restore pending, as it was.
    Blocks nest: a layer built inside its parent's failing first call is taken back too.
    """
    journal = []
    _journals.append(journal)
    try:
        yield
    except BaseException:
        _journals.pop()
        for key, name, callback, variable in reversed(journal):
            callback.undo(variable)
            _pending.setdefault(key, {}).setdefault(name, []).insert(0, callback)
        raise
    _journals.pop()
    if _journals:  # the enclosing first call may still fail: let it take these back too
        _journals[-1].extend(journal)

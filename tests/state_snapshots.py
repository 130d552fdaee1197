"""Pictures of state, and ways to make a call fail, for tests/test_state_after_failure*.py.

``picture(obj)`` walks everything an object holds (attributes, containers, the cells of the
closures it keeps, numpy arrays by their bytes, random generators by their state) and
returns plain Python values that compare equal exactly when nothing changed: the same
objects (by identity) holding the same values. ``files(directory)`` is every file under a
directory with its bytes. ``failing_disk()`` makes the k-th file-system change raise, as a
full disk or a file that cannot be deleted would.
"""

import builtins
import contextlib
import errno
import math
import os
import types
import weakref

import numpy as np

import eagerkit as ek

_PLAIN = (bool, int, str, bytes, type(None), complex)
# Caches that reading fills, not state: a Variable keeps the Tensor of its latest read so a
# second read before any write is the same read (recording.read_variable).
_CACHES = frozenset({"_last_read"})
_SKIPPED = (types.ModuleType, type, weakref.ref, types.BuiltinFunctionType)


def picture(*objects):
    """A comparable picture of everything ``objects`` hold (see the module docstring)."""
    seen = {}
    return [_picture(obj, seen) for obj in objects]


def _picture(obj, seen):
    if isinstance(obj, _PLAIN):
        return obj
    if isinstance(obj, float):
        return "nan" if math.isnan(obj) else obj
    if isinstance(obj, (np.generic, np.ndarray)):
        array = np.asarray(obj)
        if array.dtype.kind == "O":
            return ("array", array.shape, repr(array.tolist()))
        return ("array", array.dtype.str, array.shape, array.tobytes())
    if isinstance(obj, _SKIPPED):
        return ("ref", getattr(obj, "__qualname__", type(obj).__name__))
    if isinstance(obj, ek.Device):  # devices are fixed: their name says which
        return ("device", obj.name)
    key = id(obj)
    if key in seen:
        return ("seen", seen[key][0])
    seen[key] = (len(seen), obj)  # keeps obj alive: a dict made for one step keeps its id
    label = (type(obj).__name__, seen[key][0])
    if isinstance(obj, np.random.Generator):
        return (*label, repr(obj.bit_generator.state))
    if isinstance(obj, np.random.SeedSequence):
        return (*label, repr(obj.state))
    if isinstance(obj, ek.Tensor):  # a Variable's array is replaced on write: compare it
        extra = _picture(vars(obj) if hasattr(obj, "__dict__") else None, seen)
        slots = [_picture(getattr(obj, name, None), seen) for name in _slot_names(obj)]
        return (*label, _picture(obj._data, seen), slots, extra)
    if isinstance(obj, (list, tuple)):
        return (*label, [_picture(x, seen) for x in obj])
    if isinstance(obj, (set, frozenset)):
        return (*label, sorted(repr(_picture(x, seen)) for x in obj))
    if isinstance(obj, dict):
        items = [(repr(_picture(k, seen)), _picture(v, seen)) for k, v in obj.items()]
        return (*label, items)
    if isinstance(obj, (types.FunctionType, types.MethodType)):
        function = getattr(obj, "__func__", obj)
        cells = [_contents(c) for c in (function.__closure__ or ())]
        owner = _picture(getattr(obj, "__self__", None), seen)
        return (*label, function.__qualname__, _picture(cells, seen), owner)
    if hasattr(obj, "__dict__") or _slot_names(obj):
        attributes = (
            {k: v for k, v in vars(obj).items() if k not in _CACHES}
            if hasattr(obj, "__dict__")
            else {}
        )
        for name in _slot_names(obj):
            if hasattr(obj, name):
                attributes[name] = getattr(obj, name)
        return (*label, _picture(attributes, seen))
    return (*label, repr(obj))  # itertools.count and the like show their position in repr


def _slot_names(obj):
    names = [n for cls in type(obj).__mro__ for n in getattr(cls, "__slots__", ())]
    return [n for n in names if n != "__dict__" and n not in _CACHES]


def _contents(cell):
    try:
        return cell.cell_contents
    except ValueError:  # a cell not assigned yet
        return "<empty cell>"


def files(directory):
    """``{relative path: bytes}`` for every file under ``directory`` (hidden ones too)."""
    found = {}
    for root, _, names in os.walk(directory):
        for name in names:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                found[os.path.relpath(path, directory)] = f.read()
    return found


class _Disk:
    """Counts file-system changes; the ``fail_at``-th raises (once) as a full disk would."""

    def __init__(self, fail_at):
        self.fail_at, self.count, self.fired = fail_at, 0, False

    def step(self, what):
        self.count += 1
        if self.count == self.fail_at:
            self.fired = True
            raise OSError(errno.ENOSPC, f"No space left on device (simulated, at {what})")


# (os.link is left out: where it fails, a copy is made instead, by design; the copy's own
# writes are counted.)
_CHANGES = ("replace", "rename", "remove", "unlink", "fsync", "truncate", "makedirs")


@contextlib.contextmanager
def failing_disk(fail_at):
    """Inside, the ``fail_at``-th change to the file system raises ``OSError(ENOSPC)``:
    renames, removals, links, fsync, truncation, directory creation, and opening a file to
    write. Changes after that one succeed (a rollback must be able to run)."""
    disk = _Disk(fail_at)
    originals = {name: getattr(os, name) for name in _CHANGES}
    original_open = builtins.open

    def wrap(name):
        def changed(*args, **kwargs):
            disk.step(f"os.{name}")
            return originals[name](*args, **kwargs)

        return changed

    def opened(file, mode="r", *args, **kwargs):
        if any(flag in mode for flag in "wax+"):
            disk.step(f"open(mode={mode!r})")
        return original_open(file, mode, *args, **kwargs)

    original_os_open = os.open

    def opened_fd(path, flags, *args, **kwargs):  # tempfile.mkstemp creates files this way
        if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            disk.step("os.open")
        return original_os_open(path, flags, *args, **kwargs)

    try:
        for name in _CHANGES:
            setattr(os, name, wrap(name))
        builtins.open, os.open = opened, opened_fd
        yield disk
    finally:
        for name, function in originals.items():
            setattr(os, name, function)
        builtins.open, os.open = original_open, original_os_open


def every_disk_failure(call, observe):
    """Run ``call()`` with a failure at each file-system change in turn (the first, the
    second, ...) until it runs with none left to fail. Each run that raises must leave
    ``observe()`` as it was. A run may also succeed despite its failure, where the failing
    step was tidying up after the work was done (a leftover copy): the call then stands.

    Returns ``(failed, succeeded)``: how many runs raised, and how many calls took effect.
    """
    failed = succeeded = 0
    for fail_at in range(1, 1000):
        before = observe()
        with failing_disk(fail_at) as disk:
            try:
                call()
            except Exception as error:  # OSError, or the eagerkit error it became
                assert disk.fired, f"failed without the simulated full disk: {error!r}"
                after = observe()
                assert after == before, f"state changed when change {fail_at} failed ({error})"
                failed += 1
                continue
        succeeded += 1
        if not disk.fired:
            return failed, succeeded
    raise AssertionError("the call kept making file-system changes")

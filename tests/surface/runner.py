"""Making one call of an entry of the walk: its object, its arguments, and what came back.

An operator or protocol is made the way users make it (``x + y``, ``len(x)``, ``with tape:``,
``pickle.dumps(x)``), not by calling the dunder method, so what is judged is what they see.
"""

import contextlib
import copy
import inspect
import operator
import os
import pickle
import shutil
import signal
import tempfile
from dataclasses import dataclass

import numpy as np

import eagerkit as ek
from eagerkit import recording, summary
from eagerkit.train import global_step, tracking

from . import declare, verdict

SECONDS_PER_CALL = 20  # of CPU time: a loaded machine (or a slow first import) is no hang


def _binary(function):
    return lambda self, other: function(self, other), lambda self, other: function(other, self)


def _with(self, *exit_arguments):
    with self as entered:
        return entered


PROTOCOLS = {
    "__neg__": operator.neg,
    "__pos__": operator.pos,
    "__abs__": abs,
    "__invert__": operator.invert,
    "__getitem__": operator.getitem,
    "__contains__": operator.contains,
    "__len__": len,
    "__iter__": iter,
    "__next__": next,
    "__bool__": bool,
    "__float__": float,
    "__int__": int,
    "__index__": operator.index,
    "__hash__": hash,
    "__repr__": repr,
    "__str__": str,
    "__format__": format,
    "__array__": np.asarray,
    "__copy__": copy.copy,
    "__deepcopy__": lambda self: copy.deepcopy(self),
    "__reduce__": lambda self: pickle.loads(pickle.dumps(self)),
    "__enter__": _with,
    "__exit__": _with,
    "__call__": lambda self, *args, **kwargs: self(*args, **kwargs),
    "__setattr__": setattr,
}
for _name in "add sub mul truediv floordiv mod pow matmul and or xor".split():
    _function = getattr(operator, _name + "_" if _name in ("and", "or") else _name)
    PROTOCOLS[f"__{_name}__"], PROTOCOLS[f"__r{_name}__"] = _binary(_function)
for _name in "lt le gt ge eq ne".split():
    PROTOCOLS[f"__{_name}__"] = _binary(getattr(operator, _name))[0]


@dataclass
class Prepared:
    """One call ready to make: ``function(*args, **kwargs)``, and on what object."""

    function: object
    args: list
    kwargs: dict
    receiver: object = None
    parameters: tuple = ()  # the names of the parameters the positional arguments fill
    optional: tuple = ()  # parameters the call leaves at their defaults


class Surface:
    """The entries of the walk and their declared calls: makes any entry's call."""

    def __init__(self, entries, table):
        self.entries = entries  # name -> walk.Entry
        self.table = table  # name -> declare.Call

    def internal_names(self):
        """The names of eagerkit's internals: what no message may show (verdict.py)."""
        if not hasattr(self, "_internal"):
            public = {part for name in self.entries for part in name.replace("()", "").split(".")}
            public |= {alias for entry in self.entries.values() for alias in entry.aliases}
            self._internal = verdict.internal_names(public)
        return self._internal

    def prepare(self, name, receiver=None):
        """The declared valid call of entry ``name``, on ``receiver`` or a fresh object."""
        entry, declared = self.entries[name], self.table[name]
        if entry.kind in ("function", "class"):
            return _with_parameters(Prepared(entry.target, *declare.arguments(declared)))
        owner = _receiver_name(entry)
        if receiver is None:
            receiver = entry.target if _static(entry) else self.receiver(owner, declared)
        sample = self.table[owner].sample if owner in self.table else ()
        args, kwargs = declare.arguments(declared, sample)
        if entry.attribute in PROTOCOLS:
            protocol = PROTOCOLS[entry.attribute]
            return Prepared(lambda *a, **k: protocol(receiver, *a, **k), args, kwargs, receiver)
        function = receiver if entry.attribute is None else getattr(receiver, entry.attribute)
        return _with_parameters(Prepared(function, args, kwargs, receiver))

    def receiver(self, owner, declared=None):
        """A fresh object for a method: ``declared.on()``, or what its owner's call returns."""
        if declared is not None and declared.on is not None:
            return declared.on()
        return run(self.prepare(owner[:-2] if owner.endswith("()") else owner))


def _static(entry):
    member = inspect.getattr_static(entry.owner, entry.attribute, None)
    return isinstance(member, (staticmethod, classmethod))


def _receiver_name(entry):
    """The entry whose valid call makes the object ``entry`` is called on."""
    if entry.kind == "returned" and entry.attribute in (None, "__call__"):
        return entry.name[:-2]  # "ek.gradients_function()" is called on what that returned
    return entry.name.rsplit(".", 1)[0]


def _with_parameters(prepared):
    try:
        signature = inspect.signature(prepared.function)
    except (TypeError, ValueError):
        return prepared
    named = [
        p
        for p in signature.parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    ]
    positional = [p for p in named if p.kind is not p.KEYWORD_ONLY]  # (*args stops them)
    prepared.parameters = tuple(p.name for p in positional[: len(prepared.args)])
    prepared.optional = tuple(
        p.name
        for p in named[len(prepared.args) :]
        if p.default is not p.empty and p.name not in prepared.kwargs and p.name != "name"
    )
    return prepared


class Hung(BaseException):
    """A call used more than SECONDS_PER_CALL of CPU time."""


def _hung(signum, frame):
    raise Hung()


def run(prepared):
    """Make the call (seeded, so random answers repeat); a hang raises ``Hung``."""
    ek.random.set_seed(0)
    np.random.seed(0)
    previous = signal.signal(signal.SIGPROF, _hung)
    signal.setitimer(signal.ITIMER_PROF, SECONDS_PER_CALL)
    try:
        return prepared.function(*prepared.args, **prepared.kwargs)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


_DEFAULTS = {"writers": list(summary._writers), "step": global_step._global_step}


def reset_switches():
    """Put back what a successful call may switch for all that follow: the default summary
    writer, the global step, check_numerics, traceback filtering, the device policy."""
    summary._writers[:] = _DEFAULTS["writers"]
    global_step._global_step = _DEFAULTS["step"]
    ek.debugging.disable_check_numerics()
    ek.debugging.enable_traceback_filtering()
    ek.set_device_policy(ek.DEVICE_PLACEMENT_EXPLICIT)


@contextlib.contextmanager
def in_a_new_directory():
    """Work in a new, empty directory (removed after): the files a call writes are its own."""
    home = os.getcwd()
    path = tempfile.mkdtemp(dir=home)
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(home)
        shutil.rmtree(path, ignore_errors=True)


def state(objects):
    """What a failed call must leave as it was, as comparable plain values."""
    variables = {}
    for obj in objects:
        for variable in _variables_of(obj):
            variables[id(variable)] = (
                variable.dtype.name,
                variable.shape,
                np.asarray(variable.numpy()).tobytes(),
            )
    files = sorted(
        (os.path.join(root, f), os.path.getsize(os.path.join(root, f)))
        for root, _, names in os.walk(".")
        for f in names
    )
    engine = (len(recording.active_tapes), len(recording.graph_tracers))
    return variables, files, engine, tuple(recording.execution_callbacks)


def _variables_of(obj):
    if isinstance(obj, ek.Variable):
        return [obj]
    if obj is None or isinstance(obj, (int, float, str, bytes, ek.Tensor, np.ndarray)):
        return []
    owner = getattr(obj, "__self__", obj)  # a bound method: its instance
    try:
        return [v for _, v in tracking.walk(owner) if isinstance(v, ek.Variable)]
    except Exception:  # noqa: BLE001 - objects tracking cannot walk hold no variables
        return []


def changed(before, after):
    names = ("variables", "files", "tapes/tracers", "execution callbacks")
    return ", ".join(n for n, b, a in zip(names, before, after, strict=True) if b != a)

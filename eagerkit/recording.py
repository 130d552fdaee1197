"""Recording: the stack of active tapes, what one record holds, and how an op gets on a tape.

``dispatch`` calls ``record`` after an op ran while a tape was active; the op goes onto every
active tape that watches one of its inputs. A Variable among the inputs is recorded as a
read (``read_variable``), so a later ``assign`` cannot change what the gradient sees.
GradientTape (tape.py) is the user's side of the same lists.
"""

import contextlib

from eagerkit.tensor import Tensor

active_tapes = []  # the tapes recording now, innermost last; only this module changes it
graph_tracers = []  # ek.function's tracers while it traces (graph/trace.py), innermost last
NO_PARAMS = {}  # the params of every op called without any: one dict, never written to


class TapeRecord:
    """One recorded op: ``output = op(*inputs, **params)``.

    op : what ran: a primitive (registry.OpDef), a variable read (``READ_VARIABLE``) or a
        custom gradient; each gives its input gradients the same way (backprop.py).
    inputs : a tuple of Tensors, one per input the op took, as it took them: a Variable
        appears as its read (a Tensor holding the value read), a Python number as a constant.
    output : the Tensor the op returned.
    params : the op's other arguments (``axis=0``, ``shape=(2, 3)``) in a dict never written to.
    """

    __slots__ = ("op", "inputs", "output", "params")

    def __init__(self, op, inputs, output, params):
        self.op = op
        self.inputs = inputs
        self.output = output
        self.params = params

    def __repr__(self):
        shapes = ", ".join(str(x.shape) for x in self.inputs)
        return f"<TapeRecord {self.op.name}({shapes}) -> {self.output.shape}>"


class _ReadVariable:
    """The op recorded when a variable is read: its gradient passes straight on.

    The read holds the variable's array as it was, so an ``assign`` after the read does not
    change what the gradient is computed from.
    """

    name = "read_variable"
    differentiable = True

    def has_gradient(self, position):
        return True

    def input_gradients(self, ops, g, ans, inputs, params, wanted):
        return [g if wanted[0] else None]


READ_VARIABLE = _ReadVariable()


def any_tape_recording():
    """True inside the ``with`` block of some tape."""
    return bool(active_tapes)


def record(op, inputs, output, params):
    """Append ``op`` to every active tape that watches one of ``inputs`` (a tuple of Tensors)."""
    entry = None
    for tape in active_tapes:
        watched = tape._watched_ids
        for x in inputs:
            if id(x) in watched:
                break
        else:
            continue  # this tape watches none of the inputs
        if entry is None:
            entry = TapeRecord(op, inputs, output, params)
        tape._append(entry)


def recorded_inputs(inputs, arrays, device):
    """The inputs a record keeps: Tensors as they are, a variable's read, a constant's Tensor."""
    for x in inputs:
        if type(x) is not Tensor:  # a Variable or a Python value: record what the op used
            break
    else:
        return inputs
    kept = []
    for x, array in zip(inputs, arrays, strict=True):
        if isinstance(x, Tensor):
            kept.append(read_variable(x) if x._is_variable else x)
        else:
            kept.append(Tensor(array, device))  # a Python or numpy constant
    return tuple(kept)


def read_variable(variable, tapes=None):
    """The Tensor that stands for reading ``variable`` now, recorded on the tapes watching it.

    A variable read again before any assign is the same read: the tapes already hold it,
    so a loop that reads its weights at every step records each weight once.
    """
    key, value = id(variable), variable._data
    watching, held, fresh = [], None, True
    for tape in active_tapes if tapes is None else tapes:
        if key not in tape._watched_ids:
            if tape._watch_accessed and variable.trainable:
                tape._watch_one(variable, warn=False)
            if key not in tape._watched_ids:
                continue  # this tape does not watch the variable
        watching.append(tape)
        read = tape._reads.get(key)
        # Reusable only if every watching tape holds this same read of the current value.
        if read is None or read._data is not value or (held is not None and read is not held):
            fresh = False
        held = read
    if watching and fresh:
        return held
    snapshot = Tensor(value, variable._device)
    entry = TapeRecord(READ_VARIABLE, (variable,), snapshot, NO_PARAMS)
    for tape in watching:
        tape._reads[key] = snapshot
        tape._append(entry)
    return snapshot


@contextlib.contextmanager
def paused():
    """No tape records inside the block (``ek.function`` traces here, unseen by the caller's
    tapes); the same tapes record again afterwards."""
    suspended = active_tapes[:]
    active_tapes.clear()
    try:
        yield
    finally:
        active_tapes[:] = suspended

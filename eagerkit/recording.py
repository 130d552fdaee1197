"""Recording: who listens to the ops that run, and how an op gets on a tape (as a record:
tape_records.py says what one holds).

Three kinds of listener hear about each op after it ran: the active tapes (GradientTape),
``ek.function``'s graph tracers and execution callbacks (debugging.py). They come and go
only through the functions below, which keep two answers ready for fast_dispatch.py, read after
every op:

- ``on``: does anyone listen at all? When not, an op costs no recording work;
- ``sole_tape``: the one active tape when it is the only listener (the common case), or
  None. sole_tape.py records on it in one step; ``record`` here is the general path.

An op goes onto every active tape that watches one of its inputs. A Variable among the
inputs is recorded as a read (``read_variable``), so a later ``assign`` cannot change what
the gradient sees. GradientTape (tape.py) is the user's side of the same lists.
"""

import contextlib

from eagerkit.tape_records import (  # noqa: F401 - NO_PARAMS, TapeRecord, READ_VARIABLE: for readers
    NO_PARAMS,
    READ_VARIABLE,
    OneInputRecord,
    TapeRecord,
    make_record,
)
from eagerkit.tensor import Tensor

active_tapes = []  # the tapes recording now, innermost last
graph_tracers = []  # ek.function's tracers while it traces (graph/trace.py), innermost last
execution_callbacks = []  # f(op, inputs, output) after every op; see debugging.py
on = False  # someone listens: a tape, a tracer or a callback
sole_tape = None  # the only active tape, when no tracer and no callback listens either
tape_opened = []  # f(tape) as each tape's with-block begins (the widgets note source lines)


def _listeners_changed():
    global on, sole_tape
    on = bool(active_tapes or graph_tracers or execution_callbacks)
    alone = len(active_tapes) == 1 and not graph_tracers and not execution_callbacks
    sole_tape = active_tapes[0] if alone else None


def enter_tape(tape):
    """``GradientTape.__enter__``: the tape records from now on; it returns the tape.

    Written here, beside the answers it sets, so that a step's tape, the commonest (the
    only listener), starts in one call: ``tape._push()`` is the general path.
    """
    global on, sole_tape
    if tape._spent or active_tapes or graph_tracers or execution_callbacks or tape_opened:
        tape._push()  # push_tape(tape), or the error a spent tape raises
        return tape
    active_tapes.append(tape)
    on, sole_tape = True, tape  # _listeners_changed()'s answers for a lone tape
    tape._recording = True
    return tape


def exit_tape(tape, exc_type, exc_value, traceback):
    """``GradientTape.__exit__``: the tape stops recording (if it still does)."""
    global on, sole_tape
    if sole_tape is tape:  # the lone tape: nobody is left listening
        active_tapes.pop()
        on, sole_tape = False, None
        tape._recording = False
    elif tape._recording:
        tape._pop()


def push_tape(tape):
    """``tape`` records from now on (its ``with`` block begins)."""
    active_tapes.append(tape)
    for hook in tape_opened:  # usually none: once per with-block, never per op
        hook(tape)
    _listeners_changed()


def pop_tape(tape):
    """``tape`` stops recording."""
    active_tapes.remove(tape)
    _listeners_changed()


def push_tracer(tracer):
    """``tracer`` (graph/trace.py) sees every op from now on."""
    graph_tracers.append(tracer)
    _listeners_changed()


def pop_tracer():
    graph_tracers.pop()
    _listeners_changed()


def add_callback(callback):
    """Call ``callback(op, inputs, output)`` after every op."""
    execution_callbacks.append(callback)
    _listeners_changed()


def remove_callback(callback):
    execution_callbacks.remove(callback)
    _listeners_changed()


def any_tape_recording():
    """True inside the ``with`` block of some tape."""
    return bool(active_tapes)


def record(op, inputs, output, params):
    """Append ``op`` to every active tape that watches one of ``inputs`` (a tuple of Tensors)."""
    entry = None
    for tape in active_tapes:
        if tape._watches_any(inputs):
            if entry is None:
                entry = make_record(op, inputs, output, params)
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

    A variable read again before any assign is the same read (``variable._last_read``): the
    tapes already hold it, so a loop that reads its weights at every step records each
    weight once.
    """
    if tapes is None:
        read = reusable_read(variable)  # the common cases, in a few lines
        if read is not None:
            return read
    key, watching = id(variable), []
    for tape in active_tapes if tapes is None else tapes:
        if key not in tape._watched_by_id and tape._watch_accessed and variable.trainable:
            tape._watch_one(variable, warn=False)
        if key in tape._watched_by_id:
            watching.append(tape)
    read = variable._last_read
    # Reusable if it holds the current value (no assign since) and every watching tape has it.
    if read is not None and read._data is variable._data:
        if all(tape._watches(read) for tape in watching):
            return read
    read = variable._last_read = Tensor(variable._data, variable._device)
    if watching:
        entry = OneInputRecord(READ_VARIABLE, variable, read, NO_PARAMS)
        for tape in watching:
            tape._append(entry)
    return read


def reusable_read(variable):
    """``variable``'s latest read if it stands for reading it now with nothing to record,
    else None (then ``read_variable`` records a new one).

    The common cases, in a few lines: nobody records (any Tensor holding the value will do),
    the sole tape recorded this read already, or the sole tape does not watch the variable
    and will not (a frozen variable).
    """
    read = variable._last_read
    if read is None or read._data is not variable._data:  # never read, or assigned since
        if on:
            return None
        read = variable._last_read = Tensor(variable._data, variable._device)
        return read
    tape = sole_tape
    if not on or (tape is not None and read._recorded_by is tape._mark):
        return read
    if tape is not None and id(variable) not in tape._watched_by_id:
        if not (tape._watch_accessed and variable.trainable):
            return read  # the tape never watches it: there is nothing to record
    return None


@contextlib.contextmanager
def paused():
    """No tape records inside the block (``ek.function`` traces here, unseen by the caller's
    tapes); the same tapes record again afterwards."""
    suspended = active_tapes[:]
    active_tapes.clear()
    _listeners_changed()
    try:
        yield
    finally:
        active_tapes[:] = suspended
        _listeners_changed()

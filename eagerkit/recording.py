"""Recording: who listens to the ops that run, and how an op gets on a tape (as a record:
tape_records.py says what one holds).

Three kinds of listener hear about each op after it ran: the active tapes (GradientTape),
``ek.function``'s graph tracers and execution callbacks (debugging.py). They come and go
only through the functions below, which keep two answers ready for fast_dispatch.py, read after
every op:

- ``on``: does anyone listen at all? When not, an op costs no recording work;
- ``sole_tape``: the one active tape when it is the only listener (the common case), or
  None. ``record_on_sole_tape`` records on it in one step; ``record`` is the general path.

An op goes onto every active tape that watches one of its inputs. A Variable among the
inputs is recorded as a read (``read_variable``), so a later ``assign`` cannot change what
the gradient sees. GradientTape (tape.py) is the user's side of the same lists.
"""

import contextlib
from sys import getrefcount

from eagerkit.tape_records import (  # noqa: F401 - TapeRecord, READ_VARIABLE for readers
    READ_VARIABLE,
    OneInputRecord,
    TapeRecord,
    TwoInputRecord,
    make_record,
)
from eagerkit.tensor import Tensor

active_tapes = []  # the tapes recording now, innermost last
graph_tracers = []  # ek.function's tracers while it traces (graph/trace.py), innermost last
execution_callbacks = []  # f(op, inputs, output) after every op; see debugging.py
on = False  # someone listens: a tape, a tracer or a callback
sole_tape = None  # the only active tape, when no tracer and no callback listens either
tape_opened = []  # f(tape) as each tape's with-block begins (the widgets note source lines)
NO_PARAMS = {}  # the params of every op called without any: one dict, never written to
_new = object.__new__  # the fast paths below fill a record's slots without calling __init__


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


def record_on_sole_tape(op, inputs, output, params):
    """``record(op, inputs, output, params)`` when ``sole_tape`` is the only tape.

    The common case of a training loop, written out in one function: the inputs are Tensors
    (no Variable, no Python number: what ``recorded_inputs`` would keep as they are).
    tests/test_recording.py proves that it records what ``record`` records.
    """
    tape = sole_tape
    mark, watched = tape._mark, tape._watched_by_id
    for x in inputs:  # as tape._watches(x), for each input
        by = x._recorded_by
        if by is mark or id(x) in watched or (type(by) is tuple and mark in by):
            break
    else:
        return  # the tape watches none of the inputs
    if len(inputs) == 1:  # make_record(op, inputs, output, params), without __init__ calls
        entry = _new(OneInputRecord)
        entry.op, entry.x, entry.output, entry.params = op, inputs[0], output, params
    elif len(inputs) == 2:
        entry = _new(TwoInputRecord)
        entry.x, entry.y = inputs
        entry.op, entry.output, entry.params = op, output, params
    else:
        entry = TapeRecord(op, inputs, output, params)
    tape.records.append(entry)
    output._recorded_by = mark
    if tape._listeners:
        for listener in tape._listeners:
            listener.on_record(tape, entry)


def record_reads_on_sole_tape(op, inputs, arrays, output, params):
    """``recorded_inputs`` then ``record`` when ``sole_tape`` is the only listener, for an op
    whose inputs may be Variables or Python numbers (``x * w``, ``x * 0.5``).

    The same steps in the same order, in one function: a Variable becomes its read
    (``read_on_sole_tape``), a number the constant Tensor it was converted to, and the op
    goes on the tape if the tape watches one of them. tests/test_recording.py proves that it
    records what ``recorded_inputs`` and ``record`` record.
    """
    kept = []
    for x, array in zip(inputs, arrays, strict=True):
        if type(x) is Tensor:
            kept.append(x)
        elif isinstance(x, Tensor):
            kept.append(read_on_sole_tape(x) if x._is_variable else x)
        else:
            kept.append(Tensor(array, output._device))  # a Python or numpy constant
    record_on_sole_tape(op, tuple(kept), output, params)


def record_pair_on_sole_tape(op, x, y, a, b, output):
    """``record_reads_on_sole_tape(op, (x, y), (a, b), output, NO_PARAMS)`` written out for
    an op on two inputs without params (``x * w``, ``x * 0.5``, ``x @ w``): no list, no
    zip, no second call.

    The same steps in the same order: ``x`` then ``y`` becomes what the record keeps (a
    Tensor as it is, a Variable its read, a number the constant Tensor of its array), then
    the op goes on the tape if the tape watches one of them. tests/test_recording.py proves
    that it records what ``recorded_inputs`` and ``record`` record.
    """
    if type(x) is not Tensor:
        if isinstance(x, Tensor):
            x = read_on_sole_tape(x) if x._is_variable else x
        else:
            x = Tensor(a, output._device)  # a Python or numpy constant
    if type(y) is not Tensor:
        if isinstance(y, Tensor):
            y = read_on_sole_tape(y) if y._is_variable else y
        else:
            y = Tensor(b, output._device)
    tape = sole_tape
    mark, watched = tape._mark, tape._watched_by_id
    by = x._recorded_by  # as tape._watches(x) or tape._watches(y)
    if not (by is mark or id(x) in watched or (type(by) is tuple and mark in by)):
        by = y._recorded_by
        if not (by is mark or id(y) in watched or (type(by) is tuple and mark in by)):
            return  # the tape watches neither input
    entry = _new(TwoInputRecord)  # make_record(op, (x, y), output, NO_PARAMS), no __init__
    entry.op, entry.x, entry.y, entry.output, entry.params = op, x, y, output, NO_PARAMS
    tape.records.append(entry)
    output._recorded_by = mark
    if tape._listeners:
        for listener in tape._listeners:
            listener.on_record(tape, entry)


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


def read_on_sole_tape(variable):
    """``read_variable(variable)`` when ``sole_tape`` is the only listener, in one function.

    The same decisions: the tape starts watching a trainable float variable it reads (unless
    made with ``watch_accessed_variables=False``); the latest read is reused if it holds the
    current value and, when the tape watches the variable, the tape recorded it; otherwise a
    new read is made and, when watched, recorded. tests/test_recording.py proves it equal.

    One saving the general path does not make: a new read recorded on a fresh tape (each
    training step's) refills the variable's latest read instead of making another, when
    nothing but the variable holds it (``sys.getrefcount``: the tape that recorded it is
    gone). Nobody can tell the two apart, as numpy reuses a temporary nobody else holds.
    """
    tape, read, data = sole_tape, variable._last_read, variable._data
    mark = tape._mark
    if read is not None and read._data is data and read._recorded_by is mark:
        return read  # the commonest: this tape recorded this read already
    key, watched = id(variable), tape._watched_by_id
    if key in watched:
        if read is not None and read._data is data:
            by = read._recorded_by
            if id(read) in watched or (type(by) is tuple and mark in by):
                return read  # as tape._watches(read): this tape recorded this read already
    elif tape._watch_accessed and variable.trainable and data.dtype.kind in "fc":
        # The tape starts watching it (as tape._watch_one: floats and complex only). It
        # did not watch it before, so it recorded no read of it: a new read, recorded.
        watched[key] = variable  # which keeps it alive, so its id stays its own
    else:  # not watched: nothing to record, any read of the current value will do
        if read is None or read._data is not data:
            read = variable._last_read = Tensor(data, variable._device)
        return read
    # A new read: Tensor(data, device), slots filled without __init__. The latest read when
    # nothing else holds it (no record, no op: a tape that finished freed its records) is
    # refilled instead: the same as freeing it and making another, which nobody can tell.
    if read is None or getrefcount(read) != REFS_WHEN_UNSHARED:
        read = variable._last_read = _new(Tensor)
    read._data, read._device, read._recorded_by = data, variable._device, mark
    entry = _new(OneInputRecord)  # OneInputRecord(READ_VARIABLE, ...), without __init__
    entry.op, entry.x, entry.output, entry.params = READ_VARIABLE, variable, read, NO_PARAMS
    tape.records.append(entry)  # as tape._append, for an output no other tape marked
    if tape._listeners:
        for listener in tape._listeners:
            listener.on_record(tape, entry)
    return read


def _refs_of_an_unshared_read():
    """What ``sys.getrefcount`` says, in read_on_sole_tape, of a read that its variable
    alone holds: counted once, with the same steps (each Python counts its own temporary
    references; 3 in CPython 3.11: the slot, the local name, the call's argument)."""

    class Holder:
        __slots__ = ("_last_read",)

    variable = Holder()
    variable._last_read = object()
    read = variable._last_read
    return getrefcount(read)


REFS_WHEN_UNSHARED = _refs_of_an_unshared_read()


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

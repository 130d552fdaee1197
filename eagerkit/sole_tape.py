"""Recording on the sole tape: the fast paths of recording.py for its commonest case.

In a training step one tape records and nobody else listens (no ``ek.function`` trace, no
execution callback): ``recording.sole_tape`` is that tape. fast_dispatch.py hands it each
op it ran, and the functions here put the op on it in one call, with the same decisions in
the same order as the general path (``recording.recorded_inputs`` then
``recording.record``, and ``recording.read_variable`` for a Variable), written out: no
loop over tapes, no tuple of inputs where there are two, records filled without
``__init__``. tests/test_recording.py proves that each records what the general path
records, for every mix of tensors, variables (trainable or not, watched or not) and
Python numbers.
"""

from sys import getrefcount

from eagerkit.recording import NO_PARAMS
from eagerkit.tape_records import READ_VARIABLE, OneInputRecord, TapeRecord, TwoInputRecord
from eagerkit.tensor import Tensor

_new = object.__new__  # records and reads get their slots filled without calling __init__


def record(tape, op, inputs, output, params):
    """``recording.record(op, inputs, output, params)`` when ``tape`` is the sole tape and
    the inputs are Tensors (no Variable, no Python number: what ``recorded_inputs`` keeps as
    they are)."""
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
    elif len(inputs) == 2 and not params:
        entry = _new(TwoInputRecord)
        entry.x, entry.y = inputs
        entry.op, entry.output = op, output
    else:
        entry = TapeRecord(op, inputs, output, params)
    tape.records.append(entry)
    output._recorded_by = mark
    if tape._listeners:
        for listener in tape._listeners:
            listener.on_record(tape, entry)


def record_reads(tape, op, inputs, arrays, output, params):
    """``recorded_inputs`` then ``record`` on the sole tape, for an op whose inputs may be
    Variables or Python numbers: a Variable becomes its read (``read``), a number the
    constant Tensor it was converted to, and the op goes on the tape if the tape watches
    one of them."""
    kept = []
    for x, array in zip(inputs, arrays, strict=True):
        if type(x) is Tensor:
            kept.append(x)
        elif isinstance(x, Tensor):
            kept.append(read(tape, x) if x._is_variable else x)
        else:
            kept.append(Tensor(array, output._device))  # a Python or numpy constant
    record(tape, op, tuple(kept), output, params)


def record_pair(tape, op, x, y, a, b, output):
    """``record_reads(tape, op, (x, y), (a, b), output, NO_PARAMS)`` written out for an op
    on two inputs without params (``x * w``, ``x * 0.5``, ``x @ w``): no list, no zip, no
    second call. ``a`` and ``b`` are the arrays the op computed with."""
    if type(x) is not Tensor:
        if isinstance(x, Tensor):
            x = read(tape, x) if x._is_variable else x
        else:
            x = Tensor(a, output._device)  # a Python or numpy constant
    if type(y) is not Tensor:
        if isinstance(y, Tensor):
            y = read(tape, y) if y._is_variable else y
        else:
            y = Tensor(b, output._device)
    mark, watched = tape._mark, tape._watched_by_id
    by = x._recorded_by  # as tape._watches(x) or tape._watches(y)
    if not (by is mark or id(x) in watched or (type(by) is tuple and mark in by)):
        by = y._recorded_by
        if not (by is mark or id(y) in watched or (type(by) is tuple and mark in by)):
            return  # the tape watches neither input
    entry = _new(TwoInputRecord)  # make_record(op, (x, y), output, NO_PARAMS), no __init__
    entry.op, entry.x, entry.y, entry.output = op, x, y, output
    tape.records.append(entry)
    output._recorded_by = mark
    if tape._listeners:
        for listener in tape._listeners:
            listener.on_record(tape, entry)


def read(tape, variable):
    """``recording.read_variable(variable)`` when ``tape`` is the sole tape, in one function.

    The same decisions: the tape starts watching a trainable float variable it reads (unless
    made with ``watch_accessed_variables=False``); the latest read is reused if it holds the
    current value and, when the tape watches the variable, the tape recorded it; otherwise a
    new read is made and, when watched, recorded.

    One saving the general path does not make: a new read recorded on a fresh tape (each
    training step's) refills the variable's latest read instead of making another, when
    nothing but the variable holds it (``sys.getrefcount``: the tape that recorded it is
    gone). Nobody can tell the two apart, as numpy reuses a temporary nobody else holds.
    """
    latest, data = variable._last_read, variable._data
    mark = tape._mark
    if latest is not None and latest._data is data and latest._recorded_by is mark:
        return latest  # the commonest: this tape recorded this read already
    key, watched = id(variable), tape._watched_by_id
    if key in watched:
        if latest is not None and latest._data is data:
            by = latest._recorded_by
            if id(latest) in watched or (type(by) is tuple and mark in by):
                return latest  # as tape._watches(latest): this tape recorded this read already
    elif tape._watch_accessed and variable.trainable and data.dtype.kind in "fc":
        # The tape starts watching it (as tape._watch_one: floats and complex only). It
        # did not watch it before, so it recorded no read of it: a new read, recorded.
        watched[key] = variable  # which keeps it alive, so its id stays its own
    else:  # not watched: nothing to record, any read of the current value will do
        if latest is None or latest._data is not data:
            latest = variable._last_read = Tensor(data, variable._device)
        return latest
    # A new read: Tensor(data, device), slots filled without __init__. The latest read when
    # nothing else holds it (no record, no op: a tape that finished freed its records) is
    # refilled instead: the same as freeing it and making another, which nobody can tell.
    if latest is None or getrefcount(latest) != REFS_WHEN_UNSHARED:
        latest = variable._last_read = _new(Tensor)
    latest._data, latest._device, latest._recorded_by = data, variable._device, mark
    entry = _new(OneInputRecord)  # OneInputRecord(READ_VARIABLE, ...), without __init__
    entry.op, entry.x, entry.output, entry.params = READ_VARIABLE, variable, latest, NO_PARAMS
    tape.records.append(entry)  # as tape._append, for an output no other tape marked
    if tape._listeners:
        for listener in tape._listeners:
            listener.on_record(tape, entry)
    return latest


def _refs_of_an_unshared_read():
    """What ``sys.getrefcount`` says, in ``read``, of a read that its variable alone holds:
    counted once, with the same steps (each Python counts its own temporary references; 3
    in CPython 3.11: the slot, the local name, the call's argument)."""

    class Holder:
        __slots__ = ("_last_read",)

    variable = Holder()
    variable._last_read = object()
    latest = variable._last_read
    return getrefcount(latest)


REFS_WHEN_UNSHARED = _refs_of_an_unshared_read()

"""Why is a gradient None? The evidence a tape keeps, read in order of certainty.

The tape knows what it recorded, what it watched, and where ``stop_recording`` paused it
(``tape.paused_at``). From that:

- ``integer``: the source is not a float: certain.
- ``not_trainable`` / ``not_watched``: nobody watched the source: certain.
- ``integer_path`` / ``no_gradient_op``: the source reaches the target only through an
  integer tensor (a cast, an argmax) or an input that has no VJP: certain.
- ``numpy``: a value computed from the source came back into the tape as a constant that
  shares its memory (``ek.constant(np.asarray(h))``) or holds its very values, dtype and
  shape (``ek.constant(h.numpy())``: ``numpy()`` copies, as TF's): near certain when we see
  it. A value changed by numpy on the way (``np.exp(h.numpy())``) leaves no trace, so we
  cannot see it.
- ``stop_recording``: the source is not connected and the tape was paused: very likely.
- ``branch``: no recorded op used the source at all: a branch that did not run, or a use
  outside the ``with`` block.
- ``not_connected``: anything else; we say what we know and do not guess.
"""

import numpy as np

from eagerkit.tape import READ_VARIABLE


def explain_none(source, targets, records, watched_ids, paused, name):
    """``(code, text)``: why ``source`` got no gradient from ``targets`` on this tape.

    Examples
    --------
    >>> import eagerkit as ek
    >>> x = ek.constant(2.0)
    >>> with ek.GradientTape(persistent=True) as tape:
    ...     y = x * x
    >>> explain_none(x, [y], tape.records, set(), [], lambda t: "x")[0]
    'not_watched'
    """
    n = name(source)
    if not source.dtype.is_floating:
        return "integer", (
            f"{n} is {source.dtype.name}: gradients flow only through floating-point tensors "
            f"(write 3.0, not 3, or use ek.cast({n}, ek.float32))"
        )
    if source._is_variable and not source.trainable:
        return "not_trainable", f"{n} is a variable with trainable=False, so no tape watches it"
    produced = {id(r.output) for r in records}
    if id(source) not in watched_ids and id(source) not in produced:
        if source._is_variable:
            return "not_watched", f"the tape never watched {n}: it was not read inside the tape"
        return "not_watched", (
            f"{n} is a constant the tape did not watch: call tape.watch({n}) inside the "
            "with-block (only trainable variables are watched for you)"
        )
    t = name(targets[0]) if targets else "the target"
    reached, blocker = _reach(source, records)
    if any(id(target) in reached for target in targets):
        record, dead_end = blocker
        if not record.output.dtype.is_floating:
            return "integer_path", (
                f"the path from {n} to {t} goes through {name(record.output)} "
                f"({record.output.dtype.name}, made by {record.op.name}): gradients stop "
                "at integer tensors"
            )
        return "no_gradient_op", (
            f"the path from {n} to {t} goes through {record.op.name}, which has no "
            f"gradient for its input {name(dead_end)}"
        )
    escaped = _escaped_through_numpy(reached, records, watched_ids, produced)
    if escaped is not None:
        return "numpy", (
            f"the value of {name(escaped)} left the tape through numpy ({name(escaped)}."
            "numpy()) and came back as a constant, so the tape cannot trace it back to " + n
        )
    used = any(id(x) == id(source) for r in records for x in r.inputs)
    if paused:
        return "stop_recording", (
            f"{t} does not depend on {n} through recorded ops, and the tape was paused with "
            "stop_recording(): ops run there are not recorded"
        )
    if not used:
        return "branch", (
            f"no recorded op used {n}: it was not used while the tape recorded "
            "(a branch that did not run?)"
        )
    if not any(id(target) in produced for target in targets):
        return "not_connected", (
            f"{t} was not made by an op this tape recorded (computed outside the with-block, "
            "or from a value that left the tape through numpy)"
        )
    return "not_connected", f"{t} does not depend on {n} through the recorded ops"


def _reach(source, records):
    """Ids reachable from ``source`` along records, and the first record gradients stop at."""
    reached = {id(source)}
    flows = {id(source)}  # reachable along float tensors and ops with a VJP
    blocker = None
    for record in records:
        hits = [k for k, x in enumerate(record.inputs) if id(x) in reached]
        if not hits:
            continue
        reached.add(id(record.output))
        live = [k for k in hits if id(record.inputs[k]) in flows]
        if not live:
            continue
        passes = [k for k in live if record.op.has_gradient(k)]
        if passes and record.output.dtype.is_floating:
            flows.add(id(record.output))
        elif blocker is None:
            blocker = (record, record.inputs[live[0]])
    if blocker is None:  # reached without a dead end: only a dtype can explain it
        blocker = (records[-1], source)
    return reached, blocker


def _escaped_through_numpy(reached, records, watched_ids, produced):
    """A reached tensor whose array a recorded op took back in as an untracked constant."""
    arrays = {}
    for record in records:
        for x in record.inputs:
            if id(x) in reached:
                arrays[id(x)] = x
        if id(record.output) in reached:
            arrays[id(record.output)] = record.output
    for record in records:
        if record.op is READ_VARIABLE:
            continue
        for x in record.inputs:
            if id(x) in produced or id(x) in watched_ids or not isinstance(x._data, np.ndarray):
                continue
            for tensor in arrays.values():
                if _same_array(tensor._data, x._data):
                    return tensor
    return None


def _same_array(data, constant):
    """Whether ``constant`` is ``data`` come back: its memory, or a copy of it (an array, not
    a scalar, of the same dtype, shape and values, which a coincidence rarely gives)."""
    if not isinstance(data, np.ndarray):
        return False
    if np.may_share_memory(data, constant):
        return True
    return (
        data.ndim > 0
        and data.dtype == constant.dtype
        and data.shape == constant.shape
        and np.array_equal(data, constant)
    )

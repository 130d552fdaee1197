"""Calling a primitive op, the reference path: convert the inputs, run the forward, wrap
the answer, record it.

``call`` is the whole story, in four lines, and every op could run through it alone. The
public function of an op (``ek.multiply``) is built in fast_dispatch.py: it takes the common
case (Tensors of one dtype on one ordinary device) in a few lines and hands everything else
to ``call``, which converts or explains. tests/test_dispatch.py proves the two alike.

Two more things happen in exactly one place each:

- ``op_error`` turns what converting the inputs or running the kernel raised (a numpy error,
  or an eagerkit one) into the error the user sees: an eagerkit error naming the op, the
  shapes and the dtypes (op_errors.py words it), with eagerkit's own frames left out of the
  traceback (boundary.py);
- ``anyone_recording`` asks whether a tape, an ``ek.function`` trace or an execution
  callback wants to hear about the op that just ran (the fast functions read the same
  answer, ``recording.on``, without a call). When none does, an op costs no tape work.
"""

from eagerkit import boundary, op_errors, operands, recording
from eagerkit.errors import OpError
from eagerkit.recording import NO_PARAMS
from eagerkit.tensor import Tensor

# What a kernel raises on input it cannot take (AttributeError: a Python object where an
# array belongs); op_error turns each into an eagerkit error.
KERNEL_ERRORS = (ValueError, TypeError, LookupError, AttributeError, ArithmeticError, MemoryError)


def call(op, inputs, params):
    """Run ``op`` on ``inputs`` eagerly (the reference path): convert, forward, wrap, record."""
    if op.nin is not None and len(inputs) < op.nin:  # before a dtype is guessed from none
        raise boundary.user_error(op_errors.missing_inputs(op, inputs))
    try:
        # inputs may come back changed: a tensor copied from another device (silent policy).
        arrays, device, inputs = operands.to_arrays(op, inputs)
        data = op.forward(device.xp, *arrays, **params)
    except (OpError, *KERNEL_ERRORS) as error:
        outcome = boundary.symbolic_fallback(op.call, op.name, inputs, params, error)
        if not isinstance(outcome, BaseException):
            return outcome  # given a KerasTensor: a node of a functional model
        shown = op_error(op, inputs, outcome, params)
        if recording.graph_tracers:  # inside ek.function: maybe an op nothing needs
            return deferred(op, inputs, params, shown)
        try:
            raise shown from shown.__cause__
        finally:
            del shown, outcome  # its traceback holds this frame: a cycle, until gc ran
    output = Tensor(data, device)
    if anyone_recording():
        after(op, inputs, arrays, output, params)
    return output


def deferred(op, inputs, params, shown):
    """Inside ek.function, a call that failed with ``shown``: the trace goes on with a
    stand-in (graph/deferred.py), since TF never runs an op that nothing needs."""
    from eagerkit.graph.deferred import record_failed

    return record_failed(recording.graph_tracers[-1], op, inputs, params, shown)


def op_error(op, inputs, error, params=NO_PARAMS):
    """The error the user sees when converting ``inputs`` or running ``op`` raised ``error``."""
    if not isinstance(error, OpError):  # numpy's terse words: say which op, shapes, dtypes
        return boundary.user_error(op_errors.explain(op, inputs, error, params), cause=error)
    if op.name not in error.message:  # from a conversion inside: say which op it was for
        error.message = f"{op.name}: {error.message}"
        error.args = (error.message,)
    return boundary.user_error(error)


def anyone_recording():
    """True when a tape, a graph trace or an execution callback wants to see each op."""
    return recording.on


def after(op, inputs, arrays, output, params):
    """Tell whoever is recording that ``output = op(*inputs, **params)`` ran."""
    params = params or NO_PARAMS  # one shared empty dict: records stay small
    if recording.graph_tracers:  # ek.function is tracing: its graph gets the op as called
        recording.graph_tracers[-1].record(op, inputs, arrays, output, params)
    if recording.active_tapes and op.differentiable:
        inputs = recording.recorded_inputs(inputs, arrays, output._device)
        recording.record(op, inputs, output, params)
    for callback in recording.execution_callbacks:
        callback(op, inputs, output)


def inputs_by_keyword(op, inputs, params):
    """Inputs passed by keyword (``ek.ceil(x=3)``, as TF allows) moved into ``inputs``."""
    given = list(inputs)
    for input_name in op.input_names[len(inputs) :]:
        if input_name not in params:
            break
        given.append(params.pop(input_name))
    return tuple(given), params


def reference_function(op):
    """The public function of ``op``: every call goes through ``call``."""

    def function(*inputs, name=None, **params):
        if op.nin is not None and len(inputs) > op.nin:
            inputs, params = op.by_name(inputs, params)
        elif params and op.nin is not None and len(inputs) < op.nin:
            inputs, params = inputs_by_keyword(op, inputs, params)
        return call(op, inputs, params)

    return function

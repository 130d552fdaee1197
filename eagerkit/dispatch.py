"""Calling a primitive op: convert the inputs, run the forward, wrap the answer, record it.

``call`` is the whole story, in four lines, and every op could run through it alone. It is
the reference. ``fast_function`` builds the public function of an op (``ek.multiply``) that
takes the common case (Tensors of one dtype on one ordinary device, perhaps with a Python
number beside them) without the general conversion, and hands everything else to ``call``.
tests/test_dispatch.py proves that both give the same answers and the same errors.

Two more things happen in exactly one place each:

- ``op_error`` turns what converting the inputs or running the kernel raised (a numpy error,
  or an eagerkit one) into the error the user sees: an eagerkit error naming the op, the
  shapes and the dtypes (op_errors.py words it), with eagerkit's own frames left out of the
  traceback (boundary.py);
- ``anyone_recording`` asks whether a tape, an ``ek.function`` trace or an execution
  callback wants to hear about the op that just ran. When none does, an op costs no tape
  work at all.
"""

from eagerkit import boundary, op_errors, operands, recording
from eagerkit.errors import OpError
from eagerkit.tensor import Tensor

execution_callbacks = []  # f(op, inputs, output) after every op; see debugging.py
# What a kernel raises on input it cannot take (AttributeError: a Python object where an
# array belongs); op_error turns each into an eagerkit error.
_KERNEL_ERRORS = (ValueError, TypeError, LookupError, AttributeError, ArithmeticError, MemoryError)


def call(op, inputs, params):
    """Run ``op`` on ``inputs`` eagerly (the reference path): convert, forward, wrap, record."""
    try:
        # inputs may come back changed: a tensor copied from another device (silent policy).
        arrays, device, inputs = operands.to_arrays(op, inputs)
        data = op.forward(device.xp, *arrays, **params)
    except (OpError, *_KERNEL_ERRORS) as error:
        shown = op_error(op, inputs, error)
        raise shown from shown.__cause__
    output = Tensor(data, device)
    if anyone_recording():
        after(op, inputs, arrays, output, params)
    return output


def op_error(op, inputs, error):
    """The error the user sees when converting ``inputs`` or running ``op`` raised ``error``."""
    if not isinstance(error, OpError):  # numpy's terse words: say which op, shapes, dtypes
        return boundary.user_error(op_errors.explain(op, inputs, error), cause=error)
    return boundary.user_error(error)  # already an eagerkit error that names the op


def anyone_recording():
    """True when a tape, a graph trace or an execution callback wants to see each op."""
    return bool(recording.active_tapes or recording.graph_tracers or execution_callbacks)


def after(op, inputs, arrays, output, params):
    """Tell whoever is recording that ``output = op(*inputs, **params)`` ran."""
    params = params or recording.NO_PARAMS  # one shared empty dict: records stay small
    if recording.graph_tracers:  # ek.function is tracing: its graph gets the op as called
        recording.graph_tracers[-1].record(op, inputs, arrays, output, params)
    if recording.active_tapes and op.differentiable:
        inputs = recording.recorded_inputs(inputs, arrays, output._device)
        recording.record(op, inputs, output, params)
    for callback in execution_callbacks:
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


def fast_function(op):
    """The public function of ``op``, with the common case taken in a few lines.

    The common case: every input a Tensor or Variable of one dtype on one unrestricted
    device, or a Python number that fits that dtype (``x * 3.0``). These few lines are the
    per-op cost of eager execution, so they do no more than check, compute, wrap and ask
    whether anyone records. Anything else (lists, numpy arrays, mixed dtypes or devices, a
    dtype without a kernel) goes to ``call``, which converts or explains.
    """
    forward, allowed, nin, new = op.forward, op.dtypes, op.nin, object.__new__

    def function(*inputs, name=None, **params):
        if nin is not None and len(inputs) > nin:
            inputs, params = op.by_name(inputs, params)
        elif params and nin is not None and len(inputs) < nin:
            inputs, params = inputs_by_keyword(op, inputs, params)
        first = inputs[0] if inputs else None
        if type(first) is Tensor and len(inputs) == 1:  # one Tensor: the commonest case
            arrays, device = (first._data,), first._device
        elif (  # two Tensors of one dtype on one device: the next commonest
            len(inputs) == 2
            and type(first) is Tensor
            and type(inputs[1]) is Tensor
            and inputs[1]._device is first._device
            and inputs[1]._data.dtype == first._data.dtype
        ):
            arrays, device = (first._data, inputs[1]._data), first._device
        else:
            found = operands.fast_operands(inputs)
            if found is None:
                return call(op, inputs, params)
            arrays, device = found
        if device.restricted or arrays[0].dtype not in allowed:
            return call(op, inputs, params)  # the reference path checks and explains
        try:
            data = forward(device.xp, *arrays, **params)
        except (OpError, *_KERNEL_ERRORS) as error:  # raised here: one eagerkit frame shown
            shown = op_error(op, inputs, error)
            raise shown from shown.__cause__
        output = new(Tensor)
        output._data, output._device = data, device
        if anyone_recording():
            after(op, inputs, arrays, output, params)
        return output

    return function

"""The public function of each primitive op: the common case in a few lines, the rest to
``dispatch.call``.

The per-op cost of eager execution lives in this file, as fast_sweep.py holds the per-record
cost of a gradient. ``public_function`` gives each op the fastest of four functions that fits
it, each of which takes the common case (Tensors of one dtype on one ordinary device) without
the general conversion and hands everything else to ``dispatch.call``, the reference path:

- ``fast_function`` for any op (it also takes a Python number beside a tensor, ``x * 3.0``);
- ``unary_function`` / ``binary_function`` for ops on ``(x)`` or ``(x, y)`` alone, the
  commonest of all, which take their inputs by name instead of packing them;
- ``mixed_function`` for ops on inputs of several dtypes (logits beside int labels).

tests/test_dispatch.py proves that every one of them gives the answers and the errors that
``dispatch.call`` gives.
"""

import inspect

from eagerkit import dispatch, operands, recording, sole_tape
from eagerkit.dispatch import KERNEL_ERRORS, inputs_by_keyword
from eagerkit.errors import OpError
from eagerkit.recording import NO_PARAMS
from eagerkit.tensor import Tensor

# The Variable class: variables.py (which imports this module) sets it once defined. The
# fast paths tell a Variable by its type, quicker than isinstance(x, Tensor) and x._is_variable.
Variable = None


def fast_function(op):
    """The public function of ``op``, with the common case taken in a few lines.

    The common case: every input a Tensor or Variable of one dtype on one unrestricted
    device, or a Python number that fits that dtype (``x * 3.0``). These few lines are the
    per-op cost of eager execution, so they do no more than check, compute, wrap and ask
    whether anyone records. Anything else (lists, numpy arrays, mixed dtypes or devices, a
    dtype without a kernel) goes to ``dispatch.call``, which converts or explains.
    """
    forward, allowed, nin, new = op.forward, op.dtypes, op.nin, object.__new__
    differentiable, op_name = op.differentiable, op.name

    def function(*inputs, name=None, **params):
        if nin is not None and len(inputs) > nin:
            inputs, params = op.by_name(inputs, params)
        elif params and nin is not None and len(inputs) < nin:
            inputs, params = inputs_by_keyword(op, inputs, params)
        first, plain = inputs[0] if inputs else None, True  # plain: Tensors only
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
                return dispatch.call(op, inputs, params)
            arrays, device = found
            plain = False  # Variables or Python numbers: the record needs what they stood for
        dtype = arrays[0].dtype
        if dtype not in allowed or (device.restricted and not device.supports(op_name, dtype)):
            return dispatch.call(op, inputs, params)  # the reference path checks and explains
        try:
            data = forward(device.xp, *arrays, **params)
        except (OpError, *KERNEL_ERRORS) as error:  # raised here: one eagerkit frame shown
            shown = dispatch.op_error(op, inputs, error, params)
            if recording.graph_tracers:  # inside ek.function: maybe an op nothing needs
                return dispatch.deferred(op, inputs, params, shown)
            try:
                raise shown from shown.__cause__
            finally:
                del shown  # its traceback holds this frame: a cycle, until gc ran
        output = new(Tensor)
        output._data, output._device, output._recorded_by = data, device, None
        if recording.on:
            tape = recording.sole_tape
            if differentiable and tape is not None:
                if plain:
                    sole_tape.record(tape, op, inputs, output, params or NO_PARAMS)
                elif len(inputs) == 2 and not params:  # x @ w: the two-input recording
                    x, y = inputs
                    sole_tape.record_pair(tape, op, x, y, *arrays, output)
                else:  # Variables or Python numbers: what they stood for is recorded
                    sole_tape.record_reads(tape, op, inputs, arrays, output, params or NO_PARAMS)
            else:
                dispatch.after(op, inputs, arrays, output, params)
        return output

    return function


def mixed_function(op):
    """The public function of an op whose inputs are of several dtypes (``op.dtype_args``:
    float logits beside int labels, values beside indices), with the common case taken here.

    The common case: every input a Tensor on one unrestricted device, and the inputs in
    ``op.dtype_args`` of one dtype that the op has a kernel for (the others, the indices,
    are the kernel's to check). Anything else goes to ``dispatch.call``, which converts or
    explains.
    """
    forward, allowed, shared, nin = op.forward, op.dtypes, op.dtype_args, op.nin
    differentiable, new = op.differentiable, object.__new__

    def function(*inputs, name=None, **params):
        if nin is not None and len(inputs) > nin:
            inputs, params = op.by_name(inputs, params)
        elif params and nin is not None and len(inputs) < nin:
            inputs, params = inputs_by_keyword(op, inputs, params)
        device = inputs[0]._device if inputs and type(inputs[0]) is Tensor else None
        # A GPU lacks a few kernels (device.kernels: integer matmul): those ops take the
        # reference path there, which says so; every other op is computed here.
        if device is None or (device.restricted and op.name in device.kernels):
            return dispatch.call(op, inputs, params)
        for x in inputs:
            if type(x) is not Tensor or x._device is not device:
                return dispatch.call(op, inputs, params)
        if shared:  # as op_errors.check_shared: one dtype in the group, with a kernel
            dtype = inputs[shared[0]]._data.dtype
            if dtype not in allowed or any(inputs[i]._data.dtype != dtype for i in shared):
                return dispatch.call(op, inputs, params)
        arrays = [x._data for x in inputs]
        try:
            data = forward(device.xp, *arrays, **params)
        except (OpError, *KERNEL_ERRORS) as error:
            shown = dispatch.op_error(op, inputs, error, params)
            if recording.graph_tracers:  # inside ek.function: maybe an op nothing needs
                return dispatch.deferred(op, inputs, params, shown)
            try:
                raise shown from shown.__cause__
            finally:
                del shown  # (a cycle otherwise: see above)
        output = new(Tensor)
        output._data, output._device, output._recorded_by = data, device, None
        if recording.on:
            tape = recording.sole_tape
            if differentiable and tape is not None:
                sole_tape.record(tape, op, inputs, output, params or NO_PARAMS)
            else:
                dispatch.after(op, inputs, arrays, output, params)
        return output

    return function


_MISSING = object()  # an input not given: the general path says which one is missing


def unary_function(op):
    """The public function of an op on one tensor ``x`` and nothing else (``ek.tanh``).

    ``fast_function``'s common case with the input taken by name: no tuple of inputs and no
    dict of params is built unless someone records. A Variable stands in for its latest
    read (``_with_reads``); anything else goes to ``fast_function``.
    """
    general = fast_function(op)
    forward, allowed, new, differentiable = op.forward, op.dtypes, object.__new__, op.differentiable
    op_name = op.name

    def function(x=_MISSING, name=None, *more, **params):
        if type(x) is Tensor and not (more or params):
            device, a = x._device, x._data
            # On a GPU (restricted: a few kernels missing) the op's own kernel is asked for.
            if a.dtype in allowed and (not device.restricted or device.supports(op_name, a.dtype)):
                try:
                    data = forward(device.xp, a)
                except (OpError, *KERNEL_ERRORS) as error:
                    shown = dispatch.op_error(op, (x,), error)
                    try:
                        raise shown from shown.__cause__
                    finally:
                        del shown  # (a cycle otherwise: see above)
                output = new(Tensor)
                output._data, output._device, output._recorded_by = data, device, None
                if recording.on:
                    tape = recording.sole_tape
                    if differentiable and tape is not None:
                        sole_tape.record(tape, op, (x,), output, NO_PARAMS)
                    else:
                        dispatch.after(op, (x,), (a,), output, NO_PARAMS)
                return output
        if more or params or x is _MISSING:
            return _as_called(general, op, (x,), name, more, params)
        if _is_variable(x):
            return _with_reads(function, general, (x,))
        return general(x)

    return function


def binary_function(op):
    """The public function of an op on two tensors ``(x, y)`` and nothing else (``ek.add``).

    As ``unary_function``: two Tensors or Variables (``x * w``) of one dtype on one
    unrestricted device are computed here, a Python float beside one of them (``x * 0.5``)
    next, and anything else (a list, two dtypes, an op's options such as ``transpose_a``)
    goes to ``fast_function``. A Variable is recorded as its read (``sole_tape.record_pair``).
    """
    general = fast_function(op)
    forward, allowed, new, differentiable = op.forward, op.dtypes, object.__new__, op.differentiable
    op_name = op.name

    def function(x=_MISSING, y=_MISSING, name=None, *more, **params):
        kind_x, kind_y = type(x), type(y)
        if (
            (kind_x is Tensor or kind_x is Variable)
            and (kind_y is Tensor or kind_y is Variable)
            and not (more or params)
        ):
            device, a, b = x._device, x._data, y._data
            dtype = a.dtype
            # ``is``: numpy shares one dtype object per type; any other goes the long way
            same = b.dtype is dtype and y._device is device
            kernel = not device.restricted or device.supports(op_name, dtype)
            if same and dtype in allowed and kernel:
                try:
                    data = forward(device.xp, a, b)
                except (OpError, *KERNEL_ERRORS) as error:
                    if recording.graph_tracers and (kind_x is Variable or kind_y is Variable):
                        return general(x, y)  # inside ek.function: its rules for failed ops
                    shown = dispatch.op_error(op, (x, y), error)
                    try:
                        raise shown from shown.__cause__
                    finally:
                        del shown  # (a cycle otherwise: see above)
                output = new(Tensor)
                output._data, output._device, output._recorded_by = data, device, None
                if recording.on:
                    tape = recording.sole_tape
                    if differentiable and tape is not None:
                        sole_tape.record_pair(tape, op, x, y, a, b, output)
                    else:
                        dispatch.after(op, (x, y), (a, b), output, NO_PARAMS)
                return output
        if more or params or x is _MISSING or y is _MISSING:
            return _as_called(general, op, (x, y), name, more, params)
        output = beside_number(x, y)
        return general(x, y) if output is None else output

    def beside_number(x, y):
        """The next commonest case, ``x * 0.5`` or ``0.5 * x``, or None.

        A Tensor or Variable beside a Python float, which takes a float tensor's dtype
        (TF's rule). None leaves the call to ``general`` (other kinds of Tensor, such as
        ``ek.function``'s graph tensors, included).
        """
        if (type(x) is Tensor or type(x) is Variable) and type(y) is float:
            device, a = x._device, x._data
            dtype = a.dtype
            b = dtype.type(y)
        elif type(x) is float and (type(y) is Tensor or type(y) is Variable):
            device, b = y._device, y._data
            dtype = b.dtype
            a = dtype.type(x)
        else:
            return None
        if dtype.kind != "f" or dtype not in allowed:
            return None
        if device.restricted and not device.supports(op_name, dtype):
            return None
        try:
            data = forward(device.xp, a, b)
        except (OpError, *KERNEL_ERRORS) as error:
            if recording.graph_tracers:  # inside ek.function: its rules for failed ops
                return None  # (``general`` runs the op again and applies them)
            shown = dispatch.op_error(op, (x, y), error)
            try:
                raise shown from shown.__cause__
            finally:
                del shown  # (a cycle otherwise: see above)
        output = new(Tensor)
        output._data, output._device, output._recorded_by = data, device, None
        if recording.on:
            tape = recording.sole_tape
            if differentiable and tape is not None:
                sole_tape.record_pair(tape, op, x, y, a, b, output)
            else:
                dispatch.after(op, (x, y), (a, b), output, NO_PARAMS)
        return output

    return function


def _is_variable(x):
    return isinstance(x, Tensor) and x._is_variable  # no import of variables.py: it imports us


def _with_reads(function, general, inputs):
    """``function`` called again with each Variable among ``inputs`` replaced by its latest
    read, when that needs no new record (``recording.reusable_read``); else ``general``,
    which records the new read after the op ran."""
    reads = []
    for x in inputs:
        if _is_variable(x):
            x = recording.reusable_read(x)
            if x is None:
                return general(*inputs)
        reads.append(x)
    return function(*reads)


def _as_called(general, op, inputs, name, more, params):
    """The call as the user made it, handed to ``general`` (which explains what is wrong)."""
    if more:  # more positional arguments than the op takes
        return general(*inputs, name, *more, **params)
    if all(x is not _MISSING for x in inputs):
        return general(*inputs, name=name, **params)
    # Some input was given by keyword (ek.add(x=1, y=2)), or not at all.
    given = {n: x for n, x in zip(op.input_names, inputs, strict=True) if x is not _MISSING}
    return general(name=name, **given, **params)


def public_function(op):
    """The function ``ek.<op>`` is: the fastest of the functions above that fits the op."""
    if op.dtype_args is not None:  # inputs of several dtypes (indices beside values)
        return mixed_function(op)
    parameters = list(inspect.signature(op.forward).parameters.values())[1:]  # after xp
    arguments = tuple(p.name for p in parameters)
    if arguments == ("x",):  # no params at all, not even keyword-only ones
        return unary_function(op)
    if arguments == ("x", "y") or _two_inputs_then_options(op, parameters):
        return binary_function(op)
    return fast_function(op)


def _two_inputs_then_options(op, parameters):
    """Two tensor inputs, then only keyword-only params with defaults (``matmul(a, b, *,
    transpose_a=False, ...)``): ``a @ b`` is the commonest call, without any, which
    ``binary_function`` takes by name; a call with options goes on to ``fast_function``."""
    options = parameters[2:]
    return op.nin == 2 and all(
        p.kind is p.KEYWORD_ONLY and p.default is not p.empty for p in options
    )

"""An op's inputs as arrays: TF's conversion rules, applied before a kernel runs.

``fast_operands`` takes the common case in a few lines (Tensors of one dtype on one
device, Python numbers beside them); ``to_arrays`` handles everything else, and says
clearly what is wrong when the inputs do not fit together.
"""

import numpy as np

from eagerkit import autopacking, dtypes, op_errors
from eagerkit.devices import current_device
from eagerkit.errors import InvalidArgumentError
from eagerkit.tensor import Tensor, to_array

# For each dtype, the Python ints it holds exactly (-limit <= x < limit) on the fast path;
# float32 holds every whole number only up to 2**24, others go the general path.
_EXACT_INT_LIMIT = {
    np.dtype("int32"): 2**31,
    np.dtype("int64"): 2**31,
    np.dtype("float64"): 2**31,
    np.dtype("float32"): 2**24 + 1,
}


def fast_operands(inputs):
    """``(arrays, device)`` for the common case, or None to take the general path.

    The common case: Tensors and Variables on one device, all of one dtype, and Python
    numbers that fit that dtype (``x * 3`` on a float tensor). Whether the device has a
    kernel for the op and dtype is the caller's to ask (``Device.supports``).
    """
    reference = inputs[0] if inputs else None
    if not isinstance(reference, Tensor):  # a Tensor or a Variable (read as it is)
        if len(inputs) != 2 or not isinstance(inputs[1], Tensor):
            return None
        reference = inputs[1]  # 3 * x
    device = reference._device
    np_dtype = reference._data.dtype
    arrays = []
    for x in inputs:
        if isinstance(x, Tensor):
            if x._device is not device or x._data.dtype != np_dtype:
                return None
            arrays.append(x._data)
        elif (type(x) is float and np_dtype.kind == "f") or (
            type(x) is int and -(limit := _EXACT_INT_LIMIT.get(np_dtype, 0)) <= x < limit
        ):
            arrays.append(np_dtype.type(x))  # a Python number takes the tensor's dtype (TF)
        else:
            return None
    return arrays, device


def to_arrays(op, inputs):
    """Inputs as arrays on one device, converted by TF's rules; checks dtypes and kernels.

    Returns ``(arrays, device, inputs)``: ``inputs`` changes when a tensor on another device
    was copied over (the "silent" device policy), or a list holding tensors was packed into
    one (autopacking.py), so the copy or the packed tensor is what gets recorded.
    """
    if any(isinstance(x, (list, tuple)) for x in inputs):  # [x * x, x]: TF stacks it
        inputs = autopacking.packed_inputs(op.name, inputs)
    shared = range(len(inputs)) if op.dtype_args is None else op.dtype_args
    reference = next((inputs[i] for i in shared if isinstance(inputs[i], Tensor)), None)
    if reference is None:
        reference = next((x for x in inputs if isinstance(x, Tensor)), None)
        device = reference._device if reference is not None else current_device()
        np_dtype = _joint_dtype([inputs[i] for i in shared])
    else:
        device, np_dtype = reference._device, reference._data.dtype
    arrays = []
    for i, x in enumerate(inputs):
        in_group = i in shared
        if isinstance(x, Tensor):
            if x._device is not device:
                x = _resolve_device(op, i, x, device)  # raises, or copies (recorded)
                inputs = inputs[:i] + (x,) + inputs[i + 1 :]
            if in_group and x._data.dtype != np_dtype:
                raise op_errors.dtype_mismatch(op, inputs, i, np_dtype, x._data.dtype)
            arrays.append(x._data)
        else:
            wanted = np_dtype if in_group else dtypes.default_numpy_dtype(x)
            if wanted.kind in "fc" and type(x) is not float:
                _refuse_rounded_ints(op, x, wanted)
            arrays.append(to_array(x, wanted, device, op.name))
    if op.dtype_args is None:
        op_errors.check_kernel(op, np_dtype, device)
    else:
        op_errors.check_shared(op, inputs, [a.dtype for a in arrays], device)
    return arrays, device, inputs


def _refuse_rounded_ints(op, value, np_float):
    """Integers (an int, a numpy int array) beside a float tensor must keep their values:
    TF rounds 16777217 to 16777216.0 in float32 silently; eagerkit refuses, as it refuses
    1.5 beside an int tensor."""
    changed = dtypes.first_inexact_int(value, np_float)
    if changed is not None:
        name = np_float.name
        with np.errstate(over="ignore"):  # float16(65535) is inf: say so, without a warning
            becomes = float(np_float.type(changed).real)
        wider = "a complex128 tensor" if np_float.kind == "c" else "a float64 tensor"
        if name in ("float64", "complex128"):
            wider = "int64 tensors"
        raise InvalidArgumentError(
            f"{op.name}: the integer {changed} (in the {type(value).__name__} beside a {name} "
            f"tensor) would become {becomes!r} as {name}, which holds every whole number only "
            f"up to 2**{np.finfo(np_float).nmant + 1}. Compute with {wider}, or convert the "
            f"value yourself to accept the rounding: np.asarray(value, np.{name})",
            op=op.name,
        )


def _joint_dtype(values):
    """The dtype TF would give several Python/numpy values meeting in one op."""
    for x in values:  # a numpy array decides for the Python values beside it
        if isinstance(x, (np.ndarray, np.generic)):
            return x.dtype
    found = [dtypes.default_numpy_dtype(x) for x in values]
    for kind in ("f", "i", "b"):
        for d in found:
            if d.kind == kind:
                return d
    return found[0] if found else np.dtype(np.float32)


def _resolve_device(op, position, tensor, device):
    from eagerkit import devices

    return devices.resolve_conflict(op.name, position, tensor, device)

"""The errors an op call can end in, worded to say what went wrong and how to fix it.

Each names the op, the dtypes, shapes or devices involved, and the fix. Dispatch
(registry.py) calls these only on its slow path or after something failed, so their
wording can be as helpful as it needs to be.
"""

import inspect
import re

import numpy as np

from eagerkit import arguments, binding, dtypes, errors
from eagerkit.errors import InvalidArgumentError, NotFoundError


def check_shared(op, inputs, np_dtypes, device):
    """Inputs in ``op.dtype_args`` share one dtype, which the op and device must support."""
    group = op.dtype_args
    if group:
        first = np_dtypes[group[0]]
        for i in group[1:]:
            if np_dtypes[i] != first:
                raise dtype_mismatch(op, inputs, i, first, np_dtypes[i])
        check_kernel(op, first, device)


def check_kernel(op, np_dtype, device):
    """Fail before running when neither the op nor the device has a kernel for this dtype."""
    if np_dtype in op.dtypes and (not device.restricted or device.supports(op.name, np_dtype)):
        return
    wanted = sorted(dtypes.from_numpy(d).name for d in op.dtypes)
    dtype = dtypes.from_numpy(np_dtype).name
    if np_dtype not in op.dtypes:
        if dtype == "string":  # text is parsed, not cast
            fix = "Convert the input first, e.g. ek.strings.to_number(x) to read numbers."
        elif wanted == ["string"]:
            fix = "Convert the input first, e.g. ek.strings.as_string(x) to format numbers."
        else:
            fix = _lossless_cast_hint(np_dtype, wanted)
        raise InvalidArgumentError(
            f"{op.name}: no kernel for dtype {dtype} (it accepts {', '.join(wanted)}). {fix}",
            op=op.name,
        )
    allowed = sorted(dtypes.from_numpy(d).name for d in device.kernels.get(op.name, ()))
    raise NotFoundError(
        f"No registered '{op.name}' kernel for {device.name} with dtype {dtype}. "
        f"On {device.name} '{op.name}' runs on: {', '.join(allowed) or 'no dtype at all'}. "
        f"{device.kernel_notes.get(op.name, '')} "
        f"Cast the input to one of those, or move it to the CPU first with x.cpu().",
        op=op.name,
    )


def _lossless_cast_hint(np_dtype, wanted):
    """Suggest a cast only to a dtype that holds every value (never float to int)."""
    lossless = [
        name
        for name in wanted
        if name != "string"
        and dtypes.casts_without_loss(np_dtype, dtypes.as_dtype(name).as_numpy_dtype)
    ]
    if lossless:
        target = "float32" if "float32" in lossless else lossless[0]
        return f"Cast the input first, e.g. ek.cast(x, ek.{target})."
    dtype = dtypes.from_numpy(np_dtype).name
    return f"Pass {' or '.join(wanted)} values; a cast from {dtype} would lose data."


def dtype_mismatch(op, inputs, position, expected, got):
    """Two inputs of ``op`` that must share a dtype do not (TF never converts silently)."""
    shapes = ", ".join(str(getattr(x, "shape", ())) for x in inputs)
    expected_name = dtypes.from_numpy(expected).name
    got_name = dtypes.from_numpy(got).name
    if "string" in (expected_name, got_name):  # (numpy would cast any number to text)
        fix = "turn text into numbers first, e.g. with ek.strings.to_number(x)"
    elif dtypes.casts_without_loss(got, expected):
        fix = f"cast input #{position}, e.g. ek.cast(x, ek.{expected_name})"
    elif dtypes.casts_without_loss(expected, got):
        fix = f"cast the other inputs, e.g. ek.cast(x, ek.{got_name})"
    else:
        fix = "make both inputs one dtype that holds the values of both"
    return InvalidArgumentError(
        f"cannot compute {op.name} as input #{position}(zero-based) was expected to be a "
        f"{expected_name} tensor but is a {got_name} tensor (input shapes: {shapes}). "
        f"eagerkit never mixes dtypes silently: {fix}.",
        op=op.name,
    )


def explain(op, values, error, params=None):
    """Turn a numpy error into one that names the op, shapes and dtypes, in our words."""
    described = ", ".join(_described(v) for v in values)
    message = _missing_input(op, values, error) or _blamed(op, params, error) or str(error)
    if message.startswith(f"{op.name}: "):  # the converter named the op already
        message = message[len(op.name) + 2 :]
    hint = ""
    shapes = [tuple(v.shape) for v in values if isinstance(v, np.ndarray) or _is_tensor(v)]
    if "a non-scalar to a scalar" in message and shapes:  # np.broadcast_to(x, ()): as below
        message = f"could not broadcast input array from shape {shapes[0]} into shape ()"
    # numpy's words: "could not be broadcast" (ufuncs), "cannot be broadcast" (broadcast_shapes)
    if any(w in message for w in ("could not be broadcast", "could not broadcast", "cannot be b")):
        message = _not_broadcastable(shapes) or _broadcast_to(message) or message
        hint = (
            " Shapes broadcast when, aligned from the right, each pair of sizes is equal "
            "or one of them is 1; reshape or ek.expand_dims one input to line them up."
        )
    if isinstance(error, MemoryError):
        message = out_of_memory(message)
    if isinstance(error, np.exceptions.AxisError):  # a ValueError, but an IndexError too
        rank = error.ndim
        message = (
            f"axis {error.axis} is out of range for a tensor of rank {rank} "
            f"(valid axes: {-rank} to {rank - 1})"
        )
        error = ValueError(message)
    if "of an empty sequence" in message:  # numpy's argmax/argmin along an axis of size 0
        message = (
            "the axis searched has no values (size 0), so there is no index to return; give "
            "a tensor with at least one value along axis"
        )
    kind = errors.converted_class(type(error))  # InvalidArgumentError, and still a TypeError...
    return kind(f"{op.name}: {message} (inputs: {described}).{hint}", op=op.name)


def missing_inputs(op, values):
    """``add needs the inputs (x, y); y is missing``: an op called with too few inputs."""
    described = ", ".join(_described(v) for v in values)  # as explain() says it
    return InvalidArgumentError(
        f"{op.name}: {_missing_input(op, values)} (inputs: {described}).", op=op.name
    )


def _missing_input(op, values, error=None):
    """``add needs the inputs (x, y); y is missing``, not Python's ``add() missing 1
    required positional argument``."""
    if not isinstance(error, (TypeError, type(None))) or op.nin is None or len(values) >= op.nin:
        return None
    missing = ", ".join(op.input_names[len(values) :])
    return (
        f"it needs the inputs ({', '.join(op.input_names)}); {missing} is missing: pass {missing}"
    )


def _blamed(op, params, error):
    """The parameter to blame (``keepdims=np.float32``), when one stands out."""
    if not params:
        return None
    defaults = {n: p.default for n, p in inspect.signature(op.forward).parameters.items()}
    return binding.blame_values(params, defaults, error)


def reworded(message):
    """A numpy message that escaped a library call, in our words where we have them: shapes
    that do not broadcast or reshape, and what to do."""
    shapes = [
        tuple(int(n) for n in found.replace(" ", "").split(",") if n)
        for found in re.findall(r"\(([\d, ]*)\)", message)
    ]
    if "could not be broadcast" in message and len(shapes) >= 2:
        return f"{_not_broadcastable(shapes) or message}; make the shapes line up from the right"
    reshape = re.search(r"cannot reshape array of size (\d+) into shape (\(.*?\))", message)
    if reshape:
        return (
            f"cannot reshape {reshape.group(1)} elements into shape {reshape.group(2)}: the "
            "number of elements must stay the same; check the shapes of the inputs"
        )
    return message


def _not_broadcastable(shapes):
    """``shapes (2, 3) and (2,) do not broadcast: their last axes have sizes 3 and 2``."""
    for right in range(1, max((len(s) for s in shapes), default=0) + 1):
        sizes = {s[-right] for s in shapes if len(s) >= right} - {1}
        if len(sizes) > 1:
            listed = " and ".join(str(s) for s in shapes)
            axis = {1: "last axes", 2: "second-to-last axes"}.get(right, f"axes {-right}")
            found = " and ".join(str(n) for n in sorted(sizes))
            return f"shapes {listed} do not broadcast: their {axis} have sizes {found}"
    return None


def out_of_memory(message):
    """numpy's ``Unable to allocate 8 PiB for an array with shape (...) and data type ...``,
    in words that say what to do."""
    found = re.search(
        r"allocate ([\d.]+ \w+) for an array with shape (\(.*?\)) and data type (\w+)", message
    )
    if found is None:
        return "not enough memory for the result; use smaller tensors"
    size, shape, dtype = found.groups()
    return (
        f"the result, a {dtype} tensor of shape {shape}, needs {size}: more memory than is "
        "free; use smaller tensors"
    )


def _broadcast_to(message):
    """numpy's ``could not broadcast input array from shape (3,) into shape (2,2)``, ours."""
    found = re.findall(r"\(([\d, ]*)\)", message)
    if len(found) < 2:
        return None
    source, target = (tuple(int(n) for n in s.replace(" ", "").split(",") if n) for s in found[-2:])
    return f"cannot broadcast a tensor of shape {source} to shape {target}"


def _is_tensor(value):
    return hasattr(value, "_data") and hasattr(value, "_device")


def _described(value):
    """``float32(2, 3)`` for an array (or Tensor), a few words for anything else."""
    if isinstance(value, np.ndarray) or _is_tensor(value):
        return f"{value.dtype.name}{tuple(value.shape)}"
    return arguments.describe(value)


def does_not_fit(op_name, value, expected):
    """A Python integer too big for the dtype it is converted to (it would wrap around)."""
    return InvalidArgumentError(
        f"{op_name}: the integer value {value!r} does not fit in {expected.name} and would "
        f"wrap around; use a wider dtype, e.g. ek.cast(x, ek.int64) first.",
        op=op_name,
    )


def value_dtype_mismatch(op_name, got, expected, value=None):
    """A value of one dtype given where another is needed (TF never converts silently).

    TF raises TypeError for a value that does not fit a dtype (``tf.constant(1.5,
    tf.int32)``) and ValueError for a tensor of another dtype (``tf.convert_to_tensor``):
    the class here is both, and eagerkit's InvalidArgumentError.
    """
    shown = f" {value!r}" if value is not None else ""
    cast = (
        f"Use ek.cast(x, ek.{expected.name}) or write"
        if dtypes.casts_without_loss(got.as_numpy_dtype, expected.as_numpy_dtype)
        else "Write"  # a cast would lose data (1.5 to an int): never suggest one
    )
    return errors.converted_class(TypeError)(
        f"{op_name}: expected {_article(expected.name)} value but got "
        f"{_article(got.name)} one{shown}; eagerkit does not convert between dtypes silently. "
        f"{cast} the value with the dtype you mean (3.0 for a float, 3 for an int).",
        op=op_name,
    )


def _article(name):
    return ("an " if name[0] in "aeiou" else "a ") + name

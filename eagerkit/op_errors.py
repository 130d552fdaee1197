"""The errors an op call can end in, worded to say what went wrong and how to fix it.

Each names the op, the dtypes, shapes or devices involved, and the fix. Dispatch
(registry.py) calls these only on its slow path or after something failed, so their
wording can be as helpful as it needs to be.
"""

from eagerkit import dtypes
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
        fix = f"ek.cast(x, ek.{wanted[-1] if 'float32' not in wanted else 'float32'})"
        if dtype == "string":  # text is parsed, not cast
            fix = "ek.strings.to_number(x) to read numbers from text"
        elif wanted == ["string"]:
            fix = "ek.strings.as_string(x) to format numbers as text"
        raise InvalidArgumentError(
            f"{op.name}: no kernel for dtype {dtype} (it accepts {', '.join(wanted)}). "
            f"Convert the input first, e.g. {fix}.",
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


def dtype_mismatch(op, inputs, position, expected, got):
    """Two inputs of ``op`` that must share a dtype do not (TF never converts silently)."""
    shapes = ", ".join(str(getattr(x, "shape", ())) for x in inputs)
    expected_name = dtypes.from_numpy(expected).name
    got_name = dtypes.from_numpy(got).name
    return InvalidArgumentError(
        f"cannot compute {op.name} as input #{position}(zero-based) was expected to be a "
        f"{expected_name} tensor but is a {got_name} tensor (input shapes: {shapes}). "
        f"eagerkit never mixes dtypes silently: cast one side, "
        f"e.g. ek.cast(x, ek.{expected_name}).",
        op=op.name,
    )


def explain(op, arrays, error):
    """Turn a numpy error into one that names the op, shapes and dtypes."""
    described = ", ".join(f"{a.dtype}{tuple(a.shape)}" for a in arrays)
    message = str(error)
    hint = ""
    if "broadcast" in message:
        hint = (
            " Shapes broadcast when, aligned from the right, each pair of sizes is equal "
            "or one of them is 1; reshape or ek.expand_dims one input to line them up."
        )
    return InvalidArgumentError(f"{op.name}: {message} (inputs: {described}).{hint}", op=op.name)

"""A list of tensors given where a tensor belongs becomes one tensor, made by ``ek.stack``.

TF calls this auto-packing: ``tf.reduce_sum([x * x, x])`` or ``tf.convert_to_tensor([x, y])``
stacks the list with the Pack op, so the tape records the packing and every element gets its
gradient. Converting the list with numpy instead would give the same numbers but cut the
tape: the gradient would silently be None.

A list of plain numbers needs no op: numpy converts it directly (``tensor.to_array``, the
fast path), and tests/test_autopacking.py proves that both paths give the same tensor.
"""

from eagerkit import dtypes
from eagerkit.errors import InvalidArgumentError
from eagerkit.tensor import Tensor, to_array


def holds_tensor(value):
    """Whether ``value`` is a list or tuple with a Tensor (or Variable) somewhere inside."""
    return isinstance(value, (list, tuple)) and any(
        isinstance(v, Tensor) or holds_tensor(v) for v in value
    )


def pack(value, op_name, dtype=None):
    """``value``, a (nested) list or tuple holding tensors, as one tensor made by ``ek.stack``
    (recorded, so gradients reach each element), on the elements' device.

    The plain numbers beside the tensors take the tensors' dtype (or ``dtype``), as in TF.

    Examples
    --------
    >>> import eagerkit as ek
    >>> x = ek.Variable(2.0)
    >>> with ek.GradientTape() as tape:
    ...     y = ek.reduce_sum([x * x, x])  # packed: [4.0, 2.0]
    >>> float(tape.gradient(y, x))  # 2x + 1
    5.0
    """
    from eagerkit.ops.shape import stack  # ops are built on Tensor: imported when used

    first = _first_tensor(value)
    np_dtype = first._data.dtype if dtype is None else dtypes.as_dtype(dtype).as_numpy_dtype
    elements = _converted(value, np_dtype, first._device, op_name)
    # Checked in full before the first ek.stack, so a list that cannot be packed records
    # nothing on the tapes watching (its inner lists would otherwise be stacked already).
    _, packed_dtype = _packed_form(elements, op_name)
    if dtype is not None and packed_dtype != dtypes.as_dtype(dtype):
        from eagerkit import op_errors

        wanted = dtypes.as_dtype(dtype)  # TF refuses a tensor of another dtype too
        raise op_errors.value_dtype_mismatch(op_name, packed_dtype, wanted)
    return _stacked(elements, stack)


def packed_inputs(op_name, inputs):
    """An op's ``inputs`` with each list or tuple that holds tensors packed into one."""
    return tuple(pack(x, op_name) if holds_tensor(x) else x for x in inputs)


def _first_tensor(value):
    for v in value:
        if isinstance(v, Tensor):
            return v
        if holds_tensor(v):
            return _first_tensor(v)
    raise AssertionError("pack is only given lists that hold a tensor")


def _converted(value, np_dtype, device, op_name):
    """``value`` with its plain numbers made tensors (the tensors' dtype, on their device)
    and its inner lists kept as lists: nothing is stacked, so nothing is recorded yet."""
    if isinstance(value, Tensor):
        return value
    if holds_tensor(value):
        return [_converted(v, np_dtype, device, op_name) for v in value]
    return Tensor(to_array(value, np_dtype, device, op_name), device)


def _packed_form(elements, op_name):
    """The ``(shape, dtype)`` that stacking ``elements`` (a tensor, or nested lists of them)
    gives, or the error that says which elements differ."""
    if isinstance(elements, Tensor):
        return tuple(elements.shape), elements.dtype
    forms = [_packed_form(element, op_name) for element in elements]
    _check_alike(forms, op_name)
    shape, dtype = forms[0]
    return (len(forms), *shape), dtype


def _stacked(elements, stack):
    if isinstance(elements, Tensor):
        return elements
    return stack([_stacked(element, stack) for element in elements])


def _check_alike(forms, op_name):
    """Stacking needs one dtype and one shape: say which elements differ, in the call's
    words (the list was given to ``op_name``, not to ek.stack)."""
    (first_shape, first_dtype) = forms[0]
    for i, (shape, dtype) in enumerate(forms[1:], start=1):
        if dtype != first_dtype:
            raise InvalidArgumentError(
                f"{op_name}: the list given holds tensors of dtypes {first_dtype.name} "
                f"(element 0) and {dtype.name} (element {i}); a list of tensors is "
                "packed into one tensor (as ek.stack does), so its elements need one dtype: "
                "cast them to one with ek.cast",
                op=op_name,
            )
        if shape != first_shape:
            raise InvalidArgumentError(
                f"{op_name}: the list given holds tensors of shapes {list(first_shape)} "
                f"(element 0) and {list(shape)} (element {i}); a list of tensors is "
                "packed into one tensor (as ek.stack does), so its elements need one shape: "
                "pad them to one shape, join them with ek.concat, or make a ragged tensor",
                op=op_name,
            )

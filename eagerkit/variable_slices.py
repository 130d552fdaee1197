"""Assigning into part of a variable: ``v[1:].assign([7.0, 8.0])``, TF's sliced assignment.

``v[key]`` reads part of the variable: a ``getitem`` op on the variable, recorded on tapes
like any read (so it stays differentiable). As in TF, the tensor it gives also remembers
where it came from, and its ``assign`` writes a value of the slice's shape (and the
variable's dtype) into that part of the variable, returning the variable. ``assign_add``
and ``assign_sub`` do the same with ``+=`` and ``-=`` (TF's slices have only ``assign``).
The write replaces the variable's array, as every assign does, so tensors read earlier,
the slice itself included, keep their values.

Eagerly the slice is a ``VariableSlice``, a Tensor subclass: every op takes it, through its
general path (the engine's fast paths test ``type(x) is Tensor``; plain tensors and
variables keep them). Inside ``ek.function`` the slice is the trace's own tensor, which the
tracer remembers as a slice of the variable (graph/trace.py, graph/graph_tensor.py); its
assign is a graph node that runs at every call (graph/effects.py), with the index read at
every call when it is a tensor (``v[i].assign(x)`` in a loop).
"""

from eagerkit import dispatch, recording
from eagerkit.errors import InvalidArgumentError, OpError, UnimplementedError
from eagerkit.ops.indexing import _basic_key, _getitem, getitem
from eagerkit.tensor import Tensor

METHODS = ("assign", "assign_add", "assign_sub")
_GETITEM = _getitem.op


class VariableSlice(Tensor):
    """``variable[key]``: a tensor holding that part of the variable, which can write it back.

    Examples
    --------
    >>> import eagerkit as ek
    >>> v = ek.Variable([[1.0, 2.0], [3.0, 4.0]])
    >>> _ = v[:, 1].assign_add([10.0, 20.0])
    >>> v.numpy()
    array([[ 1., 12.],
           [ 3., 24.]], dtype=float32)
    """

    __slots__ = ("_variable", "_key")  # made by slice_of, never called by users

    def assign(self, value, name=None):
        """Write ``value`` (the slice's shape) into this part of the variable; returns the
        variable, as TF's sliced assignment does."""
        return assign_part(self._variable, self._key, value, "assign")

    def assign_add(self, delta, name=None):
        """Add ``delta`` (the slice's shape) to this part of the variable; returns it."""
        return assign_part(self._variable, self._key, delta, "assign_add")

    def assign_sub(self, delta, name=None):
        """Subtract ``delta`` (the slice's shape) from this part of the variable; returns it."""
        return assign_part(self._variable, self._key, delta, "assign_sub")


def slice_of(variable, key):
    """``variable[key]``: a VariableSlice eagerly, the trace's tensor inside ek.function."""
    if recording.graph_tracers:
        part = getitem(variable, key)
        recording.graph_tracers[-1].note_variable_slice(part, variable, key)
        return part
    plain = _basic_key(key, variable.shape)  # the errors any tensor's t[key] gives
    try:
        data = _GETITEM.forward(variable._device.xp, variable._data, key=plain)
    except InvalidArgumentError:  # an index out of range: the op's own call words it
        return getitem(variable, key)
    part = object.__new__(VariableSlice)
    part._data, part._device, part._recorded_by = data, variable._device, None
    part._variable, part._key = variable, plain
    if recording.on:  # the op as dispatch records it: a read of the variable, then getitem
        dispatch.after(_GETITEM, (variable,), (variable._data,), part, {"key": plain})
    return part


def assign_part(variable, key, value, method):
    """``variable[key].<method>(value)``: checked, then written (or, inside ek.function,
    recorded in the graph); returns the variable. A bad value changes nothing."""
    if recording.graph_tracers:
        from eagerkit.graph.effects import traced_assign_part

        traced_assign_part(recording.graph_tracers[-1], variable, key, method, value)
        return variable
    write_part(variable, key, variable_value(variable, key, value, method), method)
    return variable


def variable_value(variable, key, value, method):
    """``value`` as an array of the variable's dtype shaped as ``variable[key]``, or TF's
    error for a slice it does not fit (TF never broadcasts into a slice)."""
    what = f"{method} into the slice [{key_text(key)}]"
    try:
        array = variable._converted(value, what)  # the variable's dtype and device
    except OpError as error:
        if what in error.message:
            raise
        raise type(error)(
            f"{what} of variable '{variable.name}': {error.message}", op=method
        ) from None
    sliced = variable._data[key].shape
    if array.shape != sliced and 0 not in sliced:  # TF checks only a slice with elements
        given = "value" if method == "assign" else "delta"  # the parameter's name
        raise UnimplementedError(
            f"{what} of variable '{variable.name}' (shape {variable.shape}): sliced l-value "
            f"shape {list(sliced)} does not match r-value shape {list(array.shape)} (the "
            f"{given}); TF does not broadcast into a slice: pass a {given} of shape "
            f"{tuple(sliced)}, e.g. ek.broadcast_to({given}, {tuple(sliced)}). The variable was "
            "not changed",
            op=method,
        )
    return array


def write_part(variable, key, array, method):
    """Make ``variable``'s value a copy of itself with ``array`` written at ``key``."""
    variable._check_writable(method)
    if variable._data[key].size == 0:  # an empty slice: nothing to write (TF's kernel neither)
        return
    new = variable._data.copy()  # a new array: tensors read earlier keep their values
    if method == "assign":
        new[key] = array
    elif method == "assign_add":
        new[key] += array
    else:
        new[key] -= array
    variable._write(new, method)


def key_text(key):
    """``key`` as written between brackets: ``1:``, ``:, 1``, ``..., ::2``."""
    items = key if isinstance(key, tuple) else (key,)
    return ", ".join(_item_text(item) for item in items)


def _item_text(item):
    if isinstance(item, slice):
        parts = ["" if v is None else _item_text(v) for v in (item.start, item.stop)]
        text = ":".join(parts)
        return text if item.step is None else f"{text}:{_item_text(item.step)}"
    if item is Ellipsis:
        return "..."
    if isinstance(item, Tensor):  # an index ek.function reads at every call
        return "<int tensor>"
    return repr(item)

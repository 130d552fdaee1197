"""``ek.TensorArray``: a list of tensors that graphs can carry through loops.

A Python list cannot live in a graph loop: appending is Python, run once while tracing.
A TensorArray holds its elements as *one* tensor (the elements stacked along a first
axis), so a ``while_loop`` (or a ``for`` over tensors, see autograph/) carries it as a loop
variable, and every operation is an op of the graph: ``write`` is a ``where`` on the
stacked tensor (an ``ek.cond`` that grows it for ``dynamic_size``), ``read`` a ``gather``.
Gradients flow through all of them.

As in TF2, ``write`` and ``unstack`` give the TensorArray back, and in graphs you must use
what they give: ``ta = ta.write(i, x)``. Until the first write the element shape may be
unknown; a loop over tensors finds it by tracing the loop's body once (autograph/).
"""

from eagerkit import dtypes
from eagerkit.arguments import whole_number
from eagerkit.errors import InvalidArgumentError
from eagerkit.graph.trace import current_tracer
from eagerkit.tensor import Tensor, convert_to_tensor

__all__ = ["TensorArray"]


class TensorArray:
    """A list of tensors of one dtype and shape, for loops in graphs (TF's ``tf.TensorArray``).

    Parameters
    ----------
    dtype : the elements' dtype.
    size : how many elements (a number, or a scalar int tensor); 0 by default.
    dynamic_size : let writes beyond ``size`` grow it.
    element_shape : the elements' shape, when known before the first write.
    clear_after_read, tensor_array_name, handle, flow, infer_shape,
    colocate_with_first_write_call, name : accepted for TF's signature.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ta = ek.TensorArray(ek.float32, size=3)
    >>> for i in range(3):
    ...     ta = ta.write(i, ek.constant([i, i * 10.0]))
    >>> ta.stack()
    <ek.Tensor: shape=(3, 2), dtype=float32, numpy=
    array([[ 0.,  0.],
           [ 1., 10.],
           [ 2., 20.]], dtype=float32)>
    >>> @ek.function
    ... def squares(n):
    ...     ta = ek.TensorArray(ek.int32, size=0, dynamic_size=True)
    ...     for i in ek.range(n):
    ...         ta = ta.write(i, i * i)
    ...     return ta.stack()
    >>> squares(ek.constant(4)).numpy().tolist(), squares(ek.constant(2)).numpy().tolist()
    ([0, 1, 4, 9], [0, 1])
    """

    def __init__(
        self,
        dtype,
        size=None,
        dynamic_size=None,
        clear_after_read=None,
        tensor_array_name=None,
        handle=None,
        flow=None,
        infer_shape=True,
        element_shape=None,
        colocate_with_first_write_call=True,
        name=None,
    ):
        self.dtype = dtypes.as_dtype(dtype)
        self.dynamic_size = bool(dynamic_size)
        self._size = _count(0 if size is None else size)
        self._element_shape = None if element_shape is None else tuple(element_shape)
        self._stacked = None  # the elements, stacked: made at the first write (or unstack)
        if self._element_shape is not None and None not in self._element_shape:
            self._allocate(self._element_shape)

    # --- what it holds ------------------------------------------------------------------
    @property
    def element_shape(self):
        """The elements' shape (None before the first write, when not given)."""
        if self._stacked is not None:
            return self._stacked.shape[1:]
        return self._element_shape

    def size(self, name=None):
        """How many elements, as an int32 tensor."""
        if self._stacked is None:
            return convert_to_tensor(self._size, dtype=dtypes.int32)
        from eagerkit.ops.shape import shape

        return shape(self._stacked)[0]

    def stack(self, name=None):
        """All elements as one tensor, stacked along a new first axis."""
        if self._stacked is None:
            if self._element_shape is None:
                raise InvalidArgumentError(
                    "TensorArray.stack: nothing was written and the element shape is unknown; "
                    "write an element first, or give element_shape",
                    op="TensorArray.stack",
                )
            self._allocate(self._element_shape)
        return self._stacked

    def read(self, index, name=None):
        """Element ``index``."""
        from eagerkit.ops.indexing import gather

        return gather(self.stack(), index)

    def gather(self, indices, name=None):
        """The elements at ``indices``, stacked."""
        from eagerkit.ops.indexing import gather

        return gather(self.stack(), indices)

    def concat(self, name=None):
        """All elements joined along their first axis."""
        from eagerkit.ops.shape import concat, unstack

        stacked = self.stack()
        return concat(unstack(stacked), axis=0) if stacked.shape[0] else stacked[0:0]

    # --- changing it (use what is returned, as in TF2) -----------------------------------------
    def write(self, index, value, name=None):
        """Element ``index`` becomes ``value``; gives the TensorArray back."""
        # Every check comes before any change: a write that fails leaves the array as it was.
        value = convert_to_tensor(value, dtype=self.dtype)
        wanted = self.element_shape
        if wanted is not None and tuple(value.shape) != tuple(wanted):
            raise InvalidArgumentError(
                f"TensorArray.write: value has shape {value.shape} but the elements have shape "
                f"{tuple(wanted)}; all elements of a TensorArray have one shape: write a value "
                f"of shape {tuple(wanted)} (or reshape it)",
                op="TensorArray.write",
            )
        size = self._current_size()
        if not isinstance(index, Tensor):  # a host index: a whole number, checked here
            index = whole_number(index, "index", "TensorArray.write")
        if not self.dynamic_size and not isinstance(index, Tensor) and index >= size:
            raise InvalidArgumentError(
                f"TensorArray.write: Tried to write to index {index} but array is not "
                f"resizeable and size is: {size}",
                op="TensorArray.write",
            )
        index = convert_to_tensor(index, dtype=dtypes.int32)
        stacked = self._stacked if self._stacked is not None else self._zeros(value.shape)
        return self._changed(_written(stacked, index, value, self.dynamic_size))

    def unstack(self, value, name=None):
        """The elements become the slices of ``value`` along its first axis."""
        value = convert_to_tensor(value, dtype=self.dtype)
        if value.ndim == 0:
            raise InvalidArgumentError(
                "TensorArray.unstack: value must have a first axis to unstack", op="unstack"
            )
        count, size, wanted = value.shape[0], self._current_size(), self.element_shape
        if wanted is not None and tuple(value.shape[1:]) != tuple(wanted):
            raise InvalidArgumentError(
                f"TensorArray.unstack: value has elements of shape {value.shape[1:]} but the "
                f"array's elements have shape {tuple(wanted)}; unstack a value of shape "
                f"[n, {', '.join(map(str, wanted))}], or make a new TensorArray for these",
                op="TensorArray.unstack",
            )
        if not self.dynamic_size and count > size:
            raise ValueError(
                f"Cannot unstack {count} tensors into a TensorArray of static size {size} "
                "(make it with dynamic_size=True, or a size of at least that many)"
            )
        if count < size:  # as in TF, the elements after the unstacked ones stay
            from eagerkit.ops.shape import concat

            rest = self._stacked if self._stacked is not None else self._zeros(value.shape[1:])
            value = concat([value, rest[count:]], axis=0)
        return self._changed(value)

    def identity(self):
        return self

    def close(self, name=None):
        return None

    def _allocate(self, element_shape):
        self._stacked = self._zeros(element_shape)

    def _zeros(self, element_shape):
        """``size`` elements of zeros of ``element_shape``: the array before any write."""
        from eagerkit.ops.creation import zeros

        return zeros([int(self._size), *element_shape], dtype=self.dtype)

    def _current_size(self):
        return int(self._stacked.shape[0]) if self._stacked is not None else self._size

    def _changed(self, stacked):
        """Eagerly, this TensorArray now holding ``stacked`` (TF2 eager writes in place);
        inside a trace, a new one (each branch of a cond writes its own)."""
        if current_tracer() is not None:
            return self._with_stacked(stacked)
        self._stacked = stacked
        return self

    def _with_stacked(self, stacked):
        """A copy holding ``stacked`` (a loop's or a branch's value of it)."""
        copy = TensorArray.__new__(TensorArray)
        copy.__dict__.update(self.__dict__)
        copy._stacked = stacked
        return copy

    def __repr__(self):
        shape = "unknown" if self.element_shape is None else tuple(self.element_shape)
        return f"<ek.TensorArray dtype={self.dtype.name} element_shape={shape}>"


def _count(size):
    if isinstance(size, Tensor):
        size = size._data
    try:
        count = int(size)
    except (TypeError, ValueError, OverflowError):  # OverflowError: int(inf)
        count = None
    if count is None or count != size or count < 0:  # 1.5 is refused, not truncated to 1
        raise InvalidArgumentError(
            f"TensorArray: size must be a whole number >= 0, got {size!r}; write the number "
            "of elements you mean",
            op="TensorArray",
        )
    return count


def _written(stacked, index, value, dynamic):
    """``stacked`` with row ``index`` replaced by ``value`` (grown first, if dynamic)."""
    from eagerkit.control_flow import cond
    from eagerkit.ops.compare import equal, where
    from eagerkit.ops.creation import range as ek_range
    from eagerkit.ops.shape import concat, expand_dims, reshape, shape

    def replace(rows):
        count = shape(rows)[0]
        mask = reshape(equal(ek_range(count), index), [-1] + [1] * value.ndim)
        return where(mask, expand_dims(value, 0), rows)

    if not dynamic:
        return replace(stacked)

    def grow():
        from eagerkit.ops.creation import zeros

        missing = reshape(index + 1 - shape(stacked)[0], [1])
        extra = zeros(concat([missing, shape(value)], axis=0), value.dtype)
        return replace(concat([stacked, extra], axis=0))

    return cond(index < shape(stacked)[0], lambda: replace(stacked), grow)

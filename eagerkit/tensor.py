"""Tensor: an immutable array plus the device it lives on.

A Tensor is just ``(_data, _device)``, plus the mark of the tape that recorded the op which
made it (``_recorded_by``), so that a tape sees at a glance that it watches the tensor. It
knows nothing about gradients: the tape (tape.py) remembers which ops made which tensors.
Its operators are ops (``x * y`` is ``ek.multiply(x, y)``): operators.py says which op each
one is.
"""

import numpy as np

from eagerkit import arguments, dtypes, errors
from eagerkit.devices import CPU, current_device
from eagerkit.tensor_shape import TensorShape

_new_shape = tuple.__new__  # TensorShape from an array's shape tuple, without re-checking it


class Tensor:
    """An immutable n-dimensional array on a device, like TF's EagerTensor.

    Make one with ``ek.constant`` (or any op); do not call ``Tensor`` yourself.

    Examples
    --------
    >>> import eagerkit as ek
    >>> x = ek.constant([[2.0]])
    >>> print(ek.matmul(x, x))
    ek.Tensor([[4.]], shape=(1, 1), dtype=float32)
    >>> ek.constant(3.0) * 2
    <ek.Tensor: shape=(), dtype=float32, numpy=6.0>
    """

    # _keras_mask: the padding mask a Keras layer attached (keras/layers/masks.py); usually unset.
    __slots__ = ("_data", "_device", "_recorded_by", "_keras_mask")
    # Make numpy's binary operators defer to ours: ndarray * Tensor -> Tensor.
    __array_priority__ = 100
    _is_variable = False  # Variable (variables.py) says True; the tape snapshots its reads

    def __init__(self, data, device=CPU):
        self._data = data
        self._device = device
        self._recorded_by = None  # a tape's mark once a tape records the op that made it

    # --- what it is -------------------------------------------------------------------
    @property
    def shape(self):
        """The shape, a TensorShape: a tuple of ints that prints ``(1, 1)`` as TF's does."""
        return _new_shape(TensorShape, self._data.shape)

    @property
    def dtype(self):
        """The element type, e.g. ``ek.float32``."""
        return dtypes.from_numpy(self._data.dtype)

    @property
    def ndim(self):
        """Number of dimensions (0 for a scalar)."""
        return self._data.ndim

    @property
    def size(self):
        """Number of elements."""
        return self._data.size

    @property
    def device(self):
        """TF's full device name, e.g. ``'/job:localhost/replica:0/task:0/device:CPU:0'``.

        ``ek.device``, ``copy_to_device`` and friends accept it, as they accept ``'/cpu:0'``
        or ``'CPU:0'``; ``t._device.name`` is eagerkit's short name, ``'/cpu:0'``.
        """
        return self._device.full_name

    def get_shape(self):
        """TF1 spelling of ``.shape``."""
        return self.shape

    def set_shape(self, shape):
        """TF's check that the shape fits ``shape`` (None: any size); an eager tensor's shape
        is known already, so nothing changes (``split_window`` in TF's time-series tutorial).

        >>> import eagerkit as ek
        >>> ek.zeros([4, 6, 3]).set_shape([None, 6, None])
        """
        try:
            wanted = TensorShape(shape)
        except errors.InvalidArgumentError:
            raise errors.InvalidArgumentError(
                f"set_shape: shape must be a list of sizes (whole numbers >= 0, or None for "
                f"any), got {arguments.describe(shape)}; pass e.g. [None, 6, None]",
                op="set_shape",
            ) from None
        if not self.shape.is_compatible_with(wanted):
            raise errors.InvalidArgumentError(
                f"set_shape: the tensor's shape {self.shape} does not fit {wanted} (each size "
                "must match, None matches any); reshape it with ek.reshape if that is meant",
                op="set_shape",
            )

    def numpy(self):
        """A copy of the value as a numpy array (a numpy scalar for 0-d tensors), on the host.

        A copy, as TF's: tensors are immutable, so changing the array leaves the tensor (or
        the variable) as it was. ``np.asarray(tensor)`` shares the memory instead, also as TF.

        Examples
        --------
        >>> import eagerkit as ek
        >>> t = ek.constant([1, 2])
        >>> array = t.numpy()
        >>> array[0] = 5
        >>> print(t)
        ek.Tensor([1 2], shape=(2,), dtype=int32)
        """
        value = self._device.backend.to_host(self._data)
        if value.ndim == 0:
            return value[()]  # [()] turns a 0-d array into a scalar (a copy)
        return np.array(value) if value is self._data else value  # a GPU's host copy is new

    def __array__(self, dtype=None, copy=None):
        # numpy functions accept tensors and return numpy: the result has left the tape.
        # TF hands numpy the tensor's own memory (no copy) unless numpy asks for a copy.
        array = np.asarray(self._device.backend.to_host(self._data))
        if copy:
            return np.array(array, dtype=dtype, copy=True)
        return array if dtype is None else array.astype(dtype, copy=False)

    # --- printing: deterministic, no ids or addresses --------------------------------------
    def _value_text(self, scalar_text):
        value = self.numpy()
        if self.ndim == 0:
            return scalar_text(value)
        text = str(value) if scalar_text is str else repr(value)
        return "\n" + text if "\n" in text else text  # TF: a multi-line value starts a new line

    def _device_suffix(self):
        return "" if self._device is CPU else f", device={self._device.name}"

    def __str__(self):
        text = self._value_text(str)
        return (
            f"ek.Tensor({text}, shape={self.shape}, dtype={self.dtype.name}{self._device_suffix()})"
        )

    def __repr__(self):
        text = self._value_text(_scalar_repr)
        return (
            f"<ek.Tensor: shape={self.shape}, dtype={self.dtype.name}"
            f"{self._device_suffix()}, numpy={text}>"
        )

    def __format__(self, spec):
        value = self.numpy()
        if spec and self.size != 1:  # numpy formats only one number with a spec like '.2f'
            raise errors.type_error(
                f"format: the spec {spec!r} formats one number, and this tensor has shape "
                f"{self.shape} ({self.dtype.name}); format one element (x[0]) or x.numpy() "
                "with numpy's own printing",
                op="format",
            )
        if not spec:
            return str(value)
        try:
            return format(np.asarray(value).reshape(())[()], spec)
        except (TypeError, ValueError):  # '.2f' of text
            raise errors.type_error(
                f"format: the spec {spec!r} does not fit a {self.dtype.name} value; use a spec "
                "for its kind (e.g. '.2f' for floats, 'd' for ints, 's' for text)",
                op="format",
            ) from None

    # --- Python protocols ------------------------------------------------------------------
    def __len__(self):
        if self.ndim == 0:
            raise errors.type_error(
                f"len: scalar tensor has no `len()` (its value is {self.numpy()}); "
                "use ek.size(x) for the number of elements",
                op="len",
            )
        return self.shape[0]

    def __iter__(self):
        if self.ndim == 0:
            raise errors.type_error(
                f"iter: cannot iterate over a scalar tensor (its value is {self.numpy()}); "
                "loop over a tensor of rank >= 1, or use the value itself",
                op="iter",
            )
        # Each element is self[i], an indexing op (recorded on the tape like any other).
        return (self[i] for i in range(self.shape[0]))

    def __bool__(self):
        if self.size != 1:
            raise errors.InvalidArgumentError(
                f"bool: the truth value of a tensor with {self.size} elements (shape "
                f"{self.shape}, {self.dtype.name}) is ambiguous. Use ek.reduce_any(t) or "
                "ek.reduce_all(t), or ek.where for elementwise choices.",
                op="bool",
            )
        return bool(self.numpy())

    def _scalar(self, convert, name):
        if self.size != 1:
            raise errors.type_error(
                f"{name}: only single-element tensors can be converted to Python {name}s; "
                f"this one has shape {self.shape} ({self.dtype.name}). Pick one element "
                "first, e.g. x[0], or reduce it, e.g. ek.reduce_sum(x)",
                op=name,
            )
        if self.dtype.name == "string":  # text is no number (int(b"2") would parse it, TF does not)
            raise errors.type_error(
                f"{name}: this tensor holds text ({self.dtype.name}), not a number; parse it "
                "first with ek.strings.to_number(x), or pass a number",
                op=name,
            )
        return convert(self.numpy().reshape(()))

    def __float__(self):
        return self._scalar(float, "float")

    def __int__(self):
        return self._scalar(int, "int")

    def __index__(self):
        if not self.dtype.is_integer or self.size != 1:
            raise errors.type_error(
                f"index: only integer tensors of one element can be used as an index; this "
                f"one is {self.dtype.name}{list(self.shape)}. Pick one element (x[0]) or "
                "cast it first: ek.cast(x, ek.int32)",
                op="index",
            )
        return int(self.numpy().reshape(()))

    __hash__ = None  # == is elementwise (TF2), so tensors cannot be dict keys.

    def __reduce__(self):
        return constant_from_numpy, (np.asarray(self.numpy()),)

    def __copy__(self):
        return self  # immutable

    def __deepcopy__(self, memo):
        return self

    def ref(self):
        """A hashable handle on this exact tensor (for dict keys and sets)."""
        return _Ref(self)

    # --- TF1 graph-only attributes give the eager explanation ------------------------------
    @property
    def op(self):
        raise AttributeError("Tensor.op is meaningless when eager execution is enabled.")

    @property
    def name(self):
        raise AttributeError("Tensor.name is meaningless when eager execution is enabled.")

    def eval(self):
        raise NotImplementedError(
            "eval is not supported when eager execution is enabled, "
            "is .numpy() what you're looking for? Use x.numpy() for the value."
        )


class _Ref:
    """Hashable by identity; ``.deref()`` gives the tensor back."""

    __slots__ = ("_tensor",)

    def __init__(self, tensor):
        self._tensor = tensor

    def deref(self):
        return self._tensor

    def __hash__(self):
        return id(self._tensor)

    def __eq__(self, other):
        return isinstance(other, _Ref) and other._tensor is self._tensor


def _scalar_repr(value):
    # numpy 2 reprs scalars as np.float32(6.0); TF shows the bare number.
    return str(value)


def constant_from_numpy(array):
    """A CPU tensor holding ``array`` as is (used when unpickling)."""
    return Tensor(array, CPU)


def convert_to_tensor(value, dtype=None, device=None):
    """Turn a Python value, numpy array or Tensor into a Tensor, with TF's dtype rules.

    Python floats become float32 and ints int32; numpy arrays keep their dtype; ``dtype``
    overrides both. A Tensor comes back unchanged (its dtype must match ``dtype``).

    Examples
    --------
    >>> import eagerkit as ek, numpy as np
    >>> ek.convert_to_tensor(3.0).dtype, ek.convert_to_tensor(np.array([1.0])).dtype
    (ek.float32, ek.float64)
    """
    if isinstance(value, Tensor):
        if dtype is not None and dtypes.as_dtype(dtype) != value.dtype:
            from eagerkit import op_errors

            wanted = dtypes.as_dtype(dtype)
            raise op_errors.value_dtype_mismatch("convert_to_tensor", value.dtype, wanted)
        return value
    if isinstance(value, (list, tuple)):
        from eagerkit import autopacking  # built on ops, which are built on Tensor

        if autopacking.holds_tensor(value):  # TF's auto-packing: a recorded ek.stack
            return autopacking.pack(value, "convert_to_tensor", dtype)
    return constant_of(value, dtype, device)


def constant_of(value, dtype=None, device=None):
    """``value`` (not a Tensor) as a new tensor, as ``ek.constant`` makes it: converted by
    numpy, recorded on no tape even when it holds tensors (TF's constant is not
    differentiable either)."""
    target = device if device is not None else current_device()
    np_dtype = (
        dtypes.as_dtype(dtype).as_numpy_dtype
        if dtype is not None
        else dtypes.default_numpy_dtype(value)
    )
    if np_dtype.kind == "O":
        target = CPU  # strings live in host memory, as in TF, whatever the device scope
    return Tensor(to_array(value, np_dtype, target, "convert_to_tensor"), target)


def to_array(value, np_dtype, device, op_name):
    """``value`` as an array of ``np_dtype`` on ``device``; refuses lossy float->int."""
    if isinstance(value, Tensor):
        value = value._device.backend.to_host(value._data)  # no copy: tensors are immutable
    host = value if type(value) is np.ndarray else arguments.host_array(value, op_name)
    if np_dtype.kind == "O" or host.dtype.kind in "SUO":  # a string tensor, or text given
        from eagerkit import strings

        return strings.to_bytes_array(host, value, np_dtype, device, op_name)
    if host.dtype.kind not in "biufc":
        raise TypeError(
            f"{op_name}: cannot convert {type(value).__name__} {value!r} to a tensor; "
            "tensors hold numbers, bools or strings"
        )
    if host.dtype.kind == "c" and np_dtype.kind != "c":  # TF never drops an imaginary part
        from eagerkit import op_errors

        raise op_errors.value_dtype_mismatch(
            op_name, dtypes.from_numpy(host.dtype), dtypes.from_numpy(np_dtype), value
        )
    if host.dtype != np_dtype and np_dtype.kind in "iub":
        # Into an int or bool dtype, only exact conversions pass: 1.5, 300 into int8 and
        # nan (cast without numpy's warning, then refused) fail.
        with np.errstate(invalid="ignore"):
            converted = host.astype(np_dtype)
        if not (converted == host if host.ndim == 0 else np.array_equal(converted, host)):
            from eagerkit import op_errors

            if host.dtype.kind in "iu":
                raise op_errors.does_not_fit(op_name, value, dtypes.from_numpy(np_dtype))
            raise op_errors.value_dtype_mismatch(
                op_name, dtypes.from_numpy(host.dtype), dtypes.from_numpy(np_dtype), value
            )
        host = converted
    elif host.dtype != np_dtype:
        host = host.astype(np_dtype)
    return device.backend.asarray(host)

"""Dtypes and TensorFlow's rules for choosing them (which are not numpy's).

- A Python float becomes float32, a Python int int32 (int64 when it does not fit), a bool bool.
- numpy arrays and numpy scalars keep their dtype.
- A Python or numpy operand of a binary op takes the dtype of the tensor it meets.
- Two tensors of different dtypes never mix silently: the op raises and names both.
- ``int32 / int32`` divides in float64 (TF's "truediv table"), which is why the Collatz
  example in lesson 1 prints float64.
- A Python complex becomes complex128 (TF's default), ``ek.complex(re, im)`` pairs two
  float32 tensors into complex64; complex never mixes silently with real dtypes either.
"""

import numpy as np


class DType:
    """A tensor's element type, e.g. ``ek.float32``.

    Compares equal to itself, its name and the numpy dtype it wraps. As in TF, ``repr``
    is the name you type (``ek.float32``) and ``str`` (what ``print`` shows) is
    ``<dtype: 'float32'>``; ``.name`` is the bare name.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.float32 == "float32", ek.float32.is_floating
    (True, True)
    >>> print(ek.int32), ek.int32, ek.int32.name
    <dtype: 'int32'>
    (None, ek.int32, 'int32')
    """

    __slots__ = (
        *("name", "as_numpy_dtype", "is_floating", "is_integer", "is_bool", "is_string"),
        *("is_complex", "kind"),
    )

    def __init__(self, name):
        self.name = name
        # A string tensor holds Python bytes objects of any length: numpy's object dtype.
        try:
            self.as_numpy_dtype = np.dtype(object if name == "string" else name)
        except (TypeError, ValueError):
            raise TypeError(f"DType: {name!r} is not a dtype name; {_CHOICES}") from None
        kind = self.kind = self.as_numpy_dtype.kind  # numpy's: "f" float, "c" complex, ...
        self.is_floating = kind == "f"
        self.is_integer = kind in "iu"
        self.is_bool = kind == "b"
        self.is_string = kind == "O"
        self.is_complex = kind == "c"

    @property
    def real_dtype(self):
        """The dtype of the real and imaginary parts: float32 for complex64 (else itself)."""
        if not self.is_complex:
            return self
        return from_numpy(np.empty(0, self.as_numpy_dtype).real.dtype)

    @property
    def size(self):
        """Bytes per element."""
        return self.as_numpy_dtype.itemsize

    def __repr__(self):
        return f"ek.{self.name}"

    def __str__(self):
        return f"<dtype: {self.name!r}>"

    def __eq__(self, other):
        try:
            return self.as_numpy_dtype == as_dtype(other).as_numpy_dtype
        except TypeError:
            return False  # as TF: a dtype equals only a dtype (or something that names one)

    def __hash__(self):
        return hash(self.name)

    def __reduce__(self):
        return as_dtype, (self.name,)


_CHOICES = (
    "use one of ek.float16, ek.float32, ek.float64, ek.int8, ek.int16, ek.int32, ek.int64, "
    "ek.uint8, ek.uint16, ek.bool, ek.string (or their names, or numpy's types)"
)
float16 = DType("float16")
float32 = DType("float32")
float64 = DType("float64")
int8 = DType("int8")
int16 = DType("int16")
int32 = DType("int32")
int64 = DType("int64")
uint8 = DType("uint8")
uint16 = DType("uint16")
bool = DType("bool")  # noqa: A001 - TF's name, read as ek.bool
string = DType("string")  # bytes, as TF's tf.string (see eagerkit/strings.py)
complex64 = DType("complex64")  # two float32s, as TF's tf.complex64
complex128 = DType("complex128")  # two float64s

ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, uint16, bool, string)
ALL += (complex64, complex128)
FLOATING = tuple(d for d in ALL if d.is_floating)
INTEGER = tuple(d for d in ALL if d.is_integer)
NUMERIC = FLOATING + INTEGER
COMPLEX = (complex64, complex128)
# Dtypes a gradient can flow through: floats and complex numbers (TF's convention for a
# complex input is in backprop.py).
DIFFERENTIABLE_KINDS = "fc"

_BY_NUMPY = {d.as_numpy_dtype: d for d in ALL}
# TF's DataType numbers (types.proto), which tf.as_dtype also takes (tf.zeros(1, 1) is a
# float32 [1]): eagerkit refuses them, saying what TF would have read (as_dtype).
_BY_TF_NUMBER = {
    1: float32,
    2: float64,
    3: int32,
    4: uint8,
    5: int16,
    6: int8,
    7: string,
    8: complex64,
    9: int64,
    10: bool,
    17: uint16,
    18: complex128,
    19: float16,
}
_INT32 = np.iinfo(np.int32)

# TF's truediv table: small ints divide in float32, int32/int64 in float64.
TRUEDIV = {
    np.dtype("int8"): np.dtype("float32"),
    np.dtype("int16"): np.dtype("float32"),
    np.dtype("uint8"): np.dtype("float32"),
    np.dtype("uint16"): np.dtype("float32"),
    np.dtype("int32"): np.dtype("float64"),
    np.dtype("int64"): np.dtype("float64"),
}


def as_dtype(value):
    """Turn ``ek.float32``, ``"float32"``, ``np.float32`` or ``np.dtype('float32')`` into a DType.

    Examples
    --------
    >>> import eagerkit as ek, numpy as np
    >>> ek.as_dtype(np.float64)
    ek.float64
    """
    if isinstance(value, DType):
        return value
    if value is None:  # np.dtype(None) would quietly mean float64
        raise TypeError(f"None is not a dtype; {_CHOICES}")
    if value is str or value is bytes or (isinstance(value, str) and value == "string"):
        return string
    if type(value) is int and value in _BY_TF_NUMBER:  # not a bool: True is no dtype
        # TF would read it as a dtype; more often it is a size given where the dtype goes.
        meant = _BY_TF_NUMBER[value].name
        raise TypeError(
            f"{value} is not a dtype: eagerkit takes dtypes by name (TF would read {value} as "
            f"its number for {meant}). Give a shape as one tuple or list (({value}, {value}), "
            f"not {value}, {value}) and a dtype by name (dtype=ek.{meant})"
        )
    try:
        return _BY_NUMPY[np.dtype(value)]
    except (TypeError, ValueError, KeyError):
        from eagerkit.arguments import describe

        raise TypeError(f"{describe(value)} is not a dtype eagerkit supports; {_CHOICES}") from None


def from_numpy(np_dtype):
    """The DType of a numpy dtype (fast path used by ``Tensor.dtype``)."""
    try:
        return _BY_NUMPY[np_dtype]
    except KeyError:
        return as_dtype(np_dtype)


def default_numpy_dtype(value):
    """The numpy dtype TF would give a Python value (or nested list) on its own.

    Examples
    --------
    >>> from eagerkit.dtypes import default_numpy_dtype
    >>> default_numpy_dtype(3.0), default_numpy_dtype(3), default_numpy_dtype(2**40)
    (dtype('float32'), dtype('int32'), dtype('int64'))
    """
    if isinstance(value, (np.ndarray, np.generic)) and value.dtype.kind not in "SUO":
        if value.dtype not in _BY_NUMPY:  # a tensor of it would have no eagerkit dtype
            raise TypeError(_unsupported_numpy(value.dtype))
        return value.dtype
    from eagerkit.arguments import host_array  # (arguments needs dtypes' module loaded)

    array = host_array(value, "convert_to_tensor")
    kind = array.dtype.kind
    if kind == "f":
        return np.dtype(np.float32)
    if kind in "iu":
        if array.size == 0 or (_INT32.min <= array.min() and array.max() <= _INT32.max):
            return np.dtype(np.int32)
        return np.dtype(np.int64)
    if kind == "b":
        return np.dtype(np.bool_)
    if kind == "c":
        return np.dtype(np.complex128)  # TF: a Python complex is complex128
    if kind in "SU" or (kind == "O" and array.size and _all_text(array)):
        return string.as_numpy_dtype
    raise TypeError(
        f"cannot make a tensor from {type(value).__name__} {value!r}: eagerkit tensors hold "
        f"numbers, bools or strings (numpy dtype kind {kind!r} is not supported)"
    )


def _unsupported_numpy(np_dtype):
    """Why a numpy array of ``np_dtype`` (float128, uint64, complex, ...) is refused, and what
    to convert it to."""
    nearest = {"f": "np.float64", "i": "np.int64", "u": "np.int64", "b": "np.bool_"}
    nearest["c"] = "np.complex128"
    fix = (
        f"convert it first, e.g. np.asarray(x, {nearest[np_dtype.kind]})"
        if np_dtype.kind in nearest
        else "eagerkit tensors hold numbers, bools or strings"
    )
    return (
        f"cannot make a tensor from a numpy {np_dtype.name} array: eagerkit has no "
        f"{np_dtype.name} dtype (it has {', '.join(d.name for d in ALL)}); {fix}"
    )


def first_inexact_int(value, np_float):
    """The first integer in ``value`` (a Python int, a list, a numpy array) that the float
    dtype ``np_float`` cannot hold exactly (float32 holds every whole number only up to
    2**24), or None; None too when ``value`` holds no integers.

    Examples
    --------
    >>> import numpy as np
    >>> first_inexact_int(np.array([1, 2**24, 2**24 + 1]), np.dtype(np.float32))
    16777217
    >>> first_inexact_int(np.array([2**24 + 1]), np.dtype(np.float64)) is None
    True
    """
    from eagerkit.arguments import host_array

    ints = host_array(value, "convert_to_tensor")  # a ragged list: refused in our words
    if ints.dtype.kind not in "iu":
        return None
    digits = np.finfo(np_float).nmant + 1  # a float holds every integer of this many bits
    if ints.dtype.itemsize * 8 - (ints.dtype.kind == "i") <= digits:
        return None  # int8 into float32 and the like: always exact
    limit = 2**digits
    outside = (ints > limit) | (ints < -limit)
    if not outside.any():
        return None
    with np.errstate(over="ignore"):  # 65535 overflows float16 to inf: that too is a change
        for value in ints[outside].tolist():
            if float(np_float.type(value).real) != value:  # Python compares these exactly
                return value
    return None


def casts_without_loss(from_np, to_np):
    """Whether ``ek.cast`` from ``from_np`` to ``to_np`` keeps every value (what an error's hint
    may suggest): widening, bool to anything, integers to floats; never float to int, never
    float64 to float32."""
    from_np, to_np = np.dtype(from_np), np.dtype(to_np)
    if np.can_cast(from_np, to_np, "safe"):
        return True
    return from_np.kind in "biu" and to_np.kind in "fc"  # int to float: exact for usual values


def _all_text(array):
    """True when every element of an object array is a str or bytes (a string tensor's value)."""
    return all(isinstance(item, (str, bytes)) for item in array.flat)

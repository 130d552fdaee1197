"""The arguments users pass by mistake, and the ones that mean the same as a valid one.

``BAD`` is what a slot of a valid call is replaced by: numpy dtypes and scalar *types*
(``dtype=np.float32``), numpy scalars, ragged lists, fractional and huge sizes, NaN and inf,
None, text, tensors of every dtype and shape, tensors on the simulated GPU, KerasTensors.
Each is made fresh for each call (a Variable or a layer may be changed by it).
``equivalents(value)`` are other spellings of a valid argument (the numpy array for a
tensor, ``np.float32`` for ``ek.float32``): a call given one must give the same answer.
"""

import math

import numpy as np
from hypothesis import strategies as st

import eagerkit as ek

SIMULATED = "/sim:0"  # the simulated GPU (eagerkit/devices.py): a second device on any machine


def on_simulated_gpu(value):
    with ek.device(ek.devices.enable_simulated_gpu()):
        return ek.constant(value)


def _ragged():
    return [[1.0, 2.0], [3.0]]


# (label, maker): the label is what a failure report shows.
BAD = [
    # numpy's dtypes and scalar types, where eagerkit's dtypes or numbers go
    ("np.float32", lambda: np.float32),
    ("np.int64", lambda: np.int64),
    ("np.bool_", lambda: np.bool_),
    ("np.complex64", lambda: np.complex64),
    ("np.str_", lambda: np.str_),
    ("np.dtype('float64')", lambda: np.dtype("float64")),
    ("np.dtype('int8')", lambda: np.dtype("int8")),
    ("np.dtype('<U3')", lambda: np.dtype("<U3")),
    ("np.longdouble", lambda: np.longdouble),
    # numpy scalars and arrays
    ("np.float32(1.5)", lambda: np.float32(1.5)),
    ("np.float64(nan)", lambda: np.float64(math.nan)),
    ("np.int64(2)", lambda: np.int64(2)),
    ("np.uint8(255)", lambda: np.uint8(255)),
    ("np.bool_(True)", lambda: np.bool_(True)),
    ("np.complex128(1j)", lambda: np.complex128(1j)),
    ("np.array([1., 2., 3.])", lambda: np.array([1.0, 2.0, 3.0])),
    ("np.array int32 [2, 2]", lambda: np.array([[1, 2], [3, 4]], dtype=np.int32)),
    ("np.array(16777217)", lambda: np.array(16777217, dtype=np.int32)),
    ("np.array float128", lambda: np.array([1.0, 2.0], dtype=np.longdouble)),
    ("np.array of objects", lambda: np.array([object(), 1], dtype=object)),
    ("np.array of text", lambda: np.array(["a", "b"])),
    ("np.zeros((0, 3))", lambda: np.zeros((0, 3), dtype=np.float32)),
    # ragged and odd Python containers
    ("ragged list", _ragged),
    ("list of list and number", lambda: [1.0, [2.0, 3.0]]),
    ("empty list", lambda: []),
    ("empty tuple", lambda: ()),
    ("list of text", lambda: ["a", "b"]),
    ("list of None", lambda: [None, None]),
    ("dict", lambda: {"a": 1.0}),
    ("set", lambda: {1, 2}),
    ("range(3)", lambda: range(3)),
    # sizes: fractional, negative, huge
    ("1.5", lambda: 1.5),
    ("-2.5", lambda: -2.5),
    ("0.5", lambda: 0.5),
    ("2.0", lambda: 2.0),
    ("-1", lambda: -1),
    ("0", lambda: 0),
    ("-7", lambda: -7),
    ("2**31", lambda: 2**31),
    ("2**40", lambda: 2**40),
    ("2**63", lambda: 2**63),
    ("-(2**63)", lambda: -(2**63)),
    ("1e30", lambda: 1e30),
    ("10**30", lambda: 10**30),
    ("[1.5, 2]", lambda: [1.5, 2]),
    ("[2**40, 2**40]", lambda: [2**40, 2**40]),
    ("[-1, 3]", lambda: [-1, 3]),
    # NaN and infinities
    ("nan", lambda: math.nan),
    ("inf", lambda: math.inf),
    ("-inf", lambda: -math.inf),
    ("[nan, inf]", lambda: [math.nan, math.inf]),
    # None, text, bools, other Python values
    ("None", lambda: None),
    ("'abc'", lambda: "abc"),
    ("''", lambda: ""),
    ("b'bytes'", lambda: b"bytes"),
    ("'float32'", lambda: "float32"),
    ("'/gpu:7'", lambda: "/gpu:7"),
    ("True", lambda: True),
    ("False", lambda: False),
    ("1j", lambda: 1j),
    ("object()", lambda: object()),
    ("a lambda", lambda: lambda *args: None),
    ("slice(0, 2)", lambda: slice(0, 2)),
    ("Ellipsis", lambda: Ellipsis),
    # eagerkit values of the wrong kind
    ("ek.float32", lambda: ek.float32),
    ("ek.string", lambda: ek.string),
    ("scalar 1.5", lambda: ek.constant(1.5)),
    ("float32[3]", lambda: ek.constant([1.0, -2.0, 3.0])),
    ("float32[2, 3]", lambda: ek.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])),
    ("float64[2]", lambda: ek.constant(np.array([0.5, 2.0]))),
    ("int32[2, 2]", lambda: ek.constant([[1, 2], [3, 4]])),
    ("int64 scalar", lambda: ek.constant(3, dtype=ek.int64)),
    ("bool[2]", lambda: ek.constant([True, False])),
    ("string[2]", lambda: ek.constant(["a", "b"])),
    ("float32[nan, inf, -inf]", lambda: ek.constant([math.nan, math.inf, -math.inf])),
    ("float32[0]", lambda: ek.zeros([0])),
    ("float32[2, 0]", lambda: ek.zeros([2, 0])),
    ("float32[1, 4, 4, 3]", lambda: ek.ones([1, 4, 4, 3])),
    ("Variable float32[2, 2]", lambda: ek.Variable([[1.0, 2.0], [3.0, 4.0]])),
    ("Variable int64 scalar", lambda: ek.Variable(7, dtype=ek.int64, trainable=False)),
    ("float32[2, 3] on /sim:0", lambda: on_simulated_gpu([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])),
    ("int32[3] on /sim:0", lambda: on_simulated_gpu([1, 2, 3])),
    ("KerasTensor (None, 3)", lambda: ek.keras.Input(shape=[3])),
    ("a Dense layer", lambda: ek.keras.layers.Dense(2)),
]
BAD_LABELS = [label for label, _ in BAD]
# Receivers only (never put in an argument's place, which would change every callable's
# draws): slices of variables, the objects v[key].assign is called on (variable_slices.py).
SLICE_RECEIVERS = [
    ("slice of a Variable int64[1]", lambda: ek.Variable([7], dtype=ek.int64)[0:1]),
    ("slice of a Variable string[2]", lambda: ek.Variable([b"a", b"b"])[:]),
    ("empty slice of a Variable float32[2, 2]", lambda: ek.Variable([[1.0, 2.0], [3.0, 4.0]])[2:]),
    ("slice of a Variable float32 on /sim:0", lambda: _variable_on_simulated_gpu()[0]),
]
_MAKERS = dict(BAD + SLICE_RECEIVERS)


def _variable_on_simulated_gpu():
    with ek.device(ek.devices.enable_simulated_gpu()):
        return ek.Variable([[1.0, 2.0], [3.0, 4.0]])


def make(label):
    return _MAKERS[label]()


def bad_labels():
    """A strategy over the bad arguments' labels."""
    return st.sampled_from(BAD_LABELS)


_NUMPY_TYPES = {d: d.as_numpy_dtype.type for d in (ek.float32, ek.float64, ek.int32, ek.int64)}


# Parameters that count things or pick axes: numpy's int64 (``arr.shape[0]``, ``np.prod``)
# means the same there; as a value, it would make an int64 tensor, as in TF.
COUNTS = frozenset(
    """axis axes depth num units size k n count multiples repeats shift filters kernel_size
    strides pool_size batch_size buffer_size num_or_size_splits dim rank max_iterations
    history_size max_to_keep steps epochs output_dim input_dim num_classes maxlen num_rows
    num_columns num_samples num_segments target_height target_width offset_height
    offset_width shape dims""".split()
)


def equivalents(value, parameter=None):
    """Other spellings of ``value`` that a call must treat the same: ``[(label, value)]``."""
    if isinstance(value, ek.Tensor) and not isinstance(value, ek.Variable):
        array = value.numpy()  # (bytes for a scalar string)
        found = [("its numpy array", array)]
        kind = np.asarray(array).dtype
        if kind == np.float32 or kind.kind == "b":
            found.append(("a nested list", array.tolist()))
        return found
    if isinstance(value, ek.DType) and value in _NUMPY_TYPES:
        numpy_type = _NUMPY_TYPES[value]
        return [
            (f"np.{numpy_type.__name__}", numpy_type),
            (f"np.dtype('{value.name}')", np.dtype(numpy_type)),
            (f"'{value.name}'", value.name),
        ]
    if type(value) is bool:
        return [("np.bool_", np.bool_(value))]
    if type(value) is int and -(2**31) <= value < 2**31:
        found = [("np.int32", np.int32(value))]
        return found + [("np.int64", np.int64(value))] if parameter in COUNTS else found
    if type(value) is float:
        return [("np.float32", np.float32(value))]
    if isinstance(value, list) and value and all(type(v) is int for v in value):
        found = [("a tuple", tuple(value))]
        if parameter in COUNTS:
            found += [("np.array", np.array(value)), ("np.int64s", [np.int64(v) for v in value])]
        return found
    return []


_RECEIVERS = {}


def receivers(cls):
    """The bad arguments that are instances of ``cls``: what a Tensor's (or a Variable's)
    operator or method can be applied to instead of the valid receiver."""
    if cls not in _RECEIVERS:
        found = BAD + SLICE_RECEIVERS if cls.__name__ == "VariableSlice" else BAD
        _RECEIVERS[cls] = [label for label, maker in found if isinstance(maker(), cls)]
    return _RECEIVERS[cls]

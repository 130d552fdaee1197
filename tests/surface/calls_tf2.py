"""Valid calls of TF2's other tensor kinds (issue 19): ``ek.ragged`` and ``ek.RaggedTensor``,
``ek.sparse`` and ``ek.SparseTensor``, complex numbers (``ek.complex``, ``ek.math.real`` ...),
the string ops that split and decode text, ``ek.io.decode_raw`` and soft device placement."""

import dataclasses

import numpy as np

import eagerkit as ek

from . import walk
from .declare import call
from .values import F3, P3

CLASSES = walk.public_callables()
ROWS = [[1.0, 2.0], [], [3.0]]  # the rows of RT
RT = ek.ragged.constant(ROWS)  # float32, rows of lengths 2, 0, 1
DENSE = np.array([[1.0, 0.0], [0.0, 2.0]], dtype=np.float32)  # the values of ST
ST = ek.sparse.from_dense(DENSE)
TEXT = ek.constant(["hello world", "a b"])
Z = ek.complex(ek.constant([1.0, 2.0]), ek.constant([3.0, -4.0]))  # complex64[2]
ZN = np.array([1 + 3j, 2 - 4j], dtype=np.complex64)


def rows(expected):
    """A check that a RaggedTensor holds ``expected``'s rows."""
    return lambda result: isinstance(result, ek.RaggedTensor) and result.to_list() == expected


def rows_of_flat(expected):
    """A check that a RaggedTensor's flat values are ``expected``."""
    return lambda result: result.flat_values.numpy().tolist() == expected


def dense(expected):
    """A check that a SparseTensor's dense form is ``expected``."""
    return lambda result: np.array_equal(ek.sparse.to_dense(result).numpy(), expected)


def _ragged_operators():
    """``rt + 2.0`` ... and ``2.0 + rt`` on RT, and the bool ones on a bool RaggedTensor."""
    flat = RT.flat_values.numpy()
    found = {}
    for symbol, numpy_op in {
        "add": np.add,
        "sub": np.subtract,
        "mul": np.multiply,
        "truediv": np.divide,
        "floordiv": np.floor_divide,
        "mod": np.mod,
        "pow": np.power,
        "lt": np.less,
        "le": np.less_equal,
        "gt": np.greater,
        "ge": np.greater_equal,
    }.items():
        found[f"__{symbol}__"] = call(2.0, check=rows_of_flat(numpy_op(flat, 2.0).tolist()))
        if symbol not in ("lt", "le", "gt", "ge"):  # Python reflects comparisons itself
            back = rows_of_flat(numpy_op(2.0, flat).tolist())
            found[f"__r{symbol}__"] = call(2.0, check=back)
    truth = ek.ragged.constant([[True, False], [True]])
    for symbol, numpy_op in {
        "and": np.logical_and,
        "or": np.logical_or,
        "xor": np.logical_xor,
    }.items():
        want = numpy_op([True, False, True], True).tolist()
        for name in (f"__{symbol}__", f"__r{symbol}__"):
            found[name] = call(True, on=lambda: truth, check=rows_of_flat(want))
    found["__invert__"] = call(on=lambda: truth, check=rows_of_flat([False, True, False]))
    found["__neg__"] = call(check=rows([[-1.0, -2.0], [], [-3.0]]))
    found["__abs__"] = call(on=lambda: -RT, check=rows(ROWS))
    return found


CALLS = {
    # building ragged tensors
    "ek.ragged.constant": call(ROWS, check=rows(ROWS)),
    "ek.ragged.map_flat_values": call(ek.square, RT, check=rows([[1.0, 4.0], [], [9.0]])),
    "ek.RaggedTensor": call(RT.values, RT.row_splits, raises=ek.errors.InvalidArgumentError),
    "ek.RaggedTensor.from_row_splits": call([1, 2, 3], [0, 2, 2, 3], check=rows([[1, 2], [], [3]])),
    "ek.RaggedTensor.from_row_lengths": call([1, 2, 3], [2, 0, 1], check=rows([[1, 2], [], [3]])),
    "ek.RaggedTensor.from_row_starts": call([1, 2, 3], [0, 2, 2], check=rows([[1, 2], [], [3]])),
    "ek.RaggedTensor.from_row_limits": call([1, 2, 3], [2, 2, 3], check=rows([[1, 2], [], [3]])),
    "ek.RaggedTensor.from_value_rowids": call([1, 2, 3], [0, 0, 2], check=rows([[1, 2], [], [3]])),
    "ek.RaggedTensor.from_uniform_row_length": call([1, 2, 3, 4], 2, check=rows([[1, 2], [3, 4]])),
    "ek.RaggedTensor.from_nested_row_splits": call(
        [1, 2, 3, 4], [[0, 1, 3], [0, 2, 3, 4]], check=rows([[[1, 2]], [[3], [4]]])
    ),
    "ek.RaggedTensor.from_nested_row_lengths": call(
        [1, 2, 3, 4], [[1, 2], [2, 1, 1]], check=rows([[[1, 2]], [[3], [4]]])
    ),
    "ek.RaggedTensor.from_tensor": call([[1, 0], [2, 3]], padding=0, check=rows([[1], [2, 3]])),
    "ek.RaggedTensor.from_sparse": call(RT.to_sparse(), check=rows(ROWS)),
    # what a RaggedTensor tells
    "ek.RaggedTensor.bounding_shape": call(numpy=lambda: np.array([3, 2])),
    "ek.RaggedTensor.get_shape": call(check=lambda r: r.as_list() == [3, None]),
    "ek.RaggedTensor.nrows": call(numpy=lambda: np.int64(3)),
    "ek.RaggedTensor.nrows_int": call(check=lambda r: r == 3),
    "ek.RaggedTensor.row_lengths": call(numpy=lambda: np.array([2, 0, 1])),
    "ek.RaggedTensor.row_starts": call(numpy=lambda: np.array([0, 2, 2])),
    "ek.RaggedTensor.row_limits": call(numpy=lambda: np.array([2, 2, 3])),
    "ek.RaggedTensor.value_rowids": call(numpy=lambda: np.array([0, 0, 2])),
    "ek.RaggedTensor.nested_value_rowids": call(check=lambda r: r[0].numpy().tolist() == [0, 0, 2]),
    "ek.RaggedTensor.to_tensor": call(numpy=lambda: np.array([[1, 2], [0, 0], [3, 0]], "f4")),
    "ek.RaggedTensor.to_sparse": call(check=dense(np.array([[1, 2], [0, 0], [3, 0]], "f4"))),
    "ek.RaggedTensor.to_list": call(check=lambda r: r == ROWS),
    "ek.RaggedTensor.numpy": call(check=lambda r: [row.tolist() for row in r] == ROWS),
    "ek.RaggedTensor.with_values": call(
        ek.constant([2.0, 4.0, 6.0]), check=rows([[2.0, 4.0], [], [6.0]])
    ),
    "ek.RaggedTensor.with_flat_values": call(
        ek.constant([2.0, 4.0, 6.0]), check=rows([[2.0, 4.0], [], [6.0]])
    ),
    "ek.RaggedTensor.with_row_splits_dtype": call(
        ek.int32,
        check=lambda r: r.to_list() == ROWS,  # (eagerkit's splits stay int64)
    ),
    "ek.RaggedTensor.__getitem__": call(0, numpy=lambda i: np.array(ROWS[i], "f4")),
    "ek.RaggedTensor.__len__": call(check=lambda r: r == 3),
    "ek.RaggedTensor.__iter__": call(check=lambda r: [t.numpy().tolist() for t in r] == ROWS),
    "ek.RaggedTensor.__bool__": call(raises=TypeError),  # no truth value, as in TF
    "ek.RaggedTensor.__array__": call(raises=TypeError),  # not a rectangular array
    "ek.RaggedTensor.__repr__": call(
        check=lambda r: r == "<ek.RaggedTensor [[1.0, 2.0], [], [3.0]]>"
    ),
    "ek.RaggedTensor.__str__": call(check=lambda r: r.startswith("<ek.RaggedTensor")),
    # sparse tensors
    "ek.SparseTensor": call([[0, 0], [1, 1]], [1.0, 2.0], [2, 2], check=dense(DENSE)),
    "ek.SparseTensor.get_shape": call(check=lambda r: r.as_list() == [2, 2]),
    "ek.SparseTensor.with_values": call(ek.constant([2.0, 4.0]), check=dense(2 * DENSE)),
    "ek.SparseTensor.__neg__": call(check=dense(-DENSE)),
    "ek.SparseTensor.__mul__": call(2.0, check=dense(2 * DENSE)),
    "ek.SparseTensor.__rmul__": call(2.0, check=dense(2 * DENSE)),
    "ek.SparseTensor.__truediv__": call(2.0, check=dense(DENSE / 2)),
    "ek.SparseTensor.__bool__": call(raises=TypeError),
    "ek.SparseTensor.__repr__": call(check=lambda r: r.startswith("SparseTensor(indices=")),
    "ek.SparseTensor.__str__": call(check=lambda r: r.startswith("SparseTensor(indices=")),
    "ek.sparse.from_dense": call(DENSE, check=dense(DENSE)),
    "ek.sparse.to_dense": call(ST, numpy=lambda st: DENSE),
    "ek.sparse.add": call(ST, ST, check=dense(2 * DENSE)),
    "ek.sparse.concat": call(1, [ST, ST], check=dense(np.concatenate([DENSE, DENSE], 1))),
    "ek.sparse.map_values": call(ek.square, ST, check=dense(DENSE**2)),
    "ek.sparse.reduce_max": call(ST, axis=1, numpy=lambda st, axis: DENSE.max(axis)),
    "ek.sparse.reduce_sum": call(ST, axis=0, numpy=lambda st, axis: DENSE.sum(axis)),
    "ek.sparse.reorder": call(ST, check=dense(DENSE)),
    "ek.sparse.slice": call(ST, [0, 0], [1, 2], check=dense(DENSE[:1])),
    "ek.sparse.sparse_dense_matmul": call(
        ST, ek.constant([[1.0, 2.0], [3.0, 4.0]]), numpy=lambda st, b: DENSE @ b
    ),
    "ek.sparse.transpose": call(ST, check=dense(DENSE.T)),
    # complex numbers
    "ek.complex": call(F3, P3, numpy=lambda re, im: re + 1j * im),
    "ek.math.real": call(Z, numpy=lambda z: ZN.real),
    "ek.math.imag": call(Z, numpy=lambda z: ZN.imag),
    "ek.math.conj": call(Z, numpy=lambda z: ZN.conj()),
    "ek.math.angle": call(Z, numpy=lambda z: np.angle(ZN).astype(np.float32)),
    # splitting and decoding text
    "ek.strings.split": call(TEXT, check=rows([[b"hello", b"world"], [b"a", b"b"]])),
    "ek.strings.bytes_split": call(ek.constant("abc"), numpy=lambda s: [b"a", b"b", b"c"]),
    "ek.strings.substr": call(TEXT, 1, 3, numpy=lambda s, pos, n: [b"ell", b" b"]),
    "ek.strings.unicode_decode": call(
        ek.constant("h\u00e9"), "UTF-8", numpy=lambda s, e: np.array([104, 233], np.int32)
    ),
    "ek.strings.unicode_decode_with_offsets": call(
        ek.constant("h\u00e9"),
        "UTF-8",
        numpy=lambda s, e: (np.array([104, 233], np.int32), np.array([0, 1])),
    ),
    "ek.strings.unicode_encode": call(
        ek.constant([104, 233]), "UTF-8", check=lambda r: r.numpy() == "h\u00e9".encode()
    ),
    "ek.strings.unicode_split": call(
        ek.constant("h\u00e9"), "UTF-8", numpy=lambda s, e: [b"h", "\u00e9".encode()]
    ),
    "ek.strings.unicode_transcode": call(
        ek.constant("h\u00e9"),
        "UTF-8",
        "UTF-16-BE",
        check=lambda r: r.numpy() == "h\u00e9".encode("utf-16-be"),
    ),
    "ek.io.decode_raw": call(
        ek.constant("Duck"), ek.uint8, numpy=lambda s, t: np.frombuffer(b"Duck", np.uint8)
    ),
    # soft device placement (the valid call leaves TF2's default on)
    "ek.config.set_soft_device_placement": call(True, check=lambda r: r is None),
    "ek.config.get_soft_device_placement": call(check=lambda r: r is True),
}
_OPERATORS = _ragged_operators()
for _entry in walk.methods("ek.RaggedTensor", CLASSES["ek.RaggedTensor"].target).values():
    if _entry.attribute in _OPERATORS:
        CALLS[_entry.name] = _OPERATORS[_entry.attribute]
    if _entry.name in CALLS and CALLS[_entry.name].on is None:  # RaggedTensor() is not for users
        CALLS[_entry.name] = dataclasses.replace(CALLS[_entry.name], on=lambda: RT)

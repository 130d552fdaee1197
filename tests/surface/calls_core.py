"""Valid calls of the root namespace's ops (``ek.add`` ... ``ek.unstack``), with numpy's answers."""

import math

import numpy as np

import eagerkit as ek

from .declare import call
from .values import B3, F3, F23, F32, I3, I23, P3, P23, SPD, U23

_erf = np.vectorize(math.erf, otypes=[np.float32])

CALLS = {}
# x op y on two float tensors (the second broadcast), numpy's ufunc for each.
for _name, _numpy in {
    "add": np.add,
    "divide": np.divide,
    "floordiv": np.floor_divide,
    "floormod": np.mod,
    "maximum": np.maximum,
    "minimum": np.minimum,
    "multiply": np.multiply,
    "pow": lambda x, y: np.power(np.abs(x), y),
    "squared_difference": lambda x, y: (x - y) ** 2,
    "subtract": np.subtract,
    "logaddexp": np.logaddexp,
    "equal": np.equal,
    "not_equal": np.not_equal,
    "greater": np.greater,
    "greater_equal": np.greater_equal,
    "less": np.less,
    "less_equal": np.less_equal,
}.items():
    _x = ek.abs(F23) if _name == "pow" else F23
    CALLS[f"ek.{_name}"] = call(_x, P3, numpy=_numpy)
for _name, _numpy in {
    "logical_and": np.logical_and,
    "logical_or": np.logical_or,
    "logical_xor": np.logical_xor,
}.items():
    CALLS[f"ek.{_name}"] = call(B3, ek.constant([True, True, False]), numpy=_numpy)
CALLS["ek.logical_not"] = call(B3, numpy=np.logical_not)

# f(x) elementwise on a tensor in f's domain.
for _name, (_x, _numpy) in {
    "abs": (F23, np.abs),
    "ceil": (F23 / 3, np.ceil),
    "cos": (F23, np.cos),
    "cosh": (F23, np.cosh),
    "erf": (F23, _erf),
    "exp": (F23, np.exp),
    "expm1": (F23, np.expm1),
    "floor": (F23 / 3, np.floor),
    "log": (P23, np.log),
    "log1p": (P23, np.log1p),
    "log2": (P23, np.log2),
    "log10": (P23, np.log10),
    "negative": (F23, np.negative),
    "round": (F23 / 4, np.round),
    "rsqrt": (P23, lambda x: 1 / np.sqrt(x)),
    "sigmoid": (F23, lambda x: 1 / (1 + np.exp(-x))),
    "sign": (F23, np.sign),
    "sin": (F23, np.sin),
    "sinh": (F23, np.sinh),
    "sqrt": (P23, np.sqrt),
    "square": (F23, np.square),
    "tan": (U23, np.tan),
    "tanh": (F23, np.tanh),
    "identity": (F23, lambda x: x),
    "stop_gradient": (F23, lambda x: x),
}.items():
    CALLS[f"ek.{_name}"] = call(_x, numpy=_numpy)

# Reductions over axis 1, and over everything.
for _name, _numpy in {
    "reduce_sum": np.sum,
    "reduce_mean": np.mean,
    "reduce_max": np.max,
    "reduce_min": np.min,
    "reduce_prod": np.prod,
    "reduce_std": np.std,
    "reduce_variance": np.var,
    "reduce_logsumexp": lambda x, axis: np.log(np.sum(np.exp(x), axis=axis)),
    "argmax": np.argmax,
    "argmin": np.argmin,
}.items():
    CALLS[f"ek.{_name}"] = call(F23, axis=1, numpy=_numpy)
CALLS["ek.reduce_all"] = call(B3, axis=0, numpy=np.all)
CALLS["ek.reduce_any"] = call(B3, axis=0, numpy=np.any)
CALLS["ek.cumsum"] = call(F23, axis=1, numpy=lambda x, axis: np.cumsum(x, axis))
CALLS["ek.cumprod"] = call(F23, axis=1, numpy=lambda x, axis: np.cumprod(x, axis))
CALLS["ek.norm"] = call(F23, numpy=lambda x: np.linalg.norm(x))

# Shapes and arrangement.
CALLS.update(
    {
        "ek.broadcast_to": call(P3, [2, 3], numpy=np.broadcast_to),
        "ek.concat": call([F23, P23], 1, numpy=lambda v, axis: np.concatenate(v, axis)),
        "ek.expand_dims": call(F23, 1, numpy=np.expand_dims),
        "ek.rank": call(F23, numpy=np.ndim),
        "ek.reshape": call(F23, [3, 2], numpy=np.reshape),
        "ek.shape": call(F23, numpy=np.shape),
        "ek.size": call(F23, numpy=np.size),
        "ek.split": call(F23, 3, axis=1, numpy=lambda x, n, axis: np.split(x, n, axis)),
        "ek.squeeze": call(ek.ones([1, 3, 1]), numpy=np.squeeze),
        "ek.stack": call([F3, P3], 1, numpy=lambda v, axis: np.stack(v, axis)),
        "ek.tile": call(F23, [2, 1], numpy=np.tile),
        "ek.transpose": call(F23, numpy=np.transpose),
        "ek.unstack": call(F23, axis=1, numpy=lambda x, axis: list(np.moveaxis(x, axis, 0))),
        "ek.pad": call(F23, [[1, 0], [0, 2]], numpy=lambda x, p: np.pad(x, p)),
        "ek.repeat": call(F23, 2, axis=1, numpy=lambda x, r, axis: np.repeat(x, r, axis)),
        "ek.roll": call(F23, 1, 1, numpy=np.roll),
        "ek.reverse": call(F23, [1], numpy=lambda x, axes: np.flip(x, axis=tuple(axes))),
        "ek.slice": call(F23, [0, 1], [2, -1], numpy=lambda x, b, s: x[0:2, 1:]),
        "ek.meshgrid": call(F3, P3, check=lambda r: [t.shape for t in r] == [(3, 3), (3, 3)]),
        "ek.sequence_mask": call(
            [1, 3], 4, numpy=lambda lengths, n: np.arange(n) < np.array(lengths)[:, None]
        ),
        "ek.math.count_nonzero": call(B3, numpy=np.count_nonzero),
        "ek.ensure_shape": call(F23, [None, 3], numpy=lambda x, s: x),
        "ek.identity_n": call([F3, P3], check=lambda r: len(r) == 2),
        "ek.is_tensor": call(F3, check=lambda r: r is True, strict=True),  # an array: False
        "ek.no_op": call(check=lambda r: r is None),
        "ek.group": call(F3, P3, check=lambda r: r is None),
        "ek.control_dependencies": call([F3]),
        "ek.gather": call(F23, I3, axis=1, numpy=lambda x, i, axis: np.take(x, i, axis)),
        "ek.boolean_mask": call(F3, B3, numpy=lambda x, m: x[m]),
        "ek.where": call(ek.greater(F23, 0.0), F23, P23, numpy=np.where),
        "ek.one_hot": call(I3, 3, numpy=lambda i, d: np.eye(d, dtype=np.float32)[i]),
        "ek.sort": call(F23, numpy=np.sort),
        "ek.argsort": call(F23, numpy=np.argsort),
        "ek.top_k": call(F3, k=2, numpy=lambda x, k: [np.sort(x)[::-1][:k], np.argsort(-x)[:k]]),
        "ek.segment_sum": call(
            F32, ek.constant([0, 0, 1]), numpy=lambda x, s: [x[:2].sum(0), x[2]]
        ),
        "ek.unsorted_segment_sum": call(
            F32, ek.constant([1, 0, 1]), 2, numpy=lambda x, s, n: [x[1], x[0] + x[2]]
        ),
        "ek.clip_by_value": call(F23, -1.0, 2.0, numpy=np.clip),
        "ek.clip_by_norm": call(F23, 1.0, numpy=lambda x, c: x / np.linalg.norm(x)),
        "ek.cast": call(F23, ek.int32, numpy=lambda x, d: x.astype(np.int32)),
        "ek.to_float": call(I23, numpy=lambda x: x.astype(np.float32)),
        "ek.to_double": call(I23, numpy=lambda x: x.astype(np.float64)),
        "ek.to_int32": call(F23, numpy=lambda x: np.trunc(x).astype(np.int32)),
        "ek.to_int64": call(F23, numpy=lambda x: np.trunc(x).astype(np.int64)),
    }
)

# Linear algebra.
CALLS.update(
    {
        "ek.matmul": call(F23, F32, numpy=np.matmul),
        "ek.tensordot": call(F23, F32, 1, numpy=lambda a, b, n: np.tensordot(a, b, n)),
        "ek.einsum": call("ij,jk->ik", F23, F32, numpy=np.einsum),
        "ek.cholesky": call(SPD, numpy=np.linalg.cholesky),
        "ek.matrix_determinant": call(SPD, numpy=np.linalg.det),
        "ek.matrix_inverse": call(SPD, numpy=np.linalg.inv),
        "ek.matrix_solve": call(SPD, ek.constant([[1.0], [2.0]]), numpy=np.linalg.solve),
        "ek.matrix_band_part": call(SPD, 0, -1, numpy=lambda x, lower, upper: np.triu(x)),
        "ek.matrix_diag": call(P3, numpy=np.diag),
        "ek.matrix_diag_part": call(SPD, numpy=np.diag),
        "ek.trace": call(SPD, numpy=np.trace),
    }
)

# Making tensors.
CALLS.update(
    {
        "ek.constant": call([[1.0, 2.0]], numpy=lambda v: np.array(v, np.float32)),
        "ek.convert_to_tensor": call([1, 2], numpy=lambda v: np.array(v, np.int32)),
        "ek.zeros": call([2, 3], numpy=np.zeros),
        "ek.ones": call([2, 3], numpy=np.ones),
        "ek.zeros_like": call(F23, numpy=np.zeros_like),
        "ek.ones_like": call(F23, numpy=np.ones_like),
        "ek.fill": call([2, 3], 1.5, numpy=np.full),
        "ek.eye": call(3, numpy=np.eye),
        "ek.linspace": call(0.0, 1.0, 5, numpy=np.linspace),
        "ek.range": call(1, 10, 3, numpy=np.arange),
        "ek.random_normal": call([2, 3], seed=1, check=lambda r: _shape_and_dtype(r, (2, 3))),
        "ek.random_uniform": call([2, 3], seed=1, check=lambda r: _in_range(r, 0.0, 1.0)),
        "ek.truncated_normal": call([2, 3], seed=1, check=lambda r: _in_range(r, -2.0, 2.0)),
        "ek.multinomial": call(ek.log(P23), 4, seed=1, check=lambda r: _in_range(r, 0, 2)),
        "ek.set_random_seed": call(3),
        "ek.copy_to_device": call(F23, "/cpu:0", numpy=lambda x, d: x),
    }
)


def _shape_and_dtype(result, shape, dtype=ek.float32):
    assert result.shape == shape and result.dtype == dtype, repr(result)


def _in_range(result, low, high):
    values = result.numpy()
    assert (values >= low).all() and (values <= high).all(), values

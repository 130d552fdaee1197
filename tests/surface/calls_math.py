"""Valid calls of the ``ek.math`` and ``ek.nn`` functions issue 16's exercises brought
(``reciprocal``, ``divide_no_nan``, ``softsign`` ...), with numpy's answers."""

import numpy as np
import scipy.special

import eagerkit as ek

from .declare import call
from .values import F3, F23, F32, I3, LABELS, P3, P23, PROBS, SPD, U23

X = F3.numpy()  # [0.5, -1.5, 2.0]
D = ek.constant([0.0, 2.0, 4.0])  # a divisor with a zero
SPECIAL = ek.constant([1.0, np.nan, np.inf])
_sigmoid = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731


def _safe(values, where):
    """``values`` with 0 where ``where`` holds (TF's *_no_nan)."""
    return np.where(where, 0.0, values).astype(np.float32)


with np.errstate(divide="ignore", invalid="ignore"):
    CALLS = {
        "ek.add_n": call([F3, P3, F3], numpy=lambda xs: xs[0] + xs[1] + xs[2]),
        "ek.clip_by_global_norm": call(
            [F3, None, P3],
            1.0,
            check=lambda r: (
                r[0][1] is None
                and np.isclose(float(r[1]), np.sqrt((X**2).sum() + (P3.numpy() ** 2).sum()))
                and np.allclose(r[0][0].numpy(), X / float(r[1]))
            ),
        ),
        "ek.linalg.global_norm": call(
            [F3, P23], numpy=lambda ts: np.sqrt(sum((t**2).sum() for t in ts))
        ),
        "ek.linalg.matvec": call(P23, F3, numpy=lambda a, b: a @ b),
        "ek.math.divide_no_nan": call(F3, D, numpy=lambda x, y: _safe(x / y, y == 0)),
        "ek.math.multiply_no_nan": call(SPECIAL, D, numpy=lambda x, y: _safe(x * y, y == 0)),
        "ek.math.is_finite": call(SPECIAL, numpy=np.isfinite),
        "ek.math.is_inf": call(SPECIAL, numpy=np.isinf),
        "ek.math.is_nan": call(SPECIAL, numpy=np.isnan),
        "ek.math.log_sigmoid": call(F23, numpy=lambda x: np.log(_sigmoid(x))),
        "ek.reciprocal": call(F3, numpy=lambda x: 1 / x),
        "ek.math.reciprocal_no_nan": call(D, numpy=lambda x: _safe(1 / x, x == 0)),
        "ek.math.reduce_euclidean_norm": call(
            F23, axis=1, numpy=lambda x, axis: np.sqrt((x**2).sum(axis))
        ),
        "ek.math.xdivy": call(D, P3, numpy=lambda x, y: _safe(x / y, x == 0)),
        "ek.math.xlogy": call(D, P3, numpy=lambda x, y: _safe(x * np.log(y), x == 0)),
        "ek.math.xlog1py": call(D, P3, numpy=lambda x, y: _safe(x * np.log1p(y), x == 0)),
        "ek.nn.l2_normalize": call(
            P23, axis=1, numpy=lambda x, axis: x / np.sqrt((x**2).sum(axis, keepdims=True))
        ),
        "ek.nn.relu6": call(F23 * 3, numpy=lambda x: np.clip(x, 0, 6)),
        "ek.nn.selu": call(
            F23,
            numpy=lambda x: (
                1.0507009873554805 * np.where(x > 0, x, 1.6732632423543772 * (np.exp(x) - 1))
            ),
        ),
        "ek.nn.moments": call(
            P23, [0], check=lambda r: np.allclose(r[1].numpy(), P23.numpy().var(0))
        ),
        "ek.nn.batch_normalization": call(
            P23,
            ek.constant([2.5, 3.5, 4.5]),
            ek.constant([2.25, 2.25, 2.25]),
            None,
            None,
            0.0,
            numpy=lambda x, m, v, o, s, e: (x - m) / np.sqrt(v),
        ),
        "ek.nn.dropout": call(
            P23,
            0.5,
            seed=1,
            check=lambda r: set(np.unique(r.numpy() / (2 * P23.numpy()))) <= {0.0, 1.0},
        ),
        "ek.nn.softsign": call(F23, numpy=lambda x: x / (1 + np.abs(x))),
        "ek.nn.swish": call(F23, numpy=lambda x: x * _sigmoid(x)),
        "ek.asin": call(U23, numpy=np.arcsin),
        "ek.acos": call(U23, numpy=np.arccos),
        "ek.atan": call(F23, numpy=np.arctan),
        "ek.atan2": call(F23, P23, numpy=np.arctan2),
        "ek.asinh": call(F23, numpy=np.arcsinh),
        "ek.acosh": call(P23, numpy=np.arccosh),
        "ek.atanh": call(U23, numpy=np.arctanh),
        "ek.scatter_nd": call(
            [[2], [0], [2]], F32, [4, 2], numpy=lambda i, u, s: _scatter_nd_reference(i, u, s)
        ),
        "ek.gather_nd": call(F32, [[2, 1], [0, 0]], numpy=lambda p, i: p[tuple(np.transpose(i))]),
        "ek.tensor_scatter_nd_update": call(
            F32, [[2], [0]], P23[:, :2], numpy=lambda t, i, u: _replaced(t, i, u)
        ),
        "ek.tensor_scatter_nd_add": call(
            F32,
            [[2], [2]],
            P23[:, :2],
            numpy=lambda t, i, u: t + _scatter_nd_reference(i, u, t.shape),
        ),
        "ek.tensor_scatter_nd_sub": call(
            F32, [[1, 0]], [5.0], numpy=lambda t, i, u: t - _scatter_nd_reference(i, u, t.shape)
        ),
        "ek.strided_slice": call(
            F32, [2, 1], [0, 0], [-1, 1], end_mask=2, numpy=lambda x, *_, end_mask: x[2:0:-1, 1:]
        ),
        "ek.tensor_scatter_nd_min": call(
            F32, [[2], [2]], P23[:, :2], numpy=lambda t, i, u: _extreme(np.minimum, t, i, u)
        ),
        "ek.tensor_scatter_nd_max": call(
            F32, [[2], [0]], P23[:, :2], numpy=lambda t, i, u: _extreme(np.maximum, t, i, u)
        ),
        "ek.unique": call(
            I3 * 0 + ek.constant([2, 0, 2]),
            check=lambda r: r.y.numpy().tolist() == [2, 0] and r.idx.numpy().tolist() == [0, 1, 0],
        ),
        "ek.unique().__repr__": call(check=lambda r: r.startswith("Unique(y=")),
        "ek.unique().__getnewargs__": call(),
        "ek.unique_with_counts().__repr__": call(check=lambda r: r.startswith("UniqueWithCounts(")),
        "ek.unique_with_counts().__getnewargs__": call(),
        "ek.unique_with_counts": call(
            ek.constant([5, 5, 1]), check=lambda r: r.count.numpy().tolist() == [2, 1]
        ),
        "ek.searchsorted": call(
            P3, F3, side="right", numpy=lambda s, v, side: np.searchsorted(s, v, side=side)
        ),
        "ek.nn.in_top_k": call(
            LABELS, PROBS, 2, numpy=lambda t, p, k: (p > p[[0, 1], t][:, None]).sum(1) < k
        ),
        "ek.math.confusion_matrix": call(
            I3,
            ek.constant([0, 1, 1]),
            numpy=lambda a, b: np.array([[1, 0, 0], [0, 1, 0], [0, 1, 0]]),
        ),
        "ek.math.polyval": call([P3, F3], F3, numpy=lambda c, x: c[0] * x + c[1]),
        "ek.math.rint": call(F3, numpy=np.rint),
        "ek.math.bincount": call(
            I3, minlength=4, numpy=lambda a, minlength: np.bincount(a, minlength=4)
        ),
        "ek.math.segment_mean": call(
            F32, ek.constant([0, 0, 2]), numpy=lambda d, s: np.array([[2.0, 3.0], [0, 0], [5, 6]])
        ),
        "ek.math.segment_max": call(
            F32, ek.constant([0, 0, 2]), numpy=lambda d, s: np.array([[3.0, 4.0], [0, 0], [5, 6]])
        ),
        "ek.linalg.eigh": call(
            SPD, check=lambda r: np.allclose(r[0].numpy(), np.linalg.eigvalsh(SPD.numpy()))
        ),
        "ek.linalg.eigvalsh": call(SPD, numpy=np.linalg.eigvalsh),
        "ek.linalg.qr": call(
            F32, check=lambda r: np.allclose((r[0] @ r[1]).numpy(), F32.numpy(), atol=1e-5)
        ),
        "ek.linalg.slogdet": call(
            SPD, check=lambda r: np.allclose([float(r[0]), float(r[1])], np.linalg.slogdet(SPD))
        ),
        "ek.linalg.logdet": call(SPD, numpy=lambda a: np.linalg.slogdet(a)[1]),
        "ek.linalg.adjoint": call(F32, numpy=np.transpose),
        "ek.linalg.triangular_solve": call(
            SPD, F32[:2], numpy=lambda a, b: np.linalg.solve(np.tril(a), b)
        ),
        "ek.math.lbeta": call(
            P3, numpy=lambda x: scipy.special.gammaln(x).sum() - scipy.special.gammaln(x.sum())
        ),
        "ek.linalg.pinv": call(F32, numpy=lambda a: np.linalg.pinv(a)),
        "ek.linalg.lstsq": call(
            F32, F32[:, :1], numpy=lambda a, b: np.linalg.lstsq(a, b, rcond=None)[0]
        ),
        "ek.linalg.cross": call(F23, P23, numpy=np.cross),
        "ek.math.lgamma": call(P23, numpy=lambda x: scipy.special.gammaln(x)),
        "ek.math.digamma": call(P23, numpy=lambda x: scipy.special.psi(x)),
        "ek.math.polygamma": call(
            ek.constant(1.0), P23, numpy=lambda a, x: scipy.special.polygamma(1, x)
        ),
        "ek.math.erfinv": call(U23, numpy=lambda x: scipy.special.erfinv(x)),
    }


def _scatter_nd_reference(indices, updates, shape):
    """numpy's scatter_nd: zeros with each update added at its index tuple."""
    result = np.zeros(shape, dtype=np.asarray(updates).dtype)
    np.add.at(result, tuple(np.transpose(indices)), updates)
    return result


def _extreme(ufunc, tensor, indices, updates):
    """numpy's tensor_scatter_nd_min/max: ``ufunc.at`` folds in every update, repeats too."""
    result = np.array(tensor)
    ufunc.at(result, tuple(np.transpose(indices)), updates)
    return result


def _replaced(tensor, indices, updates):
    result = np.array(tensor)
    result[tuple(np.transpose(indices))] = updates
    return result

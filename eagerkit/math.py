"""``ek.math``: elementwise math, comparisons and reductions, laid out as ``tf.math``.

The same functions as the flat names (``ek.math.exp is ek.exp``); code written for TF2
(``tf.math.reduce_sum``, ``tf.math.sigmoid``) runs unchanged.

Examples
--------
>>> import eagerkit as ek
>>> ek.math.reduce_sum([[1.0, 2.0], [3.0, 4.0]], axis=1)
<ek.Tensor: shape=(2,), dtype=float32, numpy=array([3., 7.], dtype=float32)>
"""

from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError
from eagerkit.ops.arithmetic import (
    add,
    divide,
    floordiv,
    floormod,
    maximum,
    minimum,
    multiply,
    pow,
    squared_difference,
    subtract,
    truediv,
)
from eagerkit.ops.bincount import bincount
from eagerkit.ops.classification import confusion_matrix, in_top_k
from eagerkit.ops.compare import (
    equal,
    greater,
    greater_equal,
    less,
    less_equal,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    not_equal,
)
from eagerkit.ops.complex import angle, conj, imag, real
from eagerkit.ops.compositions import count_nonzero
from eagerkit.ops.creation import zeros_like
from eagerkit.ops.exp_log import cosh, erf, expm1, log2, log10, logaddexp, sinh
from eagerkit.ops.math import (
    abs,
    ceil,
    cos,
    exp,
    floor,
    log,
    log1p,
    negative,
    round,
    rsqrt,
    sigmoid,
    sign,
    sin,
    sqrt,
    square,
    tan,
    tanh,
)
from eagerkit.ops.nn import l2_normalize, log_softmax, softmax, softplus
from eagerkit.ops.reduce import (
    argmax,
    argmin,
    reduce_all,
    reduce_any,
    reduce_logsumexp,
    reduce_max,
    reduce_mean,
    reduce_min,
    reduce_prod,
    reduce_sum,
)
from eagerkit.ops.safe_math import (
    divide_no_nan,
    is_finite,
    is_inf,
    is_nan,
    log_sigmoid,
    multiply_no_nan,
    reciprocal,
    reciprocal_no_nan,
    softsign,
    xdivy,
    xlog1py,
    xlogy,
)
from eagerkit.ops.scan import cumprod, cumsum
from eagerkit.ops.segment import segment_sum, unsorted_segment_sum
from eagerkit.ops.segment_stats import segment_max, segment_mean
from eagerkit.ops.sorting import top_k
from eagerkit.ops.special import digamma, erfinv, lbeta, lgamma, polygamma
from eagerkit.ops.statistics import reduce_std, reduce_variance
from eagerkit.ops.trig import acos, acosh, asin, asinh, atan, atan2, atanh
from eagerkit.tensor import Tensor, convert_to_tensor

mod = floormod  # tf.math.mod is floormod


def reduce_euclidean_norm(input_tensor, axis=None, keepdims=False, name=None):
    """sqrt(sum(x²)) over ``axis`` (``tf.math.reduce_euclidean_norm``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.math.reduce_euclidean_norm([[3.0, 4.0]], axis=1)
    <ek.Tensor: shape=(1,), dtype=float32, numpy=array([5.], dtype=float32)>
    """
    x = convert_to_tensor(input_tensor)
    return sqrt(reduce_sum(x * x, axis=axis, keepdims=keepdims))


def add_n(inputs, name=None):
    """The elementwise sum of a list of tensors of one shape (``tf.math.add_n``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.math.add_n([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([ 9., 12.], dtype=float32)>
    """
    if isinstance(inputs, Tensor) or not isinstance(inputs, (list, tuple)) or not inputs:
        raise InvalidArgumentError(
            f"add_n: inputs must be a non-empty list of tensors of one shape and dtype, got "
            f"{describe(inputs)}; e.g. ek.add_n([a, b, c])",
            op="add_n",
        )
    tensors = [convert_to_tensor(t) for t in inputs]
    shapes = {tuple(t.shape) for t in tensors}
    if len(shapes) != 1:  # TF's AddN adds, it does not broadcast
        raise InvalidArgumentError(
            f"add_n: all inputs must have one shape (add_n does not broadcast), got shapes "
            f"{[tuple(t.shape) for t in tensors]}; use ek.broadcast_to or + for broadcasting",
            op="add_n",
        )
    total = tensors[0]
    for t in tensors[1:]:
        total = add(total, t)
    return total


def rint(x, name=None):
    """The nearest whole number, halves to the even one (``tf.math.rint``); floats only,
    no gradient (as TF).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.math.rint([-1.5, -0.5, 0.5, 1.5, 2.7])
    <ek.Tensor: shape=(5,), dtype=float32, numpy=array([-2., -0.,  0.,  2.,  3.], dtype=float32)>
    """
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:  # TF's Rint has float kernels only
        raise InvalidArgumentError(
            f"rint: x must be float16, float32 or float64, got {x.dtype.name}{list(x.shape)}; "
            "whole numbers are already whole (or ek.cast(x, ek.float32) first)",
            op="rint",
        )
    return round(x)


def polyval(coeffs, x, name=None):
    """The polynomial ``coeffs[0] * x**(n-1) + ... + coeffs[n-1]`` at ``x`` (Horner's rule).

    ``coeffs`` is a list (highest power first, as ``tf.math.polyval`` and ``numpy.polyval``);
    each coefficient may be a tensor that broadcasts with ``x``. No coefficients give 0.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.math.polyval([2.0, 0.0, 1.0], [1.0, 3.0])  # 2x² + 1
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([ 3., 19.], dtype=float32)>
    """
    if not isinstance(coeffs, (list, tuple)):
        raise InvalidArgumentError(
            f"polyval: coeffs must be a list of coefficients, highest power first, got "
            f"{describe(coeffs)}; for a tensor of coefficients c pass ek.unstack(c)",
            op="polyval",
        )
    x = convert_to_tensor(x)
    if not coeffs:
        return zeros_like(x)
    result = convert_to_tensor(coeffs[0], dtype=x.dtype)
    for coefficient in coeffs[1:]:  # ((c0 x + c1) x + c2) ...: n - 1 multiplies, no powers
        result = result * x + convert_to_tensor(coefficient, dtype=x.dtype)
    return result


__all__ = [
    "add_n",
    "bincount",
    "lbeta",
    "rint",
    "segment_max",
    "segment_mean",
    "count_nonzero",
    "confusion_matrix",
    "in_top_k",
    "polyval",
    "softmax",
    "log_softmax",
    "reduce_euclidean_norm",
    "l2_normalize",
    "xlogy",
    "xlog1py",
    "xdivy",
    "softsign",
    "reciprocal_no_nan",
    "reciprocal",
    "multiply_no_nan",
    "log_sigmoid",
    "is_nan",
    "is_inf",
    "is_finite",
    "divide_no_nan",
    "abs",
    "acos",
    "acosh",
    "add",
    "angle",
    "argmax",
    "argmin",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "ceil",
    "conj",
    "cos",
    "cosh",
    "cumprod",
    "cumsum",
    "digamma",
    "divide",
    "equal",
    "erf",
    "erfinv",
    "exp",
    "expm1",
    "floor",
    "floordiv",
    "floormod",
    "greater",
    "greater_equal",
    "imag",
    "less",
    "less_equal",
    "lgamma",
    "log",
    "log10",
    "log1p",
    "log2",
    "logaddexp",
    "logical_and",
    "logical_not",
    "logical_or",
    "logical_xor",
    "maximum",
    "minimum",
    "mod",
    "multiply",
    "negative",
    "not_equal",
    "polygamma",
    "pow",
    "real",
    "reduce_all",
    "reduce_any",
    "reduce_logsumexp",
    "reduce_max",
    "reduce_mean",
    "reduce_min",
    "reduce_prod",
    "reduce_std",
    "reduce_sum",
    "reduce_variance",
    "round",
    "rsqrt",
    "segment_sum",
    "sigmoid",
    "sign",
    "sin",
    "sinh",
    "softplus",
    "sqrt",
    "square",
    "squared_difference",
    "subtract",
    "tan",
    "tanh",
    "top_k",
    "truediv",
    "unsorted_segment_sum",
]

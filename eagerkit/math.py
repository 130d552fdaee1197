"""``ek.math``: elementwise math, comparisons and reductions, laid out as ``tf.math``.

The same functions as the flat names (``ek.math.exp is ek.exp``); code written for TF2
(``tf.math.reduce_sum``, ``tf.math.sigmoid``) runs unchanged.

Examples
--------
>>> import eagerkit as ek
>>> ek.math.reduce_sum([[1.0, 2.0], [3.0, 4.0]], axis=1)
<ek.Tensor: shape=(2,), dtype=float32, numpy=array([3., 7.], dtype=float32)>
"""

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
from eagerkit.ops.nn import softplus
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
from eagerkit.ops.scan import cumprod, cumsum
from eagerkit.ops.segment import segment_sum, unsorted_segment_sum
from eagerkit.ops.sorting import top_k
from eagerkit.ops.statistics import reduce_std, reduce_variance

mod = floormod  # tf.math.mod is floormod

__all__ = [
    "abs",
    "add",
    "angle",
    "argmax",
    "argmin",
    "ceil",
    "conj",
    "cos",
    "cosh",
    "cumprod",
    "cumsum",
    "divide",
    "equal",
    "erf",
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

"""Which ops take ragged tensors, and how (registered with type_dispatch.py).

Elementwise ops run on the flat values (elementwise.py); reductions, ``concat`` and
``tile`` rebuild the rows (structure.py). An op not listed here refuses a RaggedTensor with
its usual error.
"""

from eagerkit import type_dispatch
from eagerkit.ops import arithmetic, compare, exp_log, math, nn, strings
from eagerkit.ops import complex as complex_ops
from eagerkit.ops.cast import cast
from eagerkit.ops.shape import identity
from eagerkit.ragged import elementwise, structure

BINARY = {
    **{n: getattr(arithmetic, n) for n in ("add", "subtract", "multiply", "truediv")},
    **{n: getattr(arithmetic, n) for n in ("floordiv", "mod", "pow", "maximum", "minimum")},
    "squared_difference": arithmetic.squared_difference,
    **{n: getattr(compare, n) for n in ("equal", "not_equal", "less", "less_equal")},
    **{n: getattr(compare, n) for n in ("greater", "greater_equal", "logical_and")},
    **{n: getattr(compare, n) for n in ("logical_or", "logical_xor")},
}
UNARY = {
    **{n: getattr(math, n) for n in ("negative", "abs", "sign", "square", "sqrt", "rsqrt")},
    **{n: getattr(math, n) for n in ("exp", "log", "log1p", "sin", "cos", "tan", "tanh")},
    **{n: getattr(math, n) for n in ("sigmoid", "round", "floor", "ceil")},
    **{n: getattr(exp_log, n) for n in ("erf", "expm1", "log2", "log10", "cosh", "sinh")},
    **{n: getattr(complex_ops, n) for n in ("real", "imag", "conj", "angle")},
    "logical_not": compare.logical_not,
    "relu": nn.relu,
    "softplus": nn.softplus,
    "identity": identity,
    "cast": cast,
    # String ops, by their op names and their public names.
    **{f"string_{n}": getattr(strings, n) for n in ("length", "lower", "upper", "strip")},
    **{n: getattr(strings, n) for n in ("length", "lower", "upper", "strip", "substr")},
    **{n: getattr(strings, n) for n in ("regex_replace", "to_number", "as_string")},
}
REDUCTIONS = ("reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod")
REDUCTIONS += ("reduce_any", "reduce_all")

for _name, _op in BINARY.items():
    type_dispatch.register(_name, "ragged")(elementwise.binary(_op))
for _name, _op in UNARY.items():
    type_dispatch.register(_name, "ragged")(elementwise.unary(_op))
for _name in REDUCTIONS:
    type_dispatch.register(_name, "ragged")(structure.reduction(_name))
type_dispatch.register("concat", "ragged")(structure.concat)
type_dispatch.register("tile", "ragged")(structure.tile)

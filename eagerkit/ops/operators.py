"""Python operators on Tensors: ``x + y`` is ``ek.add(x, y)``, ``x[0]`` is an indexing op.

Attached here, next to the ops they call, so tensor.py stays free of op imports.
"""

from eagerkit.ops import arithmetic, compare, indexing, linalg, math
from eagerkit.tensor import Tensor


def _reflected(op):
    def reflected(self, other):
        return op(other, self)

    return reflected


def _equal(self, other):
    # TF2: == is elementwise. Comparing with None (or text with a number) is plainly False.
    if other is None or (isinstance(other, (str, bytes)) and not self.dtype.is_string):
        return False
    return compare.equal(self, other)


def _not_equal(self, other):
    if other is None or (isinstance(other, (str, bytes)) and not self.dtype.is_string):
        return True
    return compare.not_equal(self, other)


def _bool_only(op, symbol):
    def operator(self, other):
        if not self.dtype.is_bool:
            raise TypeError(
                f"'{symbol}' works on bool tensors only (this one is {self.dtype.name}); "
                "compare first, e.g. (x > 0) & (x < 1)"
            )
        return op(self, other)

    return operator


def attach():
    # Binary ops are stored as plain functions, so t.__add__(o) calls add(t, o) directly.
    binary = {
        "add": arithmetic.add,
        "sub": arithmetic.subtract,
        "mul": arithmetic.multiply,
        "truediv": arithmetic.truediv,
        "floordiv": arithmetic.floordiv,
        "mod": arithmetic.mod,
        "pow": arithmetic.pow,
        "matmul": linalg.matmul,
    }
    for name, op in binary.items():
        setattr(Tensor, f"__{name}__", op)
        setattr(Tensor, f"__r{name}__", _reflected(op))
    Tensor.__neg__ = math.negative
    Tensor.__pos__ = lambda self: self
    Tensor.__abs__ = math.abs
    Tensor.__eq__ = _equal
    Tensor.__ne__ = _not_equal
    Tensor.__lt__ = compare.less
    Tensor.__le__ = compare.less_equal
    Tensor.__gt__ = compare.greater
    Tensor.__ge__ = compare.greater_equal
    Tensor.__and__ = _bool_only(compare.logical_and, "&")
    Tensor.__or__ = _bool_only(compare.logical_or, "|")
    Tensor.__xor__ = _bool_only(compare.logical_xor, "^")
    Tensor.__rand__ = _reflected(compare.logical_and)
    Tensor.__ror__ = _reflected(compare.logical_or)
    Tensor.__rxor__ = _reflected(compare.logical_xor)
    Tensor.__invert__ = compare.logical_not
    Tensor.__getitem__ = indexing.getitem
    Tensor.__hash__ = None  # defining __eq__ elementwise makes tensors unhashable, as in TF2


attach()

"""Tensor's Python operators: ``x * y`` is ``ek.multiply(x, y)``, ``x == y`` is ``ek.equal``.

Each operator is the public op named here, recorded on tapes like any call of it. The ops
are written on top of Tensor (``ops/``), so they cannot exist while ``tensor.py`` runs: once
they do, ``ops/__init__.py`` hands them to ``install_operators``, and Tensor never imports
an op.

Examples
--------
>>> import eagerkit as ek
>>> x = ek.constant([1.0, 2.0])
>>> (2 * x).numpy(), (x == 2.0).numpy()
(array([2., 4.], dtype=float32), array([False,  True]))
"""

from eagerkit import errors
from eagerkit.tensor import Tensor

BINARY_OPERATORS = {  # x <symbol> y, and y <symbol> x (reflected, "__r<symbol>__")
    "add": "add",
    "sub": "subtract",
    "mul": "multiply",
    "truediv": "truediv",
    "floordiv": "floordiv",
    "mod": "mod",
    "pow": "pow",
    "matmul": "matmul",
}
UNARY_OPERATORS = {"neg": "negative", "abs": "abs", "invert": "logical_not", "getitem": "getitem"}
COMPARISONS = {"lt": "less", "le": "less_equal", "gt": "greater", "ge": "greater_equal"}
BOOL_OPERATORS = {  # bool tensors only: x & y, x | y, x ^ y
    "and": ("logical_and", "&"),
    "or": ("logical_or", "|"),
    "xor": ("logical_xor", "^"),
}


def install_operators(ops):
    """Give Tensor its operators: ``ops`` maps an op's name to its public function."""
    for symbol, name in {**BINARY_OPERATORS, **COMPARISONS}.items():
        setattr(Tensor, f"__{symbol}__", ops[name])  # a plain function: no extra call
    for symbol, name in UNARY_OPERATORS.items():
        setattr(Tensor, f"__{symbol}__", ops[name])
    for symbol, name in BINARY_OPERATORS.items():
        setattr(Tensor, f"__r{symbol}__", _reflected(ops[name]))
    for symbol, (name, text) in BOOL_OPERATORS.items():
        setattr(Tensor, f"__{symbol}__", _bool_only(ops[name], text))
        setattr(Tensor, f"__r{symbol}__", _reflected(ops[name]))
    Tensor.__eq__ = _elementwise(ops["equal"], False)  # TF2: == compares element by element
    Tensor.__ne__ = _elementwise(ops["not_equal"], True)
    Tensor.__pos__ = lambda self: self


def _reflected(op):
    def reflected(self, other):  # 2 * x: Python asks x.__rmul__(2)
        return op(other, self)

    return reflected


def _elementwise(op, against_none):
    def compare(self, other):
        # x == None, or numbers == text, is plainly False (TF2); anything else, elementwise.
        if other is None or (isinstance(other, (str, bytes)) and not self.dtype.is_string):
            return against_none
        return op(self, other)

    return compare


def _bool_only(op, symbol):
    def operator(self, other):
        if not self.dtype.is_bool:
            raise errors.type_error(
                f"{op.__name__} ('{symbol}') works on bool tensors only (this one is "
                f"{self.dtype.name}{list(self.shape)}); compare first, e.g. (x > 0) & (x < 1)",
                op=op.__name__,
            )
        return op(self, other)

    return operator

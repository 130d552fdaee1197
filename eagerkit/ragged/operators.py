"""RaggedTensor's operators: ``rt + 1`` is ``ek.add(rt, 1)`` on the flat values (as for a
Tensor, each operator is the op that dispatch.py registers for ragged tensors), inside the
error boundary: a bad operand fails naming the op (``RaggedTensor.add``)."""

from eagerkit.boundary import public_method
from eagerkit.operators import BINARY_OPERATORS, BOOL_OPERATORS, COMPARISONS
from eagerkit.ragged.dispatch import BINARY, UNARY
from eagerkit.ragged.elementwise import binary, unary
from eagerkit.ragged.ragged_tensor import RaggedTensor


def _reflected(function):
    def reflected(self, other):
        return function(other, self)

    return reflected


def _operator(name, reflected=False):
    """The method for op ``name`` (``other <op> self`` when ``reflected``), in the boundary."""
    function = binary(BINARY[name])
    return public_method(_reflected(function) if reflected else function, name)


def install():
    arithmetic = {**BINARY_OPERATORS, **{s: n for s, (n, _text) in BOOL_OPERATORS.items()}}
    for symbol, name in arithmetic.items():
        if name in BINARY:
            setattr(RaggedTensor, f"__{symbol}__", _operator(name))
            setattr(RaggedTensor, f"__r{symbol}__", _operator(name, reflected=True))
    # Python reflects a comparison itself (2 < rt is rt > 2): no __rlt__, as for Tensor.
    for symbol, name in COMPARISONS.items():
        if name in BINARY:
            setattr(RaggedTensor, f"__{symbol}__", _operator(name))
    for symbol, name in {"neg": "negative", "abs": "abs", "invert": "logical_not"}.items():
        setattr(RaggedTensor, f"__{symbol}__", public_method(unary(UNARY[name]), name))


install()

"""RaggedTensor's operators: ``rt + 1`` is ``ek.add(rt, 1)`` on the flat values (as for a
Tensor, each operator is the op that dispatch.py registers for ragged tensors)."""

from eagerkit.ragged.dispatch import BINARY, UNARY
from eagerkit.ragged.elementwise import binary, unary
from eagerkit.ragged.ragged_tensor import RaggedTensor
from eagerkit.tensor import BINARY_OPERATORS, BOOL_OPERATORS, COMPARISONS


def _reflected(function):
    def reflected(self, other):
        return function(other, self)

    return reflected


def install():
    for symbol, name in {**BINARY_OPERATORS, **COMPARISONS}.items():
        if name in BINARY:
            setattr(RaggedTensor, f"__{symbol}__", binary(BINARY[name]))
            setattr(RaggedTensor, f"__r{symbol}__", _reflected(binary(BINARY[name])))
    for symbol, (name, _text) in BOOL_OPERATORS.items():
        setattr(RaggedTensor, f"__{symbol}__", binary(BINARY[name]))
    RaggedTensor.__neg__ = unary(UNARY["negative"])
    RaggedTensor.__abs__ = unary(UNARY["abs"])
    RaggedTensor.__invert__ = unary(UNARY["logical_not"])


install()

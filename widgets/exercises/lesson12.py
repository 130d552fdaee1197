"""Lesson 12 (write your own op): a VJP fixed, an op written whole, a VJP made twice
differentiable. The student's answer is the op ``defop`` returned."""

import numpy as np

import eagerkit as ek
from eagerkit.backprop import vjp_ops
from eagerkit.devices import get_device

from .diagnose import is_users_op
from .exercise import FunctionExercise, _NotAnswered


class OpExercise(FunctionExercise):
    """A FunctionExercise whose answer is a registered op: its forward and VJPs are the
    student's. A forward or VJP still ``...`` (or returning None) is "not answered yet"."""

    def judge(self, op_function):
        op = getattr(op_function, "op", None)
        if op is None or not is_users_op(op):
            return self.result("wrong", ["the answer is the op your @defop(...) returned"])
        arrays = [np.asarray(args, np.float32) for args in self.inputs[0]]
        ans = op.forward(np, *arrays)
        if ans is None or ans is ...:
            raise _NotAnswered(f"{op.name}'s forward returns None: write its return line")
        vjps = op.vjps  # one per input (a student's op is never variadic)
        if len(vjps) != len(arrays):
            return self.result(
                "wrong", [f"{op.name} has {len(vjps)} VJPs for {len(arrays)} inputs: one each"]
            )
        ops = vjp_ops(get_device("/cpu:0"), on_tensors=False)  # the VJPs on raw arrays
        for i, vjp in enumerate(vjps):
            grad = vjp(ops, np.ones_like(ans), ans, *arrays)
            if grad is None or grad is ...:
                raise _NotAnswered(f"{op.name}'s VJP for input {i} returns None: write it")
        return super().judge(op_function)


OpExercise(
    "12.1",
    "The VJP of a square root",
    reference=lambda x: ek.sqrt(x),
    inputs=[([0.25, 1.0, 4.0],)],
    hints=[
        "d√x/dx = 1 / (2√x). The VJP returns g times that.",
        "The VJP gets the op's output as ans, and ans is √x already.",
    ],
)

OpExercise(
    "12.2",
    "hypot, forward and both VJPs",
    reference=lambda x, y: ek.sqrt(x * x + y * y),
    inputs=[([3.0, 1.0, -2.0], [4.0, 2.0, 0.5])],
    hints=[
        "The forward is √(x² + y²) on raw arrays: xp.sqrt, * and +.",
        "∂/∂x √(x² + y²) = x / √(x² + y²), and that square root is ans.",
        "The first VJP is for x, the second for y: the order of defvjp's arguments.",
    ],
)

OpExercise(
    "12.3",
    "A tanh that can be differentiated twice",
    reference=lambda x: ek.tanh(x),
    inputs=[([-1.5, 0.0, 0.5, 2.0],)],
    order=2,
    hints=[
        "d tanh(x)/dx = 1 − tanh(x)², and tanh(x) is ans.",
        "np.tanh turns a Tensor into a numpy array, which no tape can see: use ans, "
        "Python operators or ops.tanh instead.",
    ],
)

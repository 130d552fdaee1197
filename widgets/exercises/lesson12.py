"""Lesson 12 (write your own op): a VJP written, an op written whole, a VJP made twice
differentiable. The student's answer is the op ``defop`` returned."""

import numpy as np

import eagerkit as ek
from eagerkit.backprop import vjp_ops
from eagerkit.devices import get_device

from .diagnose import is_users_op
from .exercise import student_code
from .function_exercise import FunctionExercise


class OpExercise(FunctionExercise):
    """A FunctionExercise whose answer is a registered op: its forward and VJPs are the
    student's. A forward or a VJP that returns nothing is said so before anything else."""

    def judge(self, op_function, draw):
        op = getattr(op_function, "op", None)
        if op is None or not is_users_op(op):
            return self.result("wrong", ["the answer is the op your @defop(...) returned"])
        arrays = [np.asarray(a, np.float32) for a in self.inputs(draw)[0]]
        with student_code(f"in {op.name}'s forward"):
            ans = op.forward(np, *arrays)
        if ans is None:
            return self.result("wrong", [f"{op.name}'s forward returns None: write its return"])
        vjps = op.vjps  # one per input (a student's op is never variadic)
        if len(vjps) != len(arrays):
            return self.result(
                "wrong", [f"{op.name} has {len(vjps)} VJPs for {len(arrays)} inputs: one each"]
            )
        ops = vjp_ops(get_device("/cpu:0"), on_tensors=False)  # the VJPs on raw arrays
        for i, vjp in enumerate(vjps):
            with student_code(f"in {op.name}'s VJP for input {i}"):
                grad = None if vjp is None else vjp(ops, np.ones_like(ans), ans, *arrays)
            if grad is None or grad is ...:
                return self.result(
                    "wrong", [f"{op.name}'s VJP for input {i} returns None: write its return"]
                )
        return super().judge(op_function, draw)


OpExercise(
    "12.1",
    "The VJP of a square root",
    reference=lambda x: ek.sqrt(x),
    inputs=lambda draw: [
        (np.array([0.25, 1.0, 4.0], np.float32),),
        (draw.positive((draw.size(1, 6),), 0.1, 9.0),),
        (draw.positive((2, 2), 0.1, 9.0),),
    ],
    template=(
        '@defop("my_sqrt")\n'
        "def my_sqrt(xp, x):\n"
        "    return xp.sqrt(x)\n"
        "\n"
        "\n"
        "my_sqrt.defvjp(lambda ops, g, ans, x: ...)\n"
    ),
    vjp_advice="the prompt's derivative of √x is 1/(2√x): check whether your VJP divides or "
    "multiplies by ans, and its parentheses",
    hints=[
        "The VJP returns the incoming gradient g times the derivative of √x.",
        "The VJP gets the op's output as ans, and ans is √x already.",
    ],
)


def _planes(draw):
    n = draw.size(1, 5)
    return [
        (np.array([3.0, 1.0, -2.0], np.float32), np.array([4.0, 2.0, 0.5], np.float32)),
        (draw.floats((n,), avoid=(0.0,)), draw.floats((n,), avoid=(0.0,))),
        (draw.floats((2, 2), avoid=(0.0,)), draw.floats((2, 2), avoid=(0.0,))),
    ]


OpExercise(
    "12.2",
    "hypot, forward and both VJPs",
    reference=lambda x, y: ek.sqrt(x * x + y * y),
    inputs=_planes,
    template=(
        '@defop("my_hypot")\n'
        "def my_hypot(xp, x, y):\n"
        "    ...\n"
        "\n"
        "\n"
        "def hypot_vjp_x(ops, g, ans, x, y):\n"
        "    ...\n"
        "\n"
        "\n"
        "def hypot_vjp_y(ops, g, ans, x, y):\n"
        "    ...\n"
        "\n"
        "\n"
        "my_hypot.defvjp(hypot_vjp_x, hypot_vjp_y)\n"
    ),
    vjp_advice="each VJP is g times the derivative of √(x² + y²) with respect to its own input, "
    "and defvjp takes them in the order of the inputs",
    hints=[
        "The forward works on raw arrays: xp has sqrt, and the operators work as in numpy.",
        "Differentiate √(x² + y²) with respect to x: the square root in the result is ans.",
        "The first VJP is for x, the second for y: the order of defvjp's arguments.",
    ],
)

OpExercise(
    "12.3",
    "A tanh that can be differentiated twice",
    reference=lambda x: ek.tanh(x),
    inputs=lambda draw: [
        (np.array([-1.5, 0.0, 0.5, 2.0], np.float32),),
        (draw.floats((draw.size(1, 6),)),),
    ],
    order=2,
    template=(
        '@defop("my_tanh")\n'
        "def my_tanh(xp, x):\n"
        "    return xp.tanh(x)\n"
        "\n"
        "\n"
        "my_tanh.defvjp(lambda ops, g, ans, x: ...)\n"
    ),
    vjp_advice="the prompt's derivative is 1 - tanh², with ans for tanh(x): check the square, "
    "the sign, the parentheses and that g multiplies it all",
    hints=[
        "The derivative of tanh can be written with tanh itself, and tanh(x) is ans.",
        "np.tanh turns a Tensor into a numpy array, which no tape can see: use ans, "
        "Python operators or ops.tanh instead.",
    ],
)

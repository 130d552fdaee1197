"""Lesson 12 (write your own op): a VJP written, an op written whole, a VJP made twice
differentiable. The student's answer is the op ``defop`` returned.

The lesson's rule for a forward, "write it with xp. calls, never np., and it runs on every
device", is judged by what it does: the forward also runs on the lesson's GPU (a real one, or
the simulated GPU standing in for it), where an ek op or a host numpy array fails as it would
on cupy's arrays. A numpy ufunc such as np.sqrt passes: it hands a device array to the
device's own library (cupy does the same), so that forward does run on every device.
"""

import contextlib

import numpy as np

import eagerkit as ek
from eagerkit.backprop import vjp_ops
from eagerkit.devices import get_device

from .answer_values import matches
from .diagnose import is_users_op
from .exercise import StudentRaised, student_code
from .function_exercise import FunctionExercise
from .state import GPU, lesson_gpu


class OpExercise(FunctionExercise):
    """A FunctionExercise whose answer is a registered op: its forward and VJPs are the
    student's. A forward or a VJP that returns nothing, or a forward that cannot run on the
    lesson's GPU, is said so before anything else."""

    def __init__(self, key, title, **kwargs):
        super().__init__(key, title, needs=[GPU], **kwargs)  # the forward runs there too

    def judge(self, op_function, draw):
        op = getattr(op_function, "op", None)
        if op is None or not is_users_op(op):
            return self.result("wrong", ["the answer is the op your @defop(...) returned"])
        arrays = [np.asarray(a, np.float32) for a in self.inputs(draw)[0]]
        with _students(f"in {op.name}'s forward", "forward"):
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
            with _students(f"in {op.name}'s VJP for input {i}", "VJP"):
                grad = None if vjp is None else vjp(ops, np.ones_like(ans), ans, *arrays)
            if grad is None or grad is ...:
                return self.result(
                    "wrong", [f"{op.name}'s VJP for input {i} returns None: write its return"]
                )
        on_gpu = f"in {op.name}'s forward on the lesson's GPU, {_where()}"
        with student_code(on_gpu, _FORWARD_ON_A_GPU):
            op_function(*[ek.copy_to_device(ek.constant(a), GPU) for a in arrays])
        return super().judge(op_function, draw)


def _where():
    gpu = lesson_gpu()
    return GPU if gpu == GPU else f"{GPU} (here the simulated GPU, {gpu})"


_FORWARD_ON_A_GPU = (
    "a forward gets its device's raw arrays (numpy's on the CPU, cupy's on a GPU) and "
    "computes with xp, that device's library: an ek op takes tensors, not those arrays, and "
    "np.asarray or np.array would copy them to the CPU. Write the forward with xp. calls "
    "(xp.sqrt, ...), and it runs on every device"
)


@contextlib.contextmanager
def _students(when, part):
    """student_code for a forward or a VJP, with advice for what each is not given."""
    try:
        with student_code(when):
            yield
    except StudentRaised as raised:
        raised.advice = _advice(raised.error, part)
        raise


def _advice(error, part):
    """What an error in a forward or a VJP most likely means, in the lesson's words."""
    if isinstance(error, NameError) and error.name == "xp" and part == "VJP":
        return (
            "a VJP computes with ops (ops.sqrt, ops.cos, ...) or with ans: xp is the "
            "forward's, and a VJP is not given it"
        )
    if isinstance(error, TypeError) and "positional argument" in str(error) and part == "VJP":
        return (
            "a VJP is called with (ops, g, ans, x, ...): the ops namespace, the incoming "
            "gradient, the op's output, then the op's inputs, in that order"
        )
    if isinstance(error, TypeError) and "Python scalar" in str(error):
        return (
            "math.* (and float()) work on one Python number, not on arrays: in a forward use xp.* "
            "(xp.sqrt, xp.hypot, ...), in a VJP ops.* (or ans)"
        )
    return None


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


def _root_left_out(args, got):
    """x² + y², the square of the length: the forward without its square root."""
    x, y = (a.numpy().astype(np.float64) for a in args)
    if matches(got, x * x + y * y):
        return ["that is x² + y², the square of the length: the forward's square root is missing"]
    return []


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
    explain=_root_left_out,
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

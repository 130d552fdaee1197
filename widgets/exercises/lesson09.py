"""Lesson 09 (devices): a matmul the GPU can run, a round trip through the GPU.

The checks read where each op ran (observe.py), so right numbers computed on the CPU are not
taken for right. "The GPU" is the lesson's: ``/gpu:0``, a real GPU or, without one, the
simulated GPU standing in for it; the checks set that up themselves, whatever later cells of
the lesson did, so a verdict is the same on both kinds of machine.
"""

import numpy as np

import eagerkit as ek

from .answer_values import matches
from .compare import Expect
from .function_exercise import FunctionExercise
from .state import GPU, lesson_gpu


def _product(counts):
    return ek.matmul(ek.cast(counts, ek.float32), ek.cast(counts, ek.float32))


def _where(name):
    """How a message names the lesson's GPU: ``/gpu:0``, and what stands in for it."""
    return GPU if name == GPU else f"{GPU} (here the simulated GPU, {name})"


def _matmul_on_gpu(fn, seen, args):
    gpu, where = lesson_gpu(), seen.devices_of("matmul")
    if gpu not in where:
        ran = f"ran on {', '.join(where)}" if where else "never ran (no ek.matmul)"
        why = (
            ". Ops run where their inputs are, and counts is on the CPU: a with "
            "ek.device(...) block does not move an op's inputs (it places tensors made from "
            "Python values, and copies made with ek.identity), so copy the counts to the "
            "GPU first"
            if where
            else ""
        )
        return [
            f"the values are right, but the matrix product {ran}: the exercise is a matmul "
            f"that runs on the lesson's GPU, {_where(gpu)}{why}"
        ]
    return []


def _transposed(args, got):
    """counts times its transpose: the commonest other product of counts with itself."""
    counts = args[0].numpy().astype(np.float64)
    if matches(got, counts @ counts.T):
        return ["that is counts times its transpose: the exercise is counts times counts"]
    return []


def _counts(draw):
    n = draw.size(2, 4)
    return [(np.array([[1, 2], [3, 4]], np.int32),), (draw.ints((n, n), -5, 10),)]


FunctionExercise(
    "9.1",
    "A matmul the GPU can run",
    reference=_product,
    inputs=_counts,
    order=0,
    needs=[GPU],
    mechanism=_matmul_on_gpu,
    explain=_transposed,
    quantities={"the matrix product of counts with itself (counts times counts)": _product},
    template="def product_on_gpu(counts): ...",
    hints=[
        "A GPU has no integer matmul kernel: cuBLAS multiplies floating-point numbers only.",
        "Ops run where their inputs are: the counts must be on the GPU, and floating point, "
        "before the matmul.",
    ],
)


def _sum_of_squares_on_gpu(x):
    on_gpu = ek.copy_to_device(x, GPU)
    return ek.copy_to_device(ek.reduce_sum(on_gpu * on_gpu), "/cpu:0")


def _squares_on_gpu(fn, seen, args):
    gpu = lesson_gpu()
    computed = {run.device for run in seen.ops if run.name != "copy_to_device"}
    if gpu not in computed:
        ran = ", ".join(sorted(computed)) or "no device (no op of yours ran)"
        return [
            f"the values are right, but no op of yours ran on the lesson's GPU, {_where(gpu)}: "
            f"they ran on {ran}. Copy x there first (ops run where their inputs are; "
            "ek.device only places new tensors)"
        ]
    return []


def _squares_left(args, got):
    """Each element squared, and not summed: one value per element where one is asked."""
    x = args[0].numpy().astype(np.float64)
    if x.size > 1 and matches(got, x * x):
        return ["that is the square of each element: the exercise sums them too, into one number"]
    return []


def _vectors(draw):
    return [
        (np.array([1.0, -2.0, 3.0], np.float32),),
        (draw.floats((draw.size(1, 6),)),),
        (draw.floats((2, 3)),),
    ]


FunctionExercise(
    "9.2",
    "A round trip through the GPU",
    reference=_sum_of_squares_on_gpu,
    inputs=_vectors,
    needs=[GPU],
    expect=Expect(
        kind="tensor",
        device="/cpu:0",
        quote="return the result on /cpu:0",
        shape_quote="square and sum it there",
    ),
    mechanism=_squares_on_gpu,
    explain=_squares_left,
    template="def sum_of_squares_on_gpu(x): ...",
    hints=[
        "A copy to another device is an op; the ops on the copy run where the copy is.",
        "The result comes back to /cpu:0 the same way (the copy is an op on the tape, so "
        "the gradient comes back too).",
    ],
)

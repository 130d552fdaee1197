"""Lesson 09 (devices): a matmul the GPU can run, a round trip through the GPU.

The checks read where each op ran (observe.py), so right numbers computed on the CPU are not
taken for right, and they make the simulated GPU available themselves, whatever later cells
of the lesson did to it.
"""

import numpy as np

import eagerkit as ek

from .compare import Expect
from .function_exercise import FunctionExercise
from .state import SIM


def _product(counts):
    return ek.matmul(ek.cast(counts, ek.float32), ek.cast(counts, ek.float32))


def _matmul_on_sim(fn, seen, args):
    where = seen.devices_of("matmul")
    if SIM not in where:
        ran = f"ran on {', '.join(where)}" if where else "never ran (no ek.matmul)"
        return [
            f"the values are right, but the matrix product {ran}: the exercise is a matmul "
            f"that runs on {SIM}"
        ]
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
    needs=[SIM],
    mechanism=_matmul_on_sim,
    template="def product_on_sim(counts): ...",
    hints=[
        "The simulated GPU has no integer matmul kernel, as cuBLAS has none.",
        "Ops run where their inputs are: the counts must be on /sim:0, and floating point, "
        "before the matmul.",
    ],
)


def _sum_of_squares_on_sim(x):
    on_sim = ek.copy_to_device(x, SIM)
    return ek.copy_to_device(ek.reduce_sum(on_sim * on_sim), "/cpu:0")


def _squares_on_sim(fn, seen, args):
    computed = {run.device for run in seen.ops if run.name != "copy_to_device"}
    if SIM not in computed:
        return [
            f"the values are right, but no op of yours ran on {SIM}: everything was computed "
            "on the CPU. Copy x there first (ops run where their inputs are; ek.device only "
            "places new tensors)"
        ]
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
    reference=_sum_of_squares_on_sim,
    inputs=_vectors,
    needs=[SIM],
    expect=Expect(device="/cpu:0", quote="return the result on /cpu:0"),
    mechanism=_squares_on_sim,
    template="def sum_of_squares_on_sim(x): ...",
    hints=[
        "ek.copy_to_device(t, '/sim:0') copies; ops on the copy run on /sim:0.",
        "The result comes back to /cpu:0 the same way (the copy is an op on the tape, so "
        "the gradient comes back too).",
    ],
)

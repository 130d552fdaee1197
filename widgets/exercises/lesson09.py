"""Lesson 09 (devices): compute on the simulated GPU, come back to the CPU."""

import eagerkit as ek

from .exercise import FunctionExercise, ValueExercise


def _float_counts_on_sim():
    with ek.device("/sim:0"):
        counts = ek.constant([[1.0, 2.0], [3.0, 4.0]])
        return ek.matmul(counts, counts)


ValueExercise(
    "9.1",
    "A matmul the GPU can run",
    expected=_float_counts_on_sim,
    hints=[
        "The simulated GPU has no integer matmul kernel, as cuBLAS has none.",
        "Make the counts floating point (write 1.0, or ek.cast) inside ek.device('/sim:0').",
    ],
)


def _sum_of_squares_on_sim(x):
    on_sim = ek.copy_to_device(x, "/sim:0")
    return ek.copy_to_device(ek.reduce_sum(on_sim * on_sim), "/cpu:0")


FunctionExercise(
    "9.2",
    "A round trip through the GPU",
    reference=_sum_of_squares_on_sim,
    inputs=[([1.0, -2.0, 3.0],)],
    hints=[
        "ek.copy_to_device(t, '/sim:0') copies; ops on the copy run on /sim:0.",
        "The result should come back to /cpu:0 (the copy is an op on the tape, so the "
        "gradient comes back too).",
    ],
)

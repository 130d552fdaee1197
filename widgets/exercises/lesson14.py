"""Lesson 14 (performance): a loop of small ops batched; an ek.function traced once."""

import eagerkit as ek

from .exercise import FunctionExercise, ValueExercise


class BatchedExercise(FunctionExercise):
    """Right values and gradients are not enough: the answer must also record few ops."""

    def __init__(self, key, title, *, max_ops, **kwargs):
        super().__init__(key, title, **kwargs)
        self.max_ops = max_ops

    def judge(self, fn):
        result = super().judge(fn)
        if result.status != "right":
            return result
        args = [ek.constant(a) for a in self.inputs[0]]
        with ek.GradientTape() as tape:
            tape.watch(args)
            fn(*args)
        recorded = len(tape.records)
        if recorded > self.max_ops:
            rows = args[0].shape[0]
            return self.result(
                "wrong",
                [
                    f"the values and gradients are right, but your function records "
                    f"{recorded} ops for {rows} rows; batched, it needs at most {self.max_ops}"
                ],
            )
        return result


BatchedExercise(
    "14.1",
    "Row norms without a loop",
    reference=lambda x: ek.sqrt(ek.reduce_sum(x * x, axis=1)),
    inputs=[([[3.0, 4.0], [1.0, 2.0], [0.5, -0.5], [-2.0, 1.0], [6.0, 8.0], [1.0, 1.0]],)],
    max_ops=4,
    hints=[
        "One multiply squares every element of the batch at once.",
        "ek.reduce_sum(..., axis=1) sums each row: no Python loop is needed.",
    ],
)

ValueExercise(
    "14.2",
    "Trace once",
    expected=lambda: (ek.constant([0.8858333, 1.8858334]), 1),
    hints=[
        "Print scaled_update.trace_count after the loop: why does it grow at each step?",
        "A Python float is part of the input signature, its value included; a tensor "
        "is traced by its shape and dtype only.",
    ],
)

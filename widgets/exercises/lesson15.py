"""Lesson 15 (capstone): one step of the RNN, and sampling with a temperature."""

import eagerkit as ek

from .exercise import FunctionExercise

FunctionExercise(
    "15.1",
    "One step of the RNN",
    reference=lambda x, h, w_x, w_h, b: ek.tanh(ek.matmul(x, w_x) + ek.matmul(h, w_h) + b),
    inputs=[
        (
            [[1.0, -0.5]],
            [[0.2, 0.0, -0.4]],
            [[0.5, -1.0, 0.3], [0.2, 0.4, -0.6]],
            [[0.1, 0.0, 0.2], [-0.3, 0.5, 0.0], [0.0, 0.2, 0.1]],
            [0.0, 0.1, -0.1],
        )
    ],
    hints=[
        "The new state mixes the input and the old state: each goes through its own weights.",
        "tanh(x W_x + h W_h + b): two matmuls, two adds, one tanh.",
    ],
)

FunctionExercise(
    "15.2",
    "Probabilities with a temperature",
    reference=lambda logits, temperature: ek.nn.softmax(logits / temperature),
    inputs=[([2.0, 1.0, 0.1, -1.0], 0.5), ([2.0, 1.0, 0.1, -1.0], 2.0)],
    hints=[
        "Divide the logits by the temperature first, then take the softmax.",
        "softmax(z) = exp(z) / sum(exp(z)); ek.nn.softmax does it, stably.",
    ],
)

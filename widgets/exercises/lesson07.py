"""Lesson 07 (training): count parameters, write accuracy and a Dense layer's forward pass."""

import eagerkit as ek

from .exercise import FunctionExercise, ValueExercise

ValueExercise(
    "7.1",
    "Count the parameters",
    expected=lambda: 64 * 64 + 64 + 64 * 10 + 10,
    reveal=False,
    hints=[
        "Copy the MLP, change the hidden layer's units, and call the model once to build it.",
        "model.variables lists the kernels and biases; each has a .shape.",
        "Add up the number of elements of every variable (numpy's .size), as a Python int.",
    ],
)


def _accuracy(logits, labels):
    predicted = ek.cast(ek.argmax(logits, axis=1), ek.int32)
    return ek.reduce_mean(ek.cast(ek.equal(predicted, labels), ek.float32))


FunctionExercise(
    "7.2",
    "Accuracy of a batch",
    reference=_accuracy,
    inputs=[
        ([[2.0, 0.1, 0.3], [0.2, 0.1, 1.5], [0.0, 3.0, 1.0], [1.0, 0.5, 2.0]], [0, 2, 2, 2]),
    ],
    order=0,
    hints=[
        "The predicted class of each example is the index of its largest logit.",
        "ek.argmax(t, axis=...) gives int64; the labels are int32: cast before comparing.",
        "Compare, turn True/False into 1.0/0.0 with a cast, and take the mean.",
    ],
)

FunctionExercise(
    "7.3",
    "A Dense layer's forward pass",
    reference=lambda x, kernel, bias: ek.nn.relu(ek.matmul(x, kernel) + bias),
    inputs=[
        (
            [[1.0, -2.0, 0.5], [0.0, 1.0, -1.0]],
            [[0.5, -1.0], [0.25, 0.5], [-1.0, 1.0]],
            [0.1, 0.2],
        )
    ],
    hints=[
        "Dense(units, activation='relu') computes relu(x @ kernel + bias).",
        "The bias is added before the activation.",
    ],
)

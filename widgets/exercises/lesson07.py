"""Lesson 07 (training): count parameters, write accuracy and a Dense layer's forward pass."""

import numpy as np

import eagerkit as ek

from .call_facts import about_shapes
from .compare import Expect
from .function_exercise import FunctionExercise


def _parameter_count(hidden):
    return 64 * hidden + hidden + hidden * 10 + 10


def _built_with_tanh(fn, seen, args):
    names = seen.op_names()
    if "matmul" not in names:
        return [
            "the count is right, but no layer ran: the exercise is to make the model and "
            "build it with one call, then count its variables"
        ]
    if "tanh" not in names:
        return ["the count is right, but the hidden layer of your model does not use tanh"]
    return []


def _what_was_counted(args, got):
    """The usual slips of a count, named without the count asked for."""
    (hidden,) = args
    if isinstance(got, bool) or not isinstance(got, (int, np.integer)):
        return []  # not a whole number: the message says what it is
    if got == 0:
        return [
            "your model has no variables yet: a model makes them when it is first called, "
            "so build it with one call on a batch of images before counting"
        ]
    if got == 64 * hidden + hidden * 10:
        return [
            "that counts the kernels alone: every Dense layer has a bias too, and each of "
            "its elements is a parameter"
        ]
    if 0 < got <= 8:
        return [
            "that looks like the number of variables, not of their elements: count every "
            "element of every variable (its shape says how many)"
        ]
    return []


FunctionExercise(
    "7.1",
    "Count the parameters",
    reference=_parameter_count,
    inputs=lambda draw: [
        (64,),
        (int(draw.rng.integers(1, 10)),),
        (int(draw.rng.integers(10, 200)),),
    ],
    order=0,
    expect=Expect(kind="int", quote="as a Python int"),
    mechanism=_built_with_tanh,
    explain=_what_was_counted,
    template="def count_parameters(hidden): ...",
    hints=[
        "Copy the MLP, give its hidden layer `hidden` units and tanh, and call the model "
        "once on a batch of images to build it.",
        "model.variables lists the kernels and biases; each has a .shape.",
        "Add up the number of elements of every variable, as a Python int.",
    ],
)


def _accuracy(logits, labels):
    predicted = ek.cast(ek.argmax(logits, axis=1), ek.int32)
    return ek.reduce_mean(ek.cast(ek.equal(predicted, labels), ek.float32))


def _batches(draw):
    cases = []
    for n in (1, draw.size(3, 9), draw.size(10, 16)):
        logits = np.stack([draw.distinct((4,)) for _ in range(n)])
        labels = draw.ints((n,), 0, 4)
        right = np.argmax(logits, axis=1)
        labels[: n // 2] = right[: n // 2]  # some right, some (probably) wrong
        cases.append((logits, labels))
    logits = np.stack([draw.distinct((3,)) for _ in range(4)])
    cases.append((logits, np.argmax(logits, axis=1).astype(np.int32)))  # all right
    return cases


def _classes_advice(fn, error):
    """For a missing return or an error about shapes or axes (an argmax over the examples,
    or over an axis the logits lack): the predicted classes; other errors (a dtype, a
    missing name) say enough themselves."""
    if error is None or about_shapes(error):
        return "the predicted classes are an argmax over the classes (axis 1), one per example"
    return None


FunctionExercise(
    "7.2",
    "Accuracy of a batch",
    reference=_accuracy,
    inputs=_batches,
    order=0,
    expect=Expect(kind="tensor", dtype="float32", quote="as a float32 scalar tensor"),
    quantities={
        "each example's predicted class, the index of its largest logit (an argmax over the "
        "classes, axis 1)": lambda logits, labels: ek.argmax(logits, axis=1)
    },
    combined="your tape makes the predicted classes: the accuracy is the fraction (a mean) "
    "of examples whose prediction is their label",
    advice=_classes_advice,
    template="def batch_accuracy(logits, labels): ...",
    hints=[
        "The predicted class of each example is the index of its largest logit.",
        "ek.argmax gives int64 and the labels are int32: make them agree before comparing.",
        "Compare, turn True/False into 1.0/0.0, and average.",
    ],
)


def _layers(draw):
    units = draw.size(1, 4)
    return [
        (draw.floats((draw.size(1, 4), 3)), draw.floats((3, units)), draw.floats((units,))),
        (draw.floats((1, 2)), draw.floats((2, 2)), draw.floats((2,))),  # a batch of one
        # pre-activations past 6 (at least 3 * 2.5 * 1.5 - 3): relu has no cap, relu6 has
        (draw.floats((1, 3), 2.5, 3.0), draw.floats((3, 2), 1.5, 2.0), draw.floats((2,))),
    ]


def _product_advice(fn, error):
    """A matmul whose shapes do not fit is about order; anything else, elementwise."""
    if "matmul" in str(error):
        return (
            "x is (batch, inputs) and the kernel (inputs, units): the product is x times "
            "the kernel, in that order, as they are (the batch stays first)"
        )
    return "x times the kernel is a matrix product (ek.matmul), not an elementwise one"


FunctionExercise(
    "7.3",
    "A Dense layer's forward pass",
    reference=lambda x, kernel, bias: ek.nn.relu(ek.matmul(x, kernel) + bias),
    inputs=_layers,
    quantities={
        "the pre-activation x @ kernel + bias (a matrix product, ek.matmul)": (
            lambda x, kernel, bias: ek.matmul(x, kernel) + bias
        )
    },
    combined="your tape makes x @ kernel + bias: relu keeps the positive values and gives 0 "
    "for negative ones (not a leaky relu)",
    advice=_product_advice,
    template="def dense_relu(x, kernel, bias): ...",
    hints=[
        "A Dense layer multiplies its input by the kernel, adds the bias, then applies "
        "its activation.",
        "The order matters: the bias is added before the activation.",
    ],
)

"""Lesson 15 (capstone): one step of the RNN, and probabilities with a temperature."""

import numpy as np

import eagerkit as ek

from .answer_values import float_values
from .compare import isclose
from .function_exercise import FunctionExercise
from .text import number


def _steps(draw):
    cases = []
    for batch in (1, draw.size(2, 4)):
        embed, hidden = draw.size(2, 4), draw.size(2, 5)
        cases.append(
            (
                draw.floats((batch, embed), -1.0, 1.0),
                draw.floats((batch, hidden), -1.0, 1.0),
                draw.floats((embed, hidden), -1.0, 1.0),
                draw.floats((hidden, hidden), -1.0, 1.0),
                draw.floats((hidden,), -0.5, 0.5),
            )
        )
    return cases


def _one_state(args, got):
    """rnn_step returns the new state alone; a tuple (as model.step's (logits, state)) is not."""
    if isinstance(got, (tuple, list)):
        return [
            "the one asked for is the new state, tanh(x W_x + h W_h + b) (model.step returns "
            "logits and a state; this step makes only the state)"
        ]
    return []


FunctionExercise(
    "15.1",
    "One step of the RNN",
    reference=lambda x, h, w_x, w_h, b: ek.tanh(ek.matmul(x, w_x) + ek.matmul(h, w_h) + b),
    inputs=_steps,
    quantities={
        "the pre-activation x W_x + h W_h + b (everything inside the tanh, in parentheses)": (
            lambda x, h, w_x, w_h, b: ek.matmul(x, w_x) + ek.matmul(h, w_h) + b
        )
    },
    combined="your tape makes x W_x + h W_h + b: the new state is its tanh",
    explain=_one_state,
    template="def rnn_step(x, h, w_x, w_h, b): ...",
    hints=[
        "The new state mixes the input and the old state: each goes through its own weights.",
        "Two matrix products, the bias, then the squashing nonlinearity the prompt names.",
    ],
)


def _logits(draw):
    temperatures = [float(t) for t in draw.rng.choice([0.2, 0.5, 2.0, 3.0], 2, replace=False)]
    return [
        (np.array([2.0, 1.0, 0.1, -1.0], np.float32), temperatures[0]),
        (draw.floats((draw.size(2, 6),), -5.0, 5.0), temperatures[1]),
        (draw.floats((3,), -2.0, 2.0), 1.0),
        (draw.floats((draw.size(2, 4), 3), -3.0, 3.0), temperatures[0]),  # a batch: per row
        (draw.floats((4,), 25.0, 40.0), 0.2),  # exp of the scaled logits would overflow
    ]


_EXP_OVERFLOWS = 88.7  # e^x is inf in float32 above this


def _overflow(args, got):
    """A softmax written as exp / sum(exp) gives nan once an exp overflows."""
    logits, temperature = args
    scaled = np.asarray(logits.numpy(), np.float64) / temperature
    mine = float_values(got)
    if mine is None or np.all(np.isfinite(mine)) or scaled.max() < _EXP_OVERFLOWS:
        return []
    return [
        f"the largest scaled logit here is {number(scaled.max())}, and e^x overflows float32 "
        "to inf above x ≈ 88 (then inf / inf is nan): subtract each row's max from the scaled "
        "logits before the exp (lesson 08; the probabilities do not change), or use "
        "ek.nn.softmax, which does"
    ]


FunctionExercise(
    "15.2",
    "Probabilities with a temperature",
    reference=lambda logits, temperature: ek.nn.softmax(logits / temperature),
    inputs=_logits,
    quantities={
        "the logits divided by the temperature": lambda logits, temperature: logits / temperature
    },
    combined="your tape makes the scaled logits: the probabilities are their softmax over the "
    "last axis, so that each row sums to 1",
    explain=_overflow,
    # At temperature 0.2 a softmax is nearly one-hot and its gradient a difference of nearly
    # equal float32 terms: exact formulas (log_softmax, logsumexp) differ by 1e-4 there.
    gradient_close=lambda got, want: isclose(got, want, rtol=1e-3, atol=1e-4),
    template="def probabilities(logits, temperature): ...",
    hints=[
        "The temperature scales the logits before they become probabilities.",
        "ek.nn.softmax turns logits into probabilities, stably.",
    ],
)

"""Textbook loops the recurrent layers are tested against (tests/test_simple_rnn.py,
tests/test_bidirectional.py): plain numpy, one time step after another, written from the
equations and not from the layers."""

import numpy as np


def sigmoid(z):
    return 1 / (1 + np.exp(-z))


def simple_rnn_cell(x_t, states, kernel, recurrent, bias, activation=np.tanh):
    """h' = activation(x W + h U + b)."""
    (h,) = states
    return [activation(x_t @ kernel + h @ recurrent + bias)]


def lstm_cell(x_t, states, kernel, recurrent, bias):
    """Gates in Keras' order: input, forget, candidate, output."""
    h, c = states
    i, f, g, o = np.split(x_t @ kernel + h @ recurrent + bias, 4, axis=-1)
    c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
    return [sigmoid(o) * np.tanh(c), c]


def gru_cell(x_t, states, kernel, recurrent, bias):
    """Update z, reset r, candidate; r multiplies h before the recurrent product."""
    (h,) = states
    x_z, x_r, x_h = np.split(x_t @ kernel + bias, 3, axis=-1)
    u_z, u_r, u_h = np.split(recurrent, 3, axis=-1)
    z = sigmoid(x_z + h @ u_z)
    r = sigmoid(x_r + h @ u_r)
    candidate = np.tanh(x_h + (r * h) @ u_h)
    return [z * h + (1 - z) * candidate]


CELLS = {"SimpleRNN": (simple_rnn_cell, 1), "LSTM": (lstm_cell, 2), "GRU": (gru_cell, 1)}


def run(kind, x, kernel, recurrent, bias, states=None, backwards=False):
    """``(outputs [batch, time, units] in the order they were made, final states)``."""
    cell, count = CELLS[kind]
    units = recurrent.shape[0]
    if states is None:
        states = [np.zeros((x.shape[0], units)) for _ in range(count)]
    times = range(x.shape[1] - 1, -1, -1) if backwards else range(x.shape[1])
    outputs = []
    for t in times:
        states = cell(x[:, t], states, kernel, recurrent, bias)
        outputs.append(states[0])
    return np.stack(outputs, axis=1), states


def weights_of(layer):
    """A built layer's (kernel, recurrent_kernel, bias) as arrays (a zero bias without one)."""
    kernel, recurrent = layer.kernel.numpy(), layer.recurrent_kernel.numpy()
    bias = np.zeros(kernel.shape[1]) if layer.bias is None else layer.bias.numpy()
    return kernel, recurrent, bias


def run_masked(kind, x, mask, kernel, recurrent, bias, backwards=False, zero_output=False):
    """As ``run``, with a ``[batch, time]`` mask: at a masked step every state keeps its
    value and the output is the state's h (zeros with ``zero_output``), Keras' rule."""
    cell, count = CELLS[kind]
    states = [np.zeros((x.shape[0], recurrent.shape[0])) for _ in range(count)]
    times = range(x.shape[1] - 1, -1, -1) if backwards else range(x.shape[1])
    outputs = []
    for t in times:
        keep = mask[:, t, None]
        new = cell(x[:, t], states, kernel, recurrent, bias)
        states = [np.where(keep, n, s) for n, s in zip(new, states, strict=True)]
        outputs.append(np.where(keep, states[0], 0.0) if zero_output else states[0])
    return np.stack(outputs, axis=1), states

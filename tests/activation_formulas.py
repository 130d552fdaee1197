"""Each of ``ek.keras.activations``' functions written in numpy from its textbook formula:
the answers tests/test_keras_activations.py and the public-API walk compare with."""

import math

import numpy as np

SELU_ALPHA, SELU_SCALE = 1.6732632423543772, 1.0507009873554805


def _softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    # Keras' own steps (its docstring's piecewise formula disagrees with them at
    # x == threshold and when max_value < threshold; TF computes these steps).
    y = x * (x > threshold)
    if max_value is not None:
        y = np.clip(y, 0.0, max_value)
    return y - negative_slope * np.maximum(threshold - x, 0.0)


_ERF = np.vectorize(math.erf)

FORMULAS = {
    "relu": _relu,
    "elu": lambda x, alpha=1.0: np.where(x > 0, x, alpha * np.expm1(x)),
    "softmax": _softmax,
    "log_softmax": lambda x, axis=-1: np.log(_softmax(x, axis)),
    "leaky_relu": lambda x, negative_slope=0.2: np.where(x >= 0, x, negative_slope * x),
    "gelu": lambda x: 0.5 * x * (1 + _ERF(x / np.sqrt(2))),
    "exponential": np.exp,
    "linear": lambda x: x,
    "sigmoid": _sigmoid,
    "tanh": np.tanh,
    "softplus": lambda x: np.logaddexp(0, x),
    "softsign": lambda x: x / (1 + np.abs(x)),
    "selu": lambda x: SELU_SCALE * np.where(x > 0, x, SELU_ALPHA * np.expm1(x)),
    "silu": lambda x: x * _sigmoid(x),
    "swish": lambda x: x * _sigmoid(x),
    "relu6": lambda x: np.clip(x, 0, 6),
    "hard_sigmoid": lambda x: np.clip(x / 6 + 0.5, 0, 1),  # Keras 3
}

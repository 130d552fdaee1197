"""CS20 lecture 4's eager demo (04_linreg_eager.py) on the synthetic birth-life data.

Per example, 100 epochs, plain gradient descent (lr 0.01), the lecture's Huber loss written
with a Python ``if`` (its form is twice the textbook Huber: t**2 inside, m * (2|t| - m)
outside), gradients from ``implicit_value_and_gradients``, data through ``ek.Iterator``.
The reference is the same algorithm in float64 numpy, written independently below.
"""

import itertools

import numpy as np

import eagerkit as ek
from eagerkit.datasets import birth_life

EPOCHS, LEARNING_RATE, M = 100, 0.01, 1.0


def numpy_reference(x, y):
    """The lecture's training loop by hand: (w, b, average loss every 10 epochs)."""
    w = b = 0.0
    printed = []
    for epoch in range(EPOCHS):
        total = 0.0
        for xi, yi in zip(x.astype(np.float64), y.astype(np.float64), strict=True):
            t = yi - (xi * w + b)
            total += t**2 if abs(t) <= M else M * (2 * abs(t) - M)
            dloss_dpred = -2 * t if abs(t) <= M else -2 * M * np.sign(t)
            w, b = w - LEARNING_RATE * dloss_dpred * xi, b - LEARNING_RATE * dloss_dpred
        if epoch % 10 == 0:
            printed.append(total / len(x))
    return w, b, printed


def test_huber_regression_reaches_the_reference_fit():
    data_x, data_y = ek.datasets.birth_life_data(seed=0)
    n_samples = len(data_x)
    dataset = ek.data.Dataset.from_tensor_slices((data_x, data_y))
    w = ek.Variable(0.0)
    b = ek.Variable(0.0)

    def prediction(x):
        return x * w + b

    def huber_loss(y, y_predicted, m=1.0):
        t = y - y_predicted
        return t**2 if ek.abs(t) <= m else m * (2 * ek.abs(t) - m)

    optimizer = ek.train.GradientDescentOptimizer(learning_rate=LEARNING_RATE)

    def loss_for_example(x, y):
        return huber_loss(y, prediction(x))

    grad_fn = ek.implicit_value_and_gradients(loss_for_example)
    printed = []
    for epoch in range(EPOCHS):
        total_loss = 0.0
        for x_i, y_i in ek.Iterator(dataset):
            loss, gradients = grad_fn(x_i, y_i)
            optimizer.apply_gradients(gradients)
            total_loss += loss
        if epoch % 10 == 0:
            printed.append(float(total_loss) / n_samples)

    ref_w, ref_b, ref_printed = numpy_reference(data_x, data_y)
    assert abs(float(w) - ref_w) < 0.02 and abs(float(b) - ref_b) < 0.05
    np.testing.assert_allclose(printed, ref_printed, rtol=2e-3)
    assert all(later < earlier for earlier, later in itertools.pairwise(printed))
    # ...and the fit is the line the data were drawn from, within the noise.
    assert abs(float(w) - birth_life.SLOPE) < 0.5
    assert abs(float(b) - birth_life.INTERCEPT) < 1.5

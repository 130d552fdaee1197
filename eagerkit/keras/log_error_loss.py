"""Keras' mean squared logarithmic error: the squared error of ``log(1 + y)``, which weighs
relative errors (predicting 110 for 100 costs as much as 11 for 10) and punishes
predicting too little more than too much. losses.py and metrics.py re-export it.

Examples
--------
>>> import eagerkit as ek
>>> loss = ek.keras.losses.mean_squared_logarithmic_error([[0.0, 1.0]], [[1.0, 1.0]])
>>> [round(float(v), 4) for v in loss]  # (log 2 - log 1)^2 / 2
[0.2402]
"""

from eagerkit.keras.loss_base import EPSILON, LossFunctionWrapper, Reduction, checked_pair
from eagerkit.ops.arithmetic import maximum
from eagerkit.ops.math import log
from eagerkit.ops.reduce import reduce_mean


def mean_squared_logarithmic_error(y_true, y_pred):
    """``mean((log(max(y_pred, eps) + 1) - log(max(y_true, eps) + 1))^2)`` over the last
    axis, one value per example (Keras 3's formula, eps = 1e-7: no log of a negative).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.losses.msle([[9.0]], [[99.0]])  # log(100) - log(10) = log(10)
    <ek.Tensor: shape=(1,), dtype=float32, numpy=array([5.3018985], dtype=float32)>
    """
    y_true, y_pred = checked_pair("mean_squared_logarithmic_error", y_true, y_pred, align=True)
    first = log(maximum(y_pred, EPSILON) + 1.0)
    second = log(maximum(y_true, EPSILON) + 1.0)
    return reduce_mean((first - second) ** 2, axis=-1)


msle = MSLE = mean_squared_logarithmic_error


class MeanSquaredLogarithmicError(LossFunctionWrapper):
    """Mean squared logarithmic error, averaged over the batch (see
    ``mean_squared_logarithmic_error``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> loss = ek.keras.losses.MeanSquaredLogarithmicError()
    >>> round(float(loss([[0.0, 1.0], [0.0, 0.0]], [[1.0, 1.0], [1.0, 0.0]])), 4)
    0.2402
    """

    def __init__(self, reduction=Reduction.AUTO, name="mean_squared_logarithmic_error"):
        super().__init__(mean_squared_logarithmic_error, reduction, name)

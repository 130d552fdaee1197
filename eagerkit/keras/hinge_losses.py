"""Keras' hinge (maximum-margin) losses: ``hinge``, ``squared_hinge``, ``categorical_hinge``
and their classes; losses.py re-exports them.

A hinge loss is zero once a prediction is on the right side of its label by a margin of 1,
and grows linearly (``squared_hinge``: quadratically) the further it is from that.
``hinge`` and ``squared_hinge`` take labels of -1 and 1; 0/1 labels are turned into -1/1
first, as Keras does.

Examples
--------
>>> import eagerkit as ek
>>> ek.keras.losses.hinge([[0.0, 1.0]], [[-0.5, 0.25]])  # labels -1, 1: losses 0.5, 0.75
<ek.Tensor: shape=(1,), dtype=float32, numpy=array([0.625], dtype=float32)>
"""

from eagerkit.keras.loss_base import LossFunctionWrapper, Reduction, checked_pair
from eagerkit.ops.arithmetic import maximum
from eagerkit.ops.cast import cast
from eagerkit.ops.compare import equal, logical_or
from eagerkit.ops.reduce import reduce_all, reduce_max, reduce_mean, reduce_sum


def _signed_labels(y_true):
    """0/1 labels as -1/1 (when every label is 0 or 1); other labels as they are.

    Written with ops rather than a Python ``if`` so it also runs inside ``ek.function``.
    """
    binary = cast(reduce_all(logical_or(equal(y_true, 0.0), equal(y_true, 1.0))), y_true.dtype)
    return y_true + binary * (y_true - 1.0)  # binary: 2y - 1; else y


def hinge(y_true, y_pred):
    """``mean(maximum(1 - y_true * y_pred, 0))`` over the last axis (labels -1/1 or 0/1).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.losses.hinge([[1.0, -1.0]], [[2.0, 0.5]]).numpy().tolist()
    [0.75]
    """
    y_true, y_pred = checked_pair("hinge", y_true, y_pred)
    return reduce_mean(maximum(1.0 - _signed_labels(y_true) * y_pred, 0.0), axis=-1)


def squared_hinge(y_true, y_pred):
    """``mean(maximum(1 - y_true * y_pred, 0) ** 2)`` over the last axis.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.losses.squared_hinge([[1.0, -1.0]], [[2.0, 0.5]]).numpy().tolist()
    [1.125]
    """
    y_true, y_pred = checked_pair("squared_hinge", y_true, y_pred)
    margin = maximum(1.0 - _signed_labels(y_true) * y_pred, 0.0)
    return reduce_mean(margin * margin, axis=-1)


def categorical_hinge(y_true, y_pred):
    """``maximum(neg - pos + 1, 0)`` per example, for one-hot labels: ``pos`` is the score
    of the true class, ``neg`` the largest score of the other classes.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.losses.categorical_hinge([[0.0, 1.0, 0.0]], [[0.5, 1.0, 0.25]])
    <ek.Tensor: shape=(1,), dtype=float32, numpy=array([0.5], dtype=float32)>
    """
    y_true, y_pred = checked_pair("categorical_hinge", y_true, y_pred)
    positive = reduce_sum(y_true * y_pred, axis=-1)
    negative = reduce_max((1.0 - y_true) * y_pred, axis=-1)
    return maximum(negative - positive + 1.0, 0.0)


class Hinge(LossFunctionWrapper):
    """The mean hinge loss (``tf.keras.losses.Hinge``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> hinge = ek.keras.losses.Hinge()
    >>> round(float(hinge([[0.0, 1.0], [0.0, 0.0]], [[0.6, 0.4], [0.4, 0.6]])), 2)
    1.3
    """

    def __init__(self, reduction=Reduction.AUTO, name="hinge"):
        super().__init__(hinge, reduction, name)


class SquaredHinge(LossFunctionWrapper):
    """The mean squared hinge loss (``tf.keras.losses.SquaredHinge``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> round(float(ek.keras.losses.SquaredHinge()([[0.0, 1.0]], [[0.6, 0.4]])), 2)
    1.46
    """

    def __init__(self, reduction=Reduction.AUTO, name="squared_hinge"):
        super().__init__(squared_hinge, reduction, name)


class CategoricalHinge(LossFunctionWrapper):
    """The mean categorical hinge loss (``tf.keras.losses.CategoricalHinge``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> round(float(ek.keras.losses.CategoricalHinge()([[0.0, 1.0]], [[0.6, 0.4]])), 2)
    1.2
    """

    def __init__(self, reduction=Reduction.AUTO, name="categorical_hinge"):
        super().__init__(categorical_hinge, reduction, name)

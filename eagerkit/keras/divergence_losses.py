"""Keras' losses that compare distributions, counts and directions: ``kl_divergence``,
``poisson``, ``log_cosh``, ``cosine_similarity`` and their classes; losses.py re-exports
them (with Keras' short names ``kld``, ``logcosh``, ...).

Examples
--------
>>> import eagerkit as ek
>>> ek.keras.losses.cosine_similarity([[0.0, 2.0]], [[0.0, 5.0]])  # same direction: -1
<ek.Tensor: shape=(1,), dtype=float32, numpy=array([-1.], dtype=float32)>
"""

import math

from eagerkit.keras.loss_base import EPSILON, LossFunctionWrapper, Reduction, checked_pair
from eagerkit.ops.math import log
from eagerkit.ops.misc import clip_by_value
from eagerkit.ops.nn import l2_normalize, softplus
from eagerkit.ops.reduce import reduce_mean, reduce_sum


def kl_divergence(y_true, y_pred):
    """``sum(y_true * log(y_true / y_pred))`` over the last axis, both clipped to
    ``[1e-7, 1]`` first (Keras' clipping: no log of 0).

    Examples
    --------
    >>> import eagerkit as ek
    >>> loss = ek.keras.losses.kl_divergence([[0.5, 0.5]], [[0.25, 0.75]])
    >>> [round(float(v), 4) for v in loss]  # 0.5 log 2 + 0.5 log(2/3)
    [0.1438]
    """
    y_true, y_pred = checked_pair("kl_divergence", y_true, y_pred)
    y_true = clip_by_value(y_true, EPSILON, 1.0)
    y_pred = clip_by_value(y_pred, EPSILON, 1.0)
    return reduce_sum(y_true * log(y_true / y_pred), axis=-1)


def poisson(y_true, y_pred):
    """``mean(y_pred - y_true * log(y_pred + 1e-7))`` over the last axis: the negative
    log-likelihood of counts ``y_true`` under Poisson rates ``y_pred`` (less a constant).

    Examples
    --------
    >>> import eagerkit as ek
    >>> [round(float(v), 4) for v in ek.keras.losses.poisson([[1.0, 0.0]], [[1.0, 2.0]])]
    [1.5]
    """
    y_true, y_pred = checked_pair("poisson", y_true, y_pred)
    return reduce_mean(y_pred - y_true * log(y_pred + EPSILON), axis=-1)


def log_cosh(y_true, y_pred):
    """``mean(log(cosh(y_pred - y_true)))`` over the last axis: like squared error for small
    errors, like absolute error for large ones.

    Computed as ``x + softplus(-2x) - log 2``, which equals ``log(cosh(x))`` but does not
    overflow for large ``|x|`` (cosh would).

    Examples
    --------
    >>> import eagerkit as ek
    >>> [round(float(v), 3) for v in ek.keras.losses.log_cosh([[0.0, 0.0]], [[1.0, -1000.0]])]
    [499.87]
    """
    y_true, y_pred = checked_pair("log_cosh", y_true, y_pred, align=True)
    error = y_pred - y_true
    return reduce_mean(error + softplus(-2.0 * error) - math.log(2.0), axis=-1)


def cosine_similarity(y_true, y_pred, axis=-1):
    """Minus the cosine of the angle between ``y_true`` and ``y_pred`` along ``axis``: -1
    when they point the same way, 0 when orthogonal, 1 when opposite (a loss to minimize).
    A zero vector has cosine 0 with everything.

    Examples
    --------
    >>> import eagerkit as ek
    >>> loss = ek.keras.losses.cosine_similarity([[1.0, 0.0], [1.0, 1.0]], [[1.0, 1.0], [2.0, 2.0]])
    >>> [round(float(v), 4) for v in loss]  # 45 degrees apart, then parallel
    [-0.7071, -1.0]
    """
    y_true, y_pred = checked_pair("cosine_similarity", y_true, y_pred, align=True)
    y_true, y_pred = l2_normalize(y_true, axis=axis), l2_normalize(y_pred, axis=axis)
    return -reduce_sum(y_true * y_pred, axis=axis)


kld = KLD = kullback_leibler_divergence = kl_divergence
logcosh = log_cosh


class KLDivergence(LossFunctionWrapper):
    """The mean Kullback-Leibler divergence (``tf.keras.losses.KLDivergence``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> kl = ek.keras.losses.KLDivergence()
    >>> round(float(kl([[0.5, 0.5], [1.0, 0.0]], [[0.25, 0.75], [1.0, 0.0]])), 4)
    0.0719
    """

    def __init__(self, reduction=Reduction.AUTO, name="kl_divergence"):
        super().__init__(kl_divergence, reduction, name)


class Poisson(LossFunctionWrapper):
    """The mean Poisson loss (``tf.keras.losses.Poisson``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> round(float(ek.keras.losses.Poisson()([[1.0, 0.0]], [[1.0, 2.0]])), 4)
    1.5
    """

    def __init__(self, reduction=Reduction.AUTO, name="poisson"):
        super().__init__(poisson, reduction, name)


class LogCosh(LossFunctionWrapper):
    """The mean log-cosh loss (``tf.keras.losses.LogCosh``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> round(float(ek.keras.losses.LogCosh()([[0.0, 0.0]], [[1.0, 0.0]])), 4)
    0.2169
    """

    def __init__(self, reduction=Reduction.AUTO, name="log_cosh"):
        super().__init__(log_cosh, reduction, name)


class CosineSimilarity(LossFunctionWrapper):
    """The mean of ``cosine_similarity`` along ``axis`` (``tf.keras.losses.CosineSimilarity``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> float(ek.keras.losses.CosineSimilarity(axis=1)([[0.0, 3.0]], [[0.0, 1.0]]))
    -1.0
    """

    def __init__(self, axis=-1, reduction=Reduction.AUTO, name="cosine_similarity"):
        super().__init__(cosine_similarity, reduction, name, axis=axis)

"""Keras' metrics that are running means of its losses: ``MeanSquaredError``,
``BinaryCrossentropy``, ..., ``Hinge``, ``SquaredHinge``, ``CategoricalHinge``,
``KLDivergence``, ``Poisson``, ``LogCoshError`` and ``CosineSimilarity``; metrics.py
re-exports them.

One differs from its loss: the metric ``cosine_similarity`` is the cosine itself (1 when
the vectors point the same way), the loss is minus it, as in Keras. So
``metrics=["cosine_similarity"]`` reports the cosine.

Examples
--------
>>> import eagerkit as ek
>>> m = ek.keras.metrics.CosineSimilarity()
>>> m.update_state([[0.0, 1.0], [1.0, 1.0]], [[1.0, 1.0], [2.0, 2.0]])
>>> round(float(m.result()), 4)  # the mean of 0.7071 and 1
0.8536
"""

from eagerkit.keras import divergence_losses, hinge_losses, losses
from eagerkit.keras.metrics import _wrapper


def cosine_similarity(y_true, y_pred, axis=-1):
    """The cosine of the angle between ``y_true`` and ``y_pred`` along ``axis`` (the loss of
    the same name is minus it).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.metrics.cosine_similarity([[0.0, 2.0]], [[0.0, 5.0]]).numpy().tolist()
    [1.0]
    """
    return -divergence_losses.cosine_similarity(y_true, y_pred, axis=axis)


Hinge = _wrapper(
    hinge_losses.hinge,
    "hinge",
    """The running mean of ``ek.keras.losses.hinge``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> round(float(ek.keras.metrics.Hinge()([[0.0, 1.0]], [[0.6, 0.4]])), 2)
    1.1
    """,
    class_name="Hinge",
)
SquaredHinge = _wrapper(
    hinge_losses.squared_hinge,
    "squared_hinge",
    """The running mean of ``ek.keras.losses.squared_hinge``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> round(float(ek.keras.metrics.SquaredHinge()([[0.0, 1.0]], [[0.6, 0.4]])), 2)
    1.46
    """,
    class_name="SquaredHinge",
)
CategoricalHinge = _wrapper(
    hinge_losses.categorical_hinge,
    "categorical_hinge",
    """The running mean of ``ek.keras.losses.categorical_hinge``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> round(float(ek.keras.metrics.CategoricalHinge()([[0.0, 1.0]], [[0.6, 0.4]])), 2)
    1.2
    """,
    class_name="CategoricalHinge",
)
KLDivergence = _wrapper(
    divergence_losses.kl_divergence,
    "kullback_leibler_divergence",
    """The running mean of ``ek.keras.losses.kl_divergence``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> round(float(ek.keras.metrics.KLDivergence()([[0.5, 0.5]], [[0.25, 0.75]])), 4)
    0.1438
    """,
    class_name="KLDivergence",
)
Poisson = _wrapper(
    divergence_losses.poisson,
    "poisson",
    """The running mean of ``ek.keras.losses.poisson``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> float(ek.keras.metrics.Poisson()([[1.0, 0.0]], [[1.0, 2.0]]))
    1.5
    """,
    class_name="Poisson",
)
LogCoshError = _wrapper(
    divergence_losses.log_cosh,
    "logcosh",
    """The running mean of ``ek.keras.losses.log_cosh``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> round(float(ek.keras.metrics.LogCoshError()([[0.0, 0.0]], [[1.0, 0.0]])), 4)
    0.2169
    """,
    class_name="LogCoshError",
)
CosineSimilarity = _wrapper(
    cosine_similarity,
    "cosine_similarity",
    """The running mean of the cosine of ``y_true`` and ``y_pred`` along ``axis``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> float(ek.keras.metrics.CosineSimilarity(axis=1)([[0.0, 3.0]], [[0.0, 1.0]]))
    1.0
    """,
    class_name="CosineSimilarity",
)
MeanSquaredError = _wrapper(
    losses.mean_squared_error, "mean_squared_error", "The running mean squared error."
)
MeanAbsoluteError = _wrapper(
    losses.mean_absolute_error, "mean_absolute_error", "The running mean absolute error."
)
MeanAbsolutePercentageError = _wrapper(
    losses.mean_absolute_percentage_error,
    "mean_absolute_percentage_error",
    "The running mean absolute percentage error.",
)
MeanSquaredLogarithmicError = _wrapper(
    losses.mean_squared_logarithmic_error,
    "mean_squared_logarithmic_error",
    """The running mean squared logarithmic error.

    Examples
    --------
    >>> import eagerkit as ek
    >>> round(float(ek.keras.metrics.MeanSquaredLogarithmicError()([[0.0]], [[1.0]])), 4)
    0.4805
    """,
)
BinaryCrossentropy = _wrapper(
    losses.binary_crossentropy, "binary_crossentropy", "The running binary cross-entropy."
)
CategoricalCrossentropy = _wrapper(
    losses.categorical_crossentropy,
    "categorical_crossentropy",
    "The running categorical cross-entropy.",
)
SparseCategoricalCrossentropy = _wrapper(
    losses.sparse_categorical_crossentropy,
    "sparse_categorical_crossentropy",
    "The running cross-entropy of integer labels.",
)

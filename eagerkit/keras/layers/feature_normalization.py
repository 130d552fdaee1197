"""Normalization: standardize each feature with a mean and variance learned by ``adapt``.

TF's tabular tutorials (regression, load CSV) put the standardization inside the model::

    normalizer = ek.keras.layers.Normalization(axis=-1)
    normalizer.adapt(train_features)          # learns each column's mean and variance
    model = ek.keras.Sequential([normalizer, ek.keras.layers.Dense(1)])

The mean, the variance and (after ``adapt``) the count of values they were taken over are
non-trainable weights of the layer, as TF's ``mean``, ``variance`` and ``count``, so
checkpoints and ``model.save`` keep them; ``fit`` never changes them.
"""

from eagerkit import dtypes, random
from eagerkit.arguments import axis_index
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.layers import first_call
from eagerkit.keras.layers.adapt_statistics import RunningMoments, adapted_shape, batches_of
from eagerkit.keras.layers.base import Layer
from eagerkit.keras.layers.layer_arguments import distinct_axes, real_array
from eagerkit.ops.arithmetic import maximum
from eagerkit.ops.cast import cast
from eagerkit.ops.math import sqrt
from eagerkit.ops.shape import broadcast_to, reshape
from eagerkit.tensor import convert_to_tensor
from eagerkit.train.tracking import restore_deferred, taking_back_restores

EPSILON = 1e-7  # Keras' backend.epsilon(): the smallest standard deviation divided by


class Normalization(Layer):
    """``(inputs - mean) / max(sqrt(variance), 1e-7)`` per position along ``axis``.

    ``axis`` (an int, a list, or None for one scalar mean and variance) names the axes that
    keep their own statistics; ``adapt(data)`` averages over all the others. Give ``mean``
    and ``variance`` instead to fix them. ``invert=True`` undoes the normalization:
    ``mean + inputs * sqrt(variance)``. Before ``adapt`` the mean is 0 and the variance 1
    (the layer passes inputs through), as in TF.

    Examples
    --------
    >>> import eagerkit as ek
    >>> layer = ek.keras.layers.Normalization(axis=None)
    >>> layer.adapt([1.0, 2.0, 3.0, 4.0, 5.0])
    >>> layer([1.0, 2.0, 3.0]).numpy()
    array([-1.4142135 , -0.70710677,  0.        ], dtype=float32)
    >>> columns = ek.keras.layers.Normalization()
    >>> columns.adapt([[0.0, 7.0, 4.0], [2.0, 9.0, 6.0]])
    >>> columns.mean.numpy(), columns([[0.0, 7.0, 4.0]]).numpy()
    (array([[1., 8., 5.]], dtype=float32), array([[-1., -1., -1.]], dtype=float32))
    """

    supports_masking = True  # passes the mask of its inputs on unchanged (Keras 3)

    def __init__(self, axis=-1, mean=None, variance=None, invert=False, **kwargs):
        axis = distinct_axes(axis, "Normalization", "axis=-1 (one mean per feature)", True)
        if (mean is None) != (variance is None):
            raise InvalidArgumentError(
                f"Normalization: mean and variance are set together, got mean={mean!r:.40} "
                f"and variance={variance!r:.40}; pass both (e.g. mean=3.0, variance=2.0), or "
                "neither and call adapt(data)",
                op="Normalization",
            )
        if mean is not None:
            mean, mean_shape = real_array(mean, "mean", "Normalization")
            variance, variance_shape = real_array(variance, "variance", "Normalization")
            if mean_shape != variance_shape or len(mean_shape) > len(axis):
                raise InvalidArgumentError(
                    f"Normalization: mean (shape {mean_shape}) and variance (shape "
                    f"{variance_shape}) must have one shape, of at most one axis per kept "
                    f"axis (axis={axis}); pass e.g. mean=3.0, variance=2.0",
                    op="Normalization",
                )
        super().__init__(**kwargs)
        self.axis, self.invert = axis, bool(invert)
        self.input_mean, self.input_variance = mean, variance

    # --- the statistics, shaped to broadcast against inputs (TF's layer.mean) ---------------
    @property
    def mean(self):
        """The mean, shaped like the inputs with 1 on averaged axes (None before build)."""
        return self._broadcastable(vars(self).get("adapt_mean"))

    @property
    def variance(self):
        """The variance, shaped like ``mean`` (None before build)."""
        return self._broadcastable(vars(self).get("adapt_variance"))

    def _broadcastable(self, weight):
        return None if weight is None else reshape(weight, self._broadcast_shape)

    def build(self, input_shape):
        rank = len(input_shape)
        try:
            kept = sorted({axis_index(a, rank, "Normalization") for a in self.axis})
        except InvalidArgumentError:  # the axis may be right and the shape wrong: name both
            raise InvalidArgumentError(
                f"Normalization: axis={self.axis} names axes input_shape "
                f"{tuple(input_shape)!r:.60} (rank {rank}) does not have; build it with the "
                "shape of its input, e.g. (None, 3), or choose axes of that shape",
                op="Normalization",
            ) from None
        self._broadcast_shape = [input_shape[i] if i in kept else 1 for i in range(rank)]
        sizes = [input_shape[i] for i in kept]
        if None in sizes:
            raise InvalidArgumentError(
                f"Normalization: the kept axes {kept} of input_shape {tuple(input_shape)} "
                "must have known sizes; give the features' size, e.g. Input(shape=[9])",
                op="Normalization",
            )
        given = self.input_mean is not None
        self.adapt_mean = self.add_weight(
            "mean", sizes, _filled(self.input_mean, "mean") if given else "zeros", False
        )
        self.adapt_variance = self.add_weight(
            "variance", sizes, _filled(self.input_variance, "variance") if given else "ones", False
        )
        if not given:  # TF's adaptable layer also keeps how many values adapt averaged
            self.count = self.add_weight("count", (), "zeros", False, dtypes.int64)

    def call(self, inputs):
        if inputs.dtype != self.dtype:  # integer features become the layer's floats, as in TF
            inputs = cast(inputs, self.dtype)
        self._check_fits(inputs.shape, "Normalization")
        deviation = maximum(sqrt(self.variance), EPSILON)
        if self.invert:
            return self.mean + inputs * deviation
        return (inputs - self.mean) / deviation

    def _check_fits(self, shape, call):
        """Refuse inputs whose kept axes differ from the ones the layer was built for."""
        wanted = self._broadcast_shape
        fits = len(shape) >= len(wanted) and all(
            w in (1, s) for s, w in zip(reversed(tuple(shape)), reversed(wanted), strict=False)
        )
        if not fits:
            raise InvalidArgumentError(
                f"{call}: layer '{self.name}' normalizes inputs shaped like {wanted} (1: an "
                f"averaged axis, any size), but got shape {list(shape)}; pass data with the "
                "same features, or make a new layer for new ones",
                op=call,
            )

    # --- learning the statistics ------------------------------------------------------------
    def adapt(self, data):
        """Set the mean and variance from ``data``: an array, a Tensor, or an
        ``ek.data.Dataset`` (or iterator) of batches. A failed adapt changes nothing.

        Examples
        --------
        >>> import eagerkit as ek
        >>> layer = ek.keras.layers.Normalization()
        >>> layer.adapt(ek.data.Dataset.from_tensor_slices([[1.0], [3.0], [5.0]]).batch(2))
        >>> layer.mean.numpy(), layer.variance.numpy().round(3)
        (array([[3.]], dtype=float32), array([[2.667]], dtype=float32))
        """
        if self.input_mean is not None:
            raise InvalidArgumentError(
                f"Normalization.adapt: layer '{self.name}' was made with mean= and variance=, "
                "which adapt would overwrite; make it without them to learn them from data, "
                "e.g. Normalization(axis=-1).adapt(data)",
                op="Normalization.adapt",
            )
        before = first_call.attributes_before(self)
        try:  # a failure anywhere (a bad batch, an empty stream) takes back the build
            with taking_back_restores(), random.taking_back_draws():
                moments = self._moments(data)
                self.adapt_mean.assign(cast(moments.mean, self.dtype))
                self.adapt_variance.assign(cast(moments.variance, self.dtype))
                self.count.assign(moments.count)  # values per kept position, as TF's
        except BaseException:
            first_call.restore(before)
            raise

    def _moments(self, data):
        moments = RunningMoments()
        for batch in batches_of(data, "Normalization.adapt"):
            batch = cast(convert_to_tensor(batch), dtypes.float64)  # float64: exact merges
            if not self.built:
                self.build(tuple(batch.shape))
                self.built = True
                self._adapted_output_shape = adapted_shape(data, batch)  # summary() shows it
                restore_deferred(self)  # values a checkpoint restored before they existed
            self._check_fits(batch.shape, "Normalization.adapt")
            kept_from_end = len(self._broadcast_shape)
            wanted = [1] * (batch.ndim - kept_from_end) + self._broadcast_shape
            reduced = [i for i, size in enumerate(wanted) if size == 1]
            moments.add(batch, reduced, list(self.adapt_mean.shape))
        if moments.count == 0:
            raise InvalidArgumentError(
                "Normalization.adapt: the data holds no values to take a mean of; pass the "
                "training features, e.g. layer.adapt(x_train)",
                op="Normalization.adapt",
            )
        return moments

    def get_config(self):
        return {
            **super().get_config(),
            "axis": self.axis,
            "mean": self.input_mean,
            "variance": self.input_variance,
            "invert": self.invert,
        }


def _filled(values, what):
    """An initializer that broadcasts the given ``values`` to the weight's shape."""

    def initializer(shape, dtype):
        try:
            return broadcast_to(convert_to_tensor(values, dtype=dtype), shape)
        except InvalidArgumentError:
            raise InvalidArgumentError(
                f"Normalization: {what} {values!r:.60} does not broadcast to the shape "
                f"{list(shape)} of the kept axes of the input; give one value, or one per "
                "feature",
                op="Normalization",
            ) from None

    return initializer

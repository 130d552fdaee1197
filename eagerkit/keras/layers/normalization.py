"""BatchNormalization: normalize each channel by its batch statistics while training."""

from eagerkit.arguments import axis_index, describe, whole_number
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras import constraints, regularizers
from eagerkit.keras.layers.base import Layer
from eagerkit.ops.cast import cast
from eagerkit.ops.compare import where
from eagerkit.ops.math import rsqrt
from eagerkit.ops.reduce import reduce_mean, reduce_sum
from eagerkit.ops.reshaping import expand_dims
from eagerkit.ops.shape import broadcast_to, reshape
from eagerkit.train.checks import number


class BatchNormalization(Layer):
    """``gamma * (x - mean) / sqrt(var + epsilon) + beta`` per channel (the last axis).

    With ``training=True`` mean and var come from the batch, and the moving averages
    (non-trainable variables) follow them with ``momentum``; otherwise the moving averages
    are used, so inference does not depend on the batch; a layer with ``trainable=False``
    always uses them, as in Keras since TF 2.0 (TF1's ``tf.layers`` still trained on the
    batch's statistics there; ``ek.layers`` shares this class). A masked input (a padded
    batch of sequences, keras/layers/masks.py) keeps its mask, and while training its
    masked steps stay out of the batch statistics, as in Keras 3.

    Examples
    --------
    >>> import eagerkit as ek
    >>> bn = ek.layers.BatchNormalization()
    >>> y = bn(ek.constant([[1.0], [3.0]]), training=True)
    >>> [round(float(v), 3) for v in y[:, 0]], len(bn.trainable_variables), len(bn.variables)
    ([-1.0, 1.0], 2, 4)
    """

    supports_masking = True  # passes the mask of its inputs on unchanged (Keras 3)

    def __init__(
        self,
        axis=-1,
        momentum=0.99,
        epsilon=1e-3,
        center=True,
        scale=True,
        beta_regularizer=None,
        gamma_regularizer=None,
        beta_constraint=None,
        gamma_constraint=None,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.axis = whole_number(axis, "axis", "BatchNormalization")
        self.momentum = number(momentum, "momentum", "BatchNormalization")
        self.epsilon = number(epsilon, "epsilon", "BatchNormalization")
        self.center, self.scale = center, scale
        self.beta_regularizer = regularizers.resolve(
            beta_regularizer, "BatchNormalization", "beta_regularizer"
        )
        self.gamma_regularizer = regularizers.resolve(
            gamma_regularizer, "BatchNormalization", "gamma_regularizer"
        )
        self.beta_constraint = constraints.resolve(
            beta_constraint, "BatchNormalization", "beta_constraint"
        )
        self.gamma_constraint = constraints.resolve(
            gamma_constraint, "BatchNormalization", "gamma_constraint"
        )

    def build(self, input_shape):
        try:
            self._axis = axis_index(self.axis, len(input_shape), "BatchNormalization")
        except InvalidArgumentError:  # the axis may be right and the shape wrong: name both
            raise InvalidArgumentError(
                f"BatchNormalization: axis={self.axis} is not an axis of input_shape "
                f"{describe(input_shape)} (rank {len(input_shape)}); build it with the shape of "
                "its input, e.g. (None, 3), or choose an axis of that shape",
                op="BatchNormalization",
            ) from None
        size = [input_shape[self._axis]]
        self.gamma = self.beta = None
        if self.scale:
            self.gamma = self.add_weight(
                "gamma",
                size,
                "ones",
                regularizer=self.gamma_regularizer,
                constraint=self.gamma_constraint,
            )
        if self.center:
            self.beta = self.add_weight(
                "beta",
                size,
                "zeros",
                regularizer=self.beta_regularizer,
                constraint=self.beta_constraint,
            )
        self.moving_mean = self.add_weight("moving_mean", size, "zeros", trainable=False)
        self.moving_variance = self.add_weight("moving_variance", size, "ones", trainable=False)

    def call(self, inputs, training=False, mask=None):
        ndim = inputs.ndim
        reduced = [i for i in range(ndim) if i != self._axis]
        # Per-channel values shaped to broadcast against the inputs, e.g. (1, 1, 1, C).
        kept = [1 if i != self._axis else inputs.shape[i] for i in range(ndim)]
        # A frozen layer runs in inference mode even while the model trains (Keras: the
        # fine-tuning workflow keeps a pretrained base's statistics as they were).
        training = training and self.trainable
        if training:
            mean, variance = self._moments(inputs, reduced, mask)
            keep = self.momentum
            new_mean = self.moving_mean * keep + reshape(mean, [-1]) * (1 - keep)
            new_variance = self.moving_variance * keep + reshape(variance, [-1]) * (1 - keep)
        else:
            mean = reshape(self.moving_mean, kept)
            variance = reshape(self.moving_variance, kept)
        outputs = (inputs - mean) * rsqrt(variance + self.epsilon)
        if self.gamma is not None:
            outputs = outputs * reshape(self.gamma, kept)
        if self.beta is not None:
            outputs = outputs + reshape(self.beta, kept)
        if training:  # only now that nothing can fail: a failed call changes no statistic
            self.moving_mean.assign(new_mean)
            self.moving_variance.assign(new_variance)
        return outputs

    def _moments(self, inputs, reduced, mask):
        """The batch's mean and variance over the axes ``reduced``; with a ``mask`` (one
        value per step: the inputs' rank less one), over the real steps only."""
        if mask is None:
            mean = reduce_mean(inputs, axis=reduced, keepdims=True)
            return mean, reduce_mean((inputs - mean) ** 2, axis=reduced, keepdims=True)
        if mask.ndim != inputs.ndim - 1:
            raise InvalidArgumentError(
                f"BatchNormalization layer '{self.name}': the mask must have one value per "
                f"step, rank {inputs.ndim - 1} for inputs of shape {tuple(inputs.shape)}, but "
                f"got shape {tuple(mask.shape)}; pass a mask of shape {tuple(inputs.shape[:-1])}",
                op=self.name,
            )
        real = broadcast_to(expand_dims(cast(mask, "bool"), -1), inputs.shape)
        count = reduce_sum(cast(real, inputs.dtype), axis=reduced, keepdims=True) + 1e-7
        mean = reduce_sum(where(real, inputs, 0.0), axis=reduced, keepdims=True) / count
        squares = where(real, (inputs - mean) ** 2, 0.0)  # as Keras: where, never 0 * inf
        return mean, reduce_sum(squares, axis=reduced, keepdims=True) / count

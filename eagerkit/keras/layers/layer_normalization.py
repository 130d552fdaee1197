"""LayerNormalization: normalize each example over its own features (a Transformer's
normalization), the same way in training and inference.

As Keras: the mean and variance are taken over ``axis`` (the last axis by default, or a
list of axes) of each example, ``epsilon`` is 1e-3, and ``gamma`` / ``beta`` (one per
feature of those axes) scale and shift the result. It is a composition of ops, so its
gradient (and its use inside ``ek.function``) needs nothing of its own.

Examples
--------
>>> import eagerkit as ek
>>> norm = ek.keras.layers.LayerNormalization()
>>> y = norm(ek.constant([[1.0, 3.0], [2.0, 2.0]]))
>>> [[round(float(v), 4) for v in row] for row in y]  # epsilon 1e-3: not quite -1 and 1
[[-0.9995, 0.9995], [0.0, 0.0]]
"""

from eagerkit.arguments import axis_index
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras import constraints, regularizers
from eagerkit.keras.layers.base import Layer, check_rank
from eagerkit.ops.math import rsqrt
from eagerkit.ops.reduce import reduce_mean
from eagerkit.ops.shape import reshape
from eagerkit.train.checks import number


class LayerNormalization(Layer):
    """``gamma * (x - mean) / sqrt(var + epsilon) + beta``, mean and var over ``axis`` of
    each example.

    Examples
    --------
    >>> import eagerkit as ek
    >>> norm = ek.keras.layers.LayerNormalization(axis=[1, 2])
    >>> norm(ek.ones([2, 3, 4])).shape, norm.gamma.shape
    (TensorShape([2, 3, 4]), TensorShape([3, 4]))
    """

    supports_masking = True  # passes the mask of its inputs on unchanged (Keras)

    def __init__(
        self,
        axis=-1,
        epsilon=1e-3,
        center=True,
        scale=True,
        beta_initializer="zeros",
        gamma_initializer="ones",
        beta_regularizer=None,
        gamma_regularizer=None,
        beta_constraint=None,
        gamma_constraint=None,
        **kwargs,
    ):
        super().__init__(**kwargs)
        given = list(axis) if isinstance(axis, (list, tuple)) else [axis]
        if not given:
            raise InvalidArgumentError(
                f"LayerNormalization: axis must be an int or a list of ints, got {axis!r}",
                op="LayerNormalization",
            )
        self.axis = given
        self.epsilon = number(epsilon, "epsilon", "LayerNormalization")
        self.center, self.scale = center, scale
        self.beta_initializer, self.gamma_initializer = beta_initializer, gamma_initializer
        self.beta_regularizer = regularizers.resolve(
            beta_regularizer, "LayerNormalization", "beta_regularizer"
        )
        self.gamma_regularizer = regularizers.resolve(
            gamma_regularizer, "LayerNormalization", "gamma_regularizer"
        )
        self.beta_constraint = constraints.resolve(
            beta_constraint, "LayerNormalization", "beta_constraint"
        )
        self.gamma_constraint = constraints.resolve(
            gamma_constraint, "LayerNormalization", "gamma_constraint"
        )

    def _axes(self, rank, shown):
        """The normalized axes of an input of ``rank``, sorted, without repeats; the batch
        axis (0) is not one of them."""
        try:
            axes = sorted({axis_index(a, rank, "LayerNormalization") for a in self.axis})
        except InvalidArgumentError:  # the axis may be right and the shape wrong: name both
            axes = []
        if len(axes) != len(self.axis) or 0 in axes:
            raise InvalidArgumentError(
                f"LayerNormalization: axis={self.axis} does not name distinct feature axes of "
                f"an input shaped {shown} (rank {rank}); pass axes from 1 to {rank - 1} (or "
                "negative ones), e.g. axis=-1",
                op="LayerNormalization",
            )
        return axes

    def build(self, input_shape):
        check_rank(self, input_shape, 2, "[batch, features, ...]", minimum=True)
        self._normalized = self._axes(len(input_shape), tuple(input_shape))
        self._sizes = [input_shape[a] for a in self._normalized]
        self.gamma = self.beta = None
        if self.scale:
            self.gamma = self.add_weight(
                "gamma",
                self._sizes,
                self.gamma_initializer,
                regularizer=self.gamma_regularizer,
                constraint=self.gamma_constraint,
            )
        if self.center:
            self.beta = self.add_weight(
                "beta",
                self._sizes,
                self.beta_initializer,
                regularizer=self.beta_regularizer,
                constraint=self.beta_constraint,
            )

    def call(self, inputs):
        check_rank(self, inputs.shape, 2, "[batch, features, ...]", minimum=True)
        axes = self._axes(inputs.ndim, tuple(inputs.shape))
        if axes != self._normalized or [inputs.shape[a] for a in axes] != self._sizes:
            raise InvalidArgumentError(
                f"LayerNormalization layer '{self.name}' was built for inputs with sizes "
                f"{self._sizes} on axes {self._normalized}, got shape {tuple(inputs.shape)}; "
                "feed inputs of that shape, or use a new layer for the new input",
                op=self.name,
            )
        mean = reduce_mean(inputs, axis=axes, keepdims=True)
        variance = reduce_mean((inputs - mean) ** 2, axis=axes, keepdims=True)
        outputs = (inputs - mean) * rsqrt(variance + self.epsilon)
        # gamma and beta, shaped to broadcast: 1 on every axis that is not normalized
        kept = [inputs.shape[i] if i in axes else 1 for i in range(inputs.ndim)]
        if self.gamma is not None:
            outputs = outputs * reshape(self.gamma, kept)
        if self.beta is not None:
            outputs = outputs + reshape(self.beta, kept)
        return outputs

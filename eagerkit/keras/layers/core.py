"""The everyday layers: Dense, Dropout, Flatten, Reshape, Embedding."""

import numbers

from eagerkit.errors import InvalidArgumentError
from eagerkit.keras import constraints, regularizers
from eagerkit.keras.layers.base import Layer, check_rank
from eagerkit.keras.layers.kernel_layer import KernelLayer
from eagerkit.keras.layers.sizes import whole_number
from eagerkit.ops.cast import cast
from eagerkit.ops.compare import equal, not_equal
from eagerkit.ops.creation import random_uniform
from eagerkit.ops.indexing import gather
from eagerkit.ops.linalg import matmul
from eagerkit.ops.reduce import reduce_all
from eagerkit.ops.shape import reshape
from eagerkit.tensor import convert_to_tensor


class Dense(KernelLayer):
    """``activation(inputs @ kernel + bias)``; the kernel is made on the first call.

    Inputs of rank > 2 are multiplied along their last axis.

    Examples
    --------
    >>> import eagerkit as ek
    >>> layer = ek.layers.Dense(3, activation="relu")
    >>> layer(ek.ones([2, 4])).shape, [v.shape for v in layer.variables]
    (TensorShape([2, 3]), [TensorShape([4, 3]), TensorShape([3])])
    """

    supports_masking = True  # passes the mask of its inputs on unchanged (Keras)

    def __init__(
        self,
        units,
        activation=None,
        use_bias=True,
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        kernel_regularizer=None,
        bias_regularizer=None,
        activity_regularizer=None,
        kernel_constraint=None,
        bias_constraint=None,
        **kwargs,
    ):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.units = whole_number(units, "units", self)
        self._keep_kernel_arguments(
            activation,
            use_bias,
            kernel_initializer,
            bias_initializer,
            kernel_regularizer,
            bias_regularizer,
            kernel_constraint,
            bias_constraint,
        )

    def build(self, input_shape):
        if len(input_shape) < 2:
            raise InvalidArgumentError(
                f"Dense layer '{self.name}' expects input of rank >= 2 [batch, features], but "
                f"got shape {tuple(input_shape)}. Add a batch axis, e.g. ek.reshape(x, [1, -1]).",
                op=self.name,
            )
        self._add_kernel_and_bias([input_shape[-1], self.units], self.units)

    def call(self, inputs):
        features = self.kernel.shape[0]
        if inputs.ndim < 2 or inputs.shape[-1] != features:
            raise InvalidArgumentError(
                f"Dense layer '{self.name}' was built for inputs with {features} features "
                f"(shape [batch, {features}]) but got shape {inputs.shape}. Feed inputs whose "
                "last axis matches, or use a new layer for the new size.",
                op=self.name,
            )
        if inputs.ndim == 2:
            outputs = matmul(inputs, self.kernel)
        else:  # fold the leading axes into one batch axis for a single matrix product
            flat = matmul(reshape(inputs, [-1, features]), self.kernel)
            outputs = reshape(flat, inputs.shape[:-1] + (self.units,))
        return self._biased_and_activated(outputs)


class Dropout(Layer):
    """Zero each input with probability ``rate`` and scale the rest by 1 / (1 - rate).

    Only when called with ``training=True``; otherwise it passes inputs through unchanged.

    Examples
    --------
    >>> import eagerkit as ek
    >>> drop = ek.layers.Dropout(0.5)
    >>> drop(ek.ones([4])).numpy().tolist()
    [1.0, 1.0, 1.0, 1.0]
    >>> sorted(set(drop(ek.ones([100]), training=True).numpy().tolist()))
    [0.0, 2.0]
    """

    supports_masking = True  # passes the mask of its inputs on unchanged (Keras)

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        if isinstance(rate, bool) or not isinstance(rate, numbers.Real) or not 0 <= rate < 1:
            raise InvalidArgumentError(
                f"Dropout: rate is the fraction to DROP and must be a number in [0, 1), got "
                f"{rate!r}",
                op=self.name,
            )
        self.rate, self.noise_shape, self.seed = float(rate), noise_shape, seed

    def call(self, inputs, training=False):
        if not training or self.rate == 0:
            return inputs
        shape = inputs.shape if self.noise_shape is None else self.noise_shape
        keep = random_uniform(shape, dtype=inputs.dtype, seed=self.seed) >= self.rate
        # A constant mask (not recorded): the gradient is g * mask / (1 - rate).
        return inputs * (cast(keep, inputs.dtype) / (1 - self.rate))


class Flatten(Layer):
    """Keep the batch axis, merge all the others: (N, H, W, C) -> (N, H*W*C).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.layers.Flatten()(ek.zeros([2, 3, 4])).shape
    TensorShape([2, 12])
    """

    def call(self, inputs):
        check_rank(self, inputs.shape, 1, "[batch, ...]", minimum=True)
        return reshape(inputs, [inputs.shape[0], -1])


def flatten(inputs, name=None):
    """Functional Flatten: ``ek.layers.flatten(x)`` reshapes to [batch, -1].

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.layers.flatten(ek.zeros([2, 7, 7, 64])).shape
    TensorShape([2, 3136])
    """
    return Flatten(name=name or "flatten_fn")(inputs)


class Reshape(Layer):
    """Reshape everything after the batch axis to ``target_shape`` (-1 allowed once).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.layers.Reshape([28, 28, 1])(ek.zeros([5, 784])).shape
    TensorShape([5, 28, 28, 1])
    """

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(
            whole_number(n, "target_shape", self, minimum=-1) for n in target_shape
        )  # -1: the size that makes the element count match

    def call(self, inputs):
        check_rank(self, inputs.shape, 1, "[batch, ...]", minimum=True)
        return reshape(inputs, (inputs.shape[0],) + self.target_shape)


class Embedding(Layer):
    """Look up a trainable ``output_dim`` vector for each integer id in [0, input_dim).

    With ``mask_zero=True`` the id 0 is padding: the output carries the mask ``ids != 0``
    (``compute_mask``), and the layers after it skip the padded steps (see
    keras/layers/masks.py); 0 then cannot be a word, so ``input_dim`` is the vocabulary
    size + 1.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.layers.Embedding(10, 4)([[1, 2, 3]]).shape
    TensorShape([1, 3, 4])
    >>> ek.layers.Embedding(10, 4, mask_zero=True).compute_mask(ek.constant([[7, 2, 0]]))
    <ek.Tensor: shape=(1, 3), dtype=bool, numpy=array([[ True,  True, False]])>
    """

    _autocast = False  # ids stay integers

    def __init__(
        self,
        input_dim,
        output_dim,
        embeddings_initializer="uniform",
        embeddings_regularizer=None,
        activity_regularizer=None,
        embeddings_constraint=None,
        mask_zero=False,
        **kwargs,
    ):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.input_dim = whole_number(input_dim, "input_dim", self)
        self.output_dim = whole_number(output_dim, "output_dim", self)
        self.mask_zero = bool(mask_zero)
        self.supports_masking = self.mask_zero  # as Keras: only a mask_zero layer makes one
        self.embeddings_initializer = embeddings_initializer
        self.embeddings_regularizer = regularizers.resolve(
            embeddings_regularizer, "Embedding", "embeddings_regularizer"
        )
        self.embeddings_constraint = constraints.resolve(
            embeddings_constraint, "Embedding", "embeddings_constraint"
        )

    def build(self, input_shape):
        self.embeddings = self.add_weight(
            "embeddings",
            [self.input_dim, self.output_dim],
            self.embeddings_initializer,
            regularizer=self.embeddings_regularizer,
            constraint=self.embeddings_constraint,
        )

    def call(self, inputs):
        inputs = convert_to_tensor(inputs)  # call() may be given ids as a list
        ids = inputs if inputs.dtype.is_integer else cast(inputs, "int32")  # as Keras does,
        if ids is not inputs and not bool(reduce_all(equal(cast(ids, inputs.dtype), inputs))):
            raise InvalidArgumentError(  # but a fractional id is refused, never truncated
                f"Embedding layer '{self.name}': ids must be whole numbers, got "
                f"{inputs.dtype.name} values with a fractional part; pass integer ids",
                op="Embedding",
            )
        return gather(self.embeddings, ids)

    def compute_mask(self, inputs, mask=None):
        """``inputs != 0`` with ``mask_zero=True`` (the id 0 is padding), else None."""
        if not self.mask_zero:
            return None
        return not_equal(convert_to_tensor(inputs), 0)

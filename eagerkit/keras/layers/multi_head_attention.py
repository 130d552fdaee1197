"""MultiHeadAttention: the attention of the Transformer, as ``tf.keras.layers.MultiHeadAttention``.

Four projections, each an einsum with a kernel (and a bias): the query, key and value go to
``num_heads`` heads of ``key_dim`` (``value_dim``) numbers each; each head runs scaled
dot-product attention on its own; the heads' outputs go back through the output projection
to the query's size (or ``output_shape``)::

    q = query @ Wq + bq                  [B, T, H, key_dim]
    k = key @ Wk + bk                    [B, S, H, key_dim]
    v = value @ Wv + bv                  [B, S, H, value_dim]
    weights = softmax(q . k / sqrt(key_dim), over S)              [B, H, T, S]
    output = (weights @ v) @ Wo + bo     [B, T, H, value_dim] -> [B, T, dim]

Every step is an op (einsum, softmax), so gradients come from the tape.

Examples
--------
>>> import eagerkit as ek
>>> mha = ek.keras.layers.MultiHeadAttention(num_heads=2, key_dim=3)
>>> x = ek.ones([1, 4, 8])                                # [batch, time, features]
>>> out, scores = mha(x, x, return_attention_scores=True)  # self-attention
>>> out.shape, scores.shape, mha.count_params()
(TensorShape([1, 4, 8]), TensorShape([1, 2, 4, 4]), 218)
"""

import math

from eagerkit import arguments
from eagerkit.keras import regularizers
from eagerkit.keras.layers.attention_equations import attention_equations, projection_equation
from eagerkit.keras.layers.attention_masks import dropout_rate, padding_mask
from eagerkit.keras.layers.base import Layer
from eagerkit.keras.layers.multi_head_checks import MultiHeadAttentionChecks, shape_or_error
from eagerkit.keras.layers.sizes import whole_number
from eagerkit.ops.compare import where
from eagerkit.ops.einsum import einsum
from eagerkit.ops.math import exp
from eagerkit.ops.nn import softmax
from eagerkit.ops.nn_compositions import dropout as _dropout
from eagerkit.ops.reduce import reduce_logsumexp

# The score a hidden position gets (Keras' Softmax with a mask): its weight is exp(-1e9) = 0.
_HIDDEN_SCORE = -1.0e9


class EinsumDense(Layer):
    """One of the four projections: ``einsum(equation, inputs, kernel) + bias`` (Keras'
    ``EinsumDense`` does the same; this one is only made by MultiHeadAttention)."""

    # MultiHeadAttention uses its inputs' masks itself (Keras 3 takes them off the inputs
    # before projecting them): the projections lose nothing the layer needs.
    _warns_of_dropped_masks = False

    def __init__(self, equation, kernel_shape, bias_shape, owner, **kwargs):
        super().__init__(activity_regularizer=owner.projection_activity_regularizer, **kwargs)
        self.equation, self.kernel_shape, self.bias_shape = equation, kernel_shape, bias_shape
        self.initializers = owner.kernel_initializer, owner.bias_initializer
        self.regularizers = owner.kernel_regularizer, owner.bias_regularizer

    def build(self, input_shape):
        self.kernel = self.add_weight(
            "kernel", self.kernel_shape, self.initializers[0], regularizer=self.regularizers[0]
        )
        self.bias = None
        if self.bias_shape is not None:
            self.bias = self.add_weight(
                "bias", self.bias_shape, self.initializers[1], regularizer=self.regularizers[1]
            )

    def call(self, inputs):
        outputs = einsum(self.equation, inputs, self.kernel)
        return outputs if self.bias is None else outputs + self.bias


class MultiHeadAttention(MultiHeadAttentionChecks, Layer):
    """Multi-head scaled dot-product attention (Vaswani et al., 2017), Keras' layer.

    Parameters
    ----------
    num_heads, key_dim : int
        How many heads, and the size of each head's query and key.
    value_dim : int, optional
        The size of each head's value (``key_dim`` if not given).
    dropout : float
        Fraction of the attention weights dropped when called with ``training=True``.
    use_bias : bool
        Whether the four projections add a bias.
    output_shape : int or tuple, optional
        The size (or shape) of each output position; the query's last size if not given.
    attention_axes : int or tuple, optional
        The query's axes that attention runs over (``None``: every axis but the batch and
        the features). Each must be between 1 and rank - 2.
    kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer,
    activity_regularizer
        As Dense's, for every projection.
    seed : int, optional
        Seed of the dropout draws.

    Call it as ``layer(query, value, key=None, attention_mask=None,
    return_attention_scores=False, training=None, use_causal_mask=False)``. The
    ``attention_mask`` is ``[batch, T, S]`` (or broadcasts to it): ``True`` where query
    position t may attend to key position s. A query row with every key hidden gets even
    weights, as in Keras (every score becomes -1e9). Inputs that carry a Keras mask
    (``Embedding(mask_zero=True)``; keras/layers/masks.py) hide their padded positions too,
    as Keras' ``_compute_attention_mask`` does (or pass ``query_mask=``, ``value_mask=``,
    ``key_mask=``), and the output keeps the query's mask.

    Examples
    --------
    >>> import eagerkit as ek
    >>> mha = ek.keras.layers.MultiHeadAttention(num_heads=2, key_dim=4, name="mha")
    >>> query, value = ek.ones([3, 5, 6]), ek.ones([3, 7, 2])
    >>> mha(query, value).shape
    TensorShape([3, 5, 6])
    >>> [(w.name, tuple(w.shape)) for w in mha.weights[:2]]
    [('mha/query/kernel:0', (6, 2, 4)), ('mha/query/bias:0', (2, 4))]
    """

    supports_masking = True  # the output keeps the query's mask (Keras)

    def __init__(
        self,
        num_heads,
        key_dim,
        value_dim=None,
        dropout=0.0,
        use_bias=True,
        output_shape=None,
        attention_axes=None,
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        kernel_regularizer=None,
        bias_regularizer=None,
        activity_regularizer=None,
        seed=None,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.num_heads = whole_number(num_heads, "num_heads", self)
        self.key_dim = whole_number(key_dim, "key_dim", self)
        given_value_dim = self.key_dim if value_dim is None else value_dim
        self.value_dim = whole_number(given_value_dim, "value_dim", self)
        self.dropout = dropout_rate(dropout, f"MultiHeadAttention layer '{self.name}'")
        self.use_bias = bool(use_bias)
        self.output_sizes = self._sizes(output_shape, "output_shape")
        self.attention_axes = self._sizes(attention_axes, "attention_axes", minimum=None)
        self.kernel_initializer, self.bias_initializer = kernel_initializer, bias_initializer
        layer = "MultiHeadAttention"
        self.kernel_regularizer = regularizers.resolve(
            kernel_regularizer, layer, "kernel_regularizer"
        )
        self.bias_regularizer = regularizers.resolve(bias_regularizer, layer, "bias_regularizer")
        # Each projection's outputs are penalized (Keras hands it to each), not the layer's.
        self.projection_activity_regularizer = regularizers.resolve(
            activity_regularizer, layer, "activity_regularizer"
        )
        self.seed = seed

    def _sizes(self, value, what, minimum=1):
        """``value`` (an int, a list of ints or None) as a tuple of ints, or None."""
        if value is None:
            return None
        listed = value if isinstance(value, (list, tuple)) else [value]
        if minimum is None:  # axes: any whole number, checked against the rank at build
            return tuple(arguments.whole_number(a, what, type(self).__name__) for a in listed)
        return tuple(whole_number(n, what, self, minimum=minimum) for n in listed)

    @property
    def query_dense(self):
        return self._query_dense

    @property
    def key_dense(self):
        return self._key_dense

    @property
    def value_dense(self):
        return self._value_dense

    @property
    def output_dense(self):
        return self._output_dense

    # --- building ---------------------------------------------------------------------------
    def _build_shapes(self, inputs, args, kwargs):
        value = args[0] if args else kwargs.get("value")
        key = args[1] if len(args) > 1 else kwargs.get("key")
        self._check_given(inputs, value)
        key_shape = None if key is None else tuple(self._convert(key).shape)
        return tuple(inputs.shape), tuple(self._convert(value).shape), key_shape

    def build(self, query_shape, value_shape=None, key_shape=None):
        """Make the four projections for inputs of these shapes (``value_shape`` is needed)."""
        query_shape = tuple(query_shape)
        value_shape = shape_or_error(self, value_shape, "value_shape")
        key_shape = value_shape if key_shape is None else tuple(key_shape)
        rank = len(query_shape)
        self._check_ranks(query_shape, value_shape, key_shape)
        self._rank, self._axes = rank, self._normalized_axes(rank, query_shape)
        heads = [self.num_heads, self.key_dim]
        bias = heads if self.use_bias else None
        value_heads = [self.num_heads, self.value_dim]
        into_heads = projection_equation(rank - 1, 1, 2)
        out_sizes = list(self.output_sizes or [query_shape[-1]])
        self._query_dense = self._projection("query", into_heads, [query_shape[-1], *heads], bias)
        self._key_dense = self._projection("key", into_heads, [key_shape[-1], *heads], bias)
        self._value_dense = self._projection(
            "value", into_heads, [value_shape[-1], *value_heads], value_heads if bias else None
        )
        self._output_dense = self._projection(
            "attention_output",
            projection_equation(rank - 1, 2, len(out_sizes)),
            [*value_heads, *out_sizes],
            out_sizes if bias else None,
        )
        self._scores_equation, self._combine_equation = attention_equations(rank + 1, self._axes)

    def _projection(self, name, equation, kernel_shape, bias_shape):
        projection = EinsumDense(
            equation, kernel_shape, bias_shape, self, name=f"{self.name}/{name}", dtype=self.dtype
        )
        projection.build(None)  # made now, in Keras' order: query, key, value, output
        return projection

    # --- calling ----------------------------------------------------------------------------
    def call(
        self,
        query,
        value=None,
        key=None,
        attention_mask=None,
        return_attention_scores=False,
        training=None,
        use_causal_mask=False,
        *,
        query_mask=None,
        value_mask=None,
        key_mask=None,
    ):
        self._check_given(query, value)
        query, value = self._convert(query), self._convert(value)  # call() may be called alone
        key = value if key is None else self._convert(key)
        self._check_inputs(query, value, key)
        # The inputs' own masks (Layer.__call__ passes them): padded positions are hidden.
        padding = padding_mask(self, query, value, query_mask, value_mask, key_mask)
        mask = self._mask(attention_mask, query, value, use_causal_mask, padding)
        # Scaling the query (not the scores) is Keras' order: the same numbers as it gives.
        q = self._query_dense(query) * (1.0 / math.sqrt(self.key_dim))
        k, v = self._key_dense(key), self._value_dense(value)
        scores = einsum(self._scores_equation, q, k)
        if mask is not None:  # a hidden position's weight becomes exp(-1e9) = 0
            scores = where(mask, scores, _HIDDEN_SCORE)
        weights = self._softmax(scores)
        used = weights
        if training and self.dropout > 0:
            used = _dropout(weights, rate=self.dropout, seed=self.seed)
        outputs = self._output_dense(einsum(self._combine_equation, used, v))
        return (outputs, weights) if return_attention_scores else outputs

    def _softmax(self, scores):
        """A softmax over the key's attention axes (the last ``len(axes)`` of the scores)."""
        if len(self._axes) == 1:
            return softmax(scores, axis=-1)
        axes = list(range(scores.ndim - len(self._axes), scores.ndim))
        return exp(scores - reduce_logsumexp(scores, axis=axes, keepdims=True))

"""Attention: Luong-style dot-product attention, as ``tf.keras.layers.Attention``.

Each query position scores every key position, a softmax turns a row of scores into
weights that sum to 1, and the output is the weighted sum of the values::

    scores  = query @ key^T                       [batch, Tq, Tv]   ('dot')
    weights = softmax(scores, axis=-1)            [batch, Tq, Tv]
    output  = weights @ value                     [batch, Tq, dim]

It is a composition of ops (matmul, softmax), so its gradient comes from the tape.

Examples
--------
>>> import eagerkit as ek
>>> query = ek.constant([[[1.0, 0.0]]])                 # one query, batch of 1
>>> value = ek.constant([[[1.0, 0.0], [0.0, 1.0]]])     # two positions to attend to
>>> out, weights = ek.keras.layers.Attention()([query, value], return_attention_scores=True)
>>> [round(float(w), 4) for w in weights[0, 0]]         # softmax([1, 0])
[0.7311, 0.2689]
>>> [round(float(v), 4) for v in out[0, 0]]
[0.7311, 0.2689]
"""

from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.keras_tensor import KerasTensor
from eagerkit.keras.layers.attention_masks import (
    as_bool_mask,
    broadcasts_to,
    causal_mask,
    dropout_rate,
    refuse_integer_inputs,
)
from eagerkit.keras.layers.base import Layer
from eagerkit.ops.cast import cast
from eagerkit.ops.compare import logical_and, logical_not
from eagerkit.ops.linalg import matmul
from eagerkit.ops.math import tanh
from eagerkit.ops.nn import softmax
from eagerkit.ops.nn_compositions import dropout as _dropout
from eagerkit.ops.reduce import reduce_sum
from eagerkit.ops.reshaping import expand_dims

_SCORE_MODES = ("dot", "concat")
# What a hidden position's score loses (Keras' number): its weight becomes exp(-1e9) = 0.
_HIDDEN = 1.0e9


class Attention(Layer):
    """Dot-product (Luong) attention over ``[query, value]`` or ``[query, value, key]``.

    Parameters
    ----------
    use_scale : bool
        Learn a scalar ``scale`` (starting at 1) that multiplies the scores.
    score_mode : {'dot', 'concat'}
        ``'dot'``: ``query . key``. ``'concat'``: ``sum(tanh(query + key))`` times a learned
        scalar ``concat_score_weight``.
    dropout : float
        Fraction of the attention weights dropped when called with ``training=True``.
    seed : int, optional
        Seed of the dropout draws.

    Call arguments: ``inputs`` (the list), ``mask=[query_mask, value_mask]`` (``[batch, Tq]``
    and ``[batch, Tv]``, ``True`` where a position counts; either may be ``None``),
    ``training``, ``return_attention_scores`` (also return the weights, after masking and
    softmax) and ``use_causal_mask`` (query position i attends to key positions j <= i).

    A query row whose keys are all masked gets even weights (every score loses the same
    1e9, as in Keras), and a masked query position outputs zeros. Inputs that carry a
    Keras mask (``Embedding(mask_zero=True)``; keras/layers/masks.py) give it without
    ``mask=``, and the output keeps the query's mask.

    Examples
    --------
    >>> import eagerkit as ek
    >>> query, value = ek.ones([2, 3, 4]), ek.ones([2, 5, 4])
    >>> layer = ek.keras.layers.Attention(use_scale=True, name="attention")
    >>> layer([query, value]).shape, [v.name for v in layer.weights]
    (TensorShape([2, 3, 4]), ['attention/scale:0'])
    >>> hide_last = ek.constant([[True, True, True, True, False]] * 2)
    >>> _, weights = layer([query, value], mask=[None, hide_last], return_attention_scores=True)
    >>> weights[0, 0].numpy().tolist()
    [0.25, 0.25, 0.25, 0.25, 0.0]
    """

    def __init__(self, use_scale=False, score_mode="dot", dropout=0.0, seed=None, **kwargs):
        super().__init__(**kwargs)
        if score_mode not in _SCORE_MODES:
            raise InvalidArgumentError(
                "Attention: invalid value for argument score_mode. Expected one of "
                f"{{'dot', 'concat'}}. Received: score_mode={score_mode!r}",
                op=self.name,
            )
        self.use_scale = bool(use_scale)
        self.score_mode = score_mode
        self.dropout = dropout_rate(dropout, f"Attention layer '{self.name}'")
        self.seed = seed

    def __call__(self, inputs, *args, **kwargs):
        return super().__call__(self._listed(inputs), *args, **kwargs)

    def build(self, input_shape):
        self.scale = None
        self.concat_score_weight = None
        if self.use_scale:
            self.scale = self.add_weight("scale", [], initializer="ones")
        if self.score_mode == "concat":
            self.concat_score_weight = self.add_weight(
                "concat_score_weight", [], initializer="ones"
            )

    def call(
        self,
        inputs,
        mask=None,
        training=False,
        return_attention_scores=False,
        use_causal_mask=False,
    ):
        query, value, key = self._checked(self._listed(inputs))
        query_mask, value_mask = self._masks(mask, query, value)
        scores = self._scores(query, key)  # [batch, Tq, Tv]
        shown = value_mask  # where a score counts: [batch, 1, Tv] broadcast over the rows
        if use_causal_mask:
            causal = causal_mask(query.shape[1], key.shape[1])
            shown = causal if shown is None else logical_and(shown, causal)
        if shown is not None:
            # Hidden scores drop by 1e9: their exp is 0 next to any score that is shown.
            scores = scores - _HIDDEN * cast(logical_not(shown), scores.dtype)
        weights = softmax(scores, axis=-1)
        if training and self.dropout > 0:
            weights = _dropout(weights, rate=self.dropout, seed=self.seed)
        outputs = matmul(weights, value)
        if query_mask is not None:  # a hidden query position outputs zeros
            outputs = outputs * cast(expand_dims(query_mask, -1), outputs.dtype)
        return (outputs, weights) if return_attention_scores else outputs

    def _scores(self, query, key):
        """How well each query position matches each key position: ``[batch, Tq, Tv]``."""
        if self.score_mode == "dot":
            scores = matmul(query, key, transpose_b=True)
            return scores if self.scale is None else scores * self.scale
        pairs = expand_dims(query, -2) + expand_dims(key, -3)  # [batch, Tq, Tv, dim]
        if self.scale is not None:
            pairs = self.scale * pairs
        return self.concat_score_weight * reduce_sum(tanh(pairs), axis=-1)

    # --- checks -----------------------------------------------------------------------------
    def _error(self, problem, fix):
        return InvalidArgumentError(f"Attention layer '{self.name}' {problem}. {fix}", op=self.name)

    def _listed(self, inputs):
        """``inputs`` as a list of 2 or 3 tensors (converted unless they are symbolic)."""
        if not isinstance(inputs, (list, tuple)):
            raise self._error(
                "must be called on a list of inputs, namely [query, value] or "
                f"[query, value, key]; got {type(inputs).__name__}",
                "Call it as layer([query, value]).",
            )
        if not 2 <= len(inputs) <= 3:
            raise self._error(
                f"accepts inputs list of length 2 or 3, namely [query, value] or "
                f"[query, value, key]; got {len(inputs)} inputs",
                "Pass [query, value] (the key is the value) or [query, value, key].",
            )
        if any(isinstance(x, KerasTensor) for x in inputs):
            return list(inputs)
        return [self._convert(x) for x in inputs]

    def _checked(self, inputs):
        """``(query, value, key)`` once their shapes fit together, or the error saying why."""
        query, value = inputs[0], inputs[1]
        key = inputs[2] if len(inputs) == 3 else value
        named = {"query": query, "value": value, "key": key}
        shapes = ", ".join(f"{n} {tuple(t.shape)}" for n, t in named.items())
        refuse_integer_inputs(named, self._error)
        for tensor in named.values():
            if tensor.ndim != 3:
                raise self._error(
                    f"needs inputs of shape [batch, time, dim], got {shapes}",
                    "Add the missing axes, e.g. ek.expand_dims(x, 1) for one time step.",
                )
        if len({query.shape[0], value.shape[0], key.shape[0]}) > 1:
            raise self._error(
                f"needs one batch size for all inputs, got {shapes}",
                "Give query, value and key the same first axis.",
            )
        if query.shape[-1] != key.shape[-1]:
            raise self._error(
                f"compares query and key along their last axis, which must have one size, "
                f"got {shapes}",
                "Project them to one size first, e.g. with ek.keras.layers.Dense.",
            )
        if value.shape[1] != key.shape[1]:
            raise self._error(
                f"weights each value by its key, so value and key need the same time axis, "
                f"got {shapes}",
                "Pass a key with one position per value position.",
            )
        return query, value, key

    def compute_mask(self, inputs, mask=None):
        """The query's mask (``mask[0]``): the output has the query's positions."""
        if not isinstance(mask, (list, tuple)) or not mask or mask[0] is None:
            return None
        return as_bool_mask(mask[0], "query_mask", self)

    def _masks(self, mask, query, value):
        """``(query_mask [batch, Tq], value_mask [batch, 1, Tv])`` as bool tensors or None."""
        if mask is None:
            return None, None
        if not isinstance(mask, (list, tuple)) or not 2 <= len(mask) <= 3:
            raise self._error(
                f"takes mask=[query_mask, value_mask], got {type(mask).__name__}"
                + (f" of length {len(mask)}" if isinstance(mask, (list, tuple)) else ""),
                "Pass a list of two masks; either may be None.",
            )
        found = []
        for given, name, tensor in ((mask[0], "query_mask", query), (mask[1], "value_mask", value)):
            if given is None:
                found.append(None)
                continue
            given = as_bool_mask(given, name, self)
            wanted = tuple(tensor.shape[:2])
            if not broadcasts_to(tuple(given.shape), wanted):
                raise self._error(
                    f"needs {name} of shape [batch, time] = {wanted} (one True/False per "
                    f"position of {name.split('_')[0]} {tuple(tensor.shape)}), got "
                    f"{tuple(given.shape)}",
                    f"Pass a mask of shape {wanted}.",
                )
            found.append(given)
        query_mask, value_mask = found
        return query_mask, None if value_mask is None else expand_dims(value_mask, -2)

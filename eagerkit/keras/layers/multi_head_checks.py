"""What MultiHeadAttention checks and prepares before it computes: the attention axes,
the shapes of the query, value and key, and the attention mask (made boolean, expanded to
the scores' rank, joined with the causal mask).

Each check runs before any weight is made or read, so a call that fails changes nothing,
and each error names the layer, the shapes it got and what to pass instead.

Examples
--------
>>> import eagerkit as ek
>>> mha = ek.keras.layers.MultiHeadAttention(2, 3, name="mha")
>>> mha(ek.ones([2, 3, 4]), ek.ones([2, 5, 4]), attention_mask=ek.ones([2, 3, 4]))
... # doctest: +ELLIPSIS
Traceback (most recent call last):
...
eagerkit.errors.InvalidArgumentError: ...Pass a mask of shape (2, 3, 5) (batch, query positions...
"""

from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.keras_tensor import KerasTensor
from eagerkit.keras.layers.attention_masks import (
    as_bool_mask,
    broadcasts_to,
    causal_mask,
    refuse_integer_inputs,
)
from eagerkit.ops.compare import logical_and
from eagerkit.ops.reshaping import expand_dims
from eagerkit.tensor import Tensor


class MultiHeadAttentionChecks:
    """The checks of MultiHeadAttention (a base class; the layer keeps ``_rank``,
    ``_axes`` and the projections once built)."""

    def _normalized_axes(self, rank, query_shape):
        """The attention axes of a query of ``rank``: sorted, each in [1, rank - 2]."""
        if self.attention_axes is None:
            return tuple(range(1, rank - 1))
        axes = sorted({a + rank if a < 0 else a for a in self.attention_axes})
        if len(axes) != len(self.attention_axes) or not all(1 <= a <= rank - 2 for a in axes):
            raise self._error(
                f"attention_axes={self.attention_axes} must name distinct axes of the query "
                f"between 1 and {rank - 2} (not the batch axis 0 nor the feature axis "
                f"{rank - 1}) for a query of shape {query_shape}",
                f"Pass axes among {list(range(1, rank - 1))}, or None for all of them.",
            )
        return tuple(axes)

    def _mask(self, attention_mask, query, value, use_causal_mask, padding=None):
        """The attention mask, expanded to the scores' rank (one size-1 axis per missing
        axis, in front of the query's attention axes), joined with the causal mask if asked
        for and the ``padding`` mask that the inputs' own masks make."""
        scores_shape = self._scores_shape(query, value)
        masks = []
        if attention_mask is not None:
            masks.append(as_bool_mask(attention_mask, "attention_mask", self))
        if padding is not None:
            masks.append(padding)
        if use_causal_mask:
            if len(self._axes) != 1:
                raise self._error(
                    f"use_causal_mask needs attention over one axis, but it runs over axes "
                    f"{list(self._axes)}",
                    "Use attention_axes with one axis, or pass your own attention_mask.",
                )
            axis = self._axes[0]
            masks.append(causal_mask(query.shape[axis], value.shape[axis]))
        expanded = []
        for mask in masks:
            shape = tuple(mask.shape)
            while mask.ndim < len(scores_shape):
                mask = expand_dims(mask, -2 * len(self._axes) - 1)
            if not broadcasts_to(tuple(mask.shape), scores_shape):
                heads = self._scores_equation.split(",")[0][-2]  # the heads' letter
                letters = self._scores_equation.split("->")[1]
                wanted = tuple(d for c, d in zip(letters, scores_shape, strict=True) if c != heads)
                raise self._error(
                    f"got attention_mask of shape {shape}, which does not fit queries "
                    f"{tuple(query.shape)} attending to values {tuple(value.shape)}",
                    f"Pass a mask of shape {wanted} (batch, query positions, key positions), "
                    "True where a query position may attend to a key position.",
                )
            expanded.append(mask)
        if not expanded:
            return None
        return expanded[0] if len(expanded) == 1 else logical_and(*expanded)

    def _scores_shape(self, query, value):
        """The shape of the attention scores for these inputs (from the scores equation)."""
        inputs, scores = self._scores_equation.split("->")
        query_letters, key_letters = inputs.split(",")
        sizes = dict(zip(query_letters[:-2], query.shape[:-1], strict=True))
        sizes.update(zip(key_letters[:-2], value.shape[:-1], strict=True))
        sizes[query_letters[-2]] = self.num_heads
        return tuple(sizes[letter] for letter in scores)

    # --- checks -----------------------------------------------------------------------------
    def _error(self, problem, fix):
        return InvalidArgumentError(
            f"MultiHeadAttention layer '{self.name}': {problem}. {fix}", op=self.name
        )

    def _check_given(self, query, value):
        for name, tensor in (("query", query), ("value", value)):
            if isinstance(tensor, (list, tuple)) and any(
                isinstance(x, (Tensor, KerasTensor)) for x in tensor
            ):  # tensors in a list: several inputs (a nested list of numbers is one)
                raise self._error(
                    f"takes query, value and key as separate arguments, got a list as {name}",
                    "Call it as layer(query, value) or layer(query, value, key=key).",
                )
        if value is None:
            raise self._error(
                "needs a value to attend to, got only a query",
                "Call it as layer(query, value), or layer(x, x) for self-attention.",
            )

    def _check_ranks(self, query_shape, value_shape, key_shape):
        shapes = f"query {tuple(query_shape)}, value {tuple(value_shape)}, key {tuple(key_shape)}"
        if len(query_shape) < 3 or not len(query_shape) == len(value_shape) == len(key_shape):
            raise self._error(
                f"needs query, value and key of one rank >= 3 ([batch, time, features]), got "
                f"{shapes}",
                "Add the missing axes, e.g. ek.expand_dims(x, 1) for one time step.",
            )
        if tuple(value_shape[1:-1]) != tuple(key_shape[1:-1]):
            raise self._error(
                f"needs value and key with the same shape but for the last axis, got {shapes}",
                "Pass a key with one position per value position.",
            )

    def _check_inputs(self, query, value, key):
        """Shapes and dtypes that fit the layer as built, or the error that says why."""
        named = {"query": query, "value": value, "key": key}
        refuse_integer_inputs(named, self._error)
        self._check_ranks(query.shape, value.shape, key.shape)
        shapes = ", ".join(f"{n} {tuple(t.shape)}" for n, t in named.items())
        rank = self._rank
        if query.ndim != rank:
            raise self._error(
                f"was built for inputs of rank {rank}, got {shapes}",
                "Feed inputs of that rank, or use a new layer for the new rank.",
            )
        shared = [a for a in range(rank - 1) if a not in self._axes]
        if any(query.shape[a] != value.shape[a] for a in shared):
            raise self._error(
                f"needs the same sizes along the axes attention does not run over (axes "
                f"{shared}, the batch first), got {shapes}",
                "Give query and value the same batch size.",
            )
        projections = (self._query_dense, self._value_dense, self._key_dense)
        for name, dense in zip(named, projections, strict=True):
            self._check_features(name, named[name], dense, shapes)

    def _check_features(self, name, tensor, dense, shapes):
        features = dense.kernel.shape[0]
        if tensor.shape[-1] != features:
            raise self._error(
                f"was built for a {name} with {features} features (its last axis), got {shapes}",
                f"Feed a {name} whose last axis has {features} numbers, or use a new layer.",
            )


def shape_or_error(layer, shape, what):
    """``shape`` as a tuple, or the error saying ``build`` needs it (``what``)."""
    if shape is None:
        raise layer._error(
            f"build needs the {what} as well as the query_shape",
            "Call layer.build(query_shape, value_shape), or call the layer on data.",
        )
    return tuple(shape)

"""Bidirectional: one recurrent layer reads the sequence forwards, a copy reads it backwards.

Each time step then knows what came before it (the forward layer) and what comes after it
(the backward one): a word's left and right context. The two layers have their own
weights; their outputs are merged step by step, the backward outputs first put back in
time order.
"""

from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.layers.base import Layer, check_rank
from eagerkit.keras.layers.recurrent import _SEQUENCE, _Recurrent, state_names
from eagerkit.ops.cast import cast
from eagerkit.ops.compositions import reverse
from eagerkit.ops.shape import concat

_MERGE_MODES = ("concat", "sum", "mul", "ave", None)


class Bidirectional(Layer):
    """A recurrent layer run forwards and backwards over the sequence, outputs merged.

    ``layer`` (a ``SimpleRNN``, ``LSTM`` or ``GRU``) is copied from its config twice, as in
    Keras: ``forward_<name>``, and ``backward_<name>`` with ``go_backwards=True`` (or
    ``backward_layer`` as given). Neither copy shares ``layer``'s weights. ``merge_mode``
    joins the two outputs: ``"concat"`` (last axis), ``"sum"``, ``"mul"``, ``"ave"``, or
    None for the list ``[forward, backward]``. With ``return_sequences`` the backward
    outputs are reversed back in time, so step t meets step t. With ``return_state`` the
    merged output is followed by the forward layer's states, then the backward one's; an
    ``initial_state`` is given in the same order. The weights are the forward layer's,
    then the backward layer's. A mask (see keras/layers/masks.py) goes to both layers,
    each reading it in its own direction; with ``return_sequences`` their masked steps
    output zeros (Keras sets ``zero_output_for_mask`` so), and the output keeps the mask.

    Examples
    --------
    >>> import eagerkit as ek
    >>> words = ek.keras.layers.LSTM(4, return_sequences=True, name="words")
    >>> both = ek.keras.layers.Bidirectional(words)
    >>> both(ek.zeros([2, 5, 3])).shape  # 4 forward units beside 4 backward ones, each step
    TensorShape([2, 5, 8])
    >>> both.forward_layer.name, both.backward_layer.name, both.backward_layer.go_backwards
    ('forward_words', 'backward_words', True)
    >>> both.count_params() == 2 * both.forward_layer.count_params()
    True
    """

    def __init__(self, layer, merge_mode="concat", backward_layer=None, **kwargs):
        _check_recurrent(layer, "layer")
        if backward_layer is not None:
            _check_recurrent(backward_layer, "backward_layer")
        if not (merge_mode is None or (isinstance(merge_mode, str) and merge_mode in _MERGE_MODES)):
            raise InvalidArgumentError(
                f"Bidirectional: merge_mode must be one of 'concat', 'sum', 'mul', 'ave' or None "
                f"(the two outputs as a list), got {merge_mode!r}; pass one of them",
                op="Bidirectional",
            )
        # Copies made from the config: a fresh layer that shares no weights with ``layer``.
        forward = _copy(layer, "forward_")
        backward = backward_layer
        if backward is None:
            backward = _copy(layer, "backward_", go_backwards=True)
        _check_pair(forward, backward)
        super().__init__(**kwargs)
        for inner in (forward, backward):  # as Keras: a padded step of a sequence shows zeros
            inner.zero_output_for_mask = inner.return_sequences
        self.forward_layer, self.backward_layer = forward, backward
        self.merge_mode = merge_mode
        self.return_sequences, self.return_state = layer.return_sequences, layer.return_state
        if self.input_spec_shape is None:  # Bidirectional(LSTM(4, input_shape=...)) in Keras 2
            self.input_spec_shape = layer.input_spec_shape

    def build(self, input_shape):
        check_rank(self, input_shape, 3, _SEQUENCE)
        for layer in (self.forward_layer, self.backward_layer):
            if not layer.built:
                layer.build(input_shape)

    def call(self, inputs, initial_state=None, mask=None):
        check_rank(self, inputs.shape, 3, _SEQUENCE)
        forward_state = backward_state = None
        if initial_state is not None:
            forward_state, backward_state = self._split_state(initial_state, inputs.shape[0])
        y = self.forward_layer(inputs, initial_state=forward_state, mask=mask)
        y_back = self.backward_layer(inputs, initial_state=backward_state, mask=mask)
        states = []
        if self.return_state:
            states = [*y[1:], *y_back[1:]]
            y, y_back = y[0], y_back[0]
        # As Keras: the merged output has this layer's dtype, whatever the inner layers' are.
        y, y_back = (t if t.dtype == self.dtype else cast(t, self.dtype) for t in (y, y_back))
        if self.return_sequences:
            y_back = reverse(y_back, [1])  # it read the sequence from the end: put it back
        merged = self._merge(y, y_back)
        if not self.return_state:
            return merged
        return [*merged, *states] if self.merge_mode is None else [merged, *states]

    def compute_mask(self, inputs, mask=None):
        """As Keras: the mask goes on with the sequences (to both outputs when
        ``merge_mode=None``); a last output or a state has none."""
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        outputs = 2 if self.merge_mode is None else 1
        output_masks = [mask if self.return_sequences else None] * outputs
        if self.return_state:
            states = self.forward_layer.states + self.backward_layer.states
            return output_masks + [None] * states
        return output_masks if outputs == 2 else output_masks[0]

    def _merge(self, y, y_back):
        if self.merge_mode == "concat":
            return concat([y, y_back], axis=-1)
        if self.merge_mode == "sum":
            return y + y_back
        if self.merge_mode == "mul":
            return y * y_back
        if self.merge_mode == "ave":
            return (y + y_back) / 2
        return [y, y_back]

    def _split_state(self, initial_state, batch):
        """``initial_state`` as (the forward layer's states, the backward layer's)."""
        forward, backward = self.forward_layer, self.backward_layer
        wanted = forward.states + backward.states
        if not isinstance(initial_state, (list, tuple)) or len(initial_state) != wanted:
            each = [
                f"{state_names(layer)} of shape [{batch}, {layer.units}]"
                for layer in (forward, backward)
            ]
            raise InvalidArgumentError(
                f"Bidirectional layer '{self.name}': initial_state must be a list of {wanted} "
                f"tensors, the forward layer's {each[0]}, then the backward layer's {each[1]}; "
                f"got {describe(initial_state)}",
                op=self.name,
            )
        return list(initial_state[: forward.states]), list(initial_state[forward.states :])

    def get_config(self):
        """The common fields, ``merge_mode`` and both layers' configs (Keras' keys)."""
        from eagerkit.keras.serialization import serialize_keras_object

        return {
            **super().get_config(),
            "layer": serialize_keras_object(self.forward_layer),
            "merge_mode": self.merge_mode,
            "backward_layer": serialize_keras_object(self.backward_layer),
        }

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """The layer ``config`` describes, both inner layers made again from theirs."""
        from eagerkit.keras.layers import deserialize

        if isinstance(config, dict):  # (anything else: the base class's error)
            config = dict(config)
            config["layer"] = deserialize(config.get("layer"), custom_objects)
            if config.get("backward_layer") is not None:
                config["backward_layer"] = deserialize(config["backward_layer"], custom_objects)
        return super().from_config(config)


def _check_recurrent(layer, argument):
    if not isinstance(layer, _Recurrent):
        got = f"{type(layer).__name__} layer '{layer.name}'" if isinstance(layer, Layer) else None
        raise InvalidArgumentError(
            f"Bidirectional: {argument} must be a recurrent layer (ek.keras.layers.SimpleRNN, "
            f"LSTM or GRU), got {got or describe(layer)}; wrap the recurrent layer itself, "
            "e.g. Bidirectional(LSTM(units)), and put other layers before or after it",
            op="Bidirectional",
        )


def _copy(layer, prefix, **changes):
    """A new layer of ``layer``'s class and config, named ``<prefix><name>``."""
    config = {**layer.get_config(), "name": prefix + layer.name.removeprefix(prefix), **changes}
    return type(layer).from_config(config)


def _check_pair(forward, backward):
    """Keras' rules: opposite directions, the same return_sequences and return_state."""
    if forward.go_backwards == backward.go_backwards:
        raise InvalidArgumentError(
            "Bidirectional: the forward and backward layers must read in opposite directions, "
            f"got go_backwards={forward.go_backwards} for both; make the backward layer with "
            "go_backwards=True and the forward one without it",
            op="Bidirectional",
        )
    for attribute in ("return_sequences", "return_state"):
        forward_value, backward_value = getattr(forward, attribute), getattr(backward, attribute)
        if forward_value != backward_value:
            raise InvalidArgumentError(
                f"Bidirectional: the forward and backward layers must have the same "
                f"{attribute}, got {forward_value} for the forward layer and {backward_value} "
                f"for the backward one; make both with {attribute}={forward_value}",
                op="Bidirectional",
            )

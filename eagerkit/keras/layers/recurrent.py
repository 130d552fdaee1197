"""SimpleRNN, LSTM and GRU: recurrent layers written as a plain Python loop over time.

That loop is the point of eager execution: no ``dynamic_rnn``, no graph-time unrolling,
just one step after another, each recorded on the tape like any other op. The three differ
only in their step (``_step``): the loop, the weights and the states are shared.

A mask (``[batch, time]``, from ``Embedding(mask_zero=True)`` or ``Masking``, or passed as
``mask=``) skips the padded steps, as Keras does: at a masked step each state keeps its
previous value, and so the output repeats the previous one (zeros with
``zero_output_for_mask=True``). A padded batch then gives what each sequence gives alone.
"""

from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras import constraints, initializers, regularizers
from eagerkit.keras.layers import activations
from eagerkit.keras.layers.base import Layer, check_rank
from eagerkit.keras.layers.masks import sequence_mask
from eagerkit.keras.layers.sizes import whole_number
from eagerkit.ops.compare import where
from eagerkit.ops.creation import zeros, zeros_like
from eagerkit.ops.linalg import matmul
from eagerkit.ops.reshaping import expand_dims
from eagerkit.ops.shape import concat, reshape, stack
from eagerkit.tensor import convert_to_tensor

_SEQUENCE = "[batch, time, features]"


class _Recurrent(Layer):
    """What the three share: weights for ``gates`` blocks of ``units``, the time loop.

    A subclass sets ``gates`` and ``states`` (how many state tensors it carries, the
    output first) and defines ``_step(x_part, state) -> new state``.
    """

    def __init__(
        self,
        units,
        activation="tanh",
        use_bias=True,
        return_sequences=False,
        return_state=False,
        go_backwards=False,
        kernel_initializer="glorot_uniform",
        recurrent_initializer="orthogonal",
        bias_initializer="zeros",
        kernel_regularizer=None,
        recurrent_regularizer=None,
        bias_regularizer=None,
        activity_regularizer=None,
        kernel_constraint=None,
        recurrent_constraint=None,
        bias_constraint=None,
        zero_output_for_mask=False,
        **kwargs,
    ):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.units = whole_number(units, "units", self)
        self.zero_output_for_mask = bool(zero_output_for_mask)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.return_sequences, self.return_state = return_sequences, return_state
        self.go_backwards = go_backwards
        self.initializers = (kernel_initializer, recurrent_initializer, bias_initializer)
        name = type(self).__name__
        self.kernel_regularizer, self.recurrent_regularizer, self.bias_regularizer = (
            regularizers.resolve(kernel_regularizer, name, "kernel_regularizer"),
            regularizers.resolve(recurrent_regularizer, name, "recurrent_regularizer"),
            regularizers.resolve(bias_regularizer, name, "bias_regularizer"),
        )
        self.kernel_constraint, self.recurrent_constraint, self.bias_constraint = (
            constraints.resolve(kernel_constraint, name, "kernel_constraint"),
            constraints.resolve(recurrent_constraint, name, "recurrent_constraint"),
            constraints.resolve(bias_constraint, name, "bias_constraint"),
        )

    def build(self, input_shape):
        check_rank(self, input_shape, 3, _SEQUENCE)
        width = self.gates * self.units
        kernel_init, recurrent_init, bias_init = self.initializers
        self.kernel = self.add_weight(
            "kernel",
            [input_shape[-1], width],
            kernel_init,
            regularizer=self.kernel_regularizer,
            constraint=self.kernel_constraint,
        )
        self.recurrent_kernel = self.add_weight(
            "recurrent_kernel",
            [self.units, width],
            recurrent_init,
            regularizer=self.recurrent_regularizer,
            constraint=self.recurrent_constraint,
        )
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight(
                "bias",
                [width],
                self._bias_init(bias_init),
                regularizer=self.bias_regularizer,
                constraint=self.bias_constraint,
            )

    def _bias_init(self, bias_init):
        return bias_init

    def call(self, inputs, initial_state=None, mask=None):
        check_rank(self, inputs.shape, 3, _SEQUENCE)
        if mask is not None:  # [batch, time, 1]: one keep/skip per sequence and step
            mask = expand_dims(sequence_mask(self, mask, inputs), -1)
        batch, steps, features = inputs.shape
        # The input part of every gate for every step in one product: (batch, time, width).
        projected = matmul(reshape(inputs, [-1, features]), self.kernel)
        if self.bias is not None:
            projected = projected + self.bias
        projected = reshape(projected, [batch, steps, -1])
        state = (
            self._initial_state(batch, inputs.dtype)
            if initial_state is None
            else self._given_state(initial_state, batch)
        )
        outputs = []
        # go_backwards reads the sequence from its end; outputs stay in the order they came.
        # (A mask is read in the same order as the steps.)
        for t in reversed(range(steps)) if self.go_backwards else range(steps):
            new_state = self._step(projected[:, t], state)
            if mask is None:
                state = new_state
                outputs.append(state[0])
                continue
            keep = mask[:, t]  # a masked step leaves every state as it was
            state = [where(keep, new, old) for new, old in zip(new_state, state, strict=True)]
            output = state[0]
            if self.zero_output_for_mask:
                output = where(keep, output, zeros_like(output))
            outputs.append(output)
        result = stack(outputs, axis=1) if self.return_sequences else outputs[-1]
        return [result, *state] if self.return_state else result

    def compute_mask(self, inputs, mask=None):
        """The mask goes on with the sequence of outputs (``return_sequences``), unchanged
        even with ``go_backwards`` (as Keras); a last output or a state has none."""
        output_mask = mask if self.return_sequences else None
        return [output_mask] + [None] * self.states if self.return_state else output_mask

    def step(self, x_part, state):
        """One time step by hand: ``state`` is checked first (``call`` steps unchecked)."""
        x_part = convert_to_tensor(x_part)
        batch = x_part.shape[0] if x_part.ndim else None
        return self._step(x_part, self._given_state(state, batch, "state"))

    def _given_state(self, initial_state, batch, what="initial_state"):
        """``initial_state`` as a list of ``self.states`` tensors of shape [batch, units]."""
        given = list(initial_state) if isinstance(initial_state, (list, tuple)) else None
        if given is None or len(given) != self.states:
            name = type(self).__name__
            raise InvalidArgumentError(
                f"{name}: {what} must be a list of {self.states} tensors of shape "
                f"[batch, units] = [{batch}, {self.units}] ({name}'s {state_names(self)}), got "
                f"{describe(initial_state)}",
                op=name,
            )
        return [convert_to_tensor(s) for s in given]

    def _initial_state(self, batch, dtype):
        return [zeros([batch, self.units], dtype=dtype) for _ in range(self.states)]

    def _split(self, z):
        u = self.units
        return [z[:, i * u : (i + 1) * u] for i in range(self.gates)]


def state_names(layer):
    """What the states of recurrent ``layer`` are called, for messages: ``(h, c)`` or ``(h,)``."""
    return "(h, c)" if layer.states == 2 else "(h,)"


def _apply(activation, z):
    """``activation(z)``; None (``activation=None`` or ``"linear"``) leaves ``z`` as it is."""
    return z if activation is None else activation(z)


class SimpleRNN(_Recurrent):
    """The plainest recurrence: ``h' = activation(x W + h U + b)``, and ``h'`` is the output.

    One block of ``units`` (no gates), one state; Keras' argument order (``units``,
    ``activation``, ``use_bias``, ...). Over a long sequence its gradients vanish or explode,
    which is why LSTM and GRU add gates.

    Examples
    --------
    >>> import eagerkit as ek
    >>> rnn = ek.keras.layers.SimpleRNN(4, return_sequences=True)
    >>> rnn(ek.zeros([2, 5, 3])).shape, rnn.count_params()  # 4 * (3 + 4 + 1)
    (TensorShape([2, 5, 4]), 32)
    """

    gates, states = 1, 1  # state: (h,)

    def _step(self, x_part, state):
        """One time step: h -> h'."""
        (h,) = state
        return [_apply(self.activation, x_part + matmul(h, self.recurrent_kernel))]


class _Gated(_Recurrent):
    """LSTM and GRU: gates, squashed by ``recurrent_activation``, decide what flows on."""

    def __init__(
        self, units, activation="tanh", recurrent_activation="sigmoid", use_bias=True, **kwargs
    ):
        super().__init__(units, activation, use_bias, **kwargs)
        self.recurrent_activation = activations.get(recurrent_activation)


class LSTM(_Gated):
    """Long short-term memory: gates decide what the cell state forgets, adds and shows.

    Keras' gate order (input, forget, cell, output); the forget bias starts at 1.

    Examples
    --------
    >>> import eagerkit as ek
    >>> lstm = ek.layers.LSTM(8, return_sequences=True)
    >>> lstm(ek.zeros([2, 5, 3])).shape, [v.shape for v in lstm.variables]
    (TensorShape([2, 5, 8]), [TensorShape([3, 32]), TensorShape([8, 32]), TensorShape([32])])
    """

    gates, states = 4, 2  # state: (h, c)

    def __init__(self, units, unit_forget_bias=True, **kwargs):
        super().__init__(units, **kwargs)
        self.unit_forget_bias = unit_forget_bias

    def _bias_init(self, bias_init):
        if not self.unit_forget_bias:
            return bias_init

        def forget_ones(shape, dtype):  # 1 for the forget gate: remember by default at first
            u = self.units
            base = initializers.get(bias_init)
            return concat(
                [base([u], dtype), initializers.ones()([u], dtype), base([2 * u], dtype)], axis=0
            )

        return forget_ones

    def _step(self, x_part, state):
        """One time step: (h, c) -> (h', c')."""
        h, c = state
        i, f, candidate, o = self._split(x_part + matmul(h, self.recurrent_kernel))
        gate, squash = self.recurrent_activation, self.activation
        c = _apply(gate, f) * c + _apply(gate, i) * _apply(squash, candidate)
        h = _apply(gate, o) * _apply(squash, c)
        return [h, c]


class GRU(_Gated):
    """Gated recurrent unit: an update gate blends the old state with a candidate.

    Gate order (update, reset, candidate); the reset gate is applied before the recurrent
    product (Keras' ``reset_after=False``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.layers.GRU(4)(ek.zeros([2, 5, 3])).shape
    TensorShape([2, 4])
    """

    gates, states = 3, 1  # state: (h,)

    def _step(self, x_part, state):
        """One time step: h -> h'."""
        (h,) = state
        x_z, x_r, x_h = self._split(x_part)
        u = self.units
        kernel = self.recurrent_kernel
        z_r = matmul(h, kernel[:, : 2 * u])
        z = _apply(self.recurrent_activation, x_z + z_r[:, :u])
        r = _apply(self.recurrent_activation, x_r + z_r[:, u:])
        candidate = _apply(self.activation, x_h + matmul(r * h, kernel[:, 2 * u :]))
        return [z * h + (1 - z) * candidate]

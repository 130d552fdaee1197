"""Variable: a named, mutable tensor for model state.

A Variable is a Tensor whose array can be replaced by ``assign``. Reading it inside a
``GradientTape`` (any op that takes it) is recorded as a ``read_variable`` op, and trainable
float variables are watched automatically, which is how ``implicit_gradients`` finds them.
``assign`` replaces the array (it never writes into it), so tensors read earlier keep
their values.
"""

import itertools

from eagerkit import dtypes, errors, fast_dispatch, recording, tensor
from eagerkit.devices import scope_device
from eagerkit.errors import InvalidArgumentError
from eagerkit.name_scope import current_prefix
from eagerkit.tensor import Tensor, _scalar_repr

_creation_counter = itertools.count()


class Variable(Tensor):
    """A mutable tensor: model parameters and other state.

    ``shape`` (TF's argument): a shape the initial value fits, whose None sizes may change
    by ``assign`` (eagerly; ``ek.TensorShape(None)`` is ``[None]`` in eagerkit, one axis of
    any size). ``v.shape`` is then the current value's shape (TF's is the declared one).
    ``constraint`` (TF's argument): a function an optimizer applies to the new value after
    each update, e.g. ``ek.keras.constraints.NonNeg()``; it returns a value of the same shape.

    Examples
    --------
    >>> import eagerkit as ek
    >>> v = ek.Variable([1.0, 2.0], shape=[None])
    >>> v.assign([1.0, 2.0, 3.0]).shape
    TensorShape([3])
    >>> w = ek.Variable(5.0, name="weight")
    >>> w
    <ek.Variable 'weight:0' shape=() dtype=float32, numpy=5.0>
    >>> _ = w.assign_sub(1.5)
    >>> w.numpy()
    np.float32(3.5)
    >>> ek.Variable([1.0, -2.0], constraint=ek.keras.constraints.NonNeg()).constraint
    ek.keras.constraints.NonNeg()
    """

    __slots__ = (
        "_name",
        "trainable",
        "_creation_index",
        "_last_read",
        "_shape_spec",
        "_constraint",
    )
    _is_variable = True

    def __init__(
        self, initial_value, trainable=True, name=None, dtype=None, shape=None, constraint=None
    ):
        if constraint is not None and not callable(constraint):  # checked first, as TF
            raise InvalidArgumentError(
                f"Variable: constraint must be None or a callable (a projection applied after "
                f"each optimizer update), got {type(constraint).__name__} {constraint!r:.60}; "
                "pass e.g. ek.keras.constraints.NonNeg()",
                op="Variable",
            )
        if callable(initial_value):
            initial_value = initial_value()
        value = tensor.convert_to_tensor(
            initial_value, dtype=dtype
        )  # on its own device if a Tensor
        target = scope_device()
        if target is not None and value._device is not target:
            from eagerkit.ops.copy import copy_to_device

            value = copy_to_device(value, target)  # inside ek.device(...): the variable lives there
        self._shape_spec = None if shape is None else _declared_shape(shape, value)
        self._constraint = constraint
        super().__init__(value._data, value._device)
        self._name = current_prefix() + (name or "Variable") + ":0"  # e.g. "dense/w:0"
        self.trainable = trainable
        self._creation_index = next(_creation_counter)
        self._last_read = None  # the Tensor of its latest read (recording.read_variable)
        if recording.graph_tracers:  # ek.function allows this on its first trace only
            from eagerkit.graph.trace import note_variable_created

            note_variable_created(self)

    @property
    def name(self):
        """``'<name>:0'`` as in TF (names are not made unique in eager mode)."""
        return self._name

    @property
    def path(self):
        """The name without TF's ``:0``: ``'dense/kernel'`` for a layer's weight, as Keras 3's
        ``variable.path`` (``<layer>/<weight>``).

        Examples
        --------
        >>> import eagerkit as ek
        >>> layer = ek.keras.layers.Dense(2, name="dense")
        >>> _ = layer(ek.ones([1, 3]))
        >>> layer.kernel.path, layer.kernel.name
        ('dense/kernel', 'dense/kernel:0')
        """
        return self._name[:-2]

    @property
    def constraint(self):
        """The projection optimizers apply after each update (None: no constraint)."""
        return self._constraint

    def read_value(self):
        """The current value as a Tensor (recorded like any read)."""
        from eagerkit.ops.shape import identity

        return identity(self)

    value = read_value

    # --- changing the value ----------------------------------------------------------------
    # Every write goes through ``_write``: assign*, optimizers, checkpoints and L-BFGS alike,
    # so the one rule that guards writes inside ``ek.function`` cannot be skipped. There,
    # assign* are recorded in the graph instead (graph/effects.py), to run at every call.
    def assign(self, value, read_value=True):
        """Replace the value; the new one must have the same shape and dtype."""
        read_value = _flag(read_value, "assign")  # checked before the write, like the value
        if recording.graph_tracers:
            return self._traced_assign("assign", value, read_value)
        self._write(self._checked(value, "assign"), "assign")
        return self if read_value else None

    def assign_add(self, delta, read_value=True):
        """``self += delta``."""
        read_value = _flag(read_value, "assign_add")
        if recording.graph_tracers:
            return self._traced_assign("assign_add", delta, read_value)
        self._write(self._data + self._checked(delta, "assign_add"), "assign_add")
        return self if read_value else None

    def assign_sub(self, delta, read_value=True):
        """``self -= delta``."""
        read_value = _flag(read_value, "assign_sub")
        if recording.graph_tracers:
            return self._traced_assign("assign_sub", delta, read_value)
        self._write(self._data - self._checked(delta, "assign_sub"), "assign_sub")
        return self if read_value else None

    def _traced_assign(self, method, value, read_value):
        from eagerkit.graph.effects import traced_assign

        traced_assign(recording.graph_tracers[-1], self, method, value)
        return self if read_value else None

    def _write(self, array, what):
        """Make ``array`` (already checked: our shape, dtype and device) the new value."""
        self._check_writable(what)
        self._data = array

    def _put_back(self, array):
        """Put back ``array``, a value this variable held before: a failed call taking back
        its writes (keras/taking_back.py). No graph check: nothing new is written."""
        self._data = array

    def _check_writable(self, what):
        """Raise unless a write may happen now (callers that write several things ask first)."""
        for tracer in recording.graph_tracers:  # only assign* and optimizers write in graphs
            tracer.refuse_assign(self, what)

    def _checked(self, value, what):
        """``value`` as an array like ours, or an error that leaves the variable unchanged.

        A Tensor of our dtype, shape and device, the commonest value (an update computed
        from a gradient), is its array at once; anything else goes to ``_checked_in_full``,
        the reference (tests/test_variables_fast.py proves the two equal).
        """
        if type(value) is Tensor and value._device is self._device:
            array, ours = value._data, self._data
            if array.dtype is ours.dtype and array.shape == ours.shape:
                return array
        return self._checked_in_full(value, what)

    def _checked_in_full(self, value, what):
        """``_checked`` step by step: convert ``value`` to our dtype and device, check shapes."""
        array = self._converted(value, what)
        # Only assign may change the shape of a variable made with shape= (TF's rule)
        if array.shape != self.shape and not (what == "assign" and self._may_take(array.shape)):
            raise self._shape_error(array.shape, what)
        return array

    def _shape_error(self, shape, what):
        """Why ``what`` cannot write a value of ``shape``: the variable's shape is fixed,
        or ``what`` keeps it, or ``shape`` does not fit the one it was made with."""
        given = f"{what} on variable '{self._name}': the value has shape {tuple(shape)}"
        if self._shape_spec is None:
            reason = (
                f" but the variable has shape {self.shape}; shapes cannot change after creation: "
                f"assign a value of shape {self.shape}, or make a new Variable"
            )
        elif what != "assign":
            reason = (
                f" but the variable has shape {self.shape}; {what} needs a value of the "
                f"variable's shape (only assign may change it, within the shape "
                f"{self._shape_spec} it was made with)"
            )
        else:
            reason = (
                f", which does not fit the shape {self._shape_spec} the variable was made with "
                "(shape=; None: any size): assign a value that fits it, or make a new Variable"
            )
        return InvalidArgumentError(given + reason, op=what)

    def _may_take(self, shape):
        """Whether a value of ``shape`` may replace ours: made with ``shape=`` (TF's
        ``Variable(x, shape=TensorShape([None]))``), sizes given as None may change."""
        spec = self._shape_spec
        return spec is not None and spec.is_compatible_with(shape)

    def _converted(self, value, what):
        """``value`` as an array of our dtype on our device (any shape), or an error that
        names ``what`` and leaves the variable unchanged."""
        if isinstance(value, Tensor):
            if value.dtype != self.dtype:
                lossless = dtypes.casts_without_loss(value._data.dtype, self._data.dtype)
                fix = (
                    f"cast it with ek.cast(value, ek.{self.dtype.name})"
                    if lossless  # else the cast would lose data: keep the value's dtype
                    else f"create the variable with dtype=ek.{value.dtype.name} to hold it"
                )
                raise InvalidArgumentError(
                    f"{what} on variable '{self._name}': the value is {value.dtype.name} but "
                    f"the variable is {self.dtype.name}; {fix}",
                    op=what,
                )
        if isinstance(value, Tensor) and value._device is self._device:
            array = value._data  # our dtype on our device: as it is (a GPU array never
            # goes through numpy's conversion, which cupy refuses)
        else:
            if isinstance(value, Tensor):  # on another device: copied to ours below
                value = value._device.backend.to_host(value._data)
            array = tensor.convert_to_tensor(value, dtype=self.dtype, device=self._device)._data
        return array

    # --- slices: v[1:].assign(...) ------------------------------------------------------------
    def __getitem__(self, key):
        """``self[key]``: a read of part of the variable (a tensor, recorded like any read)
        whose ``assign`` writes that part, as TF's sliced assignment (variable_slices.py).

        Examples
        --------
        >>> import eagerkit as ek
        >>> v = ek.Variable([1.0, 2.0, 3.0])
        >>> v[1:]
        <ek.Tensor: shape=(2,), dtype=float32, numpy=array([2., 3.], dtype=float32)>
        >>> _ = v[1:].assign([7.0, 8.0])
        >>> v.numpy()
        array([1., 7., 8.], dtype=float32)
        """
        from eagerkit.variable_slices import slice_of

        return slice_of(self, key)

    def __repr__(self):
        value = self._value_text(_scalar_repr)
        device = self._device_suffix()
        return (
            f"<ek.Variable '{self._name}' shape={self.shape} dtype={self.dtype.name}{device}, "
            f"numpy={value}>"
        )

    def __str__(self):
        return repr(self)

    def __reduce__(self):
        raise errors.type_error(
            f"pickle: Variables are not pickled ({self._name}); save them with "
            "ek.train.Checkpoint (no pickle needed)",
            op="pickle",
        )

    def __deepcopy__(self, memo):
        copied = self.numpy()  # a copy already
        shape = self._shape_spec
        return Variable(copied, self.trainable, self.path, shape=shape, constraint=self._constraint)

    __hash__ = None


fast_dispatch.Variable = Variable  # the fast paths tell a Variable by its type


def _declared_shape(shape, value):
    """``Variable(..., shape=)`` as a TensorShape the initial value fits (TF's ValueError)."""
    from eagerkit.tensor_shape import TensorShape

    try:
        declared = TensorShape(shape)
    except (InvalidArgumentError, TypeError) as error:
        raise InvalidArgumentError(
            f"Variable: shape must be a shape the initial value fits, e.g. [None, 3]: {error}",
            op="Variable",
        ) from None
    if not declared.is_compatible_with(value.shape):
        raise InvalidArgumentError(
            f"Variable: the initial value's shape ({value.shape}) is not compatible with the "
            f"explicitly supplied `shape` argument ({declared}); give a shape the value fits "
            "(None for a size that may change, e.g. shape=[None])",
            op="Variable",
        )
    return declared


def _flag(read_value, what):
    """``read_value`` as a bool (TF tests its truth), or an error before anything is written."""
    if read_value is True or read_value is False:
        return read_value
    try:
        return bool(read_value)
    except (TypeError, ValueError):  # an array's truth is ambiguous, say
        from eagerkit.arguments import describe

        raise InvalidArgumentError(
            f"{what}: read_value must be True or False, got {describe(read_value)}; the "
            "variable was not changed",
            op=what,
        ) from None


def convert_to_tensor(value, dtype=None, dtype_hint=None, name=None):
    """``value`` as a Tensor, with TF's dtype rules (``ek.convert_to_tensor``).

    Python floats become float32 and ints int32, numpy arrays keep their dtype, ``dtype``
    overrides both (``dtype_hint`` only where the value leaves the choice open). A Tensor
    comes back as it is; a Variable gives a Tensor holding its value, as in TF (a read, which
    a tape watching the variable records).

    Examples
    --------
    >>> import eagerkit as ek
    >>> v = ek.Variable([1.0, 2.0])
    >>> type(ek.convert_to_tensor(v)).__name__
    'Tensor'
    >>> ek.convert_to_tensor(3, dtype_hint=ek.float32)
    <ek.Tensor: shape=(), dtype=float32, numpy=3.0>
    """
    if isinstance(value, Variable):
        if dtype is not None and dtypes.as_dtype(dtype) != value.dtype:
            return tensor.convert_to_tensor(value, dtype=dtype)  # explains the mismatch
        return value.read_value()
    if dtype is None and dtype_hint is not None and not isinstance(value, tensor.Tensor):
        try:
            return tensor.convert_to_tensor(value, dtype=dtype_hint)
        except (TypeError, ValueError):  # the hint does not fit: TF's own rules decide
            pass
    return tensor.convert_to_tensor(value, dtype=dtype)

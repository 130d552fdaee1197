"""Layer: an object that owns variables and computes with them, Keras style.

A layer does not know its input size until it sees data, so its variables are made on the
first call (``build(input_shape)``), then ``call`` runs. Layers nest: any layer or variable
kept in an attribute (or in a list, tuple or dict attribute) belongs to the layer, and
``variables`` collects them all, in the order they were created.
"""

from eagerkit import dtypes, random
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras import constraints, initializers, regularizers, symbolic
from eagerkit.keras.layers import first_call, masks, training_flag
from eagerkit.keras.layers.added import (
    AddedLossesAndMetrics,
    add_activity_penalty,
    add_weight_penalty,
    clear,
    put_back,
)
from eagerkit.keras.layers.config import LayerConfig
from eagerkit.keras.layers.functional_links import FunctionalLinks
from eagerkit.keras.layers.layer_tree import attribute_values, owned_variables
from eagerkit.keras.layers.sizes import whole_number
from eagerkit.keras.layers.trainable_flag import TrainableFlag
from eagerkit.keras.layers.weight_lists import WeightLists
from eagerkit.module import Module, snake_case
from eagerkit.ops.cast import cast
from eagerkit.tensor import Tensor, convert_to_tensor
from eagerkit.train.tracking import restore_deferred, taking_back_restores
from eagerkit.variables import Variable

_name_counts = {}
# How many layer calls are running now: 0 means the next call is an outermost one, which
# starts a new forward pass (TF clears the losses layers added at each outermost call).
_calls_running = [0]
# f(layer, inputs, outputs) after each call of a layer; usually none. The tape view listens
# while a tape it shows records: it names what a layer made that no tape recorded (Flatten's
# reshape of images nothing watches) after the layer, not t0.
call_listeners = []


def unique_name(base, zero_based=True):
    """Keras-style default names: ``dense``, then ``dense_1``, ``dense_2``, ... (or, not
    zero-based, ``input_1``, ``input_2``, ...); ``ek.keras.backend.clear_session()`` starts
    them again.

    Examples
    --------
    >>> from eagerkit.keras.layers.base import unique_name
    >>> unique_name("doc_example"), unique_name("doc_example")
    ('doc_example', 'doc_example_1')
    """
    count = _name_counts.get(base, 0)
    _name_counts[base] = count + 1
    if not zero_based:
        return f"{base}_{count + 1}"
    return base if count == 0 else f"{base}_{count}"


class Layer(
    Module, LayerConfig, AddedLossesAndMetrics, WeightLists, FunctionalLinks, TrainableFlag
):
    """Base class of layers and models: variables made on first call, then ``call``.

    Subclasses define ``build(input_shape)`` (make variables with ``add_weight``) and
    ``call(inputs, ...)``; a ``call`` that takes ``training`` gets it from ``__call__``, or
    from the layer call it runs inside (keras/layers/training_flag.py).

    Examples
    --------
    >>> import eagerkit as ek
    >>> class Scale(ek.layers.Layer):
    ...     def build(self, input_shape):
    ...         self.w = self.add_weight("w", [input_shape[-1]], initializer="ones")
    ...     def call(self, inputs):
    ...         return inputs * self.w
    >>> layer = Scale()
    >>> len(layer.variables), layer([[1.0, 2.0]]).shape, len(layer.variables)
    (0, TensorShape([1, 2]), 1)
    """

    _autocast = True  # floating inputs are cast to the layer's dtype (Keras does the same)
    # Whether the layer attaches compute_mask(...) to its outputs (keras/layers/masks.py);
    # True by default for a class that writes its own compute_mask, as in Keras.
    supports_masking = False
    _computes_own_mask = False
    _warns_of_dropped_masks = True  # False where the mask lives on without it (Model, ...)
    activity_regularizer = None  # f(output) -> a penalty added to the losses of each call

    def __init__(
        self,
        trainable=True,
        name=None,
        dtype=None,
        input_shape=None,
        input_dim=None,
        activity_regularizer=None,
        **unknown,
    ):
        if unknown:
            raise TypeError(
                f"{type(self).__name__}: unexpected keyword argument(s) "
                f"{', '.join(sorted(unknown))}; remove them, or check their spelling against "
                f"{type(self).__name__}'s arguments"
            )
        self.name = name or unique_name(snake_case(type(self).__name__))
        vars(self)["_trainable"] = bool(trainable)  # its own flag (layers inside set theirs)
        self.dtype = dtypes.as_dtype(dtype or dtypes.float32)
        if activity_regularizer is not None:
            self.activity_regularizer = regularizers.resolve(
                activity_regularizer, type(self).__name__, "activity_regularizer"
            )
        # Keras' input_shape= (without the batch axis): lets Sequential.summary() build early.
        if input_shape is None and input_dim is not None:  # Keras' older spelling of it
            input_shape = (whole_number(input_dim, "input_dim", self),)
        self.input_spec_shape = None if input_shape is None else tuple(input_shape)
        self.built = False
        self.last_output_shape = None  # shown by Model.summary()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "compute_mask" in vars(cls):
            cls._computes_own_mask = True
            if "supports_masking" not in vars(cls):
                cls.supports_masking = True
        if "build" in vars(cls):  # a layer built by hand is built, as in Keras
            cls.build = first_call.marking_built(vars(cls)["build"])

    # --- calling ----------------------------------------------------------------------------
    def __call__(self, inputs, *args, **kwargs):
        if "built" not in vars(self):
            first_call.check_initialized(self, "the layer is called")
        if type(inputs) is not Tensor and symbolic.holds_symbolic((inputs, *args), kwargs):
            return symbolic.record(self, (inputs, *args), kwargs)  # building a functional model
        previous_mask = None  # read before _convert: a cast input is a new tensor, unmasked
        if masks.made[0] or "mask" in kwargs:
            previous_mask = masks.fill_mask_arguments(self, inputs, args, kwargs)
        inputs = self._convert(inputs)
        # The training flag: given, or the enclosing call's, for the calls inside this one.
        outer_training = training_flag.current[0]
        training_flag.current[0] = training_flag.resolve(type(self), args, kwargs)
        # An outermost call starts a new forward pass: what the layers added is forgotten.
        forgotten = None if _calls_running[0] else clear(self)
        _calls_running[0] += 1
        try:
            if self.built:
                outputs = self.call(inputs, *args, **kwargs)
            else:
                outputs = self._first_call(inputs, args, kwargs)
            if self.activity_regularizer is not None:
                add_activity_penalty(self, outputs)
        except BaseException:
            if forgotten is not None:
                put_back(self, forgotten)  # a failed pass leaves the last one's losses
            raise
        finally:
            _calls_running[0] -= 1
            training_flag.current[0] = outer_training
        if self.supports_masking and (previous_mask is not None or self._computes_own_mask):
            masks.attach_output_masks(self, inputs, outputs, previous_mask)
        elif previous_mask is not None and self._warns_of_dropped_masks:
            masks.warn_dropped(self)  # as Keras 3: the layers after this one lose the mask
        if isinstance(outputs, Tensor):  # from the array's shape: a TensorShape costs more
            shape = (None, *outputs._data.shape[1:])
            if shape != self.last_output_shape:  # usually as last time: no attribute write
                self.last_output_shape = shape
        if call_listeners:
            for listener in call_listeners:
                listener(self, inputs, outputs)
        return outputs

    def _first_call(self, inputs, args, kwargs):
        """Build, then call; if either fails, the build is taken back (nothing half-built)."""
        unbuilt = first_call.attributes_before(self)
        try:
            # A failed call puts checkpoint values back in wait and takes back its draws.
            with taking_back_restores(), random.taking_back_draws():
                self.build(*self._build_shapes(inputs, args, kwargs))
                self.built = True
                restore_deferred(self)  # values a checkpoint restored before they existed
                return self.call(inputs, *args, **kwargs)
        except BaseException:
            first_call.restore(unbuilt)
            raise

    def _build_shapes(self, inputs, args, kwargs):
        """What the first call passes to ``build``: the shape of ``inputs`` (a layer whose
        call takes several tensors, as MultiHeadAttention's, passes each one's shape)."""
        return (first_call.shape_of(inputs),)

    def _convert(self, inputs):
        if type(inputs) is Tensor and inputs._data.dtype == self.dtype.as_numpy_dtype:
            return inputs  # the common case, at once
        # A list holding tensors is several inputs; a nested list of numbers is one input.
        if isinstance(inputs, (list, tuple)) and any(isinstance(x, Tensor) for x in inputs):
            return type(inputs)(self._convert(x) for x in inputs)
        if not isinstance(inputs, Tensor):
            inputs = convert_to_tensor(inputs)
        if self._autocast and inputs.dtype.is_floating and inputs.dtype != self.dtype:
            inputs = cast(inputs, self.dtype)
        return inputs

    def build(self, input_shape):
        """Make the layer's variables for inputs of ``input_shape`` (nothing by default)."""

    def compute_mask(self, inputs, mask=None):
        """The mask of this layer's outputs, given its inputs and their ``mask``: by default
        the mask unchanged (attached only where ``supports_masking``; see
        keras/layers/masks.py)."""
        return mask

    def call(self, inputs):
        """The computation; subclasses define it."""
        raise NotImplementedError(
            f"{type(self).__name__} must define call(self, inputs) to say what it computes"
        )

    # --- variables --------------------------------------------------------------------------
    def add_weight(
        self,
        name=None,
        shape=(),
        initializer="glorot_uniform",
        trainable=True,
        dtype=None,
        regularizer=None,
        constraint=None,
    ):
        """Make a Variable named ``<layer>/<name>`` owned by this layer (a scalar unless
        ``shape`` says otherwise; Keras' keyword-only calls work too). Without a ``name`` it is
        Keras 3's ``variable``, ``variable_1``, ... (counted across layers, restarted by
        ``clear_session``). A ``regularizer``'s penalty on it is in ``self.losses`` from then
        on (see ek.keras.regularizers); a ``constraint`` projects it after each optimizer
        update (ek.keras.constraints)."""
        first_call.check_initialized(self, "add_weight")
        name = unique_name("variable") if name is None else name  # Keras 3's auto_name
        caller = f"{type(self).__name__}.add_weight"
        regularizer = regularizers.resolve(regularizer, caller, "regularizer")
        constraint = constraints.resolve(constraint, caller, "constraint")
        init = initializers.get(initializer)
        dtype = dtypes.as_dtype(dtype or self.dtype)
        if isinstance(shape, (str, bytes)):  # (its characters are no sizes)
            raise InvalidArgumentError(
                f"{type(self).__name__}.add_weight: shape must be a list of sizes, e.g. [3, 4], "
                f"got {shape!r}",
                op=f"{type(self).__name__}.add_weight",
            )
        shape = [whole_number(n, f"the shape of weight {name!r}", self, minimum=0) for n in shape]
        value = init(shape, dtype=dtype)
        variable = Variable(
            value, trainable=trainable, name=f"{self.name}/{name}", constraint=constraint
        )
        vars(self).setdefault("_weights", []).append(variable)
        if regularizer is not None:
            add_weight_penalty(self, regularizer, variable)
        return variable

    add_variable = add_weight  # TF1's name for it (tf.layers.Layer.add_variable)

    @property
    def variables(self):
        """Every variable of this layer and the layers inside it, in creation order."""
        return [v for v, _ in owned_variables(self)]

    weights = variables

    @property
    def trainable_variables(self):
        """The variables an optimizer should change (trainable, in trainable layers)."""
        return [v for v, trainable in owned_variables(self) if trainable]

    trainable_weights = trainable_variables

    @property
    def non_trainable_variables(self):
        """Variables kept out of training (e.g. BatchNormalization's moving averages)."""
        return [v for v, trainable in owned_variables(self) if not trainable]

    non_trainable_weights = non_trainable_variables

    def count_params(self):
        """How many numbers the layer's variables hold."""
        return sum(v.size for v in self.variables)

    def __repr__(self):
        return f"<{type(self).__name__} '{self.name}'>"


def sublayers(layer):
    """The layers kept in ``layer``'s attributes (directly or in lists/dicts), in order.

    Examples
    --------
    >>> import eagerkit as ek
    >>> from eagerkit.keras.layers.base import sublayers
    >>> class Pair(ek.Model):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.parts = [ek.layers.Dense(1, name="a"), ek.layers.Dense(1, name="b")]
    >>> [layer.name for layer in sublayers(Pair())]
    ['a', 'b']
    """
    found, seen = [], {id(layer)}
    for value in attribute_values(layer):
        if isinstance(value, Layer) and id(value) not in seen:
            seen.add(id(value))
            found.append(value)
    return found


def check_rank(layer, shape, rank, example, minimum=False):
    """Raise a clear error when an input of ``shape`` does not have the rank ``layer`` needs.

    Examples
    --------
    >>> import eagerkit as ek
    >>> from eagerkit.keras.layers.base import check_rank
    >>> check_rank(ek.layers.Flatten(name="f"), (5,), 2, "[batch, ...]")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    eagerkit.errors.InvalidArgumentError: Flatten layer 'f' expects input of rank 2 ...(5,)...
    """
    ndim = len(shape)
    if ndim == rank or (minimum and ndim >= rank):
        return
    wanted = f"rank >= {rank}" if minimum else f"rank {rank}"
    fix = (
        "Add the missing axes, e.g. a batch axis with ek.expand_dims(x, 0), or ek.reshape."
        if ndim < rank
        else "Reshape the input to the expected rank, e.g. with ek.reshape or ek.layers.Flatten."
    )
    raise InvalidArgumentError(
        f"{type(layer).__name__} layer '{layer.name}' expects input of {wanted} {example}, "
        f"but got shape {tuple(shape)} (rank {ndim}). {fix}",
        op=layer.name,
    )

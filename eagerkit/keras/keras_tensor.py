"""KerasTensor: a symbolic placeholder for the tensors of a functional model.

``ek.keras.Input(shape=[3])`` gives one. It has a shape (``None`` where the size is not
known yet, such as the batch axis), a dtype and a name, but no value: it stands for every
tensor that will one day flow through that point of the model. Layers and ops called on it
do not compute anything; they add a node to a graph (keras/symbolic.py) and return a new
KerasTensor, and ``ek.keras.Model(inputs, outputs)`` replays those nodes on real tensors.

Examples
--------
>>> import eagerkit as ek
>>> x = ek.keras.Input(shape=[3], name="features")
>>> x
<KerasTensor: shape=(None, 3) dtype=float32 (created by layer 'features')>
>>> y = 2.0 * x + 1.0
>>> y.shape, y.dtype
(TensorShape([None, 3]), ek.float32)
"""

import operator

from eagerkit.errors import InvalidArgumentError
from eagerkit.tensor_shape import TensorShape


class KerasTensor:
    """A tensor of a model being built: shape, dtype, name, and the node that made it.

    Examples
    --------
    >>> import eagerkit as ek
    >>> x = ek.keras.Input(shape=[2], batch_size=8, dtype="float64")
    >>> x.shape, x.dtype, x.node.layer.name == x.name
    (TensorShape([8, 2]), ek.float64, True)
    """

    __array_ufunc__ = None  # numpy on the left (np.float32(2) * x) defers to our operators

    def __init__(self, shape, dtype, name, node, index=0):
        self.shape = TensorShape(shape)
        self.dtype = dtype
        self.name = name
        self.node = node  # the layer call that produced this tensor (keras/symbolic.py)
        self.index = index  # which of that call's outputs this is

    @property
    def ndim(self):
        """The number of axes (the rank)."""
        return len(self.shape)

    def __repr__(self):
        return (
            f"<KerasTensor: shape={shape_text(self.shape)} dtype={self.dtype.name} "
            f"(created by layer '{self.node.layer.name}')>"
        )

    # --- what a symbolic tensor cannot do: it has no value --------------------------------
    def numpy(self):
        """Refused: a KerasTensor has no value (call the model on data to get one)."""
        raise no_value(self, "numpy()")

    def __array__(self, dtype=None, copy=None):
        raise no_value(self, "np.asarray()")

    def __bool__(self):
        raise no_value(self, "bool() (an `if` on it)")

    def __float__(self):
        raise no_value(self, "float()")

    def __int__(self):
        raise no_value(self, "int()")

    def __index__(self):
        raise no_value(self, "an index")

    def __len__(self):
        raise no_value(self, "len()")

    def __iter__(self):
        raise no_value(self, "iteration (a `for` loop over it)")

    __hash__ = object.__hash__  # a node in a graph: compared and hashed by identity


def no_value(tensor, use):
    """The error for using the value of the symbolic ``tensor`` as ``use``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.Input(shape=[3], name="pixels").numpy()  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    eagerkit.errors.InvalidArgumentError: KerasTensor 'pixels' ... has no value...
    """
    return InvalidArgumentError(
        f"KerasTensor '{tensor.name}' (shape {shape_text(tensor.shape)}, "
        f"{tensor.dtype.name}) is symbolic: it has no value, so it cannot be used as {use}. "
        "It stands for the tensors a functional model will compute. Build the model with "
        "ek.keras.Model(inputs, outputs) and call it on data, e.g. model(ek.constant(...)), "
        "to get values.",
        op=use.split(" ")[0],
    )


def shape_text(shape):
    """``(None, 3)``: a shape as Keras prints it."""
    return str(tuple(shape.as_list()))


def _operator(name, function, reflected=False):
    """A Tensor operator on a KerasTensor: recorded as a node named ``ek.__operators__.x``."""

    def method(self, *other):
        from eagerkit.keras import symbolic  # symbolic.py imports this module

        args = (*other, self) if reflected else (self, *other)
        return symbolic.record_op(function, f"__operators__.{name}", args, {})

    method.__name__ = f"__r{name}__" if reflected else f"__{name}__"
    return method


for _name in ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul"]:
    _function = getattr(operator, _name)
    setattr(KerasTensor, f"__{_name}__", _operator(_name, _function))
    setattr(KerasTensor, f"__r{_name}__", _operator(_name, _function, reflected=True))
for _name in ["lt", "le", "gt", "ge", "neg", "pos", "abs", "invert", "getitem"]:
    setattr(KerasTensor, f"__{_name}__", _operator(_name, getattr(operator, _name)))

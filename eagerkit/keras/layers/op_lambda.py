"""TFOpLambda: an op called on KerasTensors, kept in a functional model as a layer."""

from eagerkit.keras import symbolic
from eagerkit.keras.layers.base import Layer, unique_name


class TFOpLambda(Layer):
    """An op called on KerasTensors, as a layer of the model (TF's ``TFOpLambda``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.backend.clear_session()
    >>> y = ek.nn.relu(ek.keras.Input(shape=[3]))
    >>> y.node.layer
    <TFOpLambda 'ek.relu'>
    """

    _autocast = False  # an op takes its inputs' dtypes as they are

    def __init__(self, function, label):
        super().__init__(name=unique_name(f"ek.{label}"))
        self.function = function

    def __call__(self, *args, **kwargs):
        kwargs.pop("training", None)
        if symbolic.holds_symbolic(args, kwargs):
            return symbolic.record(self, args, kwargs)
        return self.function(*args, **kwargs)

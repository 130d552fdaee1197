"""Models: layers that hold other layers (Network / Model) or run them in a row (Sequential).

A model is itself a Layer, so models nest. Layers and variables are tracked just by being
kept in attributes (``self.dense = ek.layers.Dense(10)``), or in lists of them; the TF 1.5
way, ``self.track_layer(layer)``, works too.
"""

import functools
import numbers

from eagerkit.errors import InvalidArgumentError
from eagerkit.keras import model_config, sequential_graph
from eagerkit.keras.keras_tensor import KerasTensor
from eagerkit.keras.layers.base import Layer, sublayers
from eagerkit.keras.layers.input_layer import InputLayer
from eagerkit.keras.model_saving import (
    ModelSaving,
    clone_model,
    ensure_built,
    load_model,
    model_from_config,
    model_from_json,
    save_model,
)
from eagerkit.keras.model_summary import summary_lines
from eagerkit.keras.training import Training

__all__ = [
    "Model",
    "Network",
    "Sequential",
    "clone_model",
    "load_model",
    "model_from_config",
    "model_from_json",
    "save_model",
]


class Network(Layer):
    """A container of layers with a ``call`` that uses them (``tfe.Network``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> class TwoLayerNet(ek.Network):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.first = self.track_layer(ek.layers.Dense(2, activation="relu", use_bias=False))
    ...         self.second = self.track_layer(ek.layers.Dense(3, use_bias=False))
    ...     def call(self, x):
    ...         return self.second(self.first(x))
    >>> net = TwoLayerNet()
    >>> len(net.variables)
    0
    >>> net(ek.constant([[1.0]])).shape, [v.shape for v in net.variables]
    (TensorShape([1, 3]), [TensorShape([1, 2]), TensorShape([2, 3])])
    """

    # A network's outputs keep the masks its layers attached (each layer warns where it
    # drops one): no warning for the network as a whole.
    _warns_of_dropped_masks = False

    def __init__(self, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self._tracked_layers = []

    def track_layer(self, layer):
        """Make ``layer`` part of this network (its variables join ``variables``); returns it."""
        if not isinstance(layer, Layer):
            raise TypeError(
                f"track_layer expects a layer (e.g. ek.layers.Dense(10)), got {layer!r}"
            )
        if "_tracked_layers" not in vars(self):
            raise RuntimeError(
                f"{type(self).__name__}.__init__ must call super().__init__() before track_layer"
            )
        if all(layer is not known for known in self._tracked_layers):
            self._tracked_layers.append(layer)
        return layer

    @property
    def layers(self):
        """The directly contained layers, in the order they were tracked or assigned."""
        return sublayers(self)

    def get_layer(self, name=None, index=None):
        """The layer called ``name`` (or at position ``index`` of ``layers``).

        Examples
        --------
        >>> import eagerkit as ek
        >>> model = ek.Sequential([ek.layers.Dense(2, name="a"), ek.layers.Dense(1, name="b")])
        >>> model.get_layer("b").name, model.get_layer(index=0).name
        ('b', 'a')
        """
        layers = self.layers
        if name is None and index is None:
            raise InvalidArgumentError(
                f"get_layer: give the layer's name= (one of {[la.name for la in layers]}) or "
                "its index=",
                op="get_layer",
            )
        if index is not None:
            whole = isinstance(index, numbers.Integral) and not isinstance(index, bool)
            if not whole or not -len(layers) <= index < len(layers):
                raise InvalidArgumentError(
                    f"get_layer: model '{self.name}' has {len(layers)} layers, so index must "
                    f"be a whole number from 0 to {len(layers) - 1}, got {index!r}",
                    op="get_layer",
                )
            return layers[index]
        for layer in layers:
            if layer.name == name:
                return layer
        names = ", ".join(repr(layer.name) for layer in layers)
        raise InvalidArgumentError(
            f"get_layer: model '{self.name}' has no layer named {name!r}. Its layers are: "
            f"{names or 'none'}; pass one of those names, or index=",
            op="get_layer",
        )

    def summary(self, print_fn=print):
        """Print one row per layer: name (type), output shape, parameter count; then totals.

        Before the model's first call, as in Keras 3, a layer not built yet shows the shape
        ``?`` and ``0 (unbuilt)`` parameters: call the model on a batch to see them.
        """
        print_fn("\n".join(summary_lines(self)))


class Model(Training, ModelSaving, Network):
    """Keras' name for a Network: subclass it, assign layers as attributes, write ``call``;
    or give it the ``inputs`` and ``outputs`` of a graph of layers (the functional API:
    ``ek.keras.Model(inputs, outputs)``, see keras/functional.py).

    Examples
    --------
    >>> import eagerkit as ek
    >>> class MLP(ek.Model):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.hidden = [ek.layers.Dense(4, activation="relu"), ek.layers.Dense(4)]
    ...         self.out = ek.layers.Dense(2)
    ...     def call(self, x):
    ...         for layer in self.hidden:
    ...             x = layer(x)
    ...         return self.out(x)
    >>> model = MLP()
    >>> model(ek.ones([1, 3])).shape, len(model.trainable_variables)
    (TensorShape([1, 2]), 6)
    """

    def __new__(cls, *args, **kwargs):
        from eagerkit.keras.functional import Functional  # it is a Model: no cycle at import

        if cls is Model and (args or "inputs" in kwargs or "outputs" in kwargs):
            return super().__new__(Functional, *args, **kwargs)  # then Functional.__init__ runs
        return super().__new__(cls, *args, **kwargs)

    def __init__(self, *args, **kwargs):
        from eagerkit.keras.functional import Functional

        # Keras decides on the arguments that reach Model.__init__, not the subclass's own:
        # ``CustomModel(inputs, outputs)`` builds a functional model of that subclass, while
        # ``Block(1, [1, 2, 3])`` whose __init__ calls ``super().__init__(name="")`` does not.
        if not isinstance(self, Functional) and _functional_arguments(args, kwargs):
            self.__class__ = _functional_kind(type(self))
            Functional.__init__(self, *args, **kwargs)
            return
        super().__init__(*args, **kwargs)

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """The model ``config`` describes: a functional model's graph (``Model``), else
        ``cls(**config)`` for a subclassed model's own config."""
        from eagerkit.keras.functional import Functional

        if cls in (Model, Functional) or (isinstance(config, dict) and "nodes" in config):
            return model_config.functional_from_config(cls, config, custom_objects)
        return super().from_config(config)


def _functional_arguments(args, kwargs):
    """Whether a Model subclass is called as the functional API is (Keras' test)."""
    return (
        len(args) == 2
        or (len(args) == 1 and "outputs" in kwargs)
        or ("inputs" in kwargs and "outputs" in kwargs)
    )


@functools.cache
def _functional_kind(cls):
    """``cls`` with the functional model's construction and call: its own methods first
    (train_step, ...), then Functional's (``__init__(inputs, outputs)``, ``call``)."""
    from eagerkit.keras.functional import Functional

    names = {"__module__": cls.__module__, "__qualname__": cls.__qualname__}
    return type(cls.__name__, (cls, Functional), names)


class Sequential(Model):
    """Layers applied one after the other; ``training`` is passed to those that take it.

    Examples
    --------
    >>> import eagerkit as ek
    >>> model = ek.Sequential([ek.layers.Dense(8, activation="relu", name="hidden"),
    ...                        ek.layers.Dense(2, name="out")], name="mlp")
    >>> model(ek.ones([4, 3])).shape
    TensorShape([4, 2])
    >>> model.summary()
    Model: "mlp"
    =======================================
    Layer (type)     Output Shape   Param #
    =======================================
    hidden (Dense)   (None, 8)      32
    out (Dense)      (None, 2)      18
    =======================================
    Total params: 50
    Trainable params: 50
    Non-trainable params: 0
    """

    def __init__(self, layers=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        for layer in layers or []:
            self.add(layer)

    def get_config(self):
        """The model's name and its layers' configs, in order."""
        return model_config.sequential_config(self)

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """The Sequential model ``config`` describes (fresh weights)."""
        return model_config.sequential_from_config(cls, config, custom_objects)

    def add(self, layer):
        """Append ``layer`` to the end of the stack. An ``ek.keras.Input`` first says the
        shape of the examples: from then on each layer is built as it is added
        (keras/sequential_graph.py). A layer that cannot take that shape is not added."""
        if isinstance(layer, InputLayer) and not self._tracked_layers:
            layer = layer.output  # as Keras 3: an InputLayer first is the model's Input
        if isinstance(layer, KerasTensor) and not self._tracked_layers:
            self.input_spec_shape = tuple(layer.shape.as_list()[1:])
            sequential_graph.start(self, layer)
            return
        if any(layer is known for known in self._tracked_layers):
            return  # in the model already
        self.track_layer(layer)
        try:
            sequential_graph.extend(self, layer)
        except BaseException:
            self._tracked_layers.remove(layer)  # as it was: the layer is not in the model
            raise
        if not self.built and "_graph" in vars(self):  # built from the graph, not from data
            self.build(self.input.shape.as_list())  # the shape a saved model rebuilds with
            self.built = True

    def pop(self):
        """Remove the last layer and return it (Keras 3: a Sequential model behaves like a
        list of layers).

        Examples
        --------
        >>> import eagerkit as ek
        >>> model = ek.keras.Sequential([ek.keras.layers.Dense(2, name="a"),
        ...                              ek.keras.layers.Dense(1, name="b")])
        >>> model.pop().name, [layer.name for layer in model.layers]
        ('b', ['a'])
        """
        sequential_graph.check_not_empty(self)
        layer = self._tracked_layers.pop()
        sequential_graph.drop_last(self)
        return layer

    @property
    def inputs(self):
        """``[the Input]`` once the input shape is known (an error before)."""
        return sequential_graph.tensors(self, "inputs")

    @property
    def outputs(self):
        """``[the last layer's output]`` once the input shape is known."""
        return sequential_graph.tensors(self, "outputs")

    @property
    def input(self):  # with no Input: the KerasTensor it was first called on, as a layer
        graph = "_graph" in vars(self)
        return sequential_graph.tensors(self, "inputs")[0] if graph else super().input

    @property
    def output(self):
        graph = "_graph" in vars(self)
        return sequential_graph.tensors(self, "outputs")[0] if graph else super().output

    def call(self, inputs, training=None):
        x = sequential_graph.check_input_shape(self, inputs)
        for layer in self._tracked_layers:
            x = layer(x, training=training)
        return x

    def summary(self, print_fn=print):
        """As ``Network.summary``; an ``Input``, a first layer made with ``input_shape=``
        or a functional model first builds the model."""
        ensure_built(self)
        super().summary(print_fn)

"""The functional model: ``ek.keras.Model(inputs, outputs)`` over a graph of layer calls.

Layers called on KerasTensors have recorded nodes (keras/symbolic.py); the model walks back from
its outputs to its inputs, keeps the nodes it meets in the order they were made (a node's
inputs always exist before it), and, when called, replays them on real tensors: eagerly, so
a GradientTape sees every op and Python errors point at the layer that failed.

Examples
--------
>>> import eagerkit as ek
>>> a = ek.keras.Input(shape=[2], name="a")
>>> b = ek.keras.Input(shape=[2], name="b")
>>> total = ek.keras.Model(inputs=[a, b], outputs=a + 10.0 * b, name="total")
>>> total([ek.constant([[1.0, 2.0]]), ek.constant([[3.0, 4.0]])])
<ek.Tensor: shape=(1, 2), dtype=float32, numpy=array([[31., 42.]], dtype=float32)>
"""

import numbers

from eagerkit import nest
from eagerkit.boundary import public_method
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras import model_config
from eagerkit.keras.functional_checks import conform, input_tensors, output_tensors
from eagerkit.keras.functional_summary import summary_lines
from eagerkit.keras.keras_tensor import KerasTensor
from eagerkit.keras.layers.base import unique_name
from eagerkit.keras.layers.input_layer import InputLayer
from eagerkit.keras.models import Model
from eagerkit.module import Module
from eagerkit.train import tracking
from eagerkit.variables import Variable


def _public(method):
    """Inside the error boundary, as the methods of eagerkit's public classes are."""
    return public_method(method, method.__name__)


class Functional(Model):
    """What ``ek.keras.Model(inputs=..., outputs=...)`` makes (see the module's docstring).

    Examples
    --------
    >>> import eagerkit as ek
    >>> inputs = ek.keras.Input(shape=[3])
    >>> hidden = ek.keras.layers.Dense(4, activation="relu", name="hidden")
    >>> model = ek.keras.Model(inputs, ek.keras.layers.Dense(1, name="out")(hidden(inputs)))
    >>> [layer.name for layer in model.layers][1:], model.get_layer("hidden") is hidden
    (['hidden', 'out'], True)
    """

    _autocast = False  # each input is conformed to its own Input's dtype instead

    @_public
    def __init__(self, inputs, outputs, name=None, trainable=True):
        super().__init__(name=name or unique_name("model"), trainable=trainable)
        self.inputs = input_tensors(self, inputs)
        self.outputs = output_tensors(self, outputs)
        self._nested_inputs, self._nested_outputs = inputs, outputs
        self._nodes = _nodes_between(self, self.inputs, self.outputs)
        self._layers = _layers_of(self.inputs, self._nodes)
        self.built = True
        only = self.outputs[0] if len(self.outputs) == 1 else None
        self.last_output_shape = None if only is None else tuple(only.shape.as_list())

    # --- calling -----------------------------------------------------------------------------
    def _convert(self, inputs):
        return inputs  # call() checks them against the Inputs, one by one

    @_public
    def call(self, inputs, training=None):
        """Replay the graph on ``inputs`` (a tensor, or a list or dict like the Inputs)."""
        values = dict(zip(map(id, self.inputs), conform(self, inputs), strict=True))
        for node in self._nodes:
            results = node.run(values, training)
            if isinstance(node.outputs, KerasTensor):  # one output: the commonest case
                values[id(node.outputs)] = results
            else:
                outputs = map(id, nest.flatten(node.outputs))
                values.update(zip(outputs, nest.flatten(results), strict=True))
        return nest.pack_sequence_as(self._nested_outputs, [values[id(t)] for t in self.outputs])

    @property
    def input(self):
        """The model's Input tensor (a list of them when it has several)."""
        return self.inputs[0] if len(self.inputs) == 1 else list(self.inputs)

    @property
    def output(self):
        """The model's output KerasTensor (a list of them when it has several)."""
        return self.outputs[0] if len(self.outputs) == 1 else list(self.outputs)

    # --- layers and variables, in TF's order -------------------------------------------------
    @property
    def layers(self):
        """Every layer of the graph, Inputs first, each once (a shared layer too)."""
        return list(self._layers)

    @_public
    def get_layer(self, name=None, index=None):
        """The layer called ``name`` (or at position ``index`` of ``layers``)."""
        if name is None and index is None:
            raise InvalidArgumentError(
                f"get_layer: give the layer's name= (one of {[la.name for la in self._layers]}) "
                "or its index=",
                op="get_layer",
            )
        if index is not None:
            count = len(self._layers)  # numpy's ints are whole numbers too, bools are not
            whole = isinstance(index, numbers.Integral) and not isinstance(index, bool)
            if not whole or not -count <= index < count:
                raise InvalidArgumentError(
                    f"get_layer: model '{self.name}' has {len(self._layers)} layers, so index "
                    f"must be a whole number from 0 to {len(self._layers) - 1}, got {index!r}",
                    op="get_layer",
                )
            return self._layers[index]
        for layer in self._layers:
            if layer.name == name:
                return layer
        names = ", ".join(repr(layer.name) for layer in self._layers)
        raise InvalidArgumentError(
            f"get_layer: model '{self.name}' has no layer named {name!r}. Its layers are: {names}; "
            "pass one of those names, or index=",
            op="get_layer",
        )

    @property
    def trainable_variables(self):
        """The trainable variables of each layer in turn (TF's order), each once, then
        those the model keeps in its own attributes."""
        if not self.trainable:
            return []
        in_layers = (v for layer in self._layers for v in layer.trainable_variables)
        return _each_once([*in_layers, *(v for v, trainable in self._own() if trainable)])

    @property
    def non_trainable_variables(self):
        """The other variables, layer by layer (all of them when the model is frozen)."""
        if not self.trainable:
            in_layers = (v for layer in self._layers for v in layer.variables)
            return _each_once([*in_layers, *(v for v, _ in self._own())])
        trainable = set(map(id, self.trainable_variables))
        in_layers = (v for layer in self._layers for v in layer.non_trainable_variables)
        every = [*in_layers, *(v for v, trainable in self._own() if not trainable)]
        return _each_once(v for v in every if id(v) not in trainable)

    def _own(self):
        """(variable, trainable) for the variables the user kept in the model's attributes
        (``model.temperature = ek.Variable(1.0)``), directly or in a module or a list."""
        found = []
        for value in nest.flatten(self._kept()):
            if isinstance(value, Variable):
                found.append((value, value.trainable))
            elif isinstance(value, Module):
                found += [(v, True) for v in value.trainable_variables]
                found += [(v, False) for v in value.non_trainable_variables]
        if not found:
            return found  # the usual case, at once
        in_layers = {id(v) for layer in self._layers for v in layer.variables}
        return [(v, trainable) for v, trainable in found if id(v) not in in_layers]

    def _kept(self):
        """The model's public attributes, but for its graph (``inputs``, ``outputs``)."""
        return {
            name: value
            for name, value in vars(self).items()
            if not name.startswith("_") and name not in ("inputs", "outputs")
        }

    @property
    def variables(self):
        """Trainable variables first, then the others, as Keras lists a model's weights."""
        return self.trainable_variables + self.non_trainable_variables

    weights, trainable_weights = variables, trainable_variables
    non_trainable_weights = non_trainable_variables

    def _checkpoint_dependencies(self):
        """A checkpoint names the layers by position, so another model built the same way
        (with other layer names) restores it; what the user kept in attributes follows."""
        layers = [(f"layer-{i}", layer) for i, layer in enumerate(self._layers)]
        return layers + tracking.dependencies(self._kept())  # those that can hold variables

    def get_config(self):
        """The model's layers, the calls between them, its inputs and outputs (see
        keras/model_config.py); ``Model.from_config`` rebuilds it with fresh weights."""
        return model_config.functional_config(self)

    @_public
    def summary(self, print_fn=print):
        """Print the layers (name and type, output shape, parameters, and for a graph that
        is not a simple chain, the layer outputs each is connected to), then totals."""
        print_fn("\n".join(summary_lines(self)))


def _nodes_between(model, inputs, outputs):
    """The layer calls that lead from ``inputs`` to ``outputs``, in the order they were made
    (Input nodes aside); an output that needs an Input not among ``inputs`` is refused."""
    given, found = set(map(id, inputs)), {}
    pending = list(outputs)
    while pending:
        tensor = pending.pop()
        node = tensor.node
        if id(tensor) in given or id(node) in found:
            continue
        if isinstance(node.layer, InputLayer):
            raise InvalidArgumentError(
                f"Model '{model.name}': the outputs depend on Input '{tensor.name}', which is "
                f"not among the model's inputs ({', '.join(t.name for t in inputs)}), so the "
                f"model could not compute them (the graph is disconnected). Add it to inputs=, "
                f"e.g. ek.keras.Model(inputs=[{', '.join([*(t.name for t in inputs), tensor.name])}"
                "], outputs=...)",
                op="Model",
            )
        found[id(node)] = node
        pending.extend(node.inputs)
    return sorted(found.values(), key=lambda node: node.serial)


def _layers_of(inputs, nodes):
    layers = [t.node.layer for t in inputs] + [node.layer for node in nodes]
    return _each_once(layers)


def _each_once(items):
    seen, kept = set(), []
    for item in items:
        if id(item) not in seen:
            seen.add(id(item))
            kept.append(item)
    return kept

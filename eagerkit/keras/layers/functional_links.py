"""What a layer knows of the functional models it was called in: ``input``, ``output`` and
``output_shape``, read from the first call (keras/symbolic.py keeps each call as a node).

Examples
--------
>>> import eagerkit as ek
>>> inputs = ek.keras.Input(shape=[3])
>>> dense = ek.keras.layers.Dense(2)
>>> outputs = dense(inputs)
>>> dense.input is inputs, dense.output is outputs, dense.output_shape
(True, True, (None, 2))
"""

from eagerkit import nest


class FunctionalLinks:
    """``input``, ``output``, ``output_shape`` of a layer (a base of ``Layer``)."""

    def _first_node(self, what):
        calls = vars(self).get("_calls")
        if calls is None:
            raise AttributeError(
                f"Layer {self.name} has never been called on a KerasTensor (ek.keras.Input) "
                f"and thus has no defined {what}"
            )
        return calls.nodes[0]

    @property
    def input(self):
        """The KerasTensor(s) this layer was first called on in a functional model."""
        inputs = self._first_node("input").inputs
        return inputs[0] if len(inputs) == 1 else inputs

    @property
    def output(self):
        """The KerasTensor(s) this layer returned when first called in a functional model
        (the features of every layer: ``[layer.output for layer in model.layers]``)."""
        return self._first_node("output").outputs

    @property
    def output_shape(self):
        """The shape of ``output`` as a tuple, None for any size (a list of them for several
        outputs); for a layer built by an eager call, the shape that call returned."""
        calls = vars(self).get("_calls")
        if calls is None and getattr(self, "last_output_shape", None) is not None:
            return self.last_output_shape
        outputs = self.output
        shapes = [tuple(t.shape.as_list()) for t in nest.flatten(outputs)]
        return nest.pack_sequence_as(outputs, shapes)

"""``layer.trainable``: whether training may change a layer's weights, set for the layers
inside it too.

Setting ``trainable`` on a model (or any layer that holds layers) sets it on every layer
inside, as Keras does: ``base_model.trainable = False`` freezes the whole base, and
``base_model.trainable = True`` unfreezes it all again, inner layers frozen one by one
included. A variable counts as trainable only where it and every layer above it are
(keras/layers/layer_tree.py), so reading ``trainable_weights`` needs no walk back up.

Examples
--------
>>> import eagerkit as ek
>>> inner = ek.keras.Sequential([ek.keras.layers.Dense(3, name="d")], name="inner")
>>> outer = ek.keras.Sequential([inner], name="outer")
>>> outer.trainable = False
>>> inner.trainable, inner.get_layer("d").trainable
(False, False)
"""

from eagerkit.keras.layers.layer_tree import modules_within


class TrainableFlag:
    """The ``trainable`` property of ``Layer`` (a base class of it)."""

    @property
    def trainable(self):
        """Whether an optimizer may change this layer's weights (``trainable_weights``)."""
        return vars(self).get("_trainable", True)

    @trainable.setter
    def trainable(self, value):
        value = bool(value)  # as Keras: any truth value, stored as a bool
        for layer in modules_within(self):  # this layer, then each one inside, once
            if isinstance(layer, TrainableFlag):
                vars(layer)["_trainable"] = value

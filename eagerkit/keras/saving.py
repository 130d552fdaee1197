"""``ek.keras.saving`` (TF 2.13's ``tf.keras.saving``): save and load models, and name
custom classes so that a saved model can refer to them.

Examples
--------
>>> import eagerkit as ek
>>> ek.keras.saving.load_model is ek.keras.models.load_model
True
"""

from eagerkit.keras.model_saving import load_model, save_model
from eagerkit.keras.serialization import (
    custom_object_scope,
    deserialize_keras_object,
    get_custom_objects,
    get_registered_name,
    get_registered_object,
    register_keras_serializable,
    serialize_keras_object,
)

__all__ = [
    "custom_object_scope",
    "deserialize_keras_object",
    "get_custom_objects",
    "get_registered_name",
    "get_registered_object",
    "load_model",
    "register_keras_serializable",
    "save_model",
    "serialize_keras_object",
]

"""Keras-style layers: variables are made on the first call, when the input size is known.

``ek.layers.Dense``, ``Conv2D``, ``MaxPool2D``, ... work like ``tf.layers`` / ``tf.keras.layers``.

Examples
--------
>>> import eagerkit as ek
>>> dense = ek.layers.Dense(units=10)
>>> dense.variables
[]
>>> dense(ek.zeros([1, 1, 784])).shape
TensorShape([1, 1, 10])
"""

import sys

from eagerkit.keras.layers.activation import Activation
from eagerkit.keras.layers.activation_layers import ELU, LeakyReLU, ReLU, Softmax
from eagerkit.keras.layers.attention import Attention
from eagerkit.keras.layers.base import Layer
from eagerkit.keras.layers.bidirectional import Bidirectional
from eagerkit.keras.layers.category_encoding import CategoryEncoding
from eagerkit.keras.layers.convolutional import (
    AveragePooling2D,
    AvgPool2D,
    Conv2D,
    MaxPool2D,
    MaxPooling2D,
)
from eagerkit.keras.layers.convolutional_1d import (
    AveragePooling1D,
    AvgPool1D,
    Conv1D,
    MaxPool1D,
    MaxPooling1D,
)
from eagerkit.keras.layers.core import Dense, Dropout, Embedding, Flatten, Reshape, flatten
from eagerkit.keras.layers.discretization import Discretization
from eagerkit.keras.layers.feature_normalization import Normalization
from eagerkit.keras.layers.global_pooling import (
    GlobalAveragePooling1D,
    GlobalAveragePooling2D,
    GlobalAvgPool1D,
    GlobalAvgPool2D,
    GlobalMaxPool1D,
    GlobalMaxPool2D,
    GlobalMaxPooling1D,
    GlobalMaxPooling2D,
)
from eagerkit.keras.layers.hashing import Hashing
from eagerkit.keras.layers.input_layer import Input, InputLayer
from eagerkit.keras.layers.lambda_layer import Lambda
from eagerkit.keras.layers.layer_normalization import LayerNormalization
from eagerkit.keras.layers.lookup_layers import IntegerLookup, StringLookup
from eagerkit.keras.layers.masking import Masking
from eagerkit.keras.layers.merge import (
    Add,
    Average,
    Concatenate,
    Dot,
    Maximum,
    Minimum,
    Multiply,
    Subtract,
    add,
    average,
    concatenate,
    dot,
    maximum,
    minimum,
    multiply,
    subtract,
)
from eagerkit.keras.layers.multi_head_attention import MultiHeadAttention
from eagerkit.keras.layers.normalization import BatchNormalization
from eagerkit.keras.layers.padding import Cropping1D, Cropping2D, ZeroPadding1D, ZeroPadding2D
from eagerkit.keras.layers.recurrent import GRU, LSTM, SimpleRNN
from eagerkit.keras.layers.regularization import (
    ActivityRegularization,
    GaussianNoise,
    SpatialDropout1D,
)
from eagerkit.keras.layers.reordering import Permute, RepeatVector
from eagerkit.keras.layers.rescaling import Rescaling
from eagerkit.keras.layers.text_vectorization import TextVectorization
from eagerkit.keras.layers.time_distributed import TimeDistributed
from eagerkit.keras.layers.upsampling import Conv2DTranspose, UpSampling2D
from eagerkit.missing_names import attribute_error as _attribute_error


def __getattr__(name):
    raise _attribute_error(sys.modules[__name__], name)  # TF's names it lacks say so


def serialize(layer):
    """A layer as ``{"class_name": ..., "config": {...}}`` (see ``get_config``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.layers.serialize(ek.keras.layers.Dense(2, name="d"))["config"]["units"]
    2
    """
    from eagerkit.keras.serialization import serialize_keras_object

    return serialize_keras_object(layer)


def deserialize(config, custom_objects=None):
    """The layer a ``serialize`` dict describes (new weights), classes found by name.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.layers.deserialize({"class_name": "Dense", "config": {"units": 2}}).units
    2
    """
    from eagerkit.keras import builtin_objects
    from eagerkit.keras.serialization import deserialize_keras_object

    return deserialize_keras_object(config, builtin_objects.layers(), custom_objects, "layer")


__all__ = [
    "TextVectorization",
    "CategoryEncoding",
    "Discretization",
    "Hashing",
    "IntegerLookup",
    "StringLookup",
    "Activation",
    "Attention",
    "MultiHeadAttention",
    "ELU",
    "LeakyReLU",
    "ReLU",
    "Softmax",
    "Add",
    "Average",
    "Concatenate",
    "Dot",
    "Maximum",
    "Minimum",
    "Multiply",
    "Subtract",
    "add",
    "average",
    "concatenate",
    "dot",
    "maximum",
    "minimum",
    "multiply",
    "subtract",
    "Bidirectional",
    "GRU",
    "LSTM",
    "SimpleRNN",
    "ActivityRegularization",
    "GaussianNoise",
    "SpatialDropout1D",
    "Permute",
    "RepeatVector",
    "AveragePooling1D",
    "AveragePooling2D",
    "AvgPool1D",
    "AvgPool2D",
    "BatchNormalization",
    "Conv1D",
    "Conv2D",
    "Conv2DTranspose",
    "Cropping1D",
    "Cropping2D",
    "Dense",
    "Dropout",
    "Embedding",
    "Flatten",
    "GlobalAveragePooling1D",
    "GlobalAveragePooling2D",
    "GlobalAvgPool1D",
    "GlobalAvgPool2D",
    "GlobalMaxPool1D",
    "GlobalMaxPool2D",
    "GlobalMaxPooling1D",
    "GlobalMaxPooling2D",
    "Input",
    "InputLayer",
    "Lambda",
    "Layer",
    "LayerNormalization",
    "Masking",
    "MaxPool1D",
    "MaxPool2D",
    "MaxPooling1D",
    "MaxPooling2D",
    "Normalization",
    "Rescaling",
    "Reshape",
    "TimeDistributed",
    "UpSampling2D",
    "ZeroPadding1D",
    "ZeroPadding2D",
    "deserialize",
    "flatten",
    "serialize",
]

"""Valid calls of Keras' layers and models, and of every method they have.

Each layer class is declared once, with its construction and a sample input; its methods
(``__call__``, ``build``, ``add_weight``, ...) are declared once per method name, for every
layer: ``call`` and ``count_params`` on a layer already built by the sample.
"""

import eagerkit as ek
from eagerkit.errors import UnimplementedError

from . import calls_training, declare, walk
from .declare import SAMPLE, call, fresh, fresh_arguments
from .values import F23, I23, IMAGE, P23

SEQUENCE = ek.ones([2, 5, 3])  # [batch, time, features]
S23 = ek.constant([["a", "b", "c"], ["b", "b", "z"]])  # tokens, for the lookup layers
TEXTS = ek.constant(["the cat sat", "a dog"])  # for TextVectorization
PAIR = [F23, P23]  # what a merge layer takes


def _functional_model():
    inputs = ek.keras.Input(shape=[3])
    return inputs, ek.keras.layers.Dense(2)(inputs)


LAYERS = {  # layer class: its construction, with the input its methods take as SAMPLE
    "ek.keras.layers.Dense": call(3, sample=[F23]),
    "ek.keras.layers.Activation": call("relu", sample=[F23]),
    "ek.keras.layers.ReLU": call(6.0, 0.1, 0.5, sample=[F23]),
    "ek.keras.layers.LeakyReLU": call(alpha=0.2, sample=[F23]),
    "ek.keras.layers.Softmax": call(axis=[0, 1], sample=[F23]),
    "ek.keras.layers.ELU": call(0.5, sample=[F23]),
    "ek.keras.layers.Dropout": call(0.5, sample=[F23]),
    "ek.keras.layers.Flatten": call(sample=[IMAGE]),
    "ek.keras.layers.SpatialDropout1D": call(0.5, seed=1, sample=[SEQUENCE]),
    "ek.keras.layers.GaussianNoise": call(0.1, seed=1, sample=[F23]),
    "ek.keras.layers.ActivityRegularization": call(0.1, 0.2, sample=[F23]),
    "ek.keras.layers.RepeatVector": call(2, sample=[F23]),
    "ek.keras.layers.Permute": call((2, 1), sample=[SEQUENCE]),
    "ek.keras.layers.Reshape": call([3, 1], sample=[F23]),
    "ek.keras.layers.Embedding": call(10, 4, sample=[I23]),
    "ek.keras.layers.Masking": call(mask_value=1.0, sample=[SEQUENCE]),
    "ek.keras.layers.Conv2D": call(2, 2, sample=[IMAGE]),
    "ek.keras.layers.MaxPool2D": call(sample=[IMAGE]),
    "ek.keras.layers.Conv1D": call(2, 2, padding="causal", sample=[SEQUENCE]),
    "ek.keras.layers.MaxPool1D": call(sample=[SEQUENCE]),
    "ek.keras.layers.AveragePooling1D": call(padding="same", sample=[SEQUENCE]),
    "ek.keras.layers.Conv2DTranspose": call(2, 3, strides=2, padding="same", sample=[IMAGE]),
    "ek.keras.layers.UpSampling2D": call(interpolation="bilinear", sample=[IMAGE]),
    "ek.keras.layers.AveragePooling2D": call(sample=[IMAGE]),
    "ek.keras.layers.GlobalAveragePooling2D": call(sample=[IMAGE]),
    "ek.keras.layers.GlobalMaxPool2D": call(sample=[IMAGE]),
    "ek.keras.layers.GlobalAveragePooling1D": call(sample=[SEQUENCE]),
    "ek.keras.layers.GlobalMaxPool1D": call("channels_first", sample=[SEQUENCE]),
    "ek.keras.layers.BatchNormalization": call(sample=[F23]),
    "ek.keras.layers.LayerNormalization": call(axis=-1, epsilon=1e-3, sample=[F23]),
    "ek.keras.layers.Normalization": call(sample=[F23]),
    "ek.keras.layers.Rescaling": call(1 / 255, offset=-1.0, sample=[F23]),
    "ek.keras.layers.StringLookup": call(output_mode="multi_hot", sample=[S23]),
    "ek.keras.layers.IntegerLookup": call(mask_token=0, sample=[I23]),
    "ek.keras.layers.CategoryEncoding": call(7, "count", sample=[I23]),
    "ek.keras.layers.Discretization": call([0.0, 1.5], sample=[F23]),
    "ek.keras.layers.Hashing": call(5, salt=3, sample=[S23]),
    "ek.keras.layers.TextVectorization": call(output_sequence_length=4, sample=[TEXTS]),
    "ek.keras.layers.InputLayer": call(input_shape=[3], sample=[F23]),
    "ek.keras.layers.LSTM": call(4, sample=[SEQUENCE]),
    "ek.keras.layers.GRU": call(4, sample=[SEQUENCE]),
    "ek.keras.layers.SimpleRNN": call(4, go_backwards=True, sample=[SEQUENCE]),
    "ek.keras.layers.Bidirectional": call(
        fresh(lambda: ek.keras.layers.GRU(4, return_sequences=True)), "sum", sample=[SEQUENCE]
    ),
    "ek.keras.layers.TimeDistributed": call(
        fresh(lambda: ek.keras.layers.Dense(2)), sample=[SEQUENCE]
    ),
    "ek.keras.layers.Lambda": call(ek.square, (3,), sample=[F23]),
    "ek.keras.layers.ZeroPadding2D": call(((1, 0), (2, 1)), sample=[IMAGE]),
    "ek.keras.layers.Cropping2D": call(1, "channels_first", sample=[IMAGE]),
    "ek.keras.layers.ZeroPadding1D": call((2, 1), sample=[SEQUENCE]),
    "ek.keras.layers.Cropping1D": call(2, sample=[SEQUENCE]),
    "ek.keras.layers.Add": call(sample=[PAIR]),
    "ek.keras.layers.Average": call(sample=[PAIR]),
    "ek.keras.layers.Maximum": call(sample=[PAIR]),
    "ek.keras.layers.Minimum": call(sample=[PAIR]),
    "ek.keras.layers.Multiply": call(sample=[PAIR]),
    "ek.keras.layers.Subtract": call(sample=[PAIR]),
    "ek.keras.layers.Concatenate": call(sample=[PAIR]),
    "ek.keras.layers.Dot": call(axes=1, sample=[PAIR]),
    "ek.keras.layers.Attention": call(use_scale=True, sample=[[SEQUENCE, SEQUENCE * 2]]),
    "ek.keras.layers.MultiHeadAttention": call(2, 3, sample=[SEQUENCE, SEQUENCE * 2]),
    "ek.keras.layers.Layer": call(sample=[F23]),
    "ek.Sequential": call(fresh(lambda: [ek.keras.layers.Dense(2)]), sample=[F23]),
    "ek.Model": call(fresh_arguments(_functional_model), sample=[F23]),  # functional API
    "ek.Network": call(sample=[F23]),
}
MODELS = {  # model class: a maker of a built model of it (3 -> 2), for its training methods
    "ek.Sequential": calls_training.sequential,
    "ek.Model": lambda: ek.Model(*_functional_model()),
}
CLASSES = walk.public_callables()
# Base classes: their own call is the subclass's to write, and says so.
UNWRITTEN = {"ek.keras.layers.Layer", "ek.Network"}
VOCABULARIES = {
    "ek.keras.layers.StringLookup": ["q", "r"],
    "ek.keras.layers.IntegerLookup": [7, 8],
    "ek.keras.layers.TextVectorization": ["cat", "dog"],
}


def _methods(layer_name, declared):
    sample = declared.sample

    raises = UnimplementedError if layer_name in UNWRITTEN else None

    def built():
        layer = _build(layer_name, declared)
        if raises is None:
            layer(*sample)
        return layer

    # One shape per argument of the call (MultiHeadAttention's build takes two).
    shapes = [[x.shape for x in s] if isinstance(s, list) else s.shape for s in sample]
    templates = calls_training.layer_methods(built)
    templates["get_layer"] = call(index=0, on=_network, check=_is_layer)
    if layer_name in MODELS:
        templates.update(calls_training.model_methods(MODELS[layer_name]))
    return templates | {
        "__call__": call(SAMPLE, raises=raises),
        "call": call(SAMPLE, on=built, raises=raises, strict=True),  # layer(x) converts x
        "build": call(*shapes),
        "__repr__": call(check=lambda r: r.startswith("<")),
        "__setattr__": call("note", 1.5, fixed=(0,)),
        "add_weight": call("w", [2, 2]),
        "adapt": call(sample[0], on=_adaptable(layer_name, built), strict=True),
        "get_vocabulary": call(on=built, check=lambda r: isinstance(r, list)),  # lookups'
        "vocabulary_size": call(on=built, check=lambda r: isinstance(r, int)),
        "set_vocabulary": call(VOCABULARIES.get(layer_name)),
        "add_variable": call("w", [2, 2]),
        "count_params": call(on=built, check=lambda r: isinstance(r, int)),
        "compute_mask": call(SAMPLE, on=built),  # None, or the inputs' mask as it goes on
        "compute_output_shape": call((None, 3), check=lambda r: r == (None, 3)),  # Lambda's
        "with_name_scope": call(lambda self: self.name),
        "summary": call(on=built, print_fn=lambda line: None),  # unbuilt: Keras 3's "?" table
        "track_layer": call(fresh(lambda: ek.keras.layers.Dense(2))),
        "add": call(fresh(lambda: ek.keras.layers.Dense(3))),
        "pop": call(on=built, check=_is_layer, repeatable=False),  # Sequential's last layer
        "step": _step(layer_name, built),
    }


def _adaptable(layer_name, built):
    """A layer whose adapt may run: Discretization's learns only with num_bins= (Keras)."""
    if layer_name == "ek.keras.layers.Discretization":
        return lambda: ek.keras.layers.Discretization(num_bins=3)
    return built


def _network():
    network = ek.Network()
    network.track_layer(ek.keras.layers.Dense(2))
    return network


def _is_layer(r):
    return isinstance(r, ek.keras.layers.Layer)


def _build(layer_name, declared):
    args, kwargs = declare.arguments(declared)
    return CLASSES[layer_name].target(*args, **kwargs)


def _step(layer_name, built):
    if layer_name.endswith("LSTM"):
        return call(ek.ones([2, 16]), [ek.ones([2, 4]), ek.ones([2, 4])], on=built, strict=True)
    if layer_name.endswith("SimpleRNN"):  # one block of 4 units: no gates
        return call(ek.ones([2, 4]), [ek.ones([2, 4])], on=built, strict=True)
    return call(ek.ones([2, 12]), [ek.ones([2, 4])], on=built, strict=True)


CALLS = {}
# What ek.Model(inputs, outputs) returns: a functional model, with a layer's methods.
_FUNCTIONAL = call(fresh_arguments(_functional_model), sample=[F23])
_templates = _methods("ek.Model", _FUNCTIONAL)
_templates["get_layer"] = call(index=1, check=lambda r: isinstance(r, ek.keras.layers.Dense))
CALLS["ek.Model()"] = call(F23, sample=[F23], check=lambda r: tuple(r.shape) == (2, 2))
# What a layer's with_name_scope(method) returns: the method, run in the layer's name scope.
CALLS["ek.Model.with_name_scope()"] = call(
    fresh(lambda: ek.Module(name="block")), check=lambda r: r == "block"
)
_ATTRIBUTES = "__repr__ __setattr__ add_variable add_weight build call compute_mask count_params"
for _attribute in _ATTRIBUTES.split():
    CALLS[f"ek.Model().{_attribute}"] = _templates[_attribute]
for _attribute in "get_layer summary track_layer with_name_scope".split():
    CALLS[f"ek.Model().{_attribute}"] = _templates[_attribute]
for _attribute in calls_training.FUNCTIONAL_METHODS:
    CALLS[f"ek.Model().{_attribute}"] = _templates[_attribute]
for _name, _declared in LAYERS.items():
    CALLS[_name] = _declared
    _templates = _methods(_name, _declared)
    for _entry in walk.methods(_name, CLASSES[_name].target).values():
        CALLS[_entry.name] = _templates[_entry.attribute]

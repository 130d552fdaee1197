"""Every public layer class of ek.keras.layers says whether it supports masking as Keras 3
does: a layer that does passes a mask on (compute_mask), one that does not drops it with a
warning. The table is read from Keras 3.15.1's source (keras/src/layers/**, each layer's
``self.supports_masking = ...`` or its own ``compute_mask``; Layer's default is False);
a layer added to ek.keras.layers without an entry here fails."""

import inspect

import numpy as np
import pytest

import eagerkit as ek

layers = ek.keras.layers

# Keras 3.15.1 (keras/src/layers/...): True where the layer sets supports_masking = True
# in __init__ or writes compute_mask (Layer: "not utils.is_default(self.compute_mask)").
KERAS_3 = {
    "Activation": True,  # activations/activation.py
    "ELU": True,  # activations/elu.py
    "LeakyReLU": True,  # activations/leaky_relu.py
    "ReLU": True,  # activations/relu.py
    "Softmax": True,  # activations/softmax.py
    "Attention": True,  # attention/attention.py: compute_mask
    "MultiHeadAttention": True,  # attention/multi_head_attention.py
    "Dense": True,  # core/dense.py
    "Embedding": "mask_zero",  # core/embedding.py: supports_masking = mask_zero
    "Lambda": "mask",  # core/lambda_layer.py: True only when given mask=
    "Masking": True,  # core/masking.py
    "InputLayer": False,  # core/input_layer.py
    "Add": True,  # merging/base_merge.py (Merge)
    "Subtract": True,
    "Multiply": True,
    "Average": True,
    "Maximum": True,
    "Minimum": True,
    "Concatenate": True,  # merging/concatenate.py
    "Dot": True,  # merging/dot.py (its compute_mask is None)
    "BatchNormalization": True,  # normalization/batch_normalization.py
    "LayerNormalization": True,  # normalization/layer_normalization.py
    "Normalization": True,  # preprocessing/normalization.py
    "Rescaling": True,  # preprocessing/rescaling.py
    "CategoryEncoding": False,  # preprocessing/: none of these sets it (nor compute_mask)
    "Discretization": False,
    "Hashing": False,
    "IntegerLookup": False,
    "StringLookup": False,
    "TextVectorization": False,
    "Dropout": True,  # regularization/dropout.py
    "SpatialDropout1D": True,  # regularization/spatial_dropout.py: a Dropout
    "GaussianNoise": True,  # regularization/gaussian_noise.py
    "ActivityRegularization": True,  # regularization/activity_regularization.py
    "RepeatVector": False,  # reshaping/repeat_vector.py
    "Permute": False,  # reshaping/permute.py
    "GlobalAveragePooling1D": True,  # pooling/global_average_pooling1d.py
    "GlobalAveragePooling2D": False,  # pooling/: no other pooling layer sets it
    "GlobalMaxPooling1D": False,
    "GlobalMaxPooling2D": False,
    "AveragePooling1D": False,
    "AveragePooling2D": False,
    "MaxPooling1D": False,
    "MaxPooling2D": False,
    "Conv1D": False,  # convolutional/: none sets it
    "Conv2D": False,
    "Conv2DTranspose": False,
    "Flatten": False,  # reshaping/: none sets it
    "Reshape": False,
    "Cropping1D": False,
    "Cropping2D": False,
    "ZeroPadding1D": False,
    "ZeroPadding2D": False,
    "UpSampling2D": False,
    "SimpleRNN": True,  # rnn/rnn.py (RNN: supports_masking = True in 3.15.1)
    "LSTM": True,
    "GRU": True,
    "Bidirectional": True,  # rnn/bidirectional.py
    "TimeDistributed": True,  # rnn/time_distributed.py
    "Layer": False,  # layer.py: the default compute_mask
}

# The arguments a class needs to be made (a dict: by keyword; the rest take none).
ARGUMENTS = {
    "Activation": ("relu",),
    "Embedding": (5, 2),
    "Lambda": (ek.square,),
    "Dense": (2,),
    "Conv1D": (2, 1),
    "Conv2D": (2, 1),
    "Conv2DTranspose": (2, 1),
    "Reshape": ((2,),),
    "Rescaling": (0.5,),
    "Dot": (1,),
    "MultiHeadAttention": (2, 4),
    "SimpleRNN": (2,),
    "LSTM": (2,),
    "GRU": (2,),
    # Made at import, outside a test's kept names (tests/process_state.py): named, so that
    # no default name ("lstm", "dense") is used up for the tests after this module's
    "Bidirectional": (layers.LSTM(2, name="wrapped_lstm"),),
    "TimeDistributed": (layers.Dense(2, name="wrapped_dense"),),
    "Dropout": (0.5,),
    "SpatialDropout1D": (0.5,),
    "GaussianNoise": (0.1,),
    "RepeatVector": (2,),
    "Permute": ((2, 1),),
    "InputLayer": {"input_shape": [3]},
    "CategoryEncoding": (4,),
    "Discretization": {"bin_boundaries": [0.0]},
    "Hashing": (3,),
}
# A class whose answer depends on an argument: the keyword and the value that turns it on.
SWITCHED_BY = {"mask_zero": True, "mask": lambda inputs, mask: mask}


def public_layer_classes():
    found = {}
    for name in dir(layers):
        value = getattr(layers, name)
        if not name.startswith("_") and inspect.isclass(value):
            if issubclass(value, layers.Layer):
                found[value.__name__] = value  # aliases (AvgPool1D) are the same class
    return found


def test_every_public_layer_class_has_an_entry():
    classes = public_layer_classes()
    missing = sorted(set(classes) - set(KERAS_3))
    assert not missing, f"add Keras 3's supports_masking of {missing} to KERAS_3"
    gone = sorted(set(KERAS_3) - set(classes))
    assert not gone, f"entries for classes ek.keras.layers no longer has: {gone}"


@pytest.mark.parametrize("name", sorted(KERAS_3))
def test_supports_masking_is_keras_3s(name):
    cls = public_layer_classes()[name]
    expected = KERAS_3[name]
    arguments = ARGUMENTS.get(name, ())
    layer = cls(**arguments) if isinstance(arguments, dict) else cls(*arguments)
    if isinstance(expected, bool):
        assert layer.supports_masking is expected
    else:  # off by default, on with the argument that makes the layer mask
        assert layer.supports_masking is False
        switched = cls(*ARGUMENTS[name], **{expected: SWITCHED_BY[expected]})
        assert switched.supports_masking is True


def test_a_layer_that_supports_masking_passes_the_mask_on_and_one_that_does_not_warns():
    ids = ek.constant([[3, 1, 0], [2, 0, 0]])
    embedded = layers.Embedding(5, 4, mask_zero=True)(ids)
    kept = layers.BatchNormalization()(embedded)
    assert kept._keras_mask.numpy().tolist() == (ids.numpy() != 0).tolist()
    assert np.asarray(layers.Rescaling(2.0)(embedded)._keras_mask).tolist() == [
        [True, True, False],
        [True, False, False],
    ]
    with pytest.warns(UserWarning, match=r"Layer 'flat' \(of type Flatten\) was passed"):
        assert getattr(layers.Flatten(name="flat")(embedded), "_keras_mask", None) is None

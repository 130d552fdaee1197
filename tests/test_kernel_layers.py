"""Dense and the convolutions share their kernel, bias and activation code (kernel_layer.py);
each keeps Keras' explicit signature, its config and its own words in errors."""

import inspect

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras import layers
from eagerkit.keras.layers.kernel_layer import ConvLayer, KernelLayer

KERNEL_ARGUMENTS = [
    "activation",
    "use_bias",
    "kernel_initializer",
    "bias_initializer",
    "kernel_regularizer",
    "bias_regularizer",
    "activity_regularizer",
    "kernel_constraint",
    "bias_constraint",
]
CONV_ARGUMENTS = ["filters", "kernel_size", "strides", "padding"]

# class, its Keras parameters in order, a small layer, an input it was built for (channels
# last), the kernel's shape for that input
LAYERS = [
    (layers.Dense, ["units", *KERNEL_ARGUMENTS], lambda **k: layers.Dense(3, **k), (2, 4), (4, 3)),
    (
        layers.Conv1D,
        [*CONV_ARGUMENTS, "data_format", "dilation_rate", *KERNEL_ARGUMENTS],
        lambda **k: layers.Conv1D(3, 2, **k),
        (2, 5, 4),
        (2, 4, 3),
    ),
    (
        layers.Conv2D,
        [*CONV_ARGUMENTS, "data_format", "dilation_rate", *KERNEL_ARGUMENTS],
        lambda **k: layers.Conv2D(3, 2, **k),
        (2, 5, 5, 4),
        (2, 2, 4, 3),
    ),
    (
        layers.Conv2DTranspose,
        [*CONV_ARGUMENTS, "output_padding", "data_format", "dilation_rate", *KERNEL_ARGUMENTS],
        lambda **k: layers.Conv2DTranspose(3, 2, **k),
        (2, 5, 5, 4),
        (2, 2, 3, 4),
    ),
]
IDS = [entry[0].__name__ for entry in LAYERS]


@pytest.mark.parametrize("cls, parameters, make, shape, kernel_shape", LAYERS, ids=IDS)
def test_each_keeps_its_explicit_keras_signature(cls, parameters, make, shape, kernel_shape):
    signature = inspect.signature(cls.__init__).parameters
    assert list(signature)[1:] == [*parameters, "kwargs"]
    assert signature["activation"].default is None and signature["use_bias"].default is True
    assert signature["kernel_initializer"].default == "glorot_uniform"
    assert issubclass(cls, KernelLayer) and issubclass(cls, ConvLayer) == (cls is not layers.Dense)


@pytest.mark.parametrize("use_bias", [True, False])
@pytest.mark.parametrize("cls, parameters, make, shape, kernel_shape", LAYERS, ids=IDS)
def test_kernel_bias_activation_and_regularizers(
    cls, parameters, make, shape, kernel_shape, use_bias
):
    layer = make(
        use_bias=use_bias,
        activation="relu",
        kernel_initializer="ones",
        bias_initializer="ones",
        kernel_regularizer=ek.keras.regularizers.L2(0.5),
        bias_regularizer=ek.keras.regularizers.L1(0.25),
    )
    outputs = layer(np.full(shape, -1.0, np.float32)).numpy()
    assert layer.kernel.shape == kernel_shape and (layer.bias is not None) == use_bias
    assert [v.name.split("/")[-1] for v in layer.trainable_variables] == (
        ["kernel:0", "bias:0"] if use_bias else ["kernel:0"]
    )
    assert outputs.min() == 0.0  # relu of a negative sum (+1 bias at most): the activation ran
    kernel_penalty = 0.5 * float(np.prod(kernel_shape))  # L2(0.5) of a kernel of ones
    bias_penalty = 0.25 * 3 if use_bias else 0.0  # L1(0.25) of three ones
    np.testing.assert_allclose(
        sorted(float(loss) for loss in layer.losses),
        sorted([kernel_penalty] + ([bias_penalty] if use_bias else [])),
        rtol=1e-6,
    )


@pytest.mark.parametrize("cls, parameters, make, shape, kernel_shape", LAYERS, ids=IDS)
def test_the_config_round_trips(cls, parameters, make, shape, kernel_shape):
    regularizer = ek.keras.regularizers.L2(0.5)
    layer = make(activation="tanh", use_bias=False, kernel_regularizer=regularizer, name="k")
    config = layer.get_config()
    assert config["activation"] == "tanh" and config["use_bias"] is False
    assert config["kernel_regularizer"] == {"class_name": "L2", "config": {"l2": 0.5}}
    clone = cls.from_config(config)
    assert clone.get_config() == config


@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
@pytest.mark.parametrize("cls, parameters, make, shape, kernel_shape", LAYERS[1:], ids=IDS[1:])
def test_a_built_convolution_refuses_other_channels_and_keeps_its_kernel(
    cls, parameters, make, shape, kernel_shape, data_format
):
    layer = make(data_format=data_format, name="conv")
    first = data_format == "channels_first"
    built = (shape[0], shape[-1], *shape[1:-1]) if first else shape
    layer(np.ones(built, np.float32))
    kernel = layer.kernel.numpy().copy()
    other = list(built)
    other[1 if first else -1] = 7
    what = "sequences" if cls is layers.Conv1D else "images"
    with pytest.raises(InvalidArgumentError) as caught:
        layer(np.ones(other, np.float32))
    assert str(caught.value).endswith(
        f": {cls.__name__} layer 'conv' was built for {what} with 4 channels but got shape "
        f"{tuple(other)} ({data_format}). Feed {what} with that many channels, or use a new "
        "layer for the new input."
    )
    np.testing.assert_array_equal(layer.kernel.numpy(), kernel)


@pytest.mark.parametrize("cls, parameters, make, shape, kernel_shape", LAYERS, ids=IDS)
def test_a_bad_regularizer_or_data_format_names_the_layer(
    cls, parameters, make, shape, kernel_shape
):
    with pytest.raises(InvalidArgumentError, match=f"^{cls.__name__}: bias_regularizer: "):
        make(bias_regularizer=3)
    if cls is not layers.Dense:
        with pytest.raises(ValueError, match=f"\\): {cls.__name__}: data_format must be"):
            make(data_format="NHWC")

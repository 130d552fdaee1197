"""Layer additions for TF2 and TF1 code: global pooling, add_variable, sizes never truncated."""

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError
from eagerkit.testing import check_grads


def _images():
    return ek.constant(np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5) % 7)


def test_global_average_pooling_is_the_mean_of_each_feature_map():
    images = _images()
    pooled = ek.keras.layers.GlobalAveragePooling2D()(images)
    assert pooled.shape == (2, 5)
    np.testing.assert_allclose(pooled.numpy(), images.numpy().mean(axis=(1, 2)), rtol=1e-6)
    kept = ek.layers.GlobalAvgPool2D(keepdims=True)(images)
    assert kept.shape == (2, 1, 1, 5)
    first = ek.layers.GlobalAveragePooling2D(data_format="channels_first")(images)
    np.testing.assert_allclose(first.numpy(), images.numpy().mean(axis=(2, 3)), rtol=1e-6)


def test_global_max_pooling_is_the_max_of_each_feature_map_and_has_gradients():
    images = _images()
    pooled = ek.keras.layers.GlobalMaxPooling2D()(images)
    assert pooled.shape == (2, 5)
    np.testing.assert_array_equal(pooled.numpy(), images.numpy().max(axis=(1, 2)))
    rng = np.random.default_rng(0)
    x = rng.normal(size=(2, 3, 3, 2))  # distinct values: the max is unique
    check_grads(ek.layers.GlobalMaxPooling2D(dtype="float64"), x, order=2)
    check_grads(ek.layers.GlobalAveragePooling2D(dtype="float64"), x, order=2)


def test_global_pooling_refuses_non_images():
    with pytest.raises(InvalidArgumentError, match=r"expects input of rank 4 .*got shape \(2, 3\)"):
        ek.layers.GlobalMaxPooling2D(name="gmp")(ek.ones([2, 3]))
    with pytest.raises(ValueError, match="data_format must be 'channels_last'"):
        ek.layers.GlobalAveragePooling2D(data_format="NHWC")


def test_a_convnet_ending_in_global_pooling_takes_any_image_size():
    model = ek.keras.Sequential(
        [
            ek.keras.layers.Conv2D(4, 3, padding="same", activation="relu"),
            ek.keras.layers.GlobalAveragePooling2D(),
            ek.keras.layers.Dense(2),
        ]
    )
    assert model(ek.ones([1, 8, 8, 1])).shape == (1, 2)
    assert model(ek.ones([3, 13, 5, 1])).shape == (3, 2)


def test_add_variable_is_tf1s_add_weight():
    class Scale(ek.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_variable("w", [input_shape[-1]], initializer="ones")

        def call(self, inputs):
            return inputs * self.w

    layer = Scale(name="scale")
    assert layer([[1.0, 2.0]]).numpy().tolist() == [[1.0, 2.0]]
    assert [v.name for v in layer.variables] == ["scale/w:0"]


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: ek.layers.Dense(2.5), "units must be a whole number >= 1, got 2.5"),
        (lambda: ek.layers.Dense(0), "units must be a whole number >= 1, got 0"),
        (lambda: ek.layers.Dense(True), "units must be a whole number >= 1, got True"),
        (lambda: ek.layers.Dense("8"), "units must be a whole number >= 1, got '8'"),
        (lambda: ek.layers.Conv2D(3.5, 3), "filters must be a whole number >= 1, got 3.5"),
        (lambda: ek.layers.Conv2D(3, 2.5), "kernel_size must be a whole number >= 1, got 2.5"),
        (lambda: ek.layers.Conv2D(3, (3, 1.5)), "kernel_size must be a whole number >= 1"),
        (lambda: ek.layers.Conv2D(3, 3, strides=1.5), "strides must be a whole number >= 1"),
        (lambda: ek.layers.MaxPool2D(pool_size=2.5), "pool_size must be a whole number >= 1"),
        (lambda: ek.layers.LSTM(4.2), "units must be a whole number >= 1, got 4.2"),
        (lambda: ek.layers.Embedding(10.5, 4), "input_dim must be a whole number >= 1"),
        (lambda: ek.layers.Reshape([2.5, 2]), "target_shape must be a whole number >= -1"),
        (lambda: ek.layers.Dropout(None), "rate is the fraction to DROP"),
    ],
)
def test_fractional_and_wrong_sizes_are_refused_never_truncated(make, message):
    with pytest.raises(InvalidArgumentError, match=message):
        make()


def test_whole_floats_and_numpy_ints_are_sizes():
    assert ek.layers.Dense(3.0).units == 3 and ek.layers.Dense(np.int64(3)).units == 3
    assert ek.layers.Conv2D(np.int32(2), (3.0, 3)).kernel_size == (3, 3)
    assert ek.layers.Dense(ek.constant(3)).units == 3
    assert ek.layers.Reshape([-1, 2]).target_shape == (-1, 2)


def test_add_weight_refuses_a_fractional_shape_and_makes_nothing():
    layer = ek.layers.Layer(name="l")
    with pytest.raises(
        InvalidArgumentError, match="the shape of weight 'w' must be a whole number"
    ):
        layer.add_weight("w", [2, 1.5])
    assert layer.variables == []

"""ek.image: values (by hand, TF's documented examples, a per-pixel numpy reference), TF's
dtype rules and error texts.

Gradients of every function to second order, on the CPU and the simulated GPU, are in the
op-case table (tests/op_cases_more.py, image_cases).
"""

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError, UnimplementedError

rng = np.random.default_rng(3)
IMAGE = rng.uniform(size=(5, 6, 3)).astype(np.float32)
BATCH = rng.uniform(size=(2, 5, 6, 3)).astype(np.float32)


@pytest.mark.parametrize("images", [IMAGE, BATCH], ids=["HWC", "NHWC"])
def test_flips_rotations_and_transpose_move_pixels_as_numpy_does(images):
    h, w = images.ndim - 3, images.ndim - 2  # the height and width axes
    np.testing.assert_array_equal(ek.image.flip_left_right(images), np.flip(images, w))
    np.testing.assert_array_equal(ek.image.flip_up_down(images), np.flip(images, h))
    np.testing.assert_array_equal(ek.image.transpose(images), np.swapaxes(images, h, w))
    for k in (0, 1, 2, 3, 5, -1):  # counter-clockwise quarter turns, as np.rot90
        np.testing.assert_array_equal(ek.image.rot90(images, k), np.rot90(images, k, (h, w)))


def test_random_flips_are_seeded_and_flip_each_image_of_a_batch_on_its_own_coin():
    batch = np.arange(200 * 2).reshape(200, 1, 2, 1).astype(np.float32)
    ek.random.set_seed(5)
    first = ek.image.random_flip_left_right(batch, seed=1).numpy()
    ek.random.set_seed(5)
    again = ek.image.random_flip_left_right(batch, seed=1).numpy()
    np.testing.assert_array_equal(first, again)
    flipped = np.all(first == batch[:, :, ::-1], axis=(1, 2, 3))
    kept = np.all(first == batch, axis=(1, 2, 3))
    assert np.all(flipped ^ kept) and 70 < flipped.sum() < 130  # each image one or the other
    single = np.array([[[1.0], [2.0]], [[3.0], [4.0]]])
    seen = {tuple(ek.image.random_flip_up_down(single).numpy().ravel()) for _ in range(40)}
    assert seen == {(1.0, 2.0, 3.0, 4.0), (3.0, 4.0, 1.0, 2.0)}


def test_crops_and_pads_use_tfs_offsets():
    image = np.arange(4 * 5, dtype=np.int32).reshape(4, 5, 1)
    crop = ek.image.crop_to_bounding_box(image, 1, 2, 2, 3)
    np.testing.assert_array_equal(crop, image[1:3, 2:5])
    padded = ek.image.pad_to_bounding_box(BATCH, 1, 2, 7, 9)
    np.testing.assert_array_equal(padded, np.pad(BATCH, [(0, 0), (1, 1), (2, 1), (0, 0)]))
    # Crop rows 4 -> 2 (offset (4 - 2) // 2 = 1); pad columns 5 -> 8 (offset 3 // 2 = 1).
    resized = ek.image.resize_with_crop_or_pad(image, 2, 8)
    np.testing.assert_array_equal(resized, np.pad(image[1:3], [(0, 0), (1, 2), (0, 0)]))
    assert resized.dtype == ek.int32
    # central_crop: int((10 - 10 * 0.5) / 2) = 2 off each side of the height, 1 of the width.
    central = ek.image.central_crop(np.arange(10 * 5).reshape(10, 5, 1), 0.5)
    np.testing.assert_array_equal(central, np.arange(50).reshape(10, 5, 1)[2:8, 1:4])
    assert ek.image.central_crop(BATCH, 1.0).shape == BATCH.shape


@pytest.mark.parametrize(
    ("call", "text"),
    [
        (
            lambda: ek.image.flip_left_right(np.zeros(4)),
            r"'image' \(shape \(4,\)\) must have either 3 or 4 dimensions\.",
        ),
        (lambda: ek.image.resize(np.zeros((2, 2)), [3, 3]), "'images' .* must have either 3 or 4"),
        (lambda: ek.image.crop_to_bounding_box(IMAGE, -1, 0, 2, 2), "offset_height must be >= 0."),
        (lambda: ek.image.crop_to_bounding_box(IMAGE, 0, 0, 2, 0), "target_width must be > 0."),
        (
            lambda: ek.image.crop_to_bounding_box(IMAGE, 0, 4, 2, 3),
            r"width must be >= target \+ offset\. \(image shape \(5, 6, 3\): width 6 < "
            r"target_width 3 \+ offset_width 4\)",
        ),
        (
            lambda: ek.image.crop_to_bounding_box(IMAGE, 0, 0, 2.5, 2),
            "target_height must be an integer",
        ),
        (
            lambda: ek.image.pad_to_bounding_box(IMAGE, 0, 0, 4, 9),
            "height must be <= target - offset",
        ),
        (lambda: ek.image.pad_to_bounding_box(IMAGE, 0, -2, 9, 9), "offset_width must be >= 0"),
        (lambda: ek.image.resize_with_crop_or_pad(IMAGE, 0, 3), "target_height must be > 0."),
        (lambda: ek.image.central_crop(IMAGE, 0.0), r"central_fraction must be within \(0, 1\]"),
        (lambda: ek.image.resize(IMAGE, [3]), "'size' must be a 1-D Tensor of 2 elements"),
        (lambda: ek.image.resize(IMAGE, [3, 0]), "output dimensions must be positive"),
        (lambda: ek.image.resize(IMAGE, [3, 2.5]), "new_width must be an integer"),
        (
            lambda: ek.image.grayscale_to_rgb(IMAGE),
            "Last dimension of a grayscale image should be size 1.",
        ),
        (
            lambda: ek.image.rgb_to_grayscale(IMAGE[..., :2]),
            "Last dimension of an RGB image should be size 3.",
        ),
        (
            lambda: ek.image.convert_image_dtype(IMAGE, ek.bool),
            "image dtypes are integer or floating",
        ),
    ],
)
def test_bad_images_and_sizes_get_tfs_messages(call, text):
    with pytest.raises(InvalidArgumentError, match=text):
        call()


def test_resize_refuses_what_it_does_not_implement():
    with pytest.raises(UnimplementedError, match="method 'bicubic' is not implemented"):
        ek.image.resize(IMAGE, [2, 2], method=ek.image.ResizeMethod.BICUBIC)
    with pytest.raises(UnimplementedError, match="antialias=True is not implemented"):
        ek.image.resize(IMAGE, [2, 2], antialias=True)


def test_convert_image_dtype_follows_tfs_scaling():
    pixels = ek.constant([[[0, 128, 255]]], ek.uint8)
    as_float = ek.image.convert_image_dtype(pixels, ek.float32)
    np.testing.assert_allclose(as_float, np.array([[[0, 128, 255]]]) / 255.0, rtol=1e-6)
    back = ek.image.convert_image_dtype(as_float, ek.uint8)
    np.testing.assert_array_equal(back, [[[0, 128, 255]]])  # round trip (x * 255.5, truncated)
    wide = ek.image.convert_image_dtype(pixels, ek.int32)  # up: times 2^31 / 2^8
    np.testing.assert_array_equal(wide, [[[0, 128 * 2**23, 255 * 2**23]]])
    np.testing.assert_array_equal(ek.image.convert_image_dtype(wide, ek.uint8), pixels)
    too_bright = ek.constant([[[1.5, -0.2]]])
    np.testing.assert_array_equal(
        ek.image.convert_image_dtype(too_bright, ek.uint8, saturate=True), [[[255, 0]]]
    )
    assert ek.image.convert_image_dtype(IMAGE, ek.float64).dtype == ek.float64


def test_brightness_contrast_and_standardization():
    pixels = ek.constant([[[10, 250]]], ek.uint8)
    brighter = ek.image.adjust_brightness(pixels, 0.1)  # + 25.5 levels, saturating at 255
    np.testing.assert_array_equal(brighter, [[[35, 255]]])
    image = np.array([[[1.0, 10.0]], [[3.0, 30.0]]], np.float32)  # 2x1 pixels, 2 channels
    contrast = ek.image.adjust_contrast(image, 3.0).numpy()  # per channel: means 2 and 20
    np.testing.assert_allclose(contrast, [[[-1.0, -10.0]], [[5.0, 50.0]]])
    standard = ek.image.per_image_standardization(BATCH).numpy()
    np.testing.assert_allclose(standard.mean(axis=(1, 2, 3)), 0.0, atol=1e-6)
    np.testing.assert_allclose(standard.std(axis=(1, 2, 3)), 1.0, rtol=1e-5)
    flat = ek.image.per_image_standardization(ek.ones([2, 2, 1], ek.uint8))
    assert flat.dtype == ek.float32 and np.all(flat.numpy() == 0.0)  # no 0 / 0


def test_grayscale_both_ways():
    gray = ek.image.rgb_to_grayscale(BATCH).numpy()
    np.testing.assert_allclose(gray, BATCH @ np.array([[0.2989], [0.5870], [0.1140]]), rtol=1e-5)
    # White: 0.9999 * 255.5 = 255.47, truncated to 255; red: 0.2989 * 255.5 = 76.4.
    pixels = ek.constant([[[255, 255, 255], [255, 0, 0]]], ek.uint8)
    np.testing.assert_array_equal(ek.image.rgb_to_grayscale(pixels), [[[255], [76]]])
    rgb = ek.image.grayscale_to_rgb(gray)
    assert rgb.shape == (2, 5, 6, 3) and np.all(rgb.numpy() == gray)


def test_resize_by_hand():
    # Half-pixel centres: output pixel i samples (i + 0.5) * 2 / 4 - 0.5 = -0.25, 0.25, 0.75,
    # 1.25; the ends clamp to the edge pixels.
    row = ek.image.resize(np.array([[[0.0], [1.0]]]), [1, 4])
    np.testing.assert_allclose(row.numpy().ravel(), [0.0, 0.25, 0.75, 1.0])
    # Down by 2: each output centre falls midway between two inputs: their mean.
    down = ek.image.resize(np.arange(4.0).reshape(1, 4, 1), [1, 2]).numpy().ravel()
    np.testing.assert_allclose(down, [0.5, 2.5])
    assert ek.image.resize(np.ones((2, 2, 1), np.uint8), [3, 3]).dtype == ek.float32
    nearest = ek.image.resize(np.ones((2, 2, 1), np.uint8), [3, 3], method="nearest")
    assert nearest.dtype == ek.uint8
    fitted = ek.image.resize(np.zeros((4, 8, 1)), [6, 6], preserve_aspect_ratio=True)
    assert fitted.shape == (3, 6, 1)


def _bilinear_matrix(size_in, size_out):
    """The (size_out, size_in) matrix of TF2's bilinear resize along one axis, entry by entry:
    half-pixel centres, source = (i + 0.5) * in / out - 0.5, clamped at the edges."""
    matrix = np.zeros((size_out, size_in))
    for i in range(size_out):
        source = max((i + 0.5) * size_in / size_out - 0.5, 0.0)
        low = min(int(np.floor(source)), size_in - 1)
        high = min(low + 1, size_in - 1)
        matrix[i, low] += 1 - (source - low)
        matrix[i, high] += source - low
    return matrix


def _nearest_rows(size_in, size_out):
    """TF2's nearest resize along one axis: the source pixel whose cell holds the centre."""
    return [
        min(int(np.floor((i + 0.5) * size_in / size_out)), size_in - 1) for i in range(size_out)
    ]


@pytest.mark.parametrize("size", [(7, 9), (3, 4), (2, 13), (5, 6)])
def test_resize_matches_a_per_pixel_reference(size):
    images = rng.standard_normal((2, 5, 6, 3))
    rows, cols = _bilinear_matrix(5, size[0]), _bilinear_matrix(6, size[1])
    expected = np.einsum("ih,bhwc,jw->bijc", rows, images, cols)
    x = ek.constant(images)
    with ek.GradientTape() as tape:
        tape.watch(x)
        resized = ek.image.resize(x, size)
    # ek (as TF) computes the sample positions in float32: agreement to about 1e-7
    np.testing.assert_allclose(resized, expected, atol=1e-6)
    # resize is linear: its gradient is the transposed map applied to the weights
    weights = rng.standard_normal(resized.shape)
    ours = tape.gradient(resized, x, output_gradients=ek.constant(weights))
    np.testing.assert_allclose(ours, np.einsum("ih,bijc,jw->bhwc", rows, weights, cols), atol=1e-6)
    nearest = images[:, _nearest_rows(5, size[0])][:, :, _nearest_rows(6, size[1])]
    np.testing.assert_array_equal(ek.image.resize(images, size, method="nearest"), nearest)


def test_images_on_the_simulated_gpu_stay_there():
    device = ek.devices.enable_simulated_gpu()
    try:
        with ek.device("/sim:0"):
            images = ek.constant(BATCH)
            outputs = [
                ek.image.random_flip_left_right(images, seed=2),
                ek.image.random_flip_up_down(images[0], seed=2),
                ek.image.resize(images, [3, 8]),
                ek.image.resize(images, [3, 8], method="nearest"),
                ek.image.per_image_standardization(images),
                ek.image.convert_image_dtype(images, ek.uint8),
            ]
        for output in outputs:
            assert output.device == device.full_name
        np.testing.assert_allclose(outputs[2].numpy(), ek.image.resize(BATCH, [3, 8]).numpy())
    finally:
        ek.devices.disable_simulated_gpu()


# TF's own documented examples (the tf.image API pages), with the values they print.
X12 = [[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]]


def test_tfs_documented_resize_example():
    image = ek.constant(np.eye(5, dtype=np.int32))[ek.newaxis, ..., ek.newaxis]
    resized = ek.image.resize(image, [3, 5])[0, ..., 0].numpy()
    expected = [
        [0.6666667, 0.3333333, 0.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 0.0, 0.3333335, 0.6666665],  # float32 sample positions, as TF's kernel
    ]
    np.testing.assert_allclose(resized, np.array(expected, np.float32), rtol=0, atol=1e-7)
    assert ek.image.resize(image[0], [3, 5]).shape.as_list() == [3, 5, 1]


def test_tfs_documented_colour_examples():
    np.testing.assert_allclose(
        ek.image.adjust_brightness(X12, delta=0.1), np.array(X12, np.float32) + 0.1
    )
    contrast = [[[-3.5, -2.5, -1.5], [2.5, 3.5, 4.5]], [[8.5, 9.5, 10.5], [14.5, 15.5, 16.5]]]
    np.testing.assert_allclose(ek.image.adjust_contrast(X12, 2.0), contrast)
    image = ek.constant(np.arange(1, 13, dtype=np.int32).reshape(2, 2, 3))
    standard = ek.image.per_image_standardization(image)
    assert standard.dtype == ek.float32
    expected = [
        [[-1.593255, -1.3035723, -1.0138896], [-0.7242068, -0.4345241, -0.14484136]],
        [[0.14484136, 0.4345241, 0.7242068], [1.0138896, 1.3035723, 1.593255]],
    ]
    np.testing.assert_allclose(standard, expected, rtol=1e-6)
    gray = ek.image.rgb_to_grayscale([[[1.0, 2.0, 3.0]]])
    np.testing.assert_allclose(gray, [[[1.8149]]], rtol=1e-6)
    np.testing.assert_array_equal(
        ek.image.flip_left_right(X12), [[[4, 5, 6], [1, 2, 3]], [[10, 11, 12], [7, 8, 9]]]
    )

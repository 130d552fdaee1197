"""Pixel values: dtype conversion, brightness, contrast, standardization and grayscale.

All are compositions of ordinary ops, so gradients flow through them. One choice differs
from TF: TF computes some of these in float32 even for float64 images; eagerkit keeps a
float image's own dtype (float64 stays float64, which is what gradient checks need).
"""

import math

import numpy as np

from eagerkit import dtypes
from eagerkit.errors import InvalidArgumentError
from eagerkit.image.checks import require
from eagerkit.ops import arithmetic, reduce
from eagerkit.ops import math as math_ops
from eagerkit.ops.cast import cast
from eagerkit.ops.shape import concat
from eagerkit.tensor import convert_to_tensor

_GRAY_WEIGHTS = [0.2989, 0.5870, 0.1140]  # ITU-R 601 luma, TF's weights


def _limits(dtype):
    info = np.iinfo(dtype.as_numpy_dtype) if dtype.is_integer else None
    return (info.min, info.max) if info is not None else (None, None)


def _saturate_cast(x, dtype):
    """Cast, clipping first to what ``dtype`` holds (no wrap-around)."""
    low, high = _limits(dtype)
    if low is not None:
        x = arithmetic.minimum(arithmetic.maximum(x, low), high)
    return cast(x, dtype)


def convert_image_dtype(image, dtype, saturate=False, name=None):
    """Convert pixel values between dtypes, rescaling: floats are in [0, 1], ints in [0, MAX].

    uint8 255 becomes float 1.0 and back; float to int multiplies by ``MAX + 0.5`` and
    truncates, as TF does. ``saturate=True`` clips instead of wrapping on the way to an int.

    Examples
    --------
    >>> import eagerkit as ek
    >>> pixels = ek.constant([[[0, 51, 255]]], ek.uint8)
    >>> ek.image.convert_image_dtype(pixels, ek.float32).numpy().round(3)
    array([[[0. , 0.2, 1. ]]], dtype=float32)
    >>> ek.image.convert_image_dtype(ek.constant([[[0.0, 0.5, 1.0]]]), ek.uint8)
    <ek.Tensor: shape=(1, 1, 3), dtype=uint8, numpy=array([[[  0, 127, 255]]], dtype=uint8)>
    """
    x = convert_to_tensor(image)
    target = dtypes.as_dtype(dtype)
    for kind in (x.dtype, target):
        if not (kind.is_floating or kind.is_integer):
            raise InvalidArgumentError(
                f"convert_image_dtype: image dtypes are integer or floating, got {kind.name} "
                f"(image shape {x.shape}, dtype {x.dtype.name} to {target.name}); use e.g. "
                "ek.float32 or ek.uint8",
                op="convert_image_dtype",
            )
    if x.dtype == target:
        return x
    convert = _saturate_cast if saturate else cast
    if x.dtype.is_floating and target.is_floating:
        return cast(x, target)
    if x.dtype.is_floating:  # to an int: scale first, then cast
        return convert(x * (float(_limits(target)[1]) + 0.5), target)
    in_max = int(_limits(x.dtype)[1])
    if target.is_floating:  # from an int: cast first, then scale
        return cast(x, target) * (1.0 / in_max)
    out_max = int(_limits(target)[1])
    if in_max > out_max:  # fewer bits: divide, then cast (in_max lands just under out_max + 1)
        return convert(arithmetic.floordiv(x, (in_max + 1) // (out_max + 1)), target)
    return convert(x, target) * ((out_max + 1) // (in_max + 1))


def _as_float(x):
    """A float image to compute with: float images as they are, ints scaled to float32."""
    return x if x.dtype.is_floating else convert_image_dtype(x, dtypes.float32)


def adjust_brightness(image, delta):
    """Add ``delta`` to every pixel (in the [0, 1] scale; integer images are converted there and
    back, saturating).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.image.adjust_brightness([[[0.1, 0.2, 0.3]]], delta=0.1).numpy().round(2)
    array([[[0.2, 0.3, 0.4]]], dtype=float32)
    """
    x = convert_to_tensor(image)
    flat = _as_float(x)
    adjusted = flat + cast(delta, flat.dtype)  # a float64 delta on a float32 image, as TF
    return convert_image_dtype(adjusted, x.dtype, saturate=True)


def adjust_contrast(images, contrast_factor):
    """Move each channel of each image away from (or towards) its mean: ``(x - mean) * factor
    + mean``, the mean taken over height and width.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.image.adjust_contrast([[[1.0], [3.0]]], 2.0).numpy().ravel()
    array([0., 4.], dtype=float32)
    """
    x = convert_to_tensor(images)
    require(
        x.ndim >= 3,
        "'images' must be at least three-dimensional.",
        "adjust_contrast",
        x,
        f"rank {x.ndim}; pass [height, width, channels] or a batch of them",
    )
    flat = _as_float(x)
    mean = reduce.reduce_mean(flat, axis=[-3, -2], keepdims=True)
    adjusted = (flat - mean) * cast(contrast_factor, flat.dtype) + mean
    return convert_image_dtype(adjusted, x.dtype, saturate=True)


def per_image_standardization(image):
    """Scale each image to mean 0 and variance 1: ``(x - mean) / max(std, 1/sqrt(N))``, N its
    number of values (the floor keeps a flat image finite). Integer images become float32.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.image.per_image_standardization([[[1.0], [3.0]]]).numpy().ravel()
    array([-1.,  1.], dtype=float32)
    """
    x = convert_to_tensor(image)
    require(
        x.ndim >= 3,
        "'image' must be at least three-dimensional.",
        "per_image_standardization",
        x,
        f"rank {x.ndim}; pass [height, width, channels]",
    )
    if not x.dtype.is_floating:
        x = cast(x, dtypes.float32)
    axes = [-3, -2, -1]
    count = math.prod(x.shape[-3:])
    centred = x - reduce.reduce_mean(x, axis=axes, keepdims=True)
    spread = math_ops.sqrt(reduce.reduce_mean(centred * centred, axis=axes, keepdims=True))
    return centred / arithmetic.maximum(spread, 1.0 / math.sqrt(max(count, 1)))


def rgb_to_grayscale(images, name=None):
    """One luma channel from RGB: ``0.2989 R + 0.5870 G + 0.1140 B`` (the last axis, size 3).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.image.rgb_to_grayscale([[[1.0, 1.0, 1.0], [1.0, 0.0, 0.0]]]).numpy().round(4).ravel()
    array([0.9999, 0.2989], dtype=float32)
    """
    x = convert_to_tensor(images)
    require(
        x.ndim >= 1 and x.shape[-1] == 3,
        "Last dimension of an RGB image should be size 3.",
        "rgb_to_grayscale",
        x,
        "channels last: [..., 3]",
    )
    flat = _as_float(x)
    red, green, blue = (flat[..., i : i + 1] for i in range(3))
    gray = red * _GRAY_WEIGHTS[0] + green * _GRAY_WEIGHTS[1] + blue * _GRAY_WEIGHTS[2]
    return convert_image_dtype(gray, x.dtype)


def grayscale_to_rgb(images, name=None):
    """Three equal channels from one (the last axis, size 1).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.image.grayscale_to_rgb([[[0.5]]]).numpy()
    array([[[0.5, 0.5, 0.5]]], dtype=float32)
    """
    x = convert_to_tensor(images)
    require(
        x.ndim >= 2,
        "A grayscale image must be at least two-dimensional.",
        "grayscale_to_rgb",
        x,
        f"rank {x.ndim}",
    )
    require(
        x.shape[-1] == 1,
        "Last dimension of a grayscale image should be size 1.",
        "grayscale_to_rgb",
        x,
        "channels last: [..., 1]",
    )
    return concat([x, x, x], axis=-1)

"""Windows of an image: crops and zero padding (one image HWC or a batch NHWC).

A crop is a slice and a pad is ``ek.pad``: the gradient of a kept pixel goes back to it,
cropped-away pixels get zero, and padding gets none. Offsets count from the top-left pixel.
"""

import numbers

from eagerkit import dtypes
from eagerkit.arguments import sizes
from eagerkit.errors import InvalidArgumentError
from eagerkit.image.checks import image_tensor, integers, require, size_of
from eagerkit.ops.rearrange import pad
from eagerkit.random import uniform
from eagerkit.tensor import convert_to_tensor


def _box(op, image, offset_height, offset_width, target_height, target_width):
    """The image tensor and the four numbers of a box, as ints (fractions refused)."""
    x, _ = image_tensor(image, op)
    numbers_of_box = integers(
        op,
        offset_height=offset_height,
        offset_width=offset_width,
        target_height=target_height,
        target_width=target_width,
    )
    return (x, *numbers_of_box)


def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """The ``target_height x target_width`` window whose top-left pixel is at the offsets.

    Examples
    --------
    >>> import eagerkit as ek
    >>> image = ek.reshape(ek.range(16), [4, 4, 1])
    >>> ek.image.crop_to_bounding_box(image, 1, 2, 2, 2).numpy()[..., 0]
    array([[ 6,  7],
           [10, 11]], dtype=int32)
    """
    op = "crop_to_bounding_box"
    x, top, left, rows, cols = _box(
        op, image, offset_height, offset_width, target_height, target_width
    )
    height, width = size_of(x)
    require(left >= 0, "offset_width must be >= 0.", op, x, f"offset_width {left}")
    require(top >= 0, "offset_height must be >= 0.", op, x, f"offset_height {top}")
    require(cols > 0, "target_width must be > 0.", op, x, f"target_width {cols}")
    require(rows > 0, "target_height must be > 0.", op, x, f"target_height {rows}")
    require(
        width >= cols + left,
        "width must be >= target + offset.",
        op,
        x,
        f"width {width} < target_width {cols} + offset_width {left}",
    )
    require(
        height >= rows + top,
        "height must be >= target + offset.",
        op,
        x,
        f"height {height} < target_height {rows} + offset_height {top}",
    )
    return x[..., top : top + rows, left : left + cols, :]


def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """Zeros around the image, to ``target_height x target_width``, the image at the offsets.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.image.pad_to_bounding_box(ek.ones([1, 1, 1]), 1, 0, 3, 2).numpy()[..., 0]
    array([[0., 0.],
           [1., 0.],
           [0., 0.]], dtype=float32)
    """
    op = "pad_to_bounding_box"
    x, top, left, rows, cols = _box(
        op, image, offset_height, offset_width, target_height, target_width
    )
    height, width = size_of(x)
    bottom, right = rows - top - height, cols - left - width
    require(top >= 0, "offset_height must be >= 0", op, x, f"offset_height {top}")
    require(left >= 0, "offset_width must be >= 0", op, x, f"offset_width {left}")
    require(
        right >= 0,
        "width must be <= target - offset",
        op,
        x,
        f"width {width} > target_width {cols} - offset_width {left}",
    )
    require(
        bottom >= 0,
        "height must be <= target - offset",
        op,
        x,
        f"height {height} > target_height {rows} - offset_height {top}",
    )
    paddings = [[top, bottom], [left, right], [0, 0]]
    return pad(x, [[0, 0], *paddings] if x.ndim == 4 else paddings)


def resize_with_crop_or_pad(image, target_height, target_width):
    """Crop the centre or pad with zeros around it, to ``target_height x target_width``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.image.resize_with_crop_or_pad(ek.ones([4, 1, 1]), 2, 3).numpy()[..., 0]
    array([[0., 1., 0.],
           [0., 1., 0.]], dtype=float32)
    """
    op = "resize_with_crop_or_pad"
    x, _ = image_tensor(image, op)
    rows, cols = integers(op, target_height=target_height, target_width=target_width)
    require(cols > 0, "target_width must be > 0.", op, x, f"target_width {cols}")
    require(rows > 0, "target_height must be > 0.", op, x, f"target_height {rows}")
    height, width = size_of(x)
    # Crop what is too big, then pad what is too small, both centred (TF's rounding).
    cropped = crop_to_bounding_box(
        x,
        max((height - rows) // 2, 0),
        max((width - cols) // 2, 0),
        min(rows, height),
        min(cols, width),
    )
    return pad_to_bounding_box(
        cropped, max((rows - height) // 2, 0), max((cols - width) // 2, 0), rows, cols
    )


def central_crop(image, central_fraction):
    """The centre of the image: ``central_fraction`` of its height and of its width.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.image.central_crop(ek.zeros([10, 8, 3]), 0.5).shape
    TensorShape([6, 4, 3])
    """
    op = "central_crop"
    x, _ = image_tensor(image, op)
    fraction = central_fraction
    if isinstance(fraction, bool) or not isinstance(fraction, numbers.Real):
        raise InvalidArgumentError(
            f"central_crop: central_fraction must be a number in (0, 1], got "
            f"{type(fraction).__name__} {fraction!r}",
            op=op,
        )
    require(
        0.0 < fraction <= 1.0,
        "central_fraction must be within (0, 1]",
        op,
        x,
        f"central_fraction {fraction}",
    )
    height, width = size_of(x)
    top = int((height - height * float(fraction)) / 2)  # TF's cast to int32 (truncation)
    left = int((width - width * float(fraction)) / 2)
    return x[..., top : height - top, left : width - left, :]


def random_crop(value, size, seed=None, name=None):
    """A ``size`` window of ``value`` (any rank) at an offset drawn uniformly along every
    axis (``tf.image.random_crop``); an axis whose size equals ``value``'s is kept whole.

    Seeded as ``ek.random``: ``ek.random.set_seed`` and ``seed=`` make it repeatable. The
    window is a slice, so the gradient of each kept value goes back to it.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.image.random_crop(ek.zeros([8, 8, 3]), size=[5, 5, 3], seed=1).shape
    TensorShape([5, 5, 3])
    """
    x = convert_to_tensor(value)
    window = sizes(size, "size", "random_crop", minimum=0)
    if len(window) != x.ndim:
        raise InvalidArgumentError(
            f"random_crop: size needs one entry per axis of value (rank {x.ndim}, shape "
            f"{list(x.shape)}), got {list(window)}; keep an axis whole with its full size",
            op="random_crop",
        )
    if any(wanted > have for wanted, have in zip(window, x.shape, strict=True)):
        raise InvalidArgumentError(
            f"random_crop: size {list(window)} is larger than value's shape {list(x.shape)} "
            "on some axis; a crop can only be smaller (pad first: ek.image.pad_to_bounding_box)",
            op="random_crop",
        )
    limits = [have - wanted + 1 for wanted, have in zip(window, x.shape, strict=True)]
    draws = uniform([x.ndim], maxval=2**31 - 1, dtype=dtypes.int32, seed=seed).numpy()
    # TF's rule: a uniform int32 draw, modulo the room on each axis (host numbers).
    offsets = [draw % limit for draw, limit in zip(draws.tolist(), limits, strict=True)]
    return x[tuple(slice(int(o), int(o) + n) for o, n in zip(offsets, window, strict=True))]

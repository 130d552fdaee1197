"""``ek.image.resize``: bilinear and nearest-neighbour resizing with TF2's half-pixel centres.

Output pixel ``i`` samples the input at ``(i + 0.5) * in_size / out_size - 0.5`` (bilinear)
or ``floor((i + 0.5) * in_size / out_size)`` (nearest): pixel centres line up, as in
``tf.image.resize`` and PyTorch's ``interpolate(align_corners=False)``. Bilinear resizing
mixes the two nearest rows (then columns) with weights fixed by the sizes alone: it is
``gather``, subtract, multiply, add, so its gradient needs no code of its own.
"""

import numpy as np

from eagerkit import dtypes
from eagerkit.errors import InvalidArgumentError, UnimplementedError
from eagerkit.image.checks import image_tensor, integers, size_of
from eagerkit.ops.cast import cast
from eagerkit.ops.indexing import gather


class ResizeMethod:
    """The ``method`` names ``resize`` takes (TF's spelling)."""

    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"


def _sources(in_size, out_size):
    """The input coordinate each output pixel centre falls on (float32, as TF computes it)."""
    scale = np.float32(in_size) / np.float32(out_size)
    return (np.arange(out_size, dtype=np.float32) + np.float32(0.5)) * scale


def _bilinear_along(x, axis, out_size):
    """``x`` resized along ``axis`` (-3: rows, -2: columns) by linear interpolation."""
    in_size = int(x.shape[axis])
    position = _sources(in_size, out_size) - np.float32(0.5)
    below = np.floor(position)
    lower = np.maximum(below, 0).astype(np.int32)
    upper = np.minimum(np.ceil(position), in_size - 1).astype(np.int32)
    # The weight of the pixel after the point: 0 on a pixel centre, up to 1 before the next.
    weight = (position - below).astype(x.dtype.as_numpy_dtype)
    weight = weight.reshape((out_size,) + (1,) * (-axis - 1))  # broadcasts along ``axis``
    first = gather(x, lower, axis=x.ndim + axis)
    second = gather(x, upper, axis=x.ndim + axis)
    return first + (second - first) * weight


def _nearest_along(x, axis, out_size):
    in_size = int(x.shape[axis])
    index = np.minimum(np.floor(_sources(in_size, out_size)), in_size - 1).astype(np.int32)
    return gather(x, index, axis=x.ndim + axis)


def _new_size(size, height, width, preserve_aspect_ratio):
    if isinstance(size, (str, bytes)) or not hasattr(size, "__len__") or len(size) != 2:
        raise InvalidArgumentError(
            f"resize: 'size' must be a 1-D Tensor of 2 elements: new_height, new_width; got "
            f"{size!r}",
            op="resize",
        )
    rows, cols = integers("resize", new_height=size[0], new_width=size[1])
    if rows <= 0 or cols <= 0:
        raise InvalidArgumentError(
            f"resize: output dimensions must be positive, got size ({rows}, {cols})", op="resize"
        )
    if preserve_aspect_ratio:  # the largest size inside ``size`` with the image's proportions
        scale = min(np.float32(rows) / np.float32(height), np.float32(cols) / np.float32(width))
        rows = int(np.round(scale * np.float32(height)))
        cols = int(np.round(scale * np.float32(width)))
    return rows, cols


def resize(
    images,
    size,
    method=ResizeMethod.BILINEAR,
    preserve_aspect_ratio=False,
    antialias=False,
    name=None,
):
    """Resize one image ``[h, w, c]`` or a batch ``[n, h, w, c]`` to ``size = (height, width)``.

    ``method`` is ``'bilinear'`` (the result is float32; float64 stays float64) or
    ``'nearest'`` (the dtype is kept). ``preserve_aspect_ratio=True`` fits the image inside
    ``size`` without distorting it.

    Examples
    --------
    >>> import eagerkit as ek
    >>> image = ek.reshape(ek.constant([0.0, 1.0]), [1, 2, 1])
    >>> ek.image.resize(image, [1, 4]).numpy().ravel()
    array([0.  , 0.25, 0.75, 1.  ], dtype=float32)
    >>> ek.image.resize(ek.reshape(ek.range(4), [2, 2, 1]), [4, 4], "nearest").numpy()[..., 0]
    array([[0, 0, 1, 1],
           [0, 0, 1, 1],
           [2, 2, 3, 3],
           [2, 2, 3, 3]], dtype=int32)
    """
    x, _ = image_tensor(images, "resize", name="images")
    height, width = size_of(x)
    if height == 0 or width == 0:
        raise InvalidArgumentError(
            f"resize: input image must be of non-zero size, got shape {x.shape}", op="resize"
        )
    rows, cols = _new_size(size, height, width, preserve_aspect_ratio)
    if antialias:
        raise UnimplementedError(
            "resize: antialias=True is not implemented (it only changes downsampling); use "
            "antialias=False",
            op="resize",
        )
    if method == ResizeMethod.NEAREST_NEIGHBOR:
        return _nearest_along(_nearest_along(x, -3, rows), -2, cols)
    if method != ResizeMethod.BILINEAR:
        raise UnimplementedError(
            f"resize: method {method!r} is not implemented; use 'bilinear' or 'nearest'",
            op="resize",
        )
    if x.dtype != dtypes.float64:
        x = cast(x, dtypes.float32)
    return _bilinear_along(_bilinear_along(x, -3, rows), -2, cols)

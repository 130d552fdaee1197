"""``ek.image.resize``: bilinear and nearest-neighbour resizing with TF2's half-pixel centres.

Output pixel ``i`` samples the input at ``(i + 0.5) * in_size / out_size - 0.5`` (bilinear)
or ``floor((i + 0.5) * in_size / out_size)`` (nearest): pixel centres line up, as in
``tf.image.resize`` and PyTorch's ``interpolate(align_corners=False)``. Bilinear resizing
mixes the two nearest columns (then rows) with weights fixed by the sizes alone: it is a
linear map, one matrix product per axis, so its gradient is the transposed products and
needs no code of its own. Nearest-neighbour resizing gathers one pixel per output pixel.
"""

import numpy as np

from eagerkit import dtypes
from eagerkit.errors import InvalidArgumentError, UnimplementedError
from eagerkit.image.checks import image_tensor, integers, size_of
from eagerkit.limits import check_tensor
from eagerkit.ops.cast import cast
from eagerkit.ops.indexing import gather
from eagerkit.ops.linalg import matmul
from eagerkit.ops.shape import reshape


class ResizeMethod:
    """TF's ``method`` names. ``resize`` computes BILINEAR and NEAREST_NEIGHBOR; the others
    are named so that code ported from TF gets resize's clear "not implemented" error."""

    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"
    BICUBIC = "bicubic"
    AREA = "area"
    LANCZOS3 = "lanczos3"
    LANCZOS5 = "lanczos5"
    GAUSSIAN = "gaussian"
    MITCHELLCUBIC = "mitchellcubic"


def _sources(in_size, out_size):
    """The input coordinate each output pixel centre falls on (float32, as TF computes it)."""
    scale = np.float32(in_size) / np.float32(out_size)
    return (np.arange(out_size, dtype=np.float32) + np.float32(0.5)) * scale


def _interpolation_matrix(in_size, out_size, dtype):
    """The ``out_size x in_size`` matrix of linear interpolation: row i mixes the two input
    pixels around output pixel i's centre, with weights that add up to 1."""
    position = _sources(in_size, out_size) - np.float32(0.5)
    below = np.floor(position)
    lower = np.maximum(below, 0).astype(np.int64)  # edges clamp to the edge pixel
    upper = np.minimum(np.ceil(position), in_size - 1).astype(np.int64)
    weight = position - below  # of the upper pixel: 0 on a pixel centre, up to 1 before the next
    matrix = np.zeros((out_size, in_size), dtype)
    rows = np.arange(out_size)
    np.add.at(matrix, (rows, lower), 1 - weight)  # add: lower and upper may be one pixel
    np.add.at(matrix, (rows, upper), weight)
    return matrix


def _bilinear(x, rows, cols):
    """Resize ``[..., h, w, c]`` to ``[..., rows, cols, c]``: a matrix product per axis."""
    *batch, height, width, channels = (int(size) for size in x.shape)
    batch = [-1, *batch[1:]] if batch else []  # -1: in ek.function, each call's batch size
    dtype = x.dtype.as_numpy_dtype
    # Columns: [cols, w] @ [..., h, w, c] is [..., h, cols, c] (matmul broadcasts over h).
    x = matmul(_interpolation_matrix(width, cols, dtype), x)
    # Rows: the same on [..., h, cols * c], then back to [..., rows, cols, c].
    flat = reshape(x, [*batch, height, cols * channels])
    x = matmul(_interpolation_matrix(height, rows, dtype), flat)
    return reshape(x, [*batch, rows, cols, channels])


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
    # The result, and the interpolation tables built from the sizes: refuse them before
    # they are built if memory cannot hold them.
    check_tensor((*x.shape[:-3], rows, cols, x.shape[-1]), 8, "resize")
    check_tensor((rows + cols, max(height, width)), 8, "resize")
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
    return _bilinear(x, rows, cols)

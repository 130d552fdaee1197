"""2-D convolution (NHWC) as three primitives that are each other's gradients.

``conv2d(x, w)`` is bilinear, so its two VJPs are the adjoints of "x -> conv2d(x, w)" and
"w -> conv2d(x, w)". Those adjoints are primitives too (``conv2d_backprop_input`` and
``conv2d_backprop_filter``), and their VJPs are again conv2d or one of the two. The three
close under differentiation, so gradients of any order stay vectorized.

Every forward is "im2col + one matrix product": a strided view of all patches (``windows``),
copied once into a matrix with one row per output pixel, which one matrix product with the
filter turns into the output. No Python loop over pixels anywhere, and on a GPU nothing
copied to or from the host. (cuDNN is not an option there: CuPy 14 removed its cuDNN
bindings, so on a GPU too a convolution is im2col and one cuBLAS product.)
"""

from eagerkit import arguments
from eagerkit.dtypes import FLOATING
from eagerkit.errors import InvalidArgumentError
from eagerkit.ops.reshaping import reshape
from eagerkit.registry import defop


def pads(size, window, stride, padding):
    """(before, after, out_size) along one axis for TF's 'SAME' or 'VALID' padding.

    Examples
    --------
    >>> from eagerkit.ops.conv import pads
    >>> pads(5, 3, 2, "SAME"), pads(5, 3, 2, "VALID")
    ((1, 1, 3), (0, 0, 2))
    """
    if padding == "VALID":
        return 0, 0, (size - window) // stride + 1
    out = -(-size // stride)  # ceil(size / stride)
    total = max((out - 1) * stride + window - size, 0)
    return total // 2, total - total // 2, out  # TF puts the odd pixel after


def padded(xp, x, pad_h, pad_w, value=0):
    """``x`` (NHWC) with rows and columns of ``value`` added around the image.

    Examples
    --------
    >>> import numpy as np
    >>> from eagerkit.ops.conv import padded
    >>> padded(np, np.ones((1, 1, 2, 1)), (1, 0), (0, 1))[0, :, :, 0]
    array([[0., 0., 0.],
           [1., 1., 0.]])
    """
    if not any(pad_h) and not any(pad_w):
        return x
    n, height, width, channels = x.shape
    shape = (n, pad_h[0] + height + pad_h[1], pad_w[0] + width + pad_w[1], channels)
    canvas = xp.full(shape, value, dtype=x.dtype)  # one allocation and one copy (np.pad: more)
    canvas[:, pad_h[0] : pad_h[0] + height, pad_w[0] : pad_w[0] + width, :] = x
    return canvas


def windows(xp, x, window, strides, dilations=(1, 1)):
    """All windows of an (already padded) NHWC array: a view of shape (N, OH, OW, C, KH, KW).

    Nothing is copied and nothing runs on the device: the view's strides step through
    ``x``'s own memory (a window step moves ``stride`` pixels, a step inside a window
    ``dilation`` pixels).

    Examples
    --------
    >>> import numpy as np
    >>> from eagerkit.devices import CPU
    >>> from eagerkit.ops.conv import windows
    >>> image = np.arange(16.0).reshape(1, 4, 4, 1)
    >>> view = windows(CPU.xp, image, (2, 2), (2, 2))
    >>> view.shape, view[0, 1, 1, 0].tolist()
    ((1, 2, 2, 1, 2, 2), [[10.0, 11.0], [14.0, 15.0]])
    """
    (kh, kw), (sh, sw), (dh, dw) = window, strides, dilations
    n, height, width, channels = x.shape
    rows = (height - (kh - 1) * dh - 1) // sh + 1  # a dilated window covers (k - 1) * d + 1
    cols = (width - (kw - 1) * dw - 1) // sw + 1
    batch, row, col, channel = x.strides
    shape = (n, rows, cols, channels, kh, kw)
    return xp.as_strided(x, shape, (batch, row * sh, col * sw, channel, row * dh, col * dw))


def _same_pads(shape, window, strides, dilations, padding):
    """Padding of both image axes for an input of NHWC ``shape``."""
    rows = pads(shape[1], (window[0] - 1) * dilations[0] + 1, strides[0], padding)
    cols = pads(shape[2], (window[1] - 1) * dilations[1] + 1, strides[1], padding)
    return rows, cols


def im2col(xp, x, window, strides, dilations):
    """Every window of a padded NHWC ``x`` as one row of a matrix, copied once.

    Returns the (N * OH * OW, KH * KW * C) matrix and (N, OH, OW). The columns run in the
    filter's (height, width, channel) order, so an HWIO filter reshaped to (KH * KW * C, F)
    multiplies it directly.

    Examples
    --------
    >>> import numpy as np
    >>> from eagerkit.devices import CPU
    >>> from eagerkit.ops.conv import im2col
    >>> cols, lead = im2col(CPU.xp, np.arange(9.0).reshape(1, 3, 3, 1), (2, 2), (1, 1), (1, 1))
    >>> cols.shape, lead, cols[0].tolist()
    ((4, 4), (1, 2, 2), [0.0, 1.0, 3.0, 4.0])
    """
    view = windows(xp, x, window, strides, dilations)  # (N, OH, OW, C, KH, KW)
    lead = view.shape[:3]
    return view.transpose(0, 1, 2, 4, 5, 3).reshape(-1, window[0] * window[1] * x.shape[3]), lead


def _correlate(xp, x, w, strides, dilations):
    """Valid cross-correlation of a padded NHWC ``x`` with an HWIO ``w``: im2col + one product."""
    cols, lead = im2col(xp, x, w.shape[:2], strides, dilations)
    return (cols @ w.reshape(-1, w.shape[3])).reshape(lead + (w.shape[3],))


@defop("conv2d", dtypes=FLOATING)
def _conv2d(xp, x, w, *, strides, padding, dilations):
    if x.ndim != 4 or w.ndim != 4 or x.shape[3] != w.shape[2]:
        raise InvalidArgumentError(
            f"conv2d: input must be NHWC (rank 4) and filter [height, width, in_channels, "
            f"out_channels] with in_channels equal to the input's channels; got input "
            f"{tuple(x.shape)} and filter {tuple(w.shape)}. Reshape the input to [batch, "
            "height, width, channels], e.g. ek.reshape(x, [-1, 28, 28, 1]).",
            op="conv2d",
        )
    rows, cols = _same_pads(x.shape, w.shape[:2], strides, dilations, padding)
    if rows[2] < 1 or cols[2] < 1:
        raise InvalidArgumentError(
            f"conv2d: the filter {tuple(w.shape[:2])} (dilation {dilations}) does not fit in "
            f"the {tuple(x.shape[1:3])} image with padding 'VALID'; use padding='SAME' or a "
            "smaller filter",
            op="conv2d",
        )
    return _correlate(xp, padded(xp, x, rows[:2], cols[:2]), w, strides, dilations)


@defop("conv2d_backprop_input", dtypes=FLOATING)
def _conv2d_backprop_input(xp, g, w, *, input_shape, strides, padding, dilations):
    """The gradient of conv2d with respect to its input: a full correlation of the
    stride-spread gradient with the flipped filter (a "transposed convolution")."""
    rows, cols = _same_pads(input_shape, w.shape[:2], strides, dilations, padding)
    n, oh, ow, f = g.shape
    (sh, sw), (kh, kw) = strides, w.shape[:2]
    span_h, span_w = (kh - 1) * dilations[0] + 1, (kw - 1) * dilations[1] + 1
    # Lay g out on a zero canvas, stride-1 zeros between its pixels, placed so that output
    # pixel i of the correlation below lands on input pixel i.
    top, left = span_h - 1 - rows[0], span_w - 1 - cols[0]
    canvas = xp.zeros((n, input_shape[1] + span_h - 1, input_shape[2] + span_w - 1, f), g.dtype)
    canvas[:, top : top + (oh - 1) * sh + 1 : sh, left : left + (ow - 1) * sw + 1 : sw, :] = g
    flipped = xp.swapaxes(w[::-1, ::-1], 2, 3)  # HWOI: out channels become the inputs
    return _correlate(xp, canvas, flipped, (1, 1), dilations)


@defop("conv2d_backprop_filter", dtypes=FLOATING)
def _conv2d_backprop_filter(xp, x, g, *, filter_shape, strides, padding, dilations):
    """The gradient of conv2d with respect to its filter: patches of x times g, summed."""
    rows, cols = _same_pads(x.shape, filter_shape[:2], strides, dilations, padding)
    image = padded(xp, x, rows[:2], cols[:2])
    patches, _ = im2col(xp, image, filter_shape[:2], strides, dilations)
    return (patches.T @ g.reshape(-1, g.shape[3])).reshape(filter_shape)


# The three ops are bilinear and adjoint to one another: <conv2d(x, w), g> equals
# <x, backprop_input(g, w)> and <w, backprop_filter(x, g)>. Each VJP below is one of them.
_conv2d.defvjp(
    lambda ops, g, ans, x, w, **p: ops.conv2d_backprop_input(g, w, input_shape=tuple(x.shape), **p),
    lambda ops, g, ans, x, w, **p: ops.conv2d_backprop_filter(
        x, g, filter_shape=tuple(w.shape), **p
    ),
)
_conv2d_backprop_input.defvjp(
    lambda ops, h, ans, g, w, input_shape, **p: ops.conv2d(h, w, **p),
    lambda ops, h, ans, g, w, input_shape, **p: ops.conv2d_backprop_filter(
        h, g, filter_shape=tuple(w.shape), **p
    ),
)
_conv2d_backprop_filter.defvjp(
    lambda ops, h, ans, x, g, filter_shape, **p: ops.conv2d_backprop_input(
        g, h, input_shape=tuple(x.shape), **p
    ),
    lambda ops, h, ans, x, g, filter_shape, **p: ops.conv2d(x, h, **p),
)


def as_pair(value, what, op):
    """An int or a pair, or TF's 4-entry NHWC form [1, h, w, 1], as a pair of ints.

    Examples
    --------
    >>> from eagerkit.ops.conv import as_pair
    >>> as_pair(3, "strides", "conv2d"), as_pair([1, 2, 2, 1], "strides", "conv2d")
    ((3, 3), (2, 2))
    """
    values = list(arguments.sizes(value, what, op))  # 1.5 is refused, not truncated
    values = values * 2 if len(values) == 1 else values
    if len(values) == 4:
        values = values[1:3]
    if len(values) != 2 or min(values) < 1:
        raise InvalidArgumentError(
            f"{op}: {what} must be a positive int or a pair (height, width), got "
            f"{arguments.describe(value)} {list(values)}",
            op=op,
        )
    return tuple(values)


def one_size(value, what, op):
    """A 1-D window, stride or dilation: an int, or TF's list of 1 or 3 entries ([1, s, 1]).

    Examples
    --------
    >>> from eagerkit.ops.conv import one_size
    >>> one_size(2, "stride", "conv1d"), one_size([1, 3, 1], "stride", "conv1d")
    (2, 3)
    """
    values = list(arguments.sizes(value, what, op))
    if len(values) == 3:
        values = values[1:2]
    if len(values) != 1 or values[0] < 1:
        raise InvalidArgumentError(
            f"{op}: {what} must be a positive int (or [1, {what}, 1]), got "
            f"{arguments.describe(value)} {values}",
            op=op,
        )
    return values[0]


def one_pixel_high(x):
    """A ``[batch, width, channels]`` tensor as images one pixel high, ``[batch, 1, width,
    channels]``; ``from_one_pixel_high`` undoes it. Reshapes with -1 for the batch, not
    expand_dims/squeeze: inside ek.function (reduce_retracing) they follow each call's batch.

    Examples
    --------
    >>> import eagerkit as ek
    >>> from eagerkit.ops.conv import from_one_pixel_high, one_pixel_high
    >>> image = one_pixel_high(ek.ones([2, 5, 3]))
    >>> image.shape, from_one_pixel_high(image).shape
    (TensorShape([2, 1, 5, 3]), TensorShape([2, 5, 3]))
    """
    return reshape(x, [-1, 1, *x.shape[1:]])


def from_one_pixel_high(y):
    """``[batch, 1, width, channels]`` images as ``[batch, width, channels]`` sequences."""
    return reshape(y, [-1, *y.shape[2:]])


def padding_name(padding, op):
    """'same' / 'SAME' -> 'SAME'; anything else but 'valid' is an error.

    Examples
    --------
    >>> from eagerkit.ops.conv import padding_name
    >>> padding_name("same", "conv2d")
    'SAME'
    """
    name = str(padding).upper()
    if name not in ("SAME", "VALID"):
        raise InvalidArgumentError(
            f"{op}: padding must be 'SAME' or 'VALID', got {padding!r}", op=op
        )
    return name


def conv2d(
    input,  # noqa: A002 - TF's argument name
    filters,
    strides=1,
    padding="VALID",
    dilations=1,
    data_format="NHWC",
    name=None,
):
    """2-D cross-correlation of NHWC ``input`` with an HWIO filter (``tf.nn.conv2d``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> x = ek.ones([1, 4, 4, 1])
    >>> ek.nn.conv2d(x, ek.ones([3, 3, 1, 2]), strides=1, padding="SAME")[0, :, :, 0]
    <ek.Tensor: shape=(4, 4), dtype=float32, numpy=
    array([[4., 6., 6., 4.],
           [6., 9., 9., 6.],
           [6., 9., 9., 6.],
           [4., 6., 6., 4.]], dtype=float32)>
    """
    if data_format != "NHWC":
        raise InvalidArgumentError(
            f"conv2d: only data_format='NHWC' is supported, got {data_format!r}; transpose "
            "NCHW input with ek.transpose(x, [0, 2, 3, 1])",
            op="conv2d",
        )
    return _conv2d(
        input,
        filters,
        strides=as_pair(strides, "strides", "conv2d"),
        padding=padding_name(padding, "conv2d"),
        dilations=as_pair(dilations, "dilations", "conv2d"),
    )

"""``conv1d`` and the transposed convolutions, built from conv2d's primitives (conv.py).

- ``conv1d`` is ``conv2d`` on images one pixel high, as TF computes it: the sequence gets
  a height axis of 1, the filter a height of 1.
- ``conv2d_transpose`` is ``conv2d``'s gradient with respect to its input, the primitive
  ``conv2d_backprop_input``: it spreads each input pixel over a filter-sized patch of the
  (larger) output. Its gradients are conv2d and conv2d_backprop_filter (conv.py), so it
  needs no kernel or VJP of its own.
- ``conv1d_transpose`` is ``conv2d_transpose`` one pixel high.

Examples
--------
>>> import eagerkit as ek
>>> x = ek.reshape(ek.constant([1.0, 2.0]), [1, 1, 2, 1])
>>> ek.nn.conv2d_transpose(x, ek.ones([1, 2, 1, 1]), [1, 1, 4, 1], strides=2)[0, 0, :, 0]
<ek.Tensor: shape=(4,), dtype=float32, numpy=array([1., 1., 2., 2.], dtype=float32)>
"""

from eagerkit import arguments
from eagerkit.errors import InvalidArgumentError
from eagerkit.limits import check_tensor
from eagerkit.ops.conv import (
    _conv2d,
    _conv2d_backprop_input,
    as_pair,
    from_one_pixel_high,
    one_pixel_high,
    one_size,
    padding_name,
    pads,
)
from eagerkit.ops.reshaping import expand_dims
from eagerkit.tensor import convert_to_tensor


def _checked_format(data_format, allowed, op, fix):
    if data_format not in allowed:
        raise InvalidArgumentError(
            f"{op}: only data_format={allowed[0]!r} is supported, got {data_format!r}; {fix}",
            op=op,
        )


def _rank(tensor, rank, what, layout, op):
    if tensor.ndim != rank:
        raise InvalidArgumentError(
            f"{op}: {what} must be {layout} (rank {rank}), got shape {tuple(tensor.shape)}",
            op=op,
        )


def conv1d(
    input,  # noqa: A002 - TF's argument names
    filters,
    stride,
    padding,
    data_format="NWC",
    dilations=None,
    name=None,
):
    """1-D cross-correlation of ``[batch, width, channels]`` input with a
    ``[width, in_channels, out_channels]`` filter (``tf.nn.conv1d``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> x = ek.reshape(ek.range(1.0, 6.0), [1, 5, 1])
    >>> ek.nn.conv1d(x, ek.ones([2, 1, 1]), stride=1, padding="VALID")[0, :, 0]
    <ek.Tensor: shape=(4,), dtype=float32, numpy=array([3., 5., 7., 9.], dtype=float32)>
    """
    op = "conv1d"
    _checked_format(
        data_format, ("NWC",), op, "transpose NCW input with ek.transpose(x, [0, 2, 1])"
    )
    x, w = convert_to_tensor(input), convert_to_tensor(filters)
    _rank(x, 3, "input", "[batch, width, channels]", op)
    _rank(w, 3, "filters", "[width, in_channels, out_channels]", op)
    dilation = 1 if dilations is None else one_size(dilations, "dilations", op)
    image = one_pixel_high(x)  # [batch, 1, width, channels]: an image one pixel high
    y = _conv2d(
        image,
        expand_dims(w, 0),
        strides=(1, one_size(stride, "stride", op)),
        padding=padding_name(padding, op),
        dilations=(1, dilation),
    )
    return from_one_pixel_high(y)


def _transpose_checks(x, w, output_shape, strides, padding, dilations, op):
    """The output shape as a tuple, after checking that conv2d of that shape (with these
    strides and padding) gives back the input's shape, as TF requires."""
    shape = arguments.sizes(output_shape, "output_shape", op, minimum=1)
    if len(shape) == 4:  # the result, and the kernel's patch matrix: one row per output pixel
        check_tensor(shape, x.dtype.size, op)
        check_tensor((*shape[:3], w.shape[0] * w.shape[1] * x.shape[3]), x.dtype.size, op)
    if (
        len(shape) != 4
        or w.shape[3] != x.shape[3]
        or w.shape[2] != shape[3]
        or shape[0] != x.shape[0]
    ):
        raise InvalidArgumentError(
            f"{op}: input {tuple(x.shape)} [batch, height, width, in_channels], filters "
            f"{tuple(w.shape)} [height, width, out_channels, in_channels] and output_shape "
            f"{list(shape)} [batch, height, width, out_channels] disagree; the filters' last "
            "axis must be the input's channels, and output_shape must keep the batch and end "
            "with the filters' third axis",
            op=op,
        )
    spans = [(k - 1) * d + 1 for k, d in zip(w.shape[:2], dilations, strict=True)]
    forward = [pads(shape[i + 1], spans[i], strides[i], padding)[2] for i in range(2)]
    if forward != list(x.shape[1:3]):
        wanted = [
            _fitting_sizes(n, s, k, padding)
            for n, s, k in zip(x.shape[1:3], strides, spans, strict=True)
        ]
        raise InvalidArgumentError(
            f"{op}: output_shape {list(shape)} does not fit input {tuple(x.shape)}: conv2d of "
            f"that shape with strides {strides} and padding '{padding}' gives "
            f"{forward[0]}x{forward[1]} pixels, not the input's {x.shape[1]}x{x.shape[2]}; pass "
            f"output heights {wanted[0]} and widths {wanted[1]}",
            op=op,
        )
    return tuple(shape)


def _fitting_sizes(size, stride, span, padding):
    """The output sizes that conv2d maps back to ``size`` (several when stride > 1)."""
    lowest = (size - 1) * stride + (1 if padding == "SAME" else span)
    return f"{lowest}" if stride == 1 else f"{lowest} to {lowest + stride - 1}"


def conv2d_transpose(
    input,  # noqa: A002 - TF's argument names
    filters,
    output_shape,
    strides,
    padding="SAME",
    data_format="NHWC",
    dilations=None,
    name=None,
):
    """The transposed convolution (``tf.nn.conv2d_transpose``): the gradient of ``conv2d``
    with respect to its input, which upsamples by ``strides``.

    ``filters`` is ``[height, width, out_channels, in_channels]`` and ``output_shape`` the
    ``[batch, height, width, out_channels]`` that conv2d (same filters, strides, padding)
    would map back to ``input``'s shape.

    Examples
    --------
    >>> import eagerkit as ek
    >>> y = ek.nn.conv2d_transpose(ek.ones([1, 2, 2, 3]), ek.ones([3, 3, 4, 3]),
    ...                            output_shape=[1, 4, 4, 4], strides=2, padding="SAME")
    >>> y.shape, y[0, :, :, 0].numpy().tolist()[0]
    (TensorShape([1, 4, 4, 4]), [3.0, 3.0, 6.0, 3.0])
    """
    op = "conv2d_transpose"
    _checked_format(
        data_format, ("NHWC",), op, "transpose NCHW input with ek.transpose(x, [0, 2, 3, 1])"
    )
    x, w = convert_to_tensor(input), convert_to_tensor(filters)
    _rank(x, 4, "input", "NHWC [batch, height, width, channels]", op)
    _rank(w, 4, "filters", "[height, width, out_channels, in_channels]", op)
    strides = as_pair(strides, "strides", op)
    dilations = (1, 1) if dilations is None else as_pair(dilations, "dilations", op)
    padding = padding_name(padding, op)
    shape = _transpose_checks(x, w, output_shape, strides, padding, dilations, op)
    params = {"strides": strides, "padding": padding, "dilations": dilations}
    return _conv2d_backprop_input(x, w, input_shape=shape, **params)


def conv1d_transpose(
    input,  # noqa: A002 - TF's argument names
    filters,
    output_shape,
    strides,
    padding="SAME",
    data_format="NWC",
    dilations=None,
    name=None,
):
    """The transposed 1-D convolution (``tf.nn.conv1d_transpose``): ``filters`` is
    ``[width, out_channels, in_channels]``, ``output_shape`` ``[batch, width, out_channels]``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> x = ek.constant([[[1.0], [2.0]]])
    >>> ek.nn.conv1d_transpose(x, ek.ones([3, 1, 1]), [1, 5, 1], 2, "VALID")[0, :, 0]
    <ek.Tensor: shape=(5,), dtype=float32, numpy=array([1., 1., 3., 2., 2.], dtype=float32)>
    """
    op = "conv1d_transpose"
    _checked_format(
        data_format, ("NWC",), op, "transpose NCW input with ek.transpose(x, [0, 2, 1])"
    )
    x, w = convert_to_tensor(input), convert_to_tensor(filters)
    _rank(x, 3, "input", "[batch, width, channels]", op)
    _rank(w, 3, "filters", "[width, out_channels, in_channels]", op)
    shape = arguments.sizes(output_shape, "output_shape", op, minimum=1)
    if len(shape) != 3:
        raise InvalidArgumentError(
            f"{op}: output_shape must be [batch, width, out_channels], got {list(shape)}", op=op
        )
    stride = one_size(strides, "strides", op)
    dilation = 1 if dilations is None else one_size(dilations, "dilations", op)
    padding = padding_name(padding, op)
    image_shape = _transpose_checks(
        one_pixel_high(x),
        expand_dims(w, 0),
        (shape[0], 1, shape[1], shape[2]),
        (1, stride),
        padding,
        (1, dilation),
        op,
    )
    y = _conv2d_backprop_input(
        one_pixel_high(x),
        expand_dims(w, 0),
        input_shape=image_shape,
        strides=(1, stride),
        padding=padding,
        dilations=(1, dilation),
    )
    return from_one_pixel_high(y)

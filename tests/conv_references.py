"""Textbook loops the 1-D and transposed convolutions are tested against
(tests/test_conv_1d_transpose.py, tests/test_conv_layers_more.py)."""

import numpy as np

from eagerkit.ops.conv import pads


def naive_conv1d(x, w, stride, padding, dilation):
    """out[b, t] = sum over taps k of x[b, t * stride + k * dilation - before] @ w[k]."""
    n, steps, _ = x.shape
    taps, _, filters = w.shape
    before, _, out_steps = pads(steps, (taps - 1) * dilation + 1, stride, padding)
    out = np.zeros((n, out_steps, filters))
    for t in range(out_steps):
        for k in range(taps):
            source = t * stride + k * dilation - before
            if 0 <= source < steps:
                out[:, t] += x[:, source] @ w[k]
    return out


def naive_conv2d_transpose(x, w, out_shape, strides, padding, dilations):
    """Each input pixel spreads ``w`` over the output: conv2d read backwards (its adjoint)."""
    n, height, width, _ = x.shape
    kh, kw = w.shape[:2]
    spans = [(k - 1) * d + 1 for k, d in zip((kh, kw), dilations, strict=True)]
    top = pads(out_shape[1], spans[0], strides[0], padding)[0]
    left = pads(out_shape[2], spans[1], strides[1], padding)[0]
    out = np.zeros(out_shape)
    for i in range(height):
        for j in range(width):
            for a in range(kh):
                for c in range(kw):
                    r = i * strides[0] + a * dilations[0] - top
                    q = j * strides[1] + c * dilations[1] - left
                    if 0 <= r < out_shape[1] and 0 <= q < out_shape[2]:
                        out[:, r, q] += x[:, i, j] @ w[a, c].T  # w[a, c]: [out, in]
    return out


def naive_pool1d(x, size, stride, padding, reduce):
    before, _, out_steps = pads(x.shape[1], size, stride, padding)
    starts = [t * stride - before for t in range(out_steps)]
    return np.stack([reduce(x[:, max(s, 0) : s + size], axis=1) for s in starts], axis=1)


def fitting_size(size, stride, span, padding, extra):
    """An output size conv2d maps back to ``size`` (``extra`` < stride picks which)."""
    return (size - 1) * stride + (1 if padding == "SAME" else span) + extra


def bilinear_rows(x, factor):
    """TF2's half-pixel bilinear resize of axis 1 by an integer factor."""
    size = x.shape[1]
    out = []
    for o in range(size * factor):
        source = (o + 0.5) / factor - 0.5
        lower = max(int(np.floor(source)), 0)
        upper = min(int(np.ceil(source)), size - 1)
        weight = source - np.floor(source)
        out.append((1 - weight) * x[:, lower] + weight * x[:, upper])
    return np.stack(out, axis=1)

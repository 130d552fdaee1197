"""Convolution and pooling primitives: values against naive loops, adjoints, gradients, errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.backends.simulated import SimulatedBackend, counting
from eagerkit.devices import CPU
from eagerkit.ops.conv import pads, windows
from eagerkit.registry import REGISTRY
from eagerkit.testing import check_grads

rng = np.random.default_rng(42)


# --- naive references: the textbook loops the vectorized kernels must agree with -------------
def naive_conv2d(x, w, strides, padding, dilations):
    n, height, width, _ = x.shape
    kh, kw, _, filters = w.shape
    (sh, sw), (dh, dw) = strides, dilations
    top, bottom, out_h = pads(height, (kh - 1) * dh + 1, sh, padding)
    left, right, out_w = pads(width, (kw - 1) * dw + 1, sw, padding)
    xp = np.pad(x, ((0, 0), (top, bottom), (left, right), (0, 0)))
    out = np.zeros((n, out_h, out_w, filters))
    for b in range(n):
        for i in range(out_h):
            for j in range(out_w):
                for a in range(kh):
                    for c in range(kw):
                        out[b, i, j] += xp[b, i * sh + a * dh, j * sw + c * dw] @ w[a, c]
    return out


def naive_pool(x, ksize, strides, padding, reduce):
    n, height, width, channels = x.shape
    top, _, out_h = pads(height, ksize[0], strides[0], padding)
    left, _, out_w = pads(width, ksize[1], strides[1], padding)
    out = np.zeros((n, out_h, out_w, channels))
    for i in range(out_h):
        for j in range(out_w):
            rows = slice(max(i * strides[0] - top, 0), i * strides[0] - top + ksize[0])
            cols = slice(max(j * strides[1] - left, 0), j * strides[1] - left + ksize[1])
            out[:, i, j] = reduce(x[:, rows, cols], axis=(1, 2))  # padding is left out
    return out


CONV_CONFIGS = [
    # (image h, w), (kernel h, w), strides, padding, dilations
    ((5, 6), (3, 2), (1, 1), "SAME", (1, 1)),
    ((7, 5), (3, 3), (2, 2), "SAME", (1, 1)),
    ((8, 8), (4, 4), (2, 2), "SAME", (1, 1)),
    ((7, 6), (2, 3), (2, 3), "VALID", (1, 1)),
    ((7, 7), (3, 3), (1, 2), "SAME", (2, 2)),
    ((6, 6), (2, 2), (3, 2), "VALID", (2, 1)),
]


@pytest.mark.parametrize(("image", "kernel", "strides", "padding", "dilations"), CONV_CONFIGS)
def test_conv2d_matches_a_naive_loop(image, kernel, strides, padding, dilations):
    x = rng.standard_normal((2, *image, 3)).astype(np.float32)
    w = rng.standard_normal((*kernel, 3, 4)).astype(np.float32)
    y = ek.nn.conv2d(x, w, strides=strides, padding=padding, dilations=dilations)
    expected = naive_conv2d(x, w, strides, padding, dilations)
    assert y.dtype == ek.float32
    assert y.shape == expected.shape
    np.testing.assert_allclose(y.numpy(), expected, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(("image", "kernel", "strides", "padding", "dilations"), CONV_CONFIGS)
def test_conv_backprop_ops_are_the_adjoints_of_conv2d(image, kernel, strides, padding, dilations):
    # <conv2d(x, w), g> == <x, backprop_input(g, w)> == <w, backprop_filter(x, g)>
    x = rng.standard_normal((2, *image, 3))
    w = rng.standard_normal((*kernel, 3, 4))
    params = {"strides": strides, "padding": padding, "dilations": dilations}
    y = ek.nn.conv2d(x, w, **params).numpy()
    g = rng.standard_normal(y.shape)
    dx = REGISTRY["conv2d_backprop_input"].call(g, w, input_shape=x.shape, **params).numpy()
    dw = REGISTRY["conv2d_backprop_filter"].call(x, g, filter_shape=w.shape, **params).numpy()
    assert dx.shape == x.shape and dw.shape == w.shape
    np.testing.assert_allclose(np.sum(y * g), np.sum(x * dx), rtol=1e-10)
    np.testing.assert_allclose(np.sum(y * g), np.sum(w * dw), rtol=1e-10)


@pytest.mark.parametrize(("image", "kernel", "strides", "padding", "dilations"), CONV_CONFIGS[1::2])
def test_conv2d_gradients_to_second_order(image, kernel, strides, padding, dilations):
    x = rng.standard_normal((1, *image, 2))
    w = rng.standard_normal((*kernel, 2, 2))
    check_grads(lambda x, w: ek.nn.conv2d(x, w, strides, padding, dilations), x, w, order=2)


def test_conv2d_third_order_stays_in_the_conv_family():
    x, w = rng.standard_normal((1, 4, 4, 1)), rng.standard_normal((2, 2, 1, 2))
    f = lambda x, w: ek.nn.conv2d(x, w, 2, "SAME") ** 2  # noqa: E731
    check_grads(f, x, w, order=3)


def test_conv2d_single_pixel_filter_is_a_matmul_over_channels():
    x = rng.standard_normal((2, 3, 3, 4)).astype(np.float32)
    w = rng.standard_normal((1, 1, 4, 5)).astype(np.float32)
    y = ek.nn.conv2d(x, w, 1, "VALID")
    np.testing.assert_allclose(y.numpy(), x @ w[0, 0], rtol=1e-5)


POOL_CONFIGS = [
    ((2, 2), (2, 2), "VALID"),
    ((2, 2), (2, 2), "SAME"),  # 5x5 image: the last window hangs over the edge
    ((3, 3), (1, 1), "SAME"),  # overlapping windows
    ((3, 2), (2, 1), "VALID"),
]


@pytest.mark.parametrize(("ksize", "strides", "padding"), POOL_CONFIGS)
def test_pooling_matches_a_naive_loop(ksize, strides, padding):
    x = rng.standard_normal((2, 5, 5, 3)).astype(np.float32)
    got_max = ek.nn.max_pool(x, ksize, strides, padding).numpy()
    got_avg = ek.nn.avg_pool(x, ksize, strides, padding).numpy()
    np.testing.assert_allclose(got_max, naive_pool(x, ksize, strides, padding, np.max))
    np.testing.assert_allclose(got_avg, naive_pool(x, ksize, strides, padding, np.mean), rtol=1e-6)


def test_same_average_pool_divides_by_the_real_pixels_only():
    y = ek.nn.avg_pool(ek.ones([1, 3, 3, 1]), 2, 2, "SAME")
    assert y.numpy().ravel().tolist() == [1.0, 1.0, 1.0, 1.0]  # padding does not dilute


@pytest.mark.parametrize(("ksize", "strides", "padding"), POOL_CONFIGS)
def test_pooling_gradients_to_second_order(ksize, strides, padding):
    x = rng.permutation(2 * 5 * 5 * 2).reshape(2, 5, 5, 2) / 10.0  # no ties
    check_grads(lambda x: ek.nn.max_pool(x, ksize, strides, padding), x, order=2)
    check_grads(lambda x: ek.nn.avg_pool(x, ksize, strides, padding), x, order=2)


def test_max_pool_routes_the_gradient_to_the_first_maximum_on_ties():
    x = ek.ones([1, 2, 2, 1])
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = ek.nn.max_pool(x, 2, 2, "VALID")
    assert tape.gradient(y, x).numpy().ravel().tolist() == [1.0, 0.0, 0.0, 0.0]


def test_overlapping_max_windows_add_their_gradients():
    x = ek.constant([[0.0, 1.0, 0.0], [0.0, 5.0, 0.0], [0.0, 0.0, 0.0]])[None, :, :, None]
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = ek.nn.max_pool(x, 2, 1, "VALID")  # all four windows pick the 5
    assert tape.gradient(y, x).numpy()[0, :, :, 0].tolist() == [
        [0.0, 0.0, 0.0],
        [0.0, 4.0, 0.0],
        [0.0, 0.0, 0.0],
    ]


def test_max_pool_grad_and_gather_are_adjoint_in_the_gradient():
    x = rng.permutation(36).reshape(1, 6, 6, 1).astype(np.float64)
    params = {"ksize": (3, 3), "strides": (2, 2), "padding": "SAME"}
    g = rng.standard_normal((1, 3, 3, 1))
    h = rng.standard_normal(x.shape)
    routed = REGISTRY["max_pool_grad"].call(x, g, **params).numpy()
    gathered = REGISTRY["max_pool_gather"].call(x, h, **params).numpy()
    np.testing.assert_allclose(np.sum(routed * h), np.sum(g * gathered), rtol=1e-12)


# --- errors ----------------------------------------------------------------------------------
def test_conv2d_rejects_a_rank_3_input_with_the_fix():
    with pytest.raises(ek.errors.InvalidArgumentError) as info:
        ek.nn.conv2d(ek.zeros([28, 28, 1]), ek.zeros([3, 3, 1, 4]), 1, "SAME")
    message = str(info.value)
    assert "conv2d" in message and "(28, 28, 1)" in message and "(3, 3, 1, 4)" in message
    assert "ek.reshape(x, [-1, 28, 28, 1])" in message


def test_conv2d_rejects_mismatched_channels():
    with pytest.raises(ek.errors.InvalidArgumentError, match=r"in_channels.*\(1, 8, 8, 3\)"):
        ek.nn.conv2d(ek.zeros([1, 8, 8, 3]), ek.zeros([3, 3, 1, 4]), 1, "SAME")


def test_valid_filter_larger_than_the_image_is_an_error():
    with pytest.raises(ek.errors.InvalidArgumentError, match="does not fit.*padding='SAME'"):
        ek.nn.conv2d(ek.zeros([1, 2, 2, 1]), ek.zeros([3, 3, 1, 1]), 1, "VALID")
    with pytest.raises(ek.errors.InvalidArgumentError, match="max_pool: the window"):
        ek.nn.max_pool(ek.zeros([1, 2, 2, 1]), 3, 1, "VALID")


def test_bad_padding_strides_and_format_are_errors():
    x, w = ek.zeros([1, 4, 4, 1]), ek.zeros([2, 2, 1, 1])
    with pytest.raises(ek.errors.InvalidArgumentError, match="'SAME' or 'VALID', got 'full'"):
        ek.nn.conv2d(x, w, 1, "full")
    with pytest.raises(ek.errors.InvalidArgumentError, match="strides must be a positive"):
        ek.nn.conv2d(x, w, 0, "SAME")
    with pytest.raises(ek.errors.InvalidArgumentError, match=r"ek.transpose\(x, \[0, 2, 3, 1\]\)"):
        ek.nn.avg_pool(x, 2, 2, "SAME", data_format="NCHW")
    with pytest.raises(ek.errors.InvalidArgumentError, match="max_pool: input must be NHWC"):
        ek.nn.max_pool(ek.zeros([4, 4, 1]), 2, 2, "SAME")


def test_integer_images_are_refused_with_a_cast_hint():
    with pytest.raises(ek.errors.InvalidArgumentError, match="conv2d: no kernel for dtype int32"):
        ek.nn.conv2d(ek.zeros([1, 4, 4, 1], ek.int32), ek.zeros([2, 2, 1, 1], ek.int32), 1, "SAME")


# --- the windows view: strides set by hand, against numpy's sliding windows -------------------
@settings(max_examples=60, deadline=None)
@given(
    shape=st.tuples(*[st.integers(1, 4)] * 4).map(lambda s: (s[0], s[1] + 3, s[2] + 3, s[3])),
    window=st.tuples(st.integers(1, 2), st.integers(1, 2)),
    strides=st.tuples(st.integers(1, 3), st.integers(1, 3)),
    dilations=st.tuples(st.integers(1, 2), st.integers(1, 2)),
    transposed=st.booleans(),
)
def test_windows_are_numpys_sliding_windows_on_every_device(
    shape, window, strides, dilations, transposed
):
    x = rng.standard_normal(shape)
    if transposed:  # a non-contiguous input: the view must follow its strides
        x = np.ascontiguousarray(x.transpose(0, 2, 1, 3)).transpose(0, 2, 1, 3)
    (kh, kw), (sh, sw), (dh, dw) = window, strides, dilations
    spans = ((kh - 1) * dh + 1, (kw - 1) * dw + 1)
    plain = np.lib.stride_tricks.sliding_window_view(x, spans, axis=(1, 2))
    plain = plain[:, ::sh, ::sw, :, ::dh, ::dw]  # the reference: numpy's windows, then steps
    np.testing.assert_array_equal(windows(CPU.xp, x, window, strides, dilations), plain)
    sim = SimulatedBackend()
    on_device = sim.asarray(x)
    with counting() as counts:  # a view made on the host: nothing runs on the device
        view = windows(sim.xp, on_device, window, strides, dilations)
    assert (counts.kernels, counts.copies_to_device, counts.host_reads) == (0, 0, 0)
    np.testing.assert_array_equal(sim.to_host(view), plain)

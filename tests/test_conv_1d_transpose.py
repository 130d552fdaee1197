"""conv1d, conv2d_transpose, conv1d_transpose and the 1-D pools: values against textbook
loops (tests/conv_references.py; hypothesis over shapes, strides, paddings and
dilations), conv2d's adjoint, gradients by finite differences (to second order), errors
that name the call, the shapes and the fix; PyTorch too where installed."""

import numpy as np
import pytest
from conv_references import fitting_size, naive_conv1d, naive_conv2d_transpose, naive_pool1d
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError
from eagerkit.testing import check_grads

rng = np.random.default_rng(7)
PADDINGS = st.sampled_from(["SAME", "VALID"])


# --- ops ----------------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(
    steps=st.integers(1, 9),
    taps=st.integers(1, 4),
    stride=st.integers(1, 3),
    dilation=st.integers(1, 2),
    padding=PADDINGS,
    channels=st.integers(1, 3),
)
def test_conv1d_matches_a_loop(steps, taps, stride, dilation, padding, channels):
    x = rng.standard_normal((2, steps, channels))
    w = rng.standard_normal((taps, channels, 2))
    if padding == "VALID" and (taps - 1) * dilation + 1 > steps:
        with pytest.raises(InvalidArgumentError, match="does not fit .* use padding='SAME'"):
            ek.nn.conv1d(x, w, stride, padding, dilations=dilation)
        return
    y = ek.nn.conv1d(x, w, stride=stride, padding=padding, dilations=dilation)
    expected = naive_conv1d(x, w, stride, padding, dilation)
    assert y.shape == expected.shape
    np.testing.assert_allclose(y.numpy(), expected, rtol=1e-10, atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(
    image=st.tuples(st.integers(1, 4), st.integers(1, 4)),
    kernel=st.tuples(st.integers(1, 3), st.integers(1, 3)),
    strides=st.tuples(st.integers(1, 3), st.integers(1, 3)),
    dilations=st.sampled_from([(1, 1), (2, 1), (1, 2)]),
    padding=PADDINGS,
    data=st.data(),
)
def test_conv2d_transpose_matches_a_loop(image, kernel, strides, dilations, padding, data):
    spans = [(k - 1) * d + 1 for k, d in zip(kernel, dilations, strict=True)]
    extras = [data.draw(st.integers(0, s - 1)) for s in strides]
    out_h, out_w = (
        fitting_size(n, s, span, padding, extra)
        for n, s, span, extra in zip(image, strides, spans, extras, strict=True)
    )
    x = rng.standard_normal((2, *image, 3))
    w = rng.standard_normal((*kernel, 2, 3))  # [h, w, out, in]
    shape = (2, out_h, out_w, 2)
    y = ek.nn.conv2d_transpose(x, w, shape, strides, padding, dilations=dilations)
    assert tuple(y.shape) == shape
    expected = naive_conv2d_transpose(x, w, shape, strides, padding, dilations)
    np.testing.assert_allclose(y.numpy(), expected, rtol=1e-10, atol=1e-12)
    # it is conv2d's adjoint: <conv2d(z, w), x> == <z, conv2d_transpose(x, w)>
    z = rng.standard_normal(shape)
    forward = ek.nn.conv2d(z, w.transpose(0, 1, 3, 2).swapaxes(2, 3), strides, padding, dilations)
    assert forward.shape == x.shape
    np.testing.assert_allclose(np.sum(forward.numpy() * x), np.sum(z * y.numpy()), rtol=1e-9)


@settings(max_examples=25, deadline=None)
@given(
    steps=st.integers(1, 5),
    taps=st.integers(1, 3),
    stride=st.integers(1, 3),
    padding=PADDINGS,
    data=st.data(),
)
def test_conv1d_transpose_is_conv2d_transpose_one_pixel_high(steps, taps, stride, padding, data):
    width = fitting_size(steps, stride, taps, padding, data.draw(st.integers(0, stride - 1)))
    x = rng.standard_normal((1, steps, 2))
    w = rng.standard_normal((taps, 3, 2))
    y = ek.nn.conv1d_transpose(x, w, [1, width, 3], stride, padding)
    expected = naive_conv2d_transpose(
        x[:, None], w[None], (1, 1, width, 3), (1, stride), padding, (1, 1)
    )
    np.testing.assert_allclose(y.numpy(), expected[:, 0], rtol=1e-10, atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(
    steps=st.integers(1, 8),
    size=st.integers(1, 3),
    stride=st.integers(1, 3),
    padding=PADDINGS,
    reduce=st.sampled_from(["max", "mean"]),
)
def test_pool1d_matches_a_loop(steps, size, stride, padding, reduce):
    x = rng.standard_normal((2, steps, 3))
    pool = ek.nn.max_pool1d if reduce == "max" else ek.nn.avg_pool1d
    if padding == "VALID" and size > steps:
        with pytest.raises(InvalidArgumentError, match="does not fit"):
            pool(x, size, stride, padding)
        return
    expected = naive_pool1d(x, size, stride, padding, getattr(np, reduce))
    np.testing.assert_allclose(pool(x, size, stride, padding).numpy(), expected, rtol=1e-12)


@pytest.mark.parametrize(
    "f, shapes",
    [
        (lambda x, w: ek.nn.conv1d(x, w, 2, "SAME"), [(1, 5, 2), (3, 2, 2)]),
        (lambda x, w: ek.nn.conv1d(x, w, 1, "VALID", dilations=2), [(2, 6, 1), (2, 1, 2)]),
        (
            lambda x, w: ek.nn.conv2d_transpose(x, w, [1, 5, 4, 2], (2, 2), "VALID"),
            [(1, 2, 2, 3), (3, 2, 2, 3)],
        ),
        (
            lambda x, w: ek.nn.conv2d_transpose(x, w, [1, 4, 3, 1], (2, 1), "SAME") ** 2,
            [(1, 2, 3, 2), (2, 2, 1, 2)],
        ),
        (lambda x, w: ek.nn.conv1d_transpose(x, w, [1, 6, 2], 2), [(1, 3, 1), (2, 2, 1)]),
    ],
)
def test_gradients_to_second_order(f, shapes):
    x, w = (rng.standard_normal(shape) for shape in shapes)
    check_grads(f, x, w, order=2)


@pytest.mark.parametrize("pool", [ek.nn.max_pool1d, ek.nn.avg_pool1d])
def test_pool1d_gradients_to_second_order(pool):
    x = rng.permutation(24).reshape(2, 6, 2) + rng.uniform(0, 0.1, (2, 6, 2))  # no ties
    check_grads(lambda x: pool(x, 3, 2, "SAME") ** 2, x, order=2)


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: ek.nn.conv1d(np.ones((5, 2)), np.ones((2, 2, 1)), 1, "SAME"), r"rank 3.*\(5, 2\)"),
        (
            lambda: ek.nn.conv1d(np.ones((1, 5, 2)), np.ones((2, 3, 1)), 1, "SAME"),
            r"\(1, 1, 5, 2\)",
        ),
        (lambda: ek.nn.conv1d(np.ones((1, 5, 2)), np.ones((2, 2, 1)), 0, "SAME"), "stride"),
        (lambda: ek.nn.conv1d(np.ones((1, 5, 2)), np.ones((2, 2, 1)), 1, "FULL"), "'SAME' or"),
        (lambda: ek.nn.conv1d(np.ones((1, 5, 2)), np.ones((2, 2, 1)), 1, "SAME", "NCW"), "NWC"),
        (
            lambda: ek.nn.conv2d_transpose(
                np.ones((1, 2, 2, 3)), np.ones((3, 3, 4, 3)), [1, 5, 4, 4], 2
            ),
            r"output_shape \[1, 5, 4, 4\] does not fit .*pass output heights 3 to 4",
        ),
        (
            lambda: ek.nn.conv2d_transpose(
                np.ones((1, 2, 2, 3)), np.ones((3, 3, 4, 2)), [1, 4, 4, 4], 2
            ),
            r"filters \(3, 3, 4, 2\) .*last axis must be the input's channels",
        ),
        (
            lambda: ek.nn.conv2d_transpose(
                np.ones((1, 2, 2, 3)), np.ones((3, 3, 4, 3)), [1, 4, 4], 2
            ),
            r"output_shape \[1, 4, 4\]",
        ),
        (
            lambda: ek.nn.conv1d_transpose(np.ones((1, 2, 1)), np.ones((3, 1, 1)), [1, 5], 2),
            r"output_shape must be \[batch, width, out_channels\], got \[1, 5\]",
        ),
        (lambda: ek.nn.max_pool1d(np.ones((4, 2)), 2, 2, "SAME"), r"rank 3.*x\[None\]"),
    ],
)
def test_bad_arguments_name_the_call_the_shapes_and_the_fix(call, words):
    with pytest.raises(InvalidArgumentError, match=words):
        call()


# --- PyTorch, where installed -------------------------------------------------------------
def test_against_pytorch_when_installed():
    torch = pytest.importorskip("torch")
    functional = torch.nn.functional
    x = rng.standard_normal((2, 9, 3))
    w = rng.standard_normal((3, 3, 4))  # [taps, in, out]
    theirs = functional.conv1d(
        torch.tensor(x).permute(0, 2, 1), torch.tensor(w).permute(2, 1, 0), stride=2, dilation=1
    ).permute(0, 2, 1)
    ours = ek.nn.conv1d(x, w, 2, "VALID")
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-10, atol=1e-12)
    images = rng.standard_normal((2, 3, 4, 3))
    filters = rng.standard_normal((3, 2, 5, 3))  # [h, w, out, in]
    theirs = functional.conv_transpose2d(
        torch.tensor(images).permute(0, 3, 1, 2),
        torch.tensor(filters).permute(3, 2, 0, 1),  # [in, out, h, w]
        stride=2,
        output_padding=1,
    ).permute(0, 2, 3, 1)
    ours = ek.nn.conv2d_transpose(images, filters, list(theirs.shape), 2, "VALID")
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-10, atol=1e-12)

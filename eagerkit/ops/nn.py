"""Neural-network functions (``ek.nn``): activations and numerically stable losses.

Only ``relu``, ``softplus`` and ``bias_add`` are primitives (with ``relu_grad`` and
``bias_add_grad``, the ops their gradients are); the rest are compositions of other ops, so
their gradients come for free. Stability comes from how they are composed
(subtract the max before exp, never exponentiate a large positive number).
"""

import numpy as np

from eagerkit.arguments import axis_index
from eagerkit.backends import host_pool
from eagerkit.backends.fusion import elementwise
from eagerkit.backends.shared_vectors import shared_vector, zeros_like_host
from eagerkit.dtypes import FLOATING
from eagerkit.errors import InvalidArgumentError
from eagerkit.ops import math, reduce, shape
from eagerkit.ops.arithmetic import maximum, minimum
from eagerkit.ops.compare import where
from eagerkit.ops.conv import conv2d  # noqa: F401 - ek.nn.conv2d
from eagerkit.ops.creation import zeros_like
from eagerkit.ops.cross_entropy import sparse_softmax_cross_entropy_with_logits  # noqa: F401
from eagerkit.ops.exp_log import erf
from eagerkit.ops.pool import avg_pool, max_pool  # noqa: F401 - ek.nn.max_pool, ek.nn.avg_pool
from eagerkit.registry import defop
from eagerkit.tensor import convert_to_tensor

sigmoid = math.sigmoid
tanh = math.tanh


@defop("relu", dtypes=FLOATING)
def relu(xp, x):
    """max(x, 0); the gradient passes where x > 0.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.nn.relu([-1.0, 2.0])
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([0., 2.], dtype=float32)>
    """
    if type(x) is np.ndarray:  # numpy: the same maximum against zeros, faster (reference_relu)
        return xp.maximum(x, zeros_like_host(x), out=host_pool.like(x))
    return xp.maximum(x, 0)


def reference_relu(xp, x):
    """``max(x, 0)`` as written, against the number 0: the plain reference of ``relu``'s
    numpy path, which takes maximum against a shared array of zeros instead: numpy's
    maximum has a vectorised loop for two contiguous arrays, not for an array beside a
    number, so it runs 1.5-3 times faster (tests/test_relu.py proves the bits equal)."""
    return xp.maximum(x, 0)


def _relu_grad_on_host(xp, g, ans):
    if g.shape != ans.shape:  # g broadcasts over ans: the product is a bigger array
        return (ans > 0).astype(g.dtype) * g
    if g is host_pool.lent:  # nobody else can read g: the product goes into it (host_pool)
        return xp.multiply(g, xp.greater(ans, 0), out=g)  # a bool mask: a quarter the bytes
    keep = host_pool.empty(g.shape, g.dtype)  # written whole: 1 where ans > 0, else 0
    xp.greater(ans, 0, out=keep)
    keep *= g  # multiplied in place, no second array
    return keep


# TF's ReluGrad: g * (ans > 0), a product, so an infinite or nan g where x <= 0 gives nan
# (0 * inf), as in TF, and no choice hides it (lesson 13: an infinity on the backward pass
# is a bug to find). Written as a choice between g and g * 0, the same bits, so that it
# also runs on Tensors (no bool times float). ans > 0 exactly where x > 0; like TF, read the
# answer: the backward pass has just used it (the next matmul's VJP), so it is still in the
# cache, where x is not. On a GPU the comparison and the product are one kernel.
_RELU_GRAD_CUDA = ("T g, T ans", "T keep", "keep = ans > (T)0.0f ? g : g * (T)0.0f")


@elementwise("relu_grad", host=_relu_grad_on_host, cuda=_RELU_GRAD_CUDA)
def _relu_grad_kernel(xp, g, ans):
    return xp.where(ans > 0, g, g * 0)


@defop("relu_grad", dtypes=FLOATING)
def _relu_grad(xp, gradients, features):
    """relu's gradient as one op, TF's ``ReluGrad``: ``gradients`` where ``features`` > 0.

    One op, not the kernel's three steps, wherever the backward pass is recorded (a tape
    around ``tape.gradient``, ``ek.function``'s graph): one record, one graph node, which
    runs the kernel above (on numpy its ``host`` version, on a GPU one fused launch).
    """
    return xp.kernels.relu_grad(gradients, features)


# TF's ReluGradGrad: the gradient passes where the features are positive, and the features
# get zeros, not None (the comparison has slope 0): relu's second derivative is 0, as in TF.
_relu_grad.defvjp(
    lambda ops, g, ans, gradients, features: ops.relu_grad(g, features),
    lambda ops, g, ans, gradients, features: (
        zeros_like(features) if ops.on_tensors else ops.xp.zeros_like(features)
    ),
)
relu.defvjp(lambda ops, g, ans, x: ops.relu_grad(g, ans))


@defop("softplus", dtypes=FLOATING)
def softplus(xp, x):
    """log(1 + e**x) without overflow; its derivative is sigmoid(x)."""
    return xp.logaddexp(0, x).astype(x.dtype)


softplus.defvjp(lambda ops, g, ans, x: g * ops.sigmoid(x))


@defop("bias_add", dtypes=FLOATING)
def _bias_add(xp, value, bias):
    if bias.ndim != 1 or value.ndim < 2 or value.shape[-1] != bias.shape[0]:
        raise InvalidArgumentError(
            f"bias_add: bias must be a vector with one entry per channel (the last axis of "
            f"value, which must be at least 2-D), got value {tuple(value.shape)} and bias "
            f"{tuple(bias.shape)}",
            op="bias_add",
        )
    out = host_pool.elementwise_output(value, bias)  # a big host result: into a reused array
    return value + bias if out is None else xp.add(value, bias, out=out)


@defop("bias_add_grad", dtypes=FLOATING)
def _bias_add_grad(xp, g):
    # g summed over every axis but the last, as a product with a vector of ones: BLAS sums
    # the columns of a (batch, channels) gradient several times faster than a reduction.
    rows = g.reshape(-1, g.shape[-1])
    if type(rows) is np.ndarray:  # numpy: the shared ones (np.ones costs more than a small sum)
        return shared_vector(1, rows.shape[0], rows.dtype) @ rows
    return xp.ones(rows.shape[0], dtype=rows.dtype) @ rows


# The value's gradient is g itself (same shape); the bias's is g summed down to a vector.
_bias_add.defvjp(
    lambda ops, g, ans, value, bias: g,
    lambda ops, g, ans, value, bias: ops.bias_add_grad(g),
)
# Each bias entry was added to every row, so its gradient spreads back over all of them.
_bias_add_grad.defvjp(lambda ops, g, ans, x: ops.broadcast_to(g, shape=tuple(x.shape)))


def bias_add(value, bias, data_format=None, name=None):
    """``value + bias`` with one bias per channel (the last axis), as Dense and Conv2D add it.

    One op, as in TF (``BiasAdd``); its bias gradient sums ``g`` over every other axis.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.nn.bias_add([[1.0, 2.0], [3.0, 4.0]], [10.0, 20.0])
    <ek.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[11., 22.],
           [13., 24.]], dtype=float32)>
    """
    if data_format not in (None, "NHWC", "N...C"):
        raise InvalidArgumentError(
            f"bias_add: only channels-last data (data_format='NHWC') is supported, got "
            f"{data_format!r}; transpose NCHW input with ek.transpose(x, [0, 2, 3, 1])",
            op="bias_add",
        )
    return _bias_add(value, bias)


def leaky_relu(features, alpha=0.2, name=None):
    """x where x > 0, else alpha * x."""
    x = convert_to_tensor(features)
    return where(x > 0, x, x * alpha)


def relu6(features, name=None):
    """min(max(x, 0), 6) (``tf.nn.relu6``); as TF's, its gradient is 1 only strictly between
    0 and 6 (0 at both corners, where min and max would pass it on).

    >>> import eagerkit as ek
    >>> x = ek.constant([-1.0, 0.0, 3.0, 6.0, 7.0])
    >>> with ek.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = ek.nn.relu6(x)
    >>> y.numpy().tolist(), tape.gradient(y, x).numpy().tolist()
    ([0.0, 0.0, 3.0, 6.0, 6.0], [0.0, 0.0, 1.0, 0.0, 0.0])
    """
    x = convert_to_tensor(features)
    capped = where(x < 6.0, x, 6.0)
    return where(x > 0, capped, where(x <= 0, 0.0, x))  # at or below 0: 0; nan stays nan


def silu(features, beta=1.0, name=None):
    """x * sigmoid(beta * x) (``tf.nn.silu``, also called swish)."""
    x = convert_to_tensor(features)
    return x * math.sigmoid(x * beta)


def l2_normalize(x, axis=None, epsilon=1e-12, name=None):
    """x / sqrt(max(sum(x²) over axis, epsilon)) (``tf.math.l2_normalize``): unit length.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.nn.l2_normalize([3.0, 4.0])
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([0.6, 0.8], dtype=float32)>
    """
    x = convert_to_tensor(x)
    squares = reduce.reduce_sum(x * x, axis=axis, keepdims=True)
    return x * math.rsqrt(maximum(squares, epsilon))


def elu(features, name=None):
    """x where x > 0, else e**x - 1."""
    x = convert_to_tensor(features)
    negative_part = math.exp(minimum(x, 0.0)) - 1  # exp of min(x, 0) never overflows
    return where(x > 0, x, negative_part)


def gelu(features, approximate=False, name=None):
    """Gaussian error linear unit x * Phi(x): exact (with erf) by default, as in TF.

    ``approximate=True`` uses the tanh approximation (GPT-2's, and TF's option).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.nn.gelu(1.0)
    <ek.Tensor: shape=(), dtype=float32, numpy=0.8413447>
    >>> ek.nn.gelu(1.0, approximate=True)
    <ek.Tensor: shape=(), dtype=float32, numpy=0.841192>
    """
    x = convert_to_tensor(features)
    if not approximate:  # Phi(x) = (1 + erf(x / sqrt 2)) / 2
        return 0.5 * x * (1 + erf(x * 0.7071067811865476))
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)  # sqrt(2/pi) * (x + 0.044715 x^3)
    return 0.5 * x * (1 + math.tanh(inner))


def log_softmax(logits, axis=None, name=None):
    """log(softmax(logits)) computed as logits - logsumexp(logits): no overflow, no log(0).

    ``axis=None`` means the last axis, as in TF.
    """
    x = convert_to_tensor(logits)
    axis = -1 if axis is None else axis
    return x - reduce.reduce_logsumexp(x, axis=axis, keepdims=True)


def softmax(logits, axis=None, name=None):
    """exp(x) / sum(exp(x)) along ``axis``, shifted by the max so exp never overflows.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.nn.softmax([1000.0, 1000.0])
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([0.5, 0.5], dtype=float32)>
    """
    x = convert_to_tensor(logits)
    axis = -1 if axis is None else axis  # TF: None means the last axis, not all of them
    shifted = x - shape.stop_gradient(reduce.reduce_max(x, axis=axis, keepdims=True))
    e = math.exp(shifted)
    return e / reduce.reduce_sum(e, axis=axis, keepdims=True)


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """Per-element binary cross-entropy from logits, stable for large |logits|.

    Uses max(x, 0) - x z + log(1 + e**-|x|), the form TF uses.
    """
    x = convert_to_tensor(logits)
    z = convert_to_tensor(labels, dtype=x.dtype)
    return maximum(x, 0.0) - x * z + math.log1p(math.exp(-math.abs(x)))


def softmax_cross_entropy_with_logits(labels=None, logits=None, axis=-1, name=None):
    """Cross-entropy between a label distribution and softmax(logits), per example.

    ``axis`` is the class axis, the last by default; ``None`` means the last too (TF's
    helper sets ``axis = -1`` for None), never all of them.

    Examples
    --------
    >>> import eagerkit as ek
    >>> loss = ek.nn.softmax_cross_entropy_with_logits(
    ...     labels=[[0.0, 1.0], [1.0, 0.0]], logits=[[0.0, 0.0], [5.0, 5.0]], axis=None)
    >>> loss.numpy().round(4)  # one loss per example
    array([0.6931, 0.6931], dtype=float32)
    """
    op = "softmax_cross_entropy_with_logits"
    x = convert_to_tensor(logits)
    z = convert_to_tensor(labels, dtype=x.dtype)
    axis = axis_index(-1 if axis is None else axis, x.ndim, op)
    return -reduce.reduce_sum(z * log_softmax(x, axis=axis), axis=axis)


def l2_loss(t, name=None):
    """sum(t ** 2) / 2, of a float tensor (TF's L2Loss has no integer kernel: the squares of
    int32 values overflow silently).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.nn.l2_loss([3.0, 4.0])
    <ek.Tensor: shape=(), dtype=float32, numpy=12.5>
    """
    x = convert_to_tensor(t)
    if not x.dtype.is_floating:
        raise InvalidArgumentError(
            f"l2_loss: t is {x.dtype.name} (shape {x.shape}); L2Loss takes float16, float32 or "
            f"float64 only (the squares of integers overflow). Cast it first: "
            f"ek.nn.l2_loss(ek.cast(t, ek.float32))",
            op="l2_loss",
        )
    return reduce.reduce_sum(x * x) / 2

"""One gradient-check case per differentiable op: a function and float inputs from its domain.

``cases()`` returns ``[(name, fn, args), ...]``. ``fn`` takes only the float ``args`` (int
arguments such as gather indices are closed over), and the inputs avoid each op's kinks and
ties (|x| away from 0, max without ties, log of positives), so central differences are exact
enough to compare with reverse mode. tests/test_ops_grad.py runs ``check_grads`` on each to
second order and fails when a registered differentiable primitive is reached by no case;
tests for other devices import this table to run the same cases there.

A case name starts with the primitive it is for (``"add"``, ``"add/broadcast"``) or, for a
composite, with its public name (``"nn.softmax"``).
"""

import numpy as np
import op_cases_more
import op_cases_prims

import eagerkit as ek
from eagerkit.registry import REGISTRY

# Primitives that have no public function of their own (VJP helpers): call them by name.
_unslice = REGISTRY["unslice"].call
_scatter_add = REGISTRY["scatter_add"].call
_conv_input = REGISTRY["conv2d_backprop_input"].call
_conv_filter = REGISTRY["conv2d_backprop_filter"].call
_max_pool_grad = REGISTRY["max_pool_grad"].call
_max_pool_gather = REGISTRY["max_pool_gather"].call
_avg_pool_grad = REGISTRY["avg_pool_grad"].call
_bias_add_grad = REGISTRY["bias_add_grad"].call
_relu_grad = REGISTRY["relu_grad"].call
_cross_entropy_grad = REGISTRY["sparse_softmax_cross_entropy_grad"].call
# The (fixed, tie-free) image whose window maxima max_pool_grad / max_pool_gather route by.
_pool_input = np.random.default_rng(1).permutation(9).reshape(1, 3, 3, 1).astype(np.float64)


def _inputs(seed=0):
    """Input makers drawing from one fixed generator (no global random state is touched)."""
    rng = np.random.default_rng(seed)

    def normal(*shape):
        return rng.standard_normal(shape)

    def positive(*shape, low=0.5, high=2.0):
        return rng.uniform(low, high, shape)

    def away_from_zero(*shape):
        """Values with |x| in [0.5, 2]: no kink of abs/relu/sign is near."""
        return positive(*shape) * rng.choice([-1.0, 1.0], shape)

    def distinct(*shape):
        """A shuffled, evenly spaced grid: no two values within 0.3 of each other (no ties)."""
        size = int(np.prod(shape))
        return rng.permutation(np.linspace(-2.0, 2.0, size) if size > 1 else np.ones(1)).reshape(
            shape
        )

    return normal, positive, away_from_zero, distinct


def _elementwise_cases(normal, positive, away_from_zero, distinct):
    return [
        ("add", ek.add, (normal(3), normal(3))),
        ("add/broadcast", ek.add, (normal(2, 3), normal(3))),
        ("subtract", ek.subtract, (normal(2, 1), normal(1, 3))),
        ("multiply", ek.multiply, (normal(2, 3), normal(2, 3))),
        ("multiply/broadcast", ek.multiply, (normal(4, 1, 2), normal(3, 1))),
        ("truediv", ek.truediv, (normal(2, 3), away_from_zero(3))),
        # x / y stays between integers (no jump of floor): x in (1.1, 1.9) * y, y > 0.
        ("mod", lambda x, y: ek.mod(x * y, y), (positive(4, low=1.1, high=1.9), positive(4))),
        ("pow", ek.pow, (positive(2, 3), normal(2, 3))),
        ("pow/scalar_exponent", lambda x: x**3.0, (normal(4),)),
        ("maximum", ek.maximum, (distinct(2, 3), distinct(2, 3) + 0.1)),
        ("minimum", ek.minimum, (distinct(2, 3), distinct(3) + 0.1)),
        ("squared_difference", ek.squared_difference, (normal(3), normal(2, 3))),
        ("negative", ek.negative, (normal(3),)),
        ("abs", ek.abs, (away_from_zero(2, 3),)),
        ("square", ek.square, (normal(3),)),
        ("sqrt", ek.sqrt, (positive(3),)),
        ("rsqrt", ek.rsqrt, (positive(3),)),
        ("exp", ek.exp, (normal(3),)),
        ("log", ek.log, (positive(3),)),
        ("log1p", ek.log1p, (positive(3, low=-0.5, high=2.0),)),
        ("sin", ek.sin, (normal(3),)),
        ("cos", ek.cos, (normal(3),)),
        ("tan", ek.tan, (positive(3, low=-1.0, high=1.0),)),
        ("tanh", ek.tanh, (normal(3),)),
        ("sigmoid", ek.sigmoid, (normal(5) * 3,)),
        ("relu", ek.nn.relu, (away_from_zero(2, 3),)),
        ("softplus", ek.nn.softplus, (normal(5) * 3,)),
        # TF's guarded and less common functions (ops/safe_math.py), away from their guards
        ("reciprocal", ek.math.reciprocal, (away_from_zero(3),)),
        ("reciprocal_no_nan", ek.math.reciprocal_no_nan, (away_from_zero(3),)),
        ("divide_no_nan", ek.math.divide_no_nan, (normal(2, 3), away_from_zero(3))),
        ("multiply_no_nan", ek.math.multiply_no_nan, (normal(3), away_from_zero(2, 3))),
        ("xlogy", ek.math.xlogy, (away_from_zero(3), positive(3))),
        ("xdivy", ek.math.xdivy, (away_from_zero(2, 3), away_from_zero(3))),
        ("xlog1py", ek.math.xlog1py, (away_from_zero(3), positive(3))),
        ("softsign", ek.nn.softsign, (away_from_zero(5),)),
        ("log_sigmoid", ek.math.log_sigmoid, (normal(5) * 3,)),
        ("nn.l2_normalize", lambda x: ek.nn.l2_normalize(x, axis=1), (away_from_zero(2, 3),)),
        ("nn.silu", ek.nn.silu, (normal(4),)),
        ("where", lambda x, y: ek.where([True, False, True], x, y), (normal(2, 3), normal(3))),
        ("identity", ek.identity, (normal(3),)),
        # To x's own device, so the case runs unchanged on any device (device tests cross them).
        ("copy_to_device", lambda x: ek.copy_to_device(x, x.device) * x, (normal(3),)),
        ("cast", lambda x: ek.cast(x, ek.float64) * x, (normal(3),)),
        (
            "operators",
            lambda x, y: (-x + y * 2.0 - x / y) ** 2.0 @ y,
            (normal(2, 2), positive(2, 2)),
        ),
    ]


def _reduction_cases(normal, positive, away_from_zero, distinct):
    return [
        ("reduce_sum", ek.reduce_sum, (normal(2, 3),)),
        ("reduce_sum/axis", lambda x: ek.reduce_sum(x, axis=[0, 2]), (normal(2, 3, 2),)),
        ("reduce_sum/keepdims", lambda x: ek.reduce_sum(x, 1, keepdims=True), (normal(2, 3),)),
        ("reduce_mean", lambda x: ek.reduce_mean(x, axis=-1), (normal(2, 3),)),
        ("reduce_max", lambda x: ek.reduce_max(x, axis=1), (distinct(3, 4),)),
        ("reduce_min", lambda x: ek.reduce_min(x, axis=0, keepdims=True), (distinct(3, 4),)),
        ("reduce_prod", lambda x: ek.reduce_prod(x, axis=1), (away_from_zero(2, 3),)),
        ("reduce_logsumexp", lambda x: ek.reduce_logsumexp(x, axis=1), (normal(2, 3),)),
        ("matmul", ek.matmul, (normal(2, 3), normal(3, 4))),
        (
            "matmul/transpose_a",
            lambda a, b: ek.matmul(a, b, transpose_a=True),
            (normal(3, 2), normal(3, 4)),
        ),
        (
            "matmul/transpose_b",
            lambda a, b: ek.matmul(a, b, transpose_b=True),
            (normal(2, 3), normal(4, 3)),
        ),
        (
            "matmul/transpose_both",
            lambda a, b: ek.matmul(a, b, True, True),
            (normal(3, 2), normal(4, 3)),
        ),
        ("matmul/batched", ek.matmul, (normal(2, 2, 3), normal(1, 3, 2))),
        ("tensordot", lambda a, b: ek.tensordot(a, b, 1), (normal(2, 3), normal(3, 2))),
        (
            "tensordot/axes",
            lambda a, b: ek.tensordot(a, b, [[0, 2], [1, 0]]),
            (normal(2, 3, 4), normal(4, 2, 3)),
        ),
    ]


def _shape_cases(normal, positive, away_from_zero, distinct):
    indices = np.array([2, 0, 2, 1])  # a repeat: its gradient must add up (scatter-add)
    return [
        ("reshape", lambda x: ek.reshape(x, [3, -1]) * x.shape[0], (normal(2, 3),)),
        ("transpose", lambda x: ek.transpose(x, perm=[1, 2, 0]), (normal(2, 3, 4),)),
        ("concat", lambda x, y: ek.concat([x, y, x], axis=1), (normal(2, 1), normal(2, 3))),
        ("tile", lambda x: ek.tile(x, [2, 3]), (normal(2, 1),)),
        ("broadcast_to", lambda x: ek.broadcast_to(x, [2, 3, 3]), (normal(3, 1),)),
        ("getitem", lambda x: x[1:, ::-1, 0], (normal(3, 2, 2),)),
        ("getitem/int_and_newaxis", lambda x: x[ek.newaxis, -1, ...], (normal(3, 2),)),
        ("unslice", lambda g: _unslice(g, shape=(3, 4), key=(slice(1, 3), 2)), (normal(2),)),
        ("gather", lambda x: ek.gather(x, indices), (normal(3, 2),)),
        ("gather/axis", lambda x: ek.gather(x, indices[:2], axis=1), (normal(2, 3),)),
        ("scatter_add", lambda u: _scatter_add(u, indices, shape=(3, 2), axis=0), (normal(4, 2),)),
        ("expand_dims", lambda x: ek.expand_dims(x, -1), (normal(2, 3),)),
        ("squeeze", lambda x: ek.squeeze(x, axis=[0]), (normal(1, 3, 1),)),
        ("stack", lambda x, y: ek.stack([x, y], axis=1), (normal(2, 3), normal(2, 3))),
        ("unstack", lambda x: ek.unstack(x, axis=1)[1] * ek.unstack(x)[0], (normal(3, 3),)),
        ("split", lambda x: ek.concat(ek.split(x, [1, 2], axis=1)[::-1], 1), (normal(2, 3),)),
        ("boolean_mask", lambda x: ek.boolean_mask(x, [True, False, True]), (normal(3, 2),)),
    ]


def _nn_cases(normal, positive, away_from_zero, distinct):
    labels = np.array([[0.2, 0.5, 0.3], [1.0, 0.0, 0.0]])
    bits = np.array([[0.0, 1.0, 1.0], [1.0, 0.0, 0.3]])
    return [
        ("nn.softmax", ek.nn.softmax, (normal(2, 3),)),
        ("nn.log_softmax", lambda x: ek.nn.log_softmax(x, axis=0), (normal(3, 2),)),
        (
            "nn.sigmoid_cross_entropy_with_logits",
            lambda x: ek.nn.sigmoid_cross_entropy_with_logits(labels=bits, logits=x),
            (away_from_zero(2, 3) * 2,),
        ),
        (
            "nn.softmax_cross_entropy_with_logits",
            lambda x: ek.nn.softmax_cross_entropy_with_logits(labels=labels, logits=x),
            (normal(2, 3),),
        ),
        (
            "nn.sparse_softmax_cross_entropy_with_logits",
            lambda x: ek.nn.sparse_softmax_cross_entropy_with_logits(labels=[2, 0], logits=x),
            (normal(2, 3),),
        ),
        (  # more rows than classes: the forward reduces down columns
            "nn.sparse_softmax_cross_entropy_with_logits/columns",
            lambda x: ek.nn.sparse_softmax_cross_entropy_with_logits(
                labels=[[2, 0], [1, 1], [0, 2]], logits=x
            ),
            (normal(3, 2, 3),),
        ),
        (  # gradients, loss and logits varied apart: the op's partial derivatives (fixed
            # inputs: drawing them would move every later case's draws)
            "sparse_softmax_cross_entropy_grad",
            lambda g, loss, x: _cross_entropy_grad(g, loss, x, [2, 0]),
            (
                np.array([0.7, -1.3]),
                np.array([0.4, 1.1]),
                np.array([[0.2, -0.5, 1.0], [1.5, 0.3, -0.8]]),
            ),
        ),
        ("nn.bias_add", ek.nn.bias_add, (normal(4, 3), normal(3))),
        ("nn.bias_add/images", ek.nn.bias_add, (normal(2, 2, 2, 3), normal(3))),
        ("bias_add_grad", _bias_add_grad, (normal(2, 4, 3),)),
        ("relu_grad", _relu_grad, (normal(2, 3), away_from_zero(2, 3))),
        ("relu_grad/broadcast", _relu_grad, (normal(3), away_from_zero(2, 3))),
        ("nn.leaky_relu", ek.nn.leaky_relu, (away_from_zero(4),)),
        ("nn.elu", ek.nn.elu, (away_from_zero(4),)),
        ("nn.gelu", ek.nn.gelu, (normal(4),)),
        ("nn.l2_loss", ek.nn.l2_loss, (normal(2, 3),)),
        # The norm of x is about 2-4: clip_norm 1.0 scales it (the interesting branch).
        ("clip_by_norm", lambda x: ek.clip_by_norm(x, 1.0), (positive(2, 3),)),
        ("clip_by_norm/axes", lambda x: ek.clip_by_norm(x, 1.0, axes=[1]), (positive(2, 3),)),
        (
            "clip_by_value",
            lambda x: ek.clip_by_value(x, -1.0, 1.0),
            (np.array([-1.5, -0.7, 0.2, 0.6, 1.3, 2.0]),),
        ),
    ]


def _conv_pool_cases(normal, positive, away_from_zero, distinct):
    # Window ops: strides, 'SAME' padding and dilation each change which pixels meet.
    # Pooling inputs are tie-free (distinct) so each window has one clear maximum.
    def conv(strides, padding, dilations=1):
        return lambda x, w: ek.nn.conv2d(x, w, strides, padding, dilations)

    def pool(op, strides, padding):
        return lambda x: op(x, ksize=(2, 3), strides=strides, padding=padding)

    conv_params = {"strides": (2, 1), "padding": "SAME", "dilations": (1, 1)}
    pool_params = {"ksize": (2, 2), "strides": (1, 1), "padding": "SAME"}
    return [
        ("conv2d", conv(1, "VALID"), (normal(1, 4, 4, 2), normal(2, 2, 2, 3))),
        ("conv2d/strided_same", conv((2, 1), "SAME"), (normal(2, 5, 4, 1), normal(3, 2, 1, 2))),
        ("conv2d/dilated", conv(1, "SAME", 2), (normal(1, 5, 5, 1), normal(2, 2, 1, 2))),
        (
            "conv2d_backprop_input",
            lambda g, w: _conv_input(g, w, input_shape=(1, 5, 4, 2), **conv_params),
            (normal(1, 3, 4, 3), normal(2, 3, 2, 3)),
        ),
        (
            "conv2d_backprop_filter",
            lambda x, g: _conv_filter(x, g, filter_shape=(2, 3, 2, 3), **conv_params),
            (normal(1, 5, 4, 2), normal(1, 3, 4, 3)),
        ),
        ("max_pool", pool(ek.nn.max_pool, (2, 2), "SAME"), (distinct(1, 5, 5, 2),)),
        ("max_pool/overlapping", pool(ek.nn.max_pool, 1, "VALID"), (distinct(2, 4, 4, 1),)),
        (
            "max_pool_grad",
            lambda g: _max_pool_grad(_pool_input, g, **pool_params),
            (normal(1, 3, 3, 1),),
        ),
        (
            "max_pool_gather",
            lambda h: _max_pool_gather(_pool_input, h, **pool_params),
            (normal(1, 3, 3, 1),),
        ),
        ("avg_pool", pool(ek.nn.avg_pool, (2, 2), "SAME"), (normal(1, 5, 5, 2),)),
        (
            "avg_pool_grad",
            lambda g: _avg_pool_grad(g, input_shape=(1, 3, 3, 1), **pool_params),
            (normal(1, 3, 3, 1),),
        ),
    ]


def cases():
    """Every gradient-check case: ``[(name, fn, args), ...]`` with float64 numpy inputs."""
    makers = _inputs()
    return [
        *_elementwise_cases(*makers),
        *_reduction_cases(*makers),
        *_shape_cases(*makers),
        *_nn_cases(*makers),
        *_conv_pool_cases(*makers),
        *op_cases_more.elementwise_cases(*makers),
        *op_cases_more.linalg_cases(*makers),
        *op_cases_more.rearrange_cases(*makers),
        *op_cases_more.image_cases(*makers),
        *op_cases_more.complex_cases(*makers),
        *op_cases_prims.trig_cases(*makers),
        *op_cases_prims.scatter_cases(*makers),
        *op_cases_prims.linalg_cases(*makers),
    ]

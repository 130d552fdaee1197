"""``ek.nn``: activations, losses on logits, convolution and pooling, laid out as ``tf.nn``.

The kernels live in ``eagerkit/ops/`` (``nn.py``, ``conv.py``, ``conv_compositions.py``,
``pool.py``, ``cross_entropy.py``, ``nn_losses.py``); this module gathers them under TF's names.

Examples
--------
>>> import eagerkit as ek
>>> ek.nn.relu([-1.0, 2.0])
<ek.Tensor: shape=(2,), dtype=float32, numpy=array([0., 2.], dtype=float32)>
"""

from eagerkit.ops.classification import in_top_k
from eagerkit.ops.conv import conv2d
from eagerkit.ops.conv_compositions import conv1d, conv1d_transpose, conv2d_transpose
from eagerkit.ops.cross_entropy import sparse_softmax_cross_entropy_with_logits
from eagerkit.ops.indexing import gather as embedding_lookup
from eagerkit.ops.nn import (
    bias_add,
    elu,
    gelu,
    l2_loss,
    l2_normalize,
    leaky_relu,
    log_softmax,
    relu,
    relu6,
    sigmoid,
    sigmoid_cross_entropy_with_logits,
    silu,
    softmax,
    softmax_cross_entropy_with_logits,
    softplus,
    tanh,
)
from eagerkit.ops.nn_compositions import batch_normalization, dropout, moments, selu
from eagerkit.ops.nn_losses import compute_average_loss, weighted_cross_entropy_with_logits
from eagerkit.ops.pool import avg_pool, avg_pool1d, max_pool, max_pool1d
from eagerkit.ops.safe_math import softsign
from eagerkit.ops.sorting import top_k
from eagerkit.ops.tf1_names import relu_layer, xw_plus_b

swish = silu  # TF's other name for it
max_pool2d = max_pool  # TF2 spells the 2-D pools with the rank too
avg_pool2d = avg_pool

__all__ = [
    "in_top_k",
    "compute_average_loss",
    "weighted_cross_entropy_with_logits",
    "swish",
    "silu",
    "relu6",
    "l2_normalize",
    "avg_pool",
    "avg_pool1d",
    "avg_pool2d",
    "batch_normalization",
    "bias_add",
    "relu_layer",
    "xw_plus_b",
    "conv1d",
    "conv1d_transpose",
    "conv2d",
    "conv2d_transpose",
    "dropout",
    "elu",
    "embedding_lookup",
    "gelu",
    "l2_loss",
    "leaky_relu",
    "log_softmax",
    "max_pool",
    "max_pool1d",
    "max_pool2d",
    "moments",
    "relu",
    "selu",
    "sigmoid",
    "sigmoid_cross_entropy_with_logits",
    "softmax",
    "softmax_cross_entropy_with_logits",
    "softplus",
    "softsign",
    "sparse_softmax_cross_entropy_with_logits",
    "tanh",
    "top_k",
]

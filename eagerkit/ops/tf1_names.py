"""TF 1's shorthands that TF 2 dropped, for the TF 1 code students bring (the seeds' era):
``tf.to_float`` and its kin, ``tf.nn.xw_plus_b`` and ``tf.nn.relu_layer``. Each is the
composition TF 1 defines it as.

Examples
--------
>>> import eagerkit as ek
>>> ek.to_float(ek.constant([1, 2]))
<ek.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>
"""

from eagerkit import dtypes
from eagerkit.ops.cast import cast
from eagerkit.ops.linalg import matmul
from eagerkit.ops.nn import bias_add, relu


def to_float(x, name="ToFloat"):
    """``cast(x, ek.float32)`` (TF 1's ``tf.to_float``)."""
    return cast(x, dtypes.float32)


def to_double(x, name="ToDouble"):
    """``cast(x, ek.float64)`` (TF 1's ``tf.to_double``)."""
    return cast(x, dtypes.float64)


def to_int32(x, name="ToInt32"):
    """``cast(x, ek.int32)`` (TF 1's ``tf.to_int32``): floats truncate toward zero."""
    return cast(x, dtypes.int32)


def to_int64(x, name="ToInt64"):
    """``cast(x, ek.int64)`` (TF 1's ``tf.to_int64``): floats truncate toward zero."""
    return cast(x, dtypes.int64)


def xw_plus_b(x, weights, biases, name=None):
    """``matmul(x, weights) + biases`` (TF 1's ``tf.nn.xw_plus_b``: a Dense layer's forward
    pass without its activation).

    >>> import eagerkit as ek
    >>> ek.nn.xw_plus_b(ek.ones([1, 2]), ek.ones([2, 3]), ek.constant([0.0, 1.0, 2.0]))
    <ek.Tensor: shape=(1, 3), dtype=float32, numpy=array([[2., 3., 4.]], dtype=float32)>
    """
    return bias_add(matmul(x, weights), biases)


def relu_layer(x, weights, biases, name=None):
    """``relu(matmul(x, weights) + biases)`` (TF 1's ``tf.nn.relu_layer``)."""
    return relu(xw_plus_b(x, weights, biases))

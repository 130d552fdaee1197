"""eagerkit: a small eager tensor engine with a gradient tape, in the image of TensorFlow Eager.

Use it as ``import eagerkit as ek`` wherever the lessons (and the TF-eager articles they
come from) write ``tf.`` or ``tfe.``.

>>> import eagerkit as ek
>>> x = [[2.0]]
>>> print(ek.matmul(x, x))
ek.Tensor([[4.]], shape=(1, 1), dtype=float32)
"""

import sys as _sys

from eagerkit import (  # noqa: F401 - ops registers every primitive
    autograph,
    config,
    contrib,
    data,
    datasets,
    debugging,
    devices,
    errors,
    image,
    io,
    keras,
    linalg,
    math,
    nest,
    nn,
    ops,
    ragged,
    random,
    sparse,
    strings,
    summary,
    testing,
    train,
    type_dispatch,
    version,
)
from eagerkit import namespaces as _namespaces
from eagerkit.context import enable_eager_execution, executing_eagerly
from eagerkit.control_flow import cond, while_loop
from eagerkit.custom_gradient import custom_gradient, grad_pass_through
from eagerkit.data import Iterator
from eagerkit.debugging import assert_equal, assert_greater, assert_less, assert_rank  # TF 2's
from eagerkit.devices import (
    DEVICE_PLACEMENT_EXPLICIT,
    DEVICE_PLACEMENT_SILENT,
    DEVICE_PLACEMENT_WARN,
    Device,
    device,
    list_devices,
    num_gpus,
    set_device_policy,
)
from eagerkit.dtypes import (
    DType,
    as_dtype,
    bool,
    complex64,
    complex128,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    string,
    uint8,
    uint16,
)
from eagerkit.function import defun, function, init_scope
from eagerkit.gradient_functions import (
    gradients,
    gradients_function,
    implicit_gradients,
    implicit_value_and_gradients,
    value_and_gradients_function,
)
from eagerkit.graph.concrete import ConcreteFunction as _ConcreteFunction
from eagerkit.graph.polymorphic_function import Function as _Function
from eagerkit.graph.signature import TensorSpec
from eagerkit.io import decode_csv, read_file
from eagerkit.keras import tf1_losses as losses  # TF1's tf.losses: (labels, predictions)
from eagerkit.keras import tf1_metrics as metrics  # tfe.metrics: float64 results
from eagerkit.keras.models import Model, Network, Sequential
from eagerkit.math import add_n
from eagerkit.missing_names import attribute_error as _attribute_error
from eagerkit.module import Module
from eagerkit.name_scope import name_scope
from eagerkit.ops.arithmetic import (
    add,
    divide,
    floordiv,
    floormod,
    maximum,
    minimum,
    mod,
    multiply,
    pow,
    squared_difference,
    subtract,
    truediv,
)
from eagerkit.ops.cast import cast
from eagerkit.ops.compare import (
    equal,
    greater,
    greater_equal,
    less,
    less_equal,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    not_equal,
    where,
)
from eagerkit.ops.complex import complex
from eagerkit.ops.compositions import (
    ensure_shape,
    identity_n,
    is_tensor,
    meshgrid,
    reverse,
    sequence_mask,
    slice,
)
from eagerkit.ops.copy import copy_to_device, identity
from eagerkit.ops.creation import (
    constant,
    eye,
    fill,
    ones,
    ones_like,
    random_normal,
    random_uniform,
    range,
    set_random_seed,
    truncated_normal,
    zeros,
    zeros_like,
)
from eagerkit.ops.decompositions import cholesky
from eagerkit.ops.decompositions import det as matrix_determinant
from eagerkit.ops.decompositions import inv as matrix_inverse
from eagerkit.ops.decompositions import solve as matrix_solve
from eagerkit.ops.einsum import einsum
from eagerkit.ops.exp_log import cosh, erf, expm1, log2, log10, logaddexp, sinh
from eagerkit.ops.indexing import boolean_mask, gather, one_hot
from eagerkit.ops.linalg import matmul, tensordot
from eagerkit.ops.linspace import linspace
from eagerkit.ops.math import (
    abs,
    ceil,
    cos,
    exp,
    floor,
    log,
    log1p,
    negative,
    round,
    rsqrt,
    sigmoid,
    sign,
    sin,
    sqrt,
    square,
    tan,
    tanh,
)
from eagerkit.ops.matrix_parts import band_part as matrix_band_part
from eagerkit.ops.matrix_parts import diag as matrix_diag
from eagerkit.ops.matrix_parts import diag_part as matrix_diag_part
from eagerkit.ops.matrix_parts import trace
from eagerkit.ops.misc import clip_by_global_norm, clip_by_norm, clip_by_value
from eagerkit.ops.rearrange import pad, repeat, roll
from eagerkit.ops.reduce import (
    argmax,
    argmin,
    reduce_all,
    reduce_any,
    reduce_logsumexp,
    reduce_max,
    reduce_mean,
    reduce_min,
    reduce_prod,
    reduce_sum,
)
from eagerkit.ops.safe_math import reciprocal  # TF 1's tf.reciprocal (TF 2: tf.math)
from eagerkit.ops.scan import cumprod, cumsum
from eagerkit.ops.scatter import (
    gather_nd,
    scatter_nd,
    tensor_scatter_nd_add,
    tensor_scatter_nd_sub,
    tensor_scatter_nd_update,
)
from eagerkit.ops.scatter_extremes import tensor_scatter_nd_max, tensor_scatter_nd_min
from eagerkit.ops.searching import searchsorted, unique, unique_with_counts
from eagerkit.ops.segment import segment_sum, unsorted_segment_sum
from eagerkit.ops.shape import (
    broadcast_to,
    concat,
    expand_dims,
    rank,
    reshape,
    shape,
    size,
    split,
    squeeze,
    stack,
    stop_gradient,
    tile,
    transpose,
    unstack,
)
from eagerkit.ops.sorting import argsort, sort, top_k
from eagerkit.ops.statistics import norm, reduce_std, reduce_variance
from eagerkit.ops.strided_slice import strided_slice
from eagerkit.ops.tf1_names import to_double, to_float, to_int32, to_int64
from eagerkit.ops.trig import acos, acosh, asin, asinh, atan, atan2, atanh
from eagerkit.ordering import control_dependencies, group, no_op
from eagerkit.py_function import numpy_function, py_function
from eagerkit.ragged import RaggedTensor
from eagerkit.random import categorical as multinomial  # TF1's name
from eagerkit.sparse import SparseTensor
from eagerkit.tape import GradientTape
from eagerkit.tensor import Tensor
from eagerkit.tensor_array import TensorArray
from eagerkit.tensor_shape import TensorShape
from eagerkit.tf2_initializers import (
    constant_initializer,
    ones_initializer,
    random_normal_initializer,
    random_uniform_initializer,
    zeros_initializer,
)
from eagerkit.train.checkpoint import Checkpoint
from eagerkit.unconnected_gradients import UnconnectedGradients
from eagerkit.variable_slices import VariableSlice as _VariableSlice
from eagerkit.variables import Variable, convert_to_tensor

newaxis = None
# TF 1's tf.layers / tf.initializers are Keras' (the same members), under their own names.
layers = _namespaces.second_name("eagerkit.layers", keras.layers)
initializers = _namespaces.second_name("eagerkit.initializers", keras.initializers)


def __getattr__(name):
    # ek.print (tf.print) is looked up here, not kept among this module's names, so that
    # ``from eagerkit import *`` never hides Python's own print.
    if name == "print":
        from eagerkit.printing import print_tensors

        return print_tensors
    raise _attribute_error(_sys.modules[__name__], name)  # TF's names it lacks say so


# TF's namespaces: every public function and method in them raises eagerkit errors that name
# the call you made, with tracebacks that end at your line (see boundary.py).
PUBLIC_NAMESPACES = (
    *("nn", "math", "linalg", "random", "config", "train", "data", "data.experimental"),
    *("keras", "keras.layers", "keras.losses", "keras.metrics", "keras.optimizers"),
    *("keras.optimizers.schedules",),
    *("keras.initializers", "keras.activations", "keras.models", "keras.backend"),
    *("keras.regularizers", "keras.constraints", "keras.datasets", "keras.datasets.mnist"),
    *("keras.callbacks", "keras.utils", "keras.saving"),
    *("layers", "losses", "metrics"),
    *("initializers", "debugging", "summary", "datasets", "nest", "testing", "devices"),
    *("strings", "io", "image", "ragged", "sparse"),
)
# What public calls return is called too: ek.function's Function and its concrete functions,
# a variable's slice (v[1:].assign).
_namespaces.install(
    _namespaces.module_namespaces(_sys.modules[__name__], PUBLIC_NAMESPACES),
    returned=(_Function, _ConcreteFunction, _VariableSlice),
)
# Each answers a name it lacks under the name the user wrote (ek.losses, not its file's).
_namespaces.name_namespaces(_sys.modules[__name__], PUBLIC_NAMESPACES)

__version__ = version.VERSION

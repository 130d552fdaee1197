"""Every op's forward value and dtype agree with numpy (TF's dtype rules where they differ).

``FORWARD`` holds ``(name, eagerkit call, numpy call)`` pairs on fixed inputs; the numpy
side states the dtype TF gives. A registry-driven test checks that every registered
primitive runs in at least one of them.
"""

import numpy as np
import pytest

import eagerkit as ek
from eagerkit import recording, registry

rng = np.random.default_rng(1)
A = rng.standard_normal((2, 3)).astype(np.float32)
B = rng.standard_normal((2, 3)).astype(np.float32)
POS = rng.uniform(0.5, 2.0, (2, 3)).astype(np.float32)
IA = np.array([[7, -7, 3], [0, 5, -2]], np.int32)
IB = np.array([[2, 2, -2], [3, 1, 4]], np.int32)
M = rng.standard_normal((3, 4)).astype(np.float32)
BOOL = np.array([[True, False, True], [False, False, True]])


def f32(x):
    return np.asarray(x, np.float32)


FORWARD = [
    ("add", lambda: ek.add(A, B), lambda: A + B),
    ("add/int", lambda: ek.add(IA, IB), lambda: IA + IB),
    ("subtract", lambda: ek.subtract(A, B[0]), lambda: A - B[0]),
    ("multiply", lambda: ek.multiply(IA, IB), lambda: IA * IB),
    ("truediv", lambda: ek.truediv(A, POS), lambda: A / POS),
    ("truediv/int32", lambda: ek.divide(IA, IB), lambda: (IA / IB).astype(np.float64)),
    ("truediv/int16", lambda: ek.constant(IA, ek.int16) / 2, lambda: f32(IA / 2)),
    ("floordiv", lambda: ek.floordiv(IA, IB), lambda: IA // IB),
    ("floordiv/float", lambda: ek.floordiv(A, POS), lambda: A // POS),
    ("mod", lambda: ek.mod(IA, IB), lambda: IA % IB),
    ("mod/float", lambda: ek.floormod(A, POS), lambda: A % POS),
    ("pow", lambda: ek.pow(POS, A), lambda: POS**A),
    ("pow/int", lambda: ek.pow(IA, abs(IB)), lambda: IA ** np.abs(IB)),
    ("maximum", lambda: ek.maximum(A, B), lambda: np.maximum(A, B)),
    ("minimum", lambda: ek.minimum(IA, IB), lambda: np.minimum(IA, IB)),
    ("squared_difference", lambda: ek.squared_difference(A, B), lambda: (A - B) ** 2),
    ("negative", lambda: ek.negative(IA), lambda: -IA),
    ("abs", lambda: ek.abs(A), lambda: np.abs(A)),
    ("sign", lambda: ek.sign(IA), lambda: np.sign(IA)),
    ("square", lambda: ek.square(A), lambda: A * A),
    ("sqrt", lambda: ek.sqrt(POS), lambda: np.sqrt(POS)),
    ("rsqrt", lambda: ek.rsqrt(POS), lambda: 1 / np.sqrt(POS)),
    ("exp", lambda: ek.exp(A), lambda: np.exp(A)),
    ("log", lambda: ek.log(POS), lambda: np.log(POS)),
    ("log1p", lambda: ek.log1p(POS), lambda: np.log1p(POS)),
    ("sin", lambda: ek.sin(A), lambda: np.sin(A)),
    ("cos", lambda: ek.cos(A), lambda: np.cos(A)),
    ("tan", lambda: ek.tan(A), lambda: np.tan(A)),
    ("tanh", lambda: ek.tanh(A), lambda: np.tanh(A)),
    ("sigmoid", lambda: ek.sigmoid(A * 50), lambda: f32(1 / (1 + np.exp(-(A * 50.0))))),
    ("round", lambda: ek.round(f32([0.5, 1.5, -2.5, 2.6])), lambda: f32([0, 2, -2, 3])),
    ("floor", lambda: ek.floor(A), lambda: np.floor(A)),
    ("ceil", lambda: ek.ceil(A), lambda: np.ceil(A)),
    ("floor/int", lambda: ek.floor(IA), lambda: IA),
    ("equal", lambda: ek.equal(IA, IB), lambda: IA == IB),
    ("not_equal", lambda: ek.not_equal(A, A[0]), lambda: A != A[0]),
    ("less", lambda: ek.less(A, B), lambda: A < B),
    ("less_equal", lambda: ek.less_equal(IA, 3), lambda: IA <= 3),
    ("greater", lambda: ek.greater(A, 0.0), lambda: A > 0),
    ("greater_equal", lambda: ek.greater_equal(IA, IB), lambda: IA >= IB),
    ("logical_and", lambda: ek.logical_and(BOOL, BOOL[::-1]), lambda: BOOL & BOOL[::-1]),
    ("logical_or", lambda: ek.logical_or(BOOL, BOOL[::-1]), lambda: BOOL | BOOL[::-1]),
    ("logical_xor", lambda: ek.logical_xor(BOOL, BOOL[::-1]), lambda: BOOL ^ BOOL[::-1]),
    ("logical_not", lambda: ek.logical_not(BOOL), lambda: ~BOOL),
    ("where", lambda: ek.where(BOOL, A, B), lambda: np.where(BOOL, A, B)),
    ("getitem", lambda: ek.constant(M)[1:, ::-2], lambda: M[1:, ::-2]),
    ("gather", lambda: ek.gather(M, [2, 0, 2]), lambda: M[[2, 0, 2]]),
    ("gather/axis", lambda: ek.gather(M, [[3, 1]], axis=1), lambda: M[:, [[3, 1]]]),
    ("one_hot", lambda: ek.one_hot([0, 2, 5], 3), lambda: f32([[1, 0, 0], [0, 0, 1], [0, 0, 0]])),
    ("matmul", lambda: ek.matmul(A, M), lambda: A @ M),
    ("matmul/transposes", lambda: ek.matmul(M, A, True, True), lambda: M.T @ A.T),
    ("matmul/batched", lambda: ek.matmul(np.stack([A, B]), M), lambda: np.stack([A, B]) @ M),
    ("matmul/int", lambda: ek.matmul(IA, IB.T), lambda: IA @ IB.T),
    ("tensordot", lambda: ek.tensordot([10, 20], [2, 3], 1), lambda: np.int32(80)),
    ("tensordot/axes", lambda: ek.tensordot(A, M, [[1], [0]]), lambda: np.tensordot(A, M, 1)),
    ("reduce_sum", lambda: ek.reduce_sum(A), lambda: A.sum()),
    (
        "reduce_sum/int",
        lambda: ek.reduce_sum(IA, 1, True),
        lambda: IA.sum(1, keepdims=True, dtype=np.int32),
    ),
    ("reduce_mean", lambda: ek.reduce_mean(A, axis=0), lambda: A.mean(0)),
    ("reduce_mean/int", lambda: ek.reduce_mean(IA, axis=1), lambda: np.int32([1, 1])),
    ("reduce_max", lambda: ek.reduce_max(A, axis=[0, 1]), lambda: A.max()),
    ("reduce_min", lambda: ek.reduce_min(IA, axis=-1), lambda: IA.min(-1)),
    ("reduce_prod", lambda: ek.reduce_prod(POS, 0), lambda: POS.prod(0)),
    ("reduce_any", lambda: ek.reduce_any(BOOL, 1), lambda: BOOL.any(1)),
    ("reduce_all", lambda: ek.reduce_all(BOOL, 0), lambda: BOOL.all(0)),
    (
        "reduce_logsumexp",
        lambda: ek.reduce_logsumexp(A, axis=1),
        lambda: f32(np.log(np.exp(A.astype(np.float64)).sum(1))),
    ),
    ("argmax", lambda: ek.argmax(A, axis=1), lambda: A.argmax(1)),
    ("argmin", lambda: ek.argmin(IA), lambda: IA.argmin(0)),
    ("reshape", lambda: ek.reshape(A, [3, -1]), lambda: A.reshape(3, -1)),
    ("transpose", lambda: ek.transpose(A), lambda: A.T),
    ("expand_dims", lambda: ek.expand_dims(A, 1), lambda: A[:, None]),
    ("squeeze", lambda: ek.squeeze(A[:1, None]), lambda: A[0]),
    ("concat", lambda: ek.concat([A, B], axis=0), lambda: np.concatenate([A, B])),
    ("stack", lambda: ek.stack([A, B], axis=-1), lambda: np.stack([A, B], -1)),
    ("unstack", lambda: ek.unstack(A, axis=1)[2], lambda: A[:, 2]),
    ("split", lambda: ek.split(M, [1, 3], axis=1)[1], lambda: M[:, 1:]),
    ("tile", lambda: ek.tile(IA, [2, 1]), lambda: np.tile(IA, (2, 1))),
    ("broadcast_to", lambda: ek.broadcast_to(A[0], [4, 3]), lambda: np.broadcast_to(A[0], (4, 3))),
    ("identity", lambda: ek.identity(IA), lambda: IA),
    ("stop_gradient", lambda: ek.stop_gradient(A), lambda: A),
    ("cast", lambda: ek.cast(f32([1.7, -1.7]), ek.int32), lambda: np.int32([1, -1])),
    ("boolean_mask", lambda: ek.boolean_mask(A, BOOL), lambda: A[BOOL]),
    ("clip_by_value", lambda: ek.clip_by_value(A, -0.5, 0.5), lambda: np.clip(A, -0.5, 0.5)),
    (
        "clip_by_norm",
        lambda: ek.clip_by_norm(A, 1.0),
        lambda: A / max(np.sqrt((A * A).sum()), np.float32(1)),
    ),
    ("nn.relu", lambda: ek.nn.relu(A), lambda: np.maximum(A, 0)),
    ("nn.softplus", lambda: ek.nn.softplus(A * 100), lambda: np.logaddexp(f32(0), A * 100)),
    ("nn.bias_add", lambda: ek.nn.bias_add(A, B[0]), lambda: A + B[0]),
    (
        "bias_add_grad",  # the bias's gradient: a sum over every axis but the last
        lambda: registry.REGISTRY["bias_add_grad"].call(M),
        lambda: M.sum(axis=0),
    ),
    (
        "relu_grad",  # relu's gradient (TF's ReluGrad): the gradients where the features > 0
        lambda: registry.REGISTRY["relu_grad"].call(B, A),
        lambda: np.where(A > 0, B, 0),
    ),
    (
        "sparse_softmax_cross_entropy_grad",  # TF's backprop output: g * (softmax - one_hot)
        lambda: registry.REGISTRY["sparse_softmax_cross_entropy_grad"].call(
            B[0, :2], A[0, :2], A, np.int32([2, 0])
        ),
        lambda: f32(
            B[0, :2, None].astype(np.float64)
            * (
                np.exp(A - (A[0, :2] + A[[0, 1], [2, 0]])[:, None].astype(np.float64))
                - np.eye(3)[[2, 0]]
            )
        ),
    ),
    (
        "nn.softmax",
        lambda: ek.nn.softmax(A * 100),
        lambda: (
            f32(np.exp(A * 100.0 - (A * 100.0).max(-1, keepdims=True)))
            / f32(np.exp(A * 100.0 - (A * 100.0).max(-1, keepdims=True))).sum(-1, keepdims=True)
        ),
    ),
    (
        "nn.sigmoid_cross_entropy_with_logits",
        lambda: ek.nn.sigmoid_cross_entropy_with_logits(labels=f32(BOOL), logits=A),
        lambda: f32(np.logaddexp(0, A) - A * BOOL),
    ),
    ("range", lambda: ek.range(2, 11, 3), lambda: np.arange(2, 11, 3, dtype=np.int32)),
    ("range/float", lambda: ek.range(0.0, 1.0, 0.25), lambda: np.arange(0, 1, 0.25, np.float32)),
    ("linspace", lambda: ek.linspace(0.0, 1.0, 5), lambda: np.linspace(0, 1, 5, dtype=np.float32)),
    ("zeros", lambda: ek.zeros([2, 1]), lambda: np.zeros((2, 1), np.float32)),
    ("ones", lambda: ek.ones(3, dtype=ek.int64), lambda: np.ones(3, np.int64)),
    ("zeros_like", lambda: ek.zeros_like(IA), lambda: np.zeros_like(IA)),
    ("ones_like", lambda: ek.ones_like(A), lambda: np.ones_like(A)),
    ("fill", lambda: ek.fill([2, 2], 7), lambda: np.full((2, 2), 7, np.int32)),
    ("eye", lambda: ek.eye(2, 3), lambda: np.eye(2, 3, dtype=np.float32)),
]


@pytest.mark.parametrize(("name", "ours", "theirs"), FORWARD, ids=[c[0] for c in FORWARD])
def test_forward_matches_numpy_in_value_and_dtype(name, ours, theirs):
    result, expected = ours(), np.asarray(theirs())
    assert isinstance(result, ek.Tensor)
    assert result.dtype == expected.dtype, name
    assert result.shape == expected.shape
    np.testing.assert_allclose(result.numpy(), expected, rtol=2e-6, atol=1e-6)


# The modules of the core op set; conv and pool ops have forward tests of their own.
CORE_MODULES = {
    f"eagerkit.ops.{name}"
    for name in (
        "arithmetic",
        "compare",
        "creation",
        "indexing",
        "linalg",
        "math",
        "misc",
        "nn",
        "reduce",
        "shape",
    )
}


def test_every_core_primitive_has_a_forward_case():
    """Each core primitive runs in some FORWARD case (VJP helpers run in the test below)."""
    ran = set()

    def seen(op, inputs, output):
        ran.add(op.name)

    recording.add_callback(seen)
    try:
        for _, ours, _ in FORWARD:
            ours()
    finally:
        recording.remove_callback(seen)
    core = [op.name for op in registry.all_ops() if op.forward.__module__ in CORE_MODULES]
    vjp_helpers = {"unslice", "scatter_add"}
    missing = [name for name in core if name not in ran | vjp_helpers]
    assert len(core) > 50 and not missing, (
        f"primitives without a forward case: {missing}; add one to FORWARD in "
        "tests/test_ops_forward.py"
    )


def test_vjp_helper_primitives_compute_slice_and_scatter_gradients():
    x = ek.constant(M)
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = ek.reduce_sum(x[1:, 2]) + ek.reduce_sum(ek.gather(x, [0, 0, 2]))
    expected = np.zeros_like(M)
    expected[1:, 2] += 1
    expected[0] += 2
    expected[2] += 1
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), expected)


def test_random_ops_have_tf_default_dtypes_and_respect_the_seed():
    ek.set_random_seed(3)
    first = [ek.random_normal([50]), ek.random_uniform([50]), ek.truncated_normal([500])]
    ek.set_random_seed(3)
    second = [ek.random_normal([50]), ek.random_uniform([50]), ek.truncated_normal([500])]
    for a, b in zip(first, second, strict=True):
        assert a.dtype == ek.float32
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    normal, uniform, truncated = (t.numpy() for t in first)
    assert 0.0 <= uniform.min() and uniform.max() < 1.0
    assert np.abs(truncated).max() <= 2.0
    assert normal.std() > 0.5
    ints = ek.random_uniform([100], minval=-3, maxval=3, dtype=ek.int32).numpy()
    assert ints.dtype == np.int32 and ints.min() >= -3 and ints.max() < 3
    scaled = ek.random_normal([2000], mean=5.0, stddev=0.1).numpy()
    assert abs(scaled.mean() - 5.0) < 0.01 and abs(scaled.std() - 0.1) < 0.01


def test_operators_match_their_ops():
    x, y = ek.constant(IA), ek.constant(IB)
    for ours, theirs in [
        (x + y, IA + IB),
        (x - y, IA - IB),
        (x * y, IA * IB),
        (x // y, IA // IB),
        (x % y, IA % IB),
        (-x, -IA),
        (abs(x), np.abs(IA)),
        (+x, IA),
        (x**2, IA**2),
        (x @ ek.transpose(y), IA @ IB.T),
        (x < y, IA < IB),
        (x <= y, IA <= IB),
        (x > y, IA > IB),
        (x >= y, IA >= IB),
        (x == y, IA == IB),
        (x != y, IA != IB),
        (2 - x, 2 - IA),
        (IA @ ek.transpose(y), IA @ IB.T),
        (~(x > 0) | (y > 2), ~(IA > 0) | (IB > 2)),
        ((x > 0) & (y > 0), (IA > 0) & (IB > 0)),
        ((x > 0) ^ (y > 0), (IA > 0) ^ (IB > 0)),
    ]:
        assert isinstance(ours, ek.Tensor)
        assert ours.dtype == theirs.dtype
        np.testing.assert_array_equal(ours.numpy(), theirs)
    assert (x / y).dtype == ek.float64
    np.testing.assert_allclose((x / y).numpy(), IA / IB)

"""matmul's two shortcuts give what the plain path gives.

A product without transposes records no flags (so the engine's fast paths take it); a
transposed matrix is ``.T`` and a transposed batch ``swapaxes``. Both are checked here against
the op called with every flag spelled out, and against numpy.
"""

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.ops.linalg import _matmul

rng = np.random.default_rng(7)


def _value_and_gradients(product, a, b):
    a, b = ek.constant(a), ek.constant(b)
    with ek.GradientTape(persistent=True) as tape:  # its records stay readable after
        tape.watch([a, b])
        y = product(a, b)
        loss = ek.reduce_sum(y * y)
    return y, tape.gradient(loss, [a, b]), tape


def test_a_plain_product_records_no_flags_and_equals_the_flagged_call():
    a, b = rng.standard_normal((4, 3)), rng.standard_normal((3, 5))
    plain, plain_grads, tape = _value_and_gradients(ek.matmul, a, b)
    assert tape.records[0].op.name == "matmul" and not tape.records[0].params
    flagged, flagged_grads, _ = _value_and_gradients(
        lambda x, y: _matmul(x, y, transpose_a=False, transpose_b=False), a, b
    )
    np.testing.assert_array_equal(plain.numpy(), flagged.numpy())
    for got, want in zip(plain_grads, flagged_grads, strict=True):
        np.testing.assert_array_equal(got.numpy(), want.numpy())


@pytest.mark.parametrize("batch", [(), (2,)], ids=["matrix", "batch"])
@pytest.mark.parametrize(("transpose_a", "transpose_b"), [(True, False), (False, True), (1, 1)])
def test_transposed_products_match_numpy(batch, transpose_a, transpose_b):
    a = rng.standard_normal(batch + ((3, 4) if transpose_a else (4, 3)))
    b = rng.standard_normal(batch + ((5, 3) if transpose_b else (3, 5)))
    got = ek.matmul(a, b, transpose_a=transpose_a, transpose_b=transpose_b)
    want = (np.swapaxes(a, -1, -2) if transpose_a else a) @ (
        np.swapaxes(b, -1, -2) if transpose_b else b
    )
    assert got.shape == batch + (4, 5)
    np.testing.assert_array_equal(got.numpy(), want)

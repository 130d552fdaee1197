"""``where``'s kernels give numpy's where bit for bit (ops/compare.py).

On big float arrays ``where(c, x, y)`` chooses through integer ops on the floats' bits
(``_selected``) instead of numpy's branch per element, and ``where(c, g, 0)`` multiplies by
the mask (``_masked``); both must give ``np.where``'s very bits, nan payloads, infinities
and -0.0 included, whatever the condition.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import eagerkit as ek
from eagerkit.ops.compare import _SELECT_FROM, _selected, _selects

FLOATS = [np.float16, np.float32, np.float64]
SPECIAL = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1e-30]


def bits(array):
    return array.view(f"u{array.dtype.itemsize}")


@st.composite
def choices(draw, big):
    """(condition, x, y): floats of one dtype and shape, specials and odd nans mixed in."""
    dtype = draw(st.sampled_from(FLOATS))
    rows = draw(st.integers(_SELECT_FROM // 64 + 1, 2 * _SELECT_FROM // 64)) if big else None
    shape = (rows, 64) if big else draw(hnp.array_shapes(min_dims=0, max_dims=3, max_side=5))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    values = [rng.normal(size=shape).astype(dtype) for _ in range(2)]
    for array in values:  # a few special values, and a nan with a payload of its own
        flat = array.reshape(-1)
        spots = rng.integers(0, flat.size, size=min(flat.size, 8))
        flat[spots] = rng.choice(np.array(SPECIAL, dtype=dtype), size=spots.size)
        if flat.size:
            bits(flat)[spots[:1]] |= 1  # nan stays nan, inf becomes a nan: a new payload
    density = draw(st.sampled_from([0.0, 0.1, 0.5, 0.9, 1.0]))
    condition = rng.random(size=shape) < density
    return condition, values[0], values[1]


@settings(max_examples=40, deadline=None)
@given(choices(big=True))
def test_the_branchless_choice_gives_numpys_bits_on_big_arrays(case):
    condition, x, y = case
    assert _selects(condition, x, y)  # big enough: the kernel takes this path
    want = np.where(condition, x, y)
    np.testing.assert_array_equal(bits(_selected(np, condition, x, y)), bits(want))
    np.testing.assert_array_equal(bits(ek.where(condition, x, y).numpy()), bits(want))


@settings(max_examples=60, deadline=None)
@given(choices(big=False))
def test_where_gives_numpys_bits_on_small_arrays_and_around_zero(case):
    condition, x, y = case
    np.testing.assert_array_equal(
        bits(ek.where(condition, x, y).numpy()), bits(np.where(condition, x, y))
    )
    zeros = np.zeros((), x.dtype)  # the masked path: where(c, g, 0) and where(c, 0, g)
    np.testing.assert_array_equal(
        bits(ek.where(condition, x, zeros).numpy()), bits(np.where(condition, x, zeros))
    )
    np.testing.assert_array_equal(
        bits(ek.where(condition, zeros, y).numpy()), bits(np.where(condition, zeros, y))
    )


def test_the_branchless_choice_is_only_for_what_it_can_take():
    big = (_SELECT_FROM,)
    c, x = np.ones(big, bool), np.ones(big, np.float32)
    assert _selects(c, x, x)
    assert not _selects(c, x, x.astype(np.float64))  # two dtypes: numpy's promotion
    assert not _selects(c, x.astype(np.int32), x.astype(np.int32))  # integers
    assert not _selects(c.astype(np.float32), x, x)  # a numeric condition
    assert not _selects(c[:-1], x[:-1], x[:-1])  # small: numpy's where is quicker
    assert not _selects(c, x, np.ones((1,), np.float32))  # y broadcasts: numpy's where


def test_where_passes_its_gradient_through_either_branch():
    rng = np.random.default_rng(0)
    x = ek.constant(rng.normal(size=(_SELECT_FROM,)).astype(np.float32))
    y = ek.constant(rng.normal(size=(_SELECT_FROM,)).astype(np.float32))
    condition = x > y
    with ek.GradientTape() as tape:
        tape.watch([x, y])
        chosen = ek.where(condition, x, y)
        loss = ek.reduce_sum(chosen * chosen)
    dx, dy = tape.gradient(loss, [x, y])
    np.testing.assert_array_equal(chosen.numpy(), np.maximum(x.numpy(), y.numpy()))
    np.testing.assert_array_equal(dx.numpy(), np.where(condition.numpy(), 2 * x.numpy(), 0))
    np.testing.assert_array_equal(dy.numpy(), np.where(condition.numpy(), 0, 2 * y.numpy()))

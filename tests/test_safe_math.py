"""TF's guarded functions at their guards: the values TF documents there, and gradients that
stay finite (first and second order) where the guard applies."""

import numpy as np
import pytest

import eagerkit as ek


def grads(fn, *args, order=1):
    xs = [ek.constant(np.asarray(a, np.float32)) for a in args]
    with ek.GradientTape(persistent=True) as outer:
        outer.watch(xs)
        with ek.GradientTape() as inner:
            inner.watch(xs)
            y = fn(*xs)
        first = inner.gradient(y, xs)
    if order == 1:
        return [g.numpy() for g in first]
    second = outer.gradient([g for g in first if g is not None], xs)
    return [g.numpy() for g in second if g is not None]


def test_the_no_nan_ops_are_zero_at_their_guards_and_so_are_their_gradients():
    assert ek.math.divide_no_nan([0.0, 1.0], [0.0, 0.0]).numpy().tolist() == [0.0, 0.0]
    assert ek.math.reciprocal_no_nan([0.0]).numpy().tolist() == [0.0]
    assert ek.math.multiply_no_nan([np.nan, np.inf], [0.0, 0.0]).numpy().tolist() == [0.0, 0.0]
    for fn, args in [
        (ek.math.divide_no_nan, ([1.0, 2.0], [0.0, 4.0])),
        (ek.math.xlogy, ([0.0, 2.0], [0.0, 3.0])),
        (ek.math.xdivy, ([0.0, 2.0], [0.0, 3.0])),
        (ek.math.xlog1py, ([0.0, 2.0], [-1.0, 3.0])),
    ]:
        for order in (1, 2):
            for g in grads(fn, *args, order=order):
                assert np.all(np.isfinite(g)), (fn.__name__, order, g)


def test_x_times_log_y_follows_tf_where_x_is_zero():
    assert ek.math.xlogy([0.0, 2.0], [0.0, np.e]).numpy() == pytest.approx([0.0, 2.0])
    assert ek.math.xdivy([0.0, 3.0], [0.0, 2.0]).numpy() == pytest.approx([0.0, 1.5])
    # TF: d/dx xlogy(x, y) = log(y) where x != 0, else 0; d/dy = x / y.
    gx, gy = grads(ek.math.xlogy, [0.0, 2.0], [3.0, 4.0])
    assert gx == pytest.approx([0.0, np.log(4.0)]) and gy == pytest.approx([0.0, 0.5])


def test_log_sigmoid_and_softsign_are_tf_s_and_stable():
    assert ek.math.log_sigmoid([-200.0, 0.0]).numpy() == pytest.approx([-200.0, np.log(0.5)])
    assert ek.nn.softsign([-3.0, 1.0]).numpy() == pytest.approx([-0.75, 0.5])
    assert grads(ek.nn.softsign, [-3.0, 1.0])[0] == pytest.approx([1 / 16, 1 / 4])
    assert ek.math.softsign is ek.nn.softsign


def test_is_nan_inf_finite_and_the_composites():
    values = [1.0, np.nan, np.inf]
    assert ek.math.is_nan(values).numpy().tolist() == [False, True, False]
    assert ek.math.is_inf(values).numpy().tolist() == [False, False, True]
    assert ek.math.is_finite(values).numpy().tolist() == [True, False, False]
    assert ek.math.reduce_euclidean_norm([[3.0, 4.0]], axis=1).numpy().tolist() == [5.0]
    assert ek.math.add_n([[1.0], [2.0], [3.0]]).numpy().tolist() == [6.0]
    assert ek.nn.relu6([-1.0, 3.0, 9.0]).numpy().tolist() == [0.0, 3.0, 6.0]
    assert ek.nn.swish is ek.nn.silu
    with pytest.raises(ValueError, match="add_n: inputs must be a non-empty list"):
        ek.math.add_n([])


def test_a_vjp_may_give_reshape_its_shape_by_position():
    from eagerkit.registry import defop

    @defop("flat_sum")  # unregistered after the test (tests/conftest.py)
    def flat_sum(xp, x):
        return xp.sum(xp.reshape(x, (-1,)))

    # ops.reshape(t, [-1]) as ek.reshape(t, [-1]) is written, on arrays and on tensors
    flat_sum.defvjp(lambda ops, g, ans, x: ops.reshape(ops.reshape(x, [-1]) * 0 + g, list(x.shape)))
    assert grads(flat_sum, [[1.0, 2.0], [3.0, 4.0]])[0].tolist() == [[1.0, 1.0], [1.0, 1.0]]
    assert grads(flat_sum, [[1.0, 2.0]], order=2)[0].tolist() == [[0.0, 0.0]]

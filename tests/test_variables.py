"""ek.Variable (reference A7) and the first optimizer's apply_gradients (A10)."""

import copy
import pickle

import numpy as np
import pytest

import eagerkit as ek


def test_repr_and_str():
    w = ek.Variable(5.0, name="weight")
    expected = "<ek.Variable 'weight:0' shape=() dtype=float32, numpy=5.0>"
    assert repr(w) == expected and str(w) == expected
    assert repr(ek.Variable([1.0, 2.0])) == (
        "<ek.Variable 'Variable:0' shape=(2,) dtype=float32, numpy=array([1., 2.], dtype=float32)>"
    )


def test_properties():
    w = ek.Variable([[1.0, 2.0]], name="w")
    assert w.name == "w:0" and w.shape == (1, 2) and w.dtype == ek.float32
    assert w.trainable is True
    assert ek.Variable(1.0, trainable=False).trainable is False
    assert ek.Variable(1, dtype=ek.float64).dtype == ek.float64
    assert ek.Variable(lambda: ek.ones([2])).shape == (2,)  # a callable initial value
    assert ek.Variable(1.0).name == ek.Variable(2.0).name == "Variable:0"  # not uniquified
    assert isinstance(w.numpy(), np.ndarray)


def test_arithmetic_on_a_variable_gives_a_tensor():
    w = ek.Variable(2.0)
    for result in (w * 2, w + 1, -w, w - 1.0, w.read_value(), ek.square(w)):
        assert type(result) is ek.Tensor
    assert float(w * 2) == 4.0


def test_assign_family_changes_the_value_in_place():
    w = ek.Variable(5.0)
    assert w.assign(2.0) is w
    assert float(w) == 2.0
    w.assign_add(1.5)
    assert float(w) == 3.5
    w.assign_sub(ek.constant(0.5))
    assert float(w) == 3.0
    assert w.assign(7.0, read_value=False) is None and float(w) == 7.0


def test_assign_does_not_change_tensors_read_earlier():
    w = ek.Variable([1.0, 2.0])
    before = w.read_value()
    w.assign([5.0, 6.0])
    assert before.numpy().tolist() == [1.0, 2.0]
    assert type(before) is ek.Tensor


@pytest.mark.parametrize(
    ("method", "value", "error", "message"),
    [
        ("assign", [1.0, 2.0], ek.errors.InvalidArgumentError, "has shape (2,) but the variable"),
        ("assign", ek.constant(1), ek.errors.InvalidArgumentError, "the value is int32 but"),
        ("assign_add", "one", ek.errors.InvalidArgumentError, "the string value 'one' to float"),
        ("assign_sub", ek.ones([3]), ek.errors.InvalidArgumentError, "shapes cannot change"),
    ],
)
def test_a_failed_assign_leaves_the_variable_unchanged(method, value, error, message):
    w = ek.Variable(5.0, name="weight")
    with pytest.raises(error) as info:
        getattr(w, method)(value)
    assert message in str(info.value)
    assert repr(w) == "<ek.Variable 'weight:0' shape=() dtype=float32, numpy=5.0>"


def test_a_read_before_an_assign_keeps_its_value_for_the_gradient():
    v = ek.Variable(3.0)
    with ek.GradientTape() as tape:
        y = v * v  # read at 3.0
        v.assign(10.0)
    assert float(tape.gradient(y, v)) == 6.0
    assert float(y) == 9.0


def test_reads_are_recorded_when_trainable():
    v = ek.Variable(3.0)
    with ek.GradientTape() as tape:
        y = v.read_value() * 2.0
    assert [r.op.name for r in tape.records] == ["read_variable", "identity", "multiply"]
    assert float(tape.gradient(y, v)) == 2.0


def test_variables_copy_but_do_not_pickle():
    w = ek.Variable([1.0], name="w")
    clone = copy.deepcopy(w)
    clone.assign([3.0])
    assert float(w) == 1.0 and clone.name == "w:0"
    with pytest.raises(TypeError, match="save them with ek.train.Checkpoint"):
        pickle.dumps(w)


# --- GradientDescentOptimizer.apply_gradients ---------------------------------------------------
def test_gradient_descent_updates_each_variable():
    w, b = ek.Variable([1.0, 2.0]), ek.Variable(0.5)
    optimizer = ek.train.GradientDescentOptimizer(learning_rate=0.1)
    optimizer.apply_gradients([(ek.constant([1.0, -1.0]), w), (ek.constant(2.0), b)])
    np.testing.assert_allclose(w.numpy(), [0.9, 2.1])
    assert float(b) == pytest.approx(0.3)


def test_none_gradients_are_skipped():
    a, b = ek.Variable(1.0), ek.Variable(0.0)
    ek.train.GradientDescentOptimizer(0.01).apply_gradients([(None, a), (ek.constant(1.0), b)])
    assert float(a) == 1.0
    assert float(b) == pytest.approx(-0.01)


def test_all_none_gradients_raise_and_change_nothing():
    a, b = ek.Variable(1.0, name="a"), ek.Variable(2.0, name="b")
    with pytest.raises(
        ValueError, match=r"No gradients provided for any variable: \['a:0', 'b:0'\]"
    ):
        ek.train.GradientDescentOptimizer(0.01).apply_gradients([(None, a), (None, b)])
    assert (float(a), float(b)) == (1.0, 2.0)


def test_a_bad_gradient_changes_no_variable():
    a, b = ek.Variable(1.0, name="a"), ek.Variable([2.0], name="b")
    optimizer = ek.train.GradientDescentOptimizer(0.5)
    with pytest.raises(ek.errors.InvalidArgumentError, match="gradient for 'b:0' has shape"):
        optimizer.apply_gradients([(ek.constant(1.0), a), (ek.constant([1.0, 1.0]), b)])
    assert float(a) == 1.0 and b.numpy().tolist() == [2.0]


def test_minimize_needs_a_callable():
    w = ek.Variable(3.0)
    optimizer = ek.train.GradientDescentOptimizer(0.1)
    with pytest.raises(RuntimeError, match="should be a function when eager execution is enabled"):
        optimizer.minimize(w * w)
    optimizer.minimize(lambda: w * w)
    assert float(w) == pytest.approx(3.0 - 0.1 * 6.0)


def test_implicit_gradients_feed_apply_gradients():
    w = ek.Variable(2.0)
    grad = ek.implicit_gradients(lambda x: (x - w) ** 2)
    optimizer = ek.train.GradientDescentOptimizer(0.25)
    for _ in range(20):
        optimizer.apply_gradients(grad(6.0))
    assert float(w) == pytest.approx(6.0, abs=1e-4)

"""The tfe function-style gradient API (reference A6): golden values and edge cases."""

import pytest

import eagerkit as ek


def _values(grads):
    return [None if g is None else float(g) for g in grads]


def f(x, y):
    return x**3 * y - x * y**2


def test_square_and_its_higher_derivatives():
    df = ek.gradients_function(lambda x: x * x)
    d2f = ek.gradients_function(lambda x: df(x)[0])
    d3f = ek.gradients_function(lambda x: d2f(x)[0])
    assert _values(df(3.0)) == [6.0]
    assert _values(d2f(3.0)) == [2.0]
    assert d3f(3.0) == [None]


def test_golden_values_of_x_cubed_y_minus_x_y_squared():
    value, grads = ek.value_and_gradients_function(f)(2.0, 3.0)
    assert float(value) == 6.0
    assert _values(grads) == [27.0, -4.0]
    df_dx = ek.gradients_function(f, params=[0])
    d2f_dx2 = ek.gradients_function(lambda x, y: df_dx(x, y)[0], params=[0])
    assert _values(d2f_dx2(2.0, 3.0)) == [36.0]
    assert _values(ek.gradients_function(f, params=[1])(2.0, 3.0)) == [-4.0]


def test_params_by_name():
    assert _values(ek.gradients_function(f, params=["y"])(2.0, 3.0)) == [-4.0]
    with pytest.raises(ValueError, match="'z' is not a parameter of f"):
        ek.gradients_function(f, params=["z"])(2.0, 3.0)


def test_params_out_of_range():
    with pytest.raises(IndexError, match="params asks for argument 5 but the function was called"):
        ek.gradients_function(f, params=[5])(2.0, 3.0)


def test_the_same_tensor_twice_gets_a_gradient_in_each_place():
    one = ek.constant(1.0)
    assert _values(ek.gradients_function(lambda x, y: x * y)(one, one)) == [1.0, 1.0]


def test_dy_weights_a_non_scalar_output():
    grad = ek.gradients_function(lambda x: x * ek.constant([1.0, 2.0]))
    assert _values(grad(3.0)) == [3.0]  # the sum of the outputs
    assert _values(grad(3.0, dy=ek.constant([2.0, 5.0]))) == [12.0]


def test_differentiated_arguments_become_tensors():
    seen = []

    def g(x, y):
        seen.append((type(x), type(y)))
        return x * y

    ek.gradients_function(g, params=[0])(2.0, 3.0)
    assert seen == [(ek.Tensor, float)]


def test_integer_arguments_get_none_with_a_warning():
    with pytest.warns(UserWarning, match="must be floating"):
        assert ek.gradients_function(lambda x: x * x)(3) == [None]


def test_function_with_a_name_argument_works_with_params():
    assert _values(ek.gradients_function(ek.sin)(0.0)) == [1.0]


def test_seed_abs_with_control_flow():
    grad = ek.gradients_function(lambda x: x if x > 0.0 else -x)
    assert _values(grad(2.0)) == [1.0]
    assert _values(grad(-2.0)) == [-1.0]


def test_implicit_gradients_of_the_slide_example():
    x = ek.Variable(2.0)

    def loss(y):
        return (y - x**2) ** 2

    assert float(loss(7.0)) == 9.0
    ((grad, variable),) = ek.implicit_gradients(loss)(7.0)
    assert variable is x
    assert float(grad) == -24.0


def test_implicit_gradients_come_in_variable_creation_order():
    a, b, c = ek.Variable(1.0), ek.Variable(2.0), ek.Variable(3.0)
    pairs = ek.implicit_gradients(lambda: c * b + a)()
    assert [v is w for (_, v), w in zip(pairs, [a, b, c], strict=True)] == [True, True, True]
    assert _values(g for g, _ in pairs) == [1.0, 3.0, 2.0]


def test_implicit_value_and_gradients():
    w = ek.Variable(3.0)
    value, pairs = ek.implicit_value_and_gradients(lambda x: w * x)(5.0)
    assert float(value) == 15.0
    assert float(pairs[0][0]) == 5.0 and pairs[0][1] is w


def test_implicit_gradients_skip_non_trainable_variables():
    w = ek.Variable(3.0)
    frozen = ek.Variable(2.0, trainable=False)
    pairs = ek.implicit_gradients(lambda: w * frozen)()
    assert len(pairs) == 1 and pairs[0][1] is w


def test_wrappers_keep_the_function_name():
    assert ek.gradients_function(f).__name__ == "f"
    assert ek.implicit_gradients(f).__name__ == "f"


def huber(t, m=1.0):
    """The CS20 Huber loss, written with Python control flow on a scalar tensor."""
    return t**2 if ek.abs(t) <= m else m * (2 * ek.abs(t) - m)


def test_huber_with_python_control_flow_per_example():
    grad = ek.gradients_function(huber, params=[0])
    assert _values(grad(0.5)) == [1.0]  # 2t inside
    assert _values(grad(3.0)) == [2.0]  # 2m outside
    assert _values(grad(-3.0)) == [-2.0]


def test_huber_on_a_batch_needs_where():
    with pytest.raises(ValueError, match="is ambiguous. Use ek.reduce_any"):
        huber(ek.constant([0.5, 3.0]))
    t = ek.constant([0.5, 3.0])
    batched = ek.where(ek.abs(t) <= 1.0, t**2, 2 * ek.abs(t) - 1.0)
    assert batched.numpy().tolist() == [0.25, 5.0]

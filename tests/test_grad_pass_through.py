"""ek.grad_pass_through (TF 2's tf.grad_pass_through): f's value forward, the upstream
gradient unchanged backward (the straight-through estimator); TF's own examples."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

QUANTIZERS = {
    "round": (ek.round, np.round),  # both round half to even
    "floor": (ek.floor, np.floor),
    "sign": (ek.sign, np.sign),
    "clip": (lambda x: ek.clip_by_value(x, -1.0, 1.0), lambda x: np.clip(x, -1.0, 1.0)),
}


@pytest.mark.parametrize("name", sorted(QUANTIZERS))
@settings(max_examples=30, deadline=None)
@given(
    x=hnp.arrays(
        np.float32, hnp.array_shapes(max_dims=2, max_side=4), elements=st.floats(-4, 4, width=32)
    ),
    scale=st.floats(-3, 3, width=32),
)
def test_value_is_fs_and_gradient_is_the_upstream_one(name, x, scale):
    f, reference = QUANTIZERS[name]
    v = ek.Variable(x)
    with ek.GradientTape() as tape:
        y = ek.grad_pass_through(f)(v)
        loss = ek.reduce_sum(y * scale)
    np.testing.assert_array_equal(y.numpy(), reference(x))
    np.testing.assert_allclose(tape.gradient(loss, v).numpy(), np.full(x.shape, scale, np.float32))


def test_the_ta_answer_round_straight_through():
    # TA D's 4.3: round_straight_through = ek.grad_pass_through(ek.round)
    round_straight_through = ek.grad_pass_through(ek.round)
    x = ek.constant([0.4, 1.5, 2.5, -0.6])
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = round_straight_through(x)
        loss = ek.reduce_sum(y * y)
    assert y.numpy().tolist() == [0.0, 2.0, 2.0, -1.0]
    assert tape.gradient(loss, x).numpy().tolist() == [0.0, 4.0, 4.0, -2.0]  # 2 y, passed on
    with ek.GradientTape() as tape:
        tape.watch(x)
        plain = ek.reduce_sum(ek.round(x))
    assert tape.gradient(plain, x) is None  # ek.round alone has no gradient (as TF's Round)


def test_tf_docs_example_assign_passes_the_gradient_to_its_argument():
    x = ek.Variable(1.0, name="x")
    z = ek.Variable(3.0, name="z")
    with ek.GradientTape() as tape:
        y = ek.grad_pass_through(x.assign)(z**2)  # y is 9.0
    assert float(y) == 9.0 and float(x) == 9.0
    assert float(tape.gradient(y, z)) == 6.0


def test_variables_f_reads_get_no_gradient_and_keywords_pass_on():
    w = ek.Variable(2.0)
    x = ek.Variable([1.0, -1.0])
    with ek.GradientTape() as tape:
        y = ek.grad_pass_through(lambda a: a * w)(x)
    grad_x, grad_w = tape.gradient(y, [x, w])
    assert grad_x.numpy().tolist() == [1.0, 1.0] and grad_w is None
    clipped = ek.grad_pass_through(ek.clip_by_value)(
        ek.constant([3.0, -3.0]), clip_value_min=-1.0, clip_value_max=1.0
    )
    assert clipped.numpy().tolist() == [1.0, -1.0]


def test_inside_ek_function():
    x = ek.Variable([0.3, 0.8])

    @ek.function
    def step():
        with ek.GradientTape() as tape:
            loss = ek.reduce_sum(ek.grad_pass_through(ek.round)(x) * 2.0)
        return tape.gradient(loss, x)

    assert step().numpy().tolist() == [2.0, 2.0]


def test_shape_changing_f_and_non_callables_are_refused():
    x = ek.Variable([1.0, 2.0])
    with ek.GradientTape() as tape:
        y = ek.grad_pass_through(ek.reduce_sum)(x)
    assert float(y) == 3.0  # the forward value is f's, as in TF
    with pytest.raises(InvalidArgumentError, match=r"reduce_sum turned shape \(2,\) into \(\)"):
        tape.gradient(y, x)
    with pytest.raises(TypeError, match="f must be a function of a tensor"):
        ek.grad_pass_through(3.0)

"""GradientTape semantics and golden values (reference A8)."""

import re
import warnings

import numpy as np
import pytest

import eagerkit as ek
from eagerkit import backprop


def _value(t):
    """A tensor, or a list of tensors and Nones, as plain Python values."""
    if isinstance(t, list):
        return [_value(item) for item in t]
    return None if t is None else t.numpy().tolist()


def test_gradient_of_square():
    x = ek.constant(3.0)
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    assert repr(tape.gradient(y, x)) == "<ek.Tensor: shape=(), dtype=float32, numpy=6.0>"


def test_non_persistent_tape_answers_once():
    x = ek.constant(3.0)
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)
    message = re.escape(
        "A non-persistent GradientTape can only be used to compute one set of gradients "
        "(or jacobians)"
    )
    with pytest.raises(RuntimeError, match=message):
        tape.gradient(y, x)
    with pytest.raises(RuntimeError, match=message):
        tape.jacobian(y, x)


def test_persistent_tape_answers_again_with_identical_values():
    x = ek.constant(3.0)
    with ek.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    assert float(tape.gradient(z, x)) == 108.0
    assert float(tape.gradient(y, x)) == 6.0
    assert float(tape.gradient(z, x)) == 108.0
    assert len(tape.records) == 2  # still there for more calls


def test_non_persistent_tape_frees_its_records():
    x = ek.constant(3.0)
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    assert len(tape.records) == 1
    tape.gradient(y, x)
    assert tape.records == []


def test_gradient_inside_a_persistent_tape_warns_and_records_itself():
    x = ek.constant(2.0)
    with pytest.warns(UserWarning, match="persistent tape inside its context is significantly"):
        with ek.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = x * x * x
            dy = tape.gradient(y, x)
    assert float(dy) == 12.0
    assert float(tape.gradient(dy, x)) == 12.0  # the gradient computation was recorded


def test_watching_an_int_warns_and_gives_none():
    x = ek.constant(3)
    with ek.GradientTape() as tape:
        with pytest.warns(UserWarning, match="The dtype of the watched tensor must be floating"):
            tape.watch(x)
        y = x * x
    assert tape.gradient(y, x) is None


def test_watch_rejects_non_tensors():
    with pytest.raises(ValueError, match="Passed in object of type float, not ek.Tensor"):
        ek.GradientTape().watch(3.0)


def test_watch_accepts_nests():
    a, b = ek.constant(1.0), ek.constant(2.0)
    with ek.GradientTape() as tape:
        tape.watch({"a": a, "b": [b]})
        y = a * b
    assert _value(tape.gradient(y, [a, b])) == [2.0, 1.0]


def test_trainable_variables_are_watched_when_read():
    v = ek.Variable(3.0)
    frozen = ek.Variable(4.0, trainable=False)
    with ek.GradientTape() as tape:
        y = v * frozen
    assert _value(tape.gradient(y, [v, frozen])) == [4.0, None]


def test_watch_accessed_variables_false_watches_only_what_is_asked():
    a, b = ek.Variable(1.0), ek.Variable(2.0)
    with ek.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(b)
        y = a * b
    assert _value(tape.gradient(y, [a, b])) == [None, 1.0]


def test_watched_variables_come_in_creation_order():
    first, second, third = ek.Variable(1.0), ek.Variable(2.0), ek.Variable(3.0)
    with ek.GradientTape() as tape:
        y = third * first
        y = y + second
    assert isinstance(tape.watched_variables(), tuple)
    assert [id(v) for v in tape.watched_variables()] == [id(first), id(second), id(third)]


def test_nested_tapes_give_the_derivatives_of_x_squared():
    x = ek.constant(3.0)
    with ek.GradientTape() as t1:
        t1.watch(x)
        with ek.GradientTape() as t2:
            t2.watch(x)
            with ek.GradientTape() as t3:
                t3.watch(x)
                y = x * x
            d1 = t3.gradient(y, x)
        d2 = t2.gradient(d1, x)
    d3 = t1.gradient(d2, x)
    assert (float(d1), float(d2), d3) == (6.0, 2.0, None)


@pytest.mark.parametrize(
    ("x0", "power", "first", "second"), [(5.0, 2, 10.0, 2.0), (1.0, 3, 3.0, 6.0)]
)
def test_second_derivatives_with_two_tapes(x0, power, first, second):
    x = ek.constant(x0)
    with ek.GradientTape() as outer:
        outer.watch(x)
        with ek.GradientTape() as inner:
            inner.watch(x)
            y = x**power
        dy_dx = inner.gradient(y, x)
    d2y_dx2 = outer.gradient(dy_dx, x)
    assert (float(dy_dx), float(d2y_dx2)) == (first, second)


def test_stop_recording():
    x = ek.constant(2.0)
    with ek.GradientTape() as tape:
        tape.watch(x)
        with tape.stop_recording():
            y = x**2
        z = x * 3.0
    assert tape.gradient([y, z], x).numpy() == 3.0


def test_stop_recording_outside_the_block_is_an_error():
    tape = ek.GradientTape()
    with pytest.raises(
        RuntimeError, match="Trying to stop recording a tape which is not recording."
    ):
        with tape.stop_recording():
            pass


def test_reset_forgets_the_records():
    x = ek.constant(2.0)
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        tape.reset()
        assert tape.records == []
        tape.watch(x)
        z = x * x * x
    assert float(tape.gradient(z, x)) == 12.0
    assert y.shape == ()


def test_unconnected_gradients():
    x, unused = ek.constant(2.0), ek.constant([1.0, 2.0])
    with ek.GradientTape(persistent=True) as tape:
        tape.watch([x, unused])
        y = x * x
    assert tape.gradient(y, unused) is None
    zero = tape.gradient(y, unused, unconnected_gradients="zero")
    assert zero.dtype == ek.float32 and _value(zero) == [0.0, 0.0]
    with pytest.raises(ValueError, match="unconnected_gradients must be 'none' or 'zero'"):
        tape.gradient(y, x, unconnected_gradients="one")


def test_sources_keep_their_structure():
    a, b, c = ek.constant(1.0), ek.constant(2.0), ek.constant(3.0)
    with ek.GradientTape() as tape:
        tape.watch([a, b, c])
        y = a * b * c
    grads = tape.gradient(y, {"first": a, "rest": [b, (c,)]})
    assert list(grads) == ["first", "rest"]
    assert float(grads["first"]) == 6.0
    assert isinstance(grads["rest"], list) and isinstance(grads["rest"][1], tuple)
    assert (float(grads["rest"][0]), float(grads["rest"][1][0])) == (3.0, 2.0)


def test_output_gradients_weight_the_targets():
    x = ek.constant([1.0, 2.0])
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    assert _value(tape.gradient(y, x, output_gradients=ek.constant([10.0, 100.0]))) == [20.0, 400.0]


def test_non_scalar_and_list_targets_mean_the_sum():
    x = ek.constant(2.0)
    with ek.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * [3.0, 4.0]
        z = x * x
    assert float(tape.gradient(y, x)) == 7.0
    assert float(tape.gradient([y, z], x)) == 11.0


def test_jacobian():
    x = ek.constant([1.0, 2.0])
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    jacobian = tape.jacobian(y, x)
    assert _value(jacobian) == [[2.0, 0.0], [0.0, 4.0]]


def test_jacobian_shape_is_target_shape_plus_source_shape():
    x = ek.constant(np.arange(6.0).reshape(2, 3))
    w = ek.constant(np.ones((3, 4)))
    with ek.GradientTape() as tape:
        tape.watch(w)
        y = ek.matmul(x, w)
    jacobian = tape.jacobian(y, w)
    assert jacobian.shape == (2, 4, 3, 4)
    # dy[i, j] / dw[k, l] = x[i, k] when j == l
    expected = np.einsum("ik,jl->ijkl", x.numpy(), np.eye(4))
    np.testing.assert_array_equal(jacobian.numpy(), expected)


def test_batch_jacobian():
    x = ek.constant([[1.0, 2.0], [3.0, 4.0]])
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    assert _value(tape.batch_jacobian(y, x)) == [
        [[2.0, 0.0], [0.0, 4.0]],
        [[6.0, 0.0], [0.0, 8.0]],
    ]


def test_fan_out_adds_the_gradients_of_every_use():
    x = ek.constant(3.0)
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = x * x + x + ek.sin(x) * x
    expected = 2 * 3.0 + 1 + np.cos(3.0) * 3.0 + np.sin(3.0)
    assert float(tape.gradient(y, x)) == pytest.approx(expected, rel=1e-6)


def test_long_chains_need_no_recursion():
    x = ek.constant(1.0)
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = x
        for _ in range(5000):
            y = y * 1.0001
    assert float(tape.gradient(y, x)) == pytest.approx(1.0001**5000, rel=1e-3)


def test_python_control_flow_takes_one_branch():
    grad = ek.gradients_function(lambda x: x if x > 0.0 else -x)
    assert _value(grad(3.0)) == [1.0]
    assert _value(grad(-3.0)) == [-1.0]


# --- where the gradient is None (A8's list) -------------------------------------------------
def test_none_when_a_variable_was_replaced_by_a_tensor():
    x = ek.Variable(2.0)
    x = x + 1  # now a Tensor: not a variable, so not watched
    with ek.GradientTape() as tape:
        y = x * x
    assert tape.gradient(y, x) is None


def test_none_when_the_value_went_through_numpy():
    x = ek.constant([1.0, 2.0])
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = ek.constant(np.mean(x))
    assert tape.gradient(y, x) is None


def test_none_for_integer_sources():
    x = ek.Variable(2)  # int32: never watched
    with ek.GradientTape() as tape:
        y = x * x
    assert tape.gradient(y, x) is None
    assert tape.watched_variables() == ()


def test_none_through_a_stateful_assign():
    x0, x1 = ek.Variable(2.0), ek.Variable(3.0)
    with ek.GradientTape() as tape:
        x1.assign_add(x0)
        y = x1**2
    assert tape.gradient(y, x0) is None


def test_none_for_the_branch_not_taken():
    x, other = ek.constant(1.0), ek.constant(5.0)
    with ek.GradientTape() as tape:
        tape.watch([x, other])
        y = x * 2.0 if float(x) > 0 else other * 2.0
    assert tape.gradient(y, other) is None


def test_none_for_unwatched_tensors_and_non_trainable_variables():
    x = ek.constant(1.0)
    frozen = ek.Variable(1.0, trainable=False)
    with ek.GradientTape() as tape:
        y = x * frozen
    assert _value(tape.gradient(y, [x, frozen])) == [None, None]
    assert tape.records == []


def test_stop_gradient_blocks_one_path():
    x = ek.constant(3.0)
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = x * ek.stop_gradient(x)
    assert float(tape.gradient(y, x)) == 3.0


def test_ops_are_recorded_only_on_tapes_that_watch_their_inputs():
    a, b = ek.constant(1.0), ek.constant(2.0)
    with ek.GradientTape() as outer:
        outer.watch(a)
        with ek.GradientTape() as inner:
            inner.watch(b)
            c = a + 1.0
            d = b * 2.0
    assert [r.op.name for r in outer.records] == ["add"]
    assert [r.op.name for r in inner.records] == ["multiply"]
    assert c.shape == d.shape == ()


class _Recorder:
    def __init__(self):
        self.records, self.steps = [], []

    def on_record(self, tape, record):
        self.records.append(record.op.name)

    def on_backward(self, tape, step):
        self.steps.append((step.index, step.record.op.name))


def test_listeners_see_records_and_backward_steps():
    x = ek.constant(2.0)
    recorder = _Recorder()
    with ek.GradientTape() as tape:
        tape.listeners.append(recorder)
        tape.watch(x)
        y = ek.exp(x * x)
    tape.gradient(y, x)
    assert recorder.records == ["multiply", "exp"]
    assert recorder.steps == [(1, "exp"), (0, "multiply")]


def test_no_warning_for_float_watch():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with ek.GradientTape() as tape:
            tape.watch(ek.constant(1.0))


def test_a_source_the_tape_never_watched_gets_none_even_if_an_op_read_it():
    a, b = ek.constant(2.0), ek.constant(5.0)
    with ek.GradientTape() as tape:
        tape.watch(a)
        y = a * b  # recorded (a is watched), but b itself is not
    grad_a, grad_b = tape.gradient(y, [a, b])
    assert float(grad_a) == 5.0
    assert grad_b is None


def test_watched_variables_are_still_listed_after_a_one_shot_gradient():
    w, b = ek.Variable(1.0, name="w"), ek.Variable(2.0, name="b")
    with ek.GradientTape() as tape:
        y = w * b
    tape.gradient(y, [w, b])
    assert [v.name for v in tape.watched_variables()] == ["w:0", "b:0"]


def test_a_variable_that_is_the_target_has_gradient_one_as_in_tf():
    v = ek.Variable([3.0, 4.0])
    with ek.GradientTape() as tape:
        pass  # never read inside the block: gradient() reads it on the tape, as TF does
    np.testing.assert_array_equal(tape.gradient(v, v).numpy(), [1.0, 1.0])
    w = ek.Variable(2.0)
    with ek.GradientTape() as tape:
        y = w * w
    assert [float(g) for g in tape.gradient([y, w], [w])] == [5.0]  # 2w + 1
    frozen = ek.Variable(1.0, trainable=False)
    with ek.GradientTape() as tape:
        pass
    assert tape.gradient(frozen, frozen) is None  # not watched: TF gives None too


def test_output_gradients_of_the_wrong_shape_are_refused_naming_both_shapes():
    x = ek.constant([1.0, 2.0])
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = x * 2.0
    with pytest.raises(ek.errors.InvalidArgumentError) as caught:
        tape.gradient(y, x, output_gradients=ek.constant([1.0, 2.0, 3.0]))
    message = str(caught.value)
    assert "output_gradients[0] has shape (3,)" in message
    assert "target has shape (2,)" in message


def test_a_variable_read_again_before_an_assign_is_one_read():
    w = ek.Variable([1.0, 2.0])
    x = ek.constant([3.0, 4.0])
    with ek.GradientTape(persistent=True) as tape:
        for _ in range(3):
            x = x * w  # three multiplies, one read of w
        w.assign([5.0, 6.0])
        z = x * w  # read again: the value changed
    names = [record.op.name for record in tape.records]
    assert names == ["read_variable", "multiply", "multiply", "multiply"] + [
        "read_variable",
        "multiply",
    ]
    # d/dw (x0 * w^3 * w_new) at the old w: 3 x0 w^2 * w_new; plus x0 w^3 for w_new's read.
    expected = 3 * np.array([3.0, 4.0]) * np.array([1.0, 4.0]) * [5.0, 6.0] + [3.0, 32.0]
    np.testing.assert_allclose(tape.gradient(z, w).numpy(), expected)


def test_fan_out_sums_every_path_also_where_sums_are_added_in_place():
    # Three or more paths: the sweep adds into a sum it made itself (nothing else holds it);
    # add's VJP hands one gradient to both its inputs, which must stay untouched.
    x = ek.constant([1.0, 2.0])
    s = ek.constant(3.0)  # 0-d: numpy sums of scalars are new objects, not arrays
    with ek.GradientTape(persistent=True) as tape:
        tape.watch([x, s])
        a = x * 1.0
        b = a + a
        y = x * x + x * x + x * x + x + (b + b) * s
        z = s * s + s * s + s * s + s
    gx, gs = tape.gradient(y, [x, s])
    np.testing.assert_allclose(gx.numpy(), 6 * np.array([1.0, 2.0]) + 1 + 4 * 3.0)
    assert float(gs) == 4 * (1.0 + 2.0)
    assert float(tape.gradient(z, s)) == 6 * 3.0 + 1
    with backprop.tensor_vjps():  # the reference mode never adds in place: same answers
        np.testing.assert_array_equal(tape.gradient(y, x).numpy(), gx.numpy())


@pytest.mark.parametrize(
    "make",
    [
        lambda w, b: [w, b],
        lambda w, b: (w, b),
        lambda w, b: [w, [b, w]],
        lambda w, b: {"w": w, "b": b},
        lambda w, b: [w, None],
        lambda w, b: [w, np.ones(2)],
        lambda w, b: [],
    ],
    ids=["list", "tuple", "nested", "dict", "None inside", "numpy inside", "empty"],
)
def test_flat_sources_answer_as_flatten_then_the_check(make):
    """tape._flat_sources takes a flat list of tensors as it is (the commonest sources): the
    same list (a copy) and the same errors as nest.flatten then the tensor check."""
    from eagerkit import nest
    from eagerkit.tape import _flat_sources, _tensors

    sources = make(ek.Variable([1.0, 2.0]), ek.constant([3.0, 4.0]))
    outcomes = []
    for flatten in (_flat_sources, lambda s: _tensors(nest.flatten(s), "sources", "gradient")):
        try:
            flat = flatten(sources)
        except ek.errors.InvalidArgumentError as error:
            outcomes.append(str(error))
        else:
            assert flat is not sources  # the caller's list is never the one handed on
            outcomes.append([id(x) for x in flat])
    assert outcomes[0] == outcomes[1]

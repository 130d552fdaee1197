"""Optimizers: two steps of every update rule against the formulas computed here with numpy,
the apply_gradients/minimize contract, and updates on another device."""

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.train import global_step as global_step_module

SIM = "/job:localhost/replica:0/task:0/device:SIM:0"  # TF's full name

W0 = np.array([1.0, -2.0, 0.5], dtype=np.float32)
G1 = np.array([0.3, -0.1, 2.0], dtype=np.float32)
G2 = np.array([-0.2, 0.4, 1.0], dtype=np.float32)


def two_steps(optimizer):
    """Apply G1 then G2 to a variable starting at W0; return its value after each step."""
    w = ek.Variable(W0)
    values = []
    for g in (G1, G2):
        optimizer.apply_gradients([(ek.constant(g), w)])
        values.append(w.numpy().copy())
    return w, values


def expected_gd(lr):
    w1 = W0 - lr * G1
    return [w1, w1 - lr * G2]


def expected_momentum(lr, mu, nesterov):
    w, accum, out = W0.astype(np.float64), np.zeros(3), []
    for g in (G1, G2):
        accum = mu * accum + g
        w = w - lr * (g + mu * accum) if nesterov else w - lr * accum
        out.append(w)
    return out


def expected_adam(lr, b1, b2, eps):
    w, m, v, out = W0.astype(np.float64), np.zeros(3), np.zeros(3), []
    for t, g in enumerate((G1, G2), start=1):
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g**2
        lr_t = lr * np.sqrt(1 - b2**t) / (1 - b1**t)
        w = w - lr_t * m / (np.sqrt(v) + eps)
        out.append(w)
    return out


def expected_rmsprop(lr, decay, mu, eps):
    w, ms, mom, out = W0.astype(np.float64), np.ones(3), np.zeros(3), []
    for g in (G1, G2):
        ms = decay * ms + (1 - decay) * g**2
        mom = mu * mom + lr * g / np.sqrt(ms + eps)
        w = w - mom
        out.append(w)
    return out


def expected_adagrad(lr, initial):
    w, accum, out = W0.astype(np.float64), np.full(3, initial), []
    for g in (G1, G2):
        accum = accum + g**2
        w = w - lr * g / np.sqrt(accum)
        out.append(w)
    return out


@pytest.mark.parametrize(
    "make, expected",
    [
        (lambda: ek.train.GradientDescentOptimizer(0.1), lambda: expected_gd(0.1)),
        (lambda: ek.train.MomentumOptimizer(0.1, 0.9), lambda: expected_momentum(0.1, 0.9, False)),
        (
            lambda: ek.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True),
            lambda: expected_momentum(0.1, 0.9, True),
        ),
        (lambda: ek.train.AdamOptimizer(0.01), lambda: expected_adam(0.01, 0.9, 0.999, 1e-8)),
        (
            lambda: ek.train.AdamOptimizer(0.1, beta1=0.5, beta2=0.75, epsilon=0.01),
            lambda: expected_adam(0.1, 0.5, 0.75, 0.01),
        ),
        (lambda: ek.train.RMSPropOptimizer(0.01), lambda: expected_rmsprop(0.01, 0.9, 0.0, 1e-10)),
        (
            lambda: ek.train.RMSPropOptimizer(0.05, decay=0.8, momentum=0.5, epsilon=1e-3),
            lambda: expected_rmsprop(0.05, 0.8, 0.5, 1e-3),
        ),
        (lambda: ek.train.AdagradOptimizer(0.5), lambda: expected_adagrad(0.5, 0.1)),
    ],
    ids=["sgd", "momentum", "nesterov", "adam", "adam-custom", "rmsprop", "rmsprop-mom", "adagrad"],
)
def test_two_steps_match_the_formulas(make, expected):
    w, values = two_steps(make())
    for got, want in zip(values, expected(), strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    assert w.dtype == ek.float32


def test_sgd_step_is_value_minus_rate_times_gradient_bit_for_bit():
    w = ek.Variable(W0)
    ek.train.GradientDescentOptimizer(0.1).apply_gradients([(ek.constant(G1), w)])
    np.testing.assert_array_equal(w.numpy(), W0 - np.float32(0.1) * G1)


@pytest.mark.parametrize(
    "make",
    [
        lambda: ek.train.GradientDescentOptimizer(0.1),
        lambda: ek.train.MomentumOptimizer(0.1, 0.9),
        lambda: ek.train.AdamOptimizer(0.1),
        lambda: ek.train.RMSPropOptimizer(0.1, momentum=0.5),
        lambda: ek.train.AdagradOptimizer(0.1),
    ],
    ids=["sgd", "momentum", "adam", "rmsprop", "adagrad"],
)
def test_a_step_leaves_what_was_read_before_it_unchanged(make):
    # An update may compute into a fresh buffer, never into an array someone else holds.
    optimizer, w, g = make(), ek.Variable(W0), ek.constant(G1)
    optimizer.apply_gradients([(g, w)])  # the slots exist from here on
    held = [w.numpy(), w.read_value(), ek.identity(w), w * 1.0, g]
    slots = [optimizer.get_slot(w, name) for name in optimizer.get_slot_names()]
    held += [slot.numpy() for slot in slots] + [slot.read_value() for slot in slots]
    copies = [np.array(x) for x in held]
    optimizer.apply_gradients([(g, w)])
    assert not np.array_equal(w.numpy(), copies[0])  # the variable did change
    for x, before in zip(held, copies, strict=True):
        np.testing.assert_array_equal(np.array(x), before)


def test_tf1_default_hyperparameters():
    adam = ek.train.AdamOptimizer()
    assert (adam.learning_rate, adam.beta1, adam.beta2, adam.epsilon) == (0.001, 0.9, 0.999, 1e-8)
    rms = ek.train.RMSPropOptimizer(0.01)
    assert (rms.decay, rms.momentum, rms.epsilon, rms.centered) == (0.9, 0.0, 1e-10, False)
    assert ek.train.AdagradOptimizer(0.1).initial_accumulator_value == 0.1


def test_centered_rmsprop_uses_the_variance():
    opt = ek.train.RMSPropOptimizer(0.1, centered=True)
    w = ek.Variable(W0)
    opt.apply_gradients([(ek.constant(G1), w)])
    ms = 0.9 + 0.1 * G1.astype(np.float64) ** 2
    mg = 0.1 * G1.astype(np.float64)
    np.testing.assert_allclose(w.numpy(), W0 - 0.1 * G1 / np.sqrt(ms - mg**2 + 1e-10), rtol=1e-5)
    assert opt.get_slot_names() == ["rms", "momentum", "mg"]


def test_slots_are_variables_and_iterations_counts():
    opt = ek.train.AdamOptimizer(0.01)
    w, _ = two_steps(opt)
    m, v = opt.get_slot(w, "m"), opt.get_slot(w, "v")
    assert isinstance(m, ek.Variable) and not m.trainable and m.shape == w.shape
    np.testing.assert_allclose(m.numpy(), 0.9 * 0.1 * G1 + 0.1 * G2, rtol=1e-5)
    assert int(opt.iterations) == 2 and opt.iterations.dtype == ek.int64
    assert {id(x) for x in opt.variables()} == {id(opt.iterations), id(m), id(v)}
    with pytest.raises(ek.errors.InvalidArgumentError, match="has no slot 'velocity'"):
        opt.get_slot(w, "velocity")


def test_none_gradients_are_skipped_and_all_none_raises():
    a, b = ek.Variable(1.0, name="a"), ek.Variable(2.0, name="b")
    opt = ek.train.GradientDescentOptimizer(0.01)
    opt.apply_gradients([(None, a), (ek.constant(1.0), b)])
    assert float(a) == 1.0 and float(b) == pytest.approx(1.99)
    with pytest.raises(
        ValueError, match=r"No gradients provided for any variable: \['a:0', 'b:0'\]"
    ):
        opt.apply_gradients([(None, a), (None, b)])


def test_a_failed_apply_changes_nothing():
    a, b = ek.Variable([1.0, 2.0]), ek.Variable([3.0])
    opt = ek.train.MomentumOptimizer(0.1, 0.9)
    opt.apply_gradients([(ek.constant([1.0, 1.0]), a), (ek.constant([1.0]), b)])
    before = [a.numpy().copy(), b.numpy().copy(), opt.get_slot(a, "momentum").numpy().copy()]
    with pytest.raises(ek.errors.InvalidArgumentError, match=r"has shape \(2,\).*shape \(1,\)"):
        opt.apply_gradients([(ek.constant([5.0]), b), (ek.constant([5.0, 5.0]), b)])
    after = [a.numpy(), b.numpy(), opt.get_slot(a, "momentum").numpy()]
    for x, y in zip(before, after, strict=True):
        np.testing.assert_array_equal(x, y)
    assert int(opt.iterations) == 1


def test_a_variable_listed_twice_gets_both_updates_in_order():
    in_two_calls = ek.train.MomentumOptimizer(0.1, 0.9)
    w_two_calls, _ = two_steps(in_two_calls)  # G1, then G2 in another call
    in_one_call = ek.train.MomentumOptimizer(0.1, 0.9)
    w = ek.Variable(W0)
    in_one_call.apply_gradients([(ek.constant(G1), w), (ek.constant(G2), w)])
    np.testing.assert_allclose(w.numpy(), w_two_calls.numpy(), rtol=1e-6)
    np.testing.assert_allclose(
        in_one_call.get_slot(w, "momentum").numpy(),
        in_two_calls.get_slot(w_two_calls, "momentum").numpy(),
        rtol=1e-6,
    )
    assert int(in_one_call.iterations) == 1  # still one step


def test_global_step_is_incremented(monkeypatch):
    monkeypatch.setattr(global_step_module, "_global_step", None)
    assert ek.train.get_global_step() is None
    step = ek.train.get_or_create_global_step()
    assert (step.dtype, step.name, step.trainable) == (ek.int64, "global_step:0", False)
    w = ek.Variable(1.0)
    opt = ek.train.GradientDescentOptimizer(0.1)
    for _ in range(3):
        opt.apply_gradients([(ek.constant(1.0), w)], global_step=step)
    assert int(step) == 3 and ek.train.get_global_step() is step


def test_minimize_takes_a_callable_and_refuses_a_tensor():
    w = ek.Variable(3.0)
    opt = ek.train.GradientDescentOptimizer(0.25)
    loss = opt.minimize(lambda: w * w)
    assert float(loss) == 9.0 and float(w) == 1.5
    with pytest.raises(
        RuntimeError,
        match="loss passed to Optimizer.compute_gradients should be a"
        " function when eager execution is enabled",
    ):
        opt.minimize(w * w)
    frozen = ek.Variable(1.0)
    opt.minimize(lambda: w * frozen, var_list=[frozen])
    assert float(w) == 1.5 and float(frozen) == pytest.approx(1.0 - 0.25 * 1.5)


def test_learning_rate_may_be_a_callable_and_must_be_a_number():
    rates = iter([0.1, 0.01])
    opt = ek.train.GradientDescentOptimizer(lambda: next(rates))
    w = ek.Variable(1.0)
    for _ in range(2):
        opt.apply_gradients([(ek.constant(1.0), w)])
    assert float(w) == pytest.approx(0.89)
    with pytest.raises(ek.errors.InvalidArgumentError, match="learning_rate must be a number >= 0"):
        ek.train.AdamOptimizer(-1.0)
    with pytest.raises(ek.errors.InvalidArgumentError, match="momentum must be a number"):
        ek.train.MomentumOptimizer(0.1, "fast")


def test_apply_gradients_checks_pairs():
    w = ek.Variable([1.0, 2.0])
    opt = ek.train.GradientDescentOptimizer(0.1)
    with pytest.raises(ek.errors.InvalidArgumentError, match="got a Tensor as the variable"):
        opt.apply_gradients([(ek.constant(1.0), ek.constant(1.0))])
    with pytest.raises(ek.errors.InvalidArgumentError, match="dtype float64.*dtype float32"):
        opt.apply_gradients([(ek.constant(np.array([1.0, 1.0])), w)])


def test_optimizer_updates_do_not_use_numpy_directly():
    """Update rules reach arrays only through the variable's namespace."""
    import inspect

    from eagerkit.train import adagrad, adam, lbfgs, momentum, optimizer, rmsprop

    for module in (adagrad, adam, lbfgs, momentum, optimizer, rmsprop):
        assert "import numpy" not in inspect.getsource(module), module.__name__


@pytest.mark.parametrize(
    "make",
    [
        lambda: ek.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True),
        lambda: ek.train.AdamOptimizer(0.01),
        lambda: ek.train.RMSPropOptimizer(0.01, momentum=0.5, centered=True),
        lambda: ek.train.AdagradOptimizer(0.5),
    ],
    ids=["nesterov", "adam", "rmsprop", "adagrad"],
)
def test_updates_stay_on_the_variables_device(make):
    """On the simulated GPU (which refuses host arrays) the same two steps give the same values."""
    ek.devices.enable_simulated_gpu()
    _, on_cpu = two_steps(make())
    optimizer = make()
    with ek.device("/sim:0"):
        w = ek.Variable(W0)
        for g in (G1, G2):
            optimizer.apply_gradients([(ek.constant(g), w)])
    assert w.device == SIM
    assert optimizer.get_slot(w, optimizer.slot_names[0]).device == SIM
    np.testing.assert_allclose(w.numpy(), on_cpu[-1], rtol=1e-6)

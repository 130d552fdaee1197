"""AdamW, Adadelta, Adamax, Nadam and weight_decay on every Keras optimizer, against the
update rules of Keras 2.11+ written out here in numpy (PyTorch too where it is installed;
it never has to be), plus optimizers.get, get_config/from_config (schedules and Keras'
own configs), the variables property, compile/fit/save by name, and refusals."""

import importlib.util

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import eagerkit as ek
from eagerkit import keras
from eagerkit.errors import InvalidArgumentError

opt = keras.optimizers


# --- the rules, step by step (t from 1), on float64 arrays -----------------------------------
def np_sgd(v, g, s, t, lr=0.01, momentum=0.0, nesterov=False):
    if not momentum:
        return v - lr * g
    s["velocity"] = momentum * s.get("velocity", 0.0) - lr * g
    return v + momentum * s["velocity"] - lr * g if nesterov else v + s["velocity"]


def np_adam(v, g, s, t, lr=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, amsgrad=False):
    s["m"] = s.get("m", 0.0) + (g - s.get("m", 0.0)) * (1 - beta_1)
    s["v"] = s.get("v", 0.0) + (g * g - s.get("v", 0.0)) * (1 - beta_2)
    second = s["v"]
    if amsgrad:
        s["vhat"] = second = np.maximum(s.get("vhat", 0.0), s["v"])
    alpha = lr * np.sqrt(1 - beta_2**t) / (1 - beta_1**t)
    return v - s["m"] * alpha / (np.sqrt(second) + epsilon)


def np_rmsprop(v, g, s, t, lr=0.001, rho=0.9, epsilon=1e-7):
    s["rms"] = rho * s.get("rms", 0.0) + (1 - rho) * g * g
    return v - lr * g / np.sqrt(s["rms"] + epsilon)  # Keras' rsqrt(velocity + epsilon)


def np_adagrad(v, g, s, t, lr=0.001, initial_accumulator_value=0.1, epsilon=1e-7):
    s["acc"] = s.get("acc", initial_accumulator_value) + g * g
    return v - lr * g / (np.sqrt(s["acc"]) + epsilon)


def np_adadelta(v, g, s, t, lr=0.001, rho=0.95, epsilon=1e-7):
    s["grad"] = rho * s.get("grad", 0.0) + (1 - rho) * g * g
    delta = -np.sqrt(s.get("delta", 0.0) + epsilon) * g / np.sqrt(s["grad"] + epsilon)
    s["delta"] = rho * s.get("delta", 0.0) + (1 - rho) * delta * delta
    return v + lr * delta


def np_adamax(v, g, s, t, lr=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7):
    s["m"] = s.get("m", 0.0) + (g - s.get("m", 0.0)) * (1 - beta_1)
    s["u"] = np.maximum(beta_2 * s.get("u", 0.0), np.abs(g))
    return v - lr * s["m"] / ((1 - beta_1**t) * (s["u"] + epsilon))


def np_nadam(v, g, s, t, lr=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7):
    u_t = beta_1 * (1 - 0.5 * 0.96**t)
    u_next = beta_1 * (1 - 0.5 * 0.96 ** (t + 1))
    s["product"] = s.get("product", 1.0) * u_t  # Keras' _u_product variable, step by step
    s["m"] = s.get("m", 0.0) + (g - s.get("m", 0.0)) * (1 - beta_1)
    s["v"] = s.get("v", 0.0) + (g * g - s.get("v", 0.0)) * (1 - beta_2)
    m_hat = u_next * s["m"] / (1 - s["product"] * u_next) + (1 - u_t) * g / (1 - s["product"])
    v_hat = s["v"] / (1 - beta_2**t)
    return v - lr * m_hat / (np.sqrt(v_hat) + epsilon)


RULES = {  # class: (numpy rule, keyword arguments of both)
    opt.SGD: (np_sgd, {"lr": 0.1, "momentum": 0.9, "nesterov": True}),
    opt.Adam: (np_adam, {"lr": 0.05, "amsgrad": True}),
    opt.RMSprop: (np_rmsprop, {"lr": 0.01}),
    opt.Adagrad: (np_adagrad, {"lr": 0.1}),
    opt.Adadelta: (np_adadelta, {"lr": 1.0, "rho": 0.9}),
    opt.Adamax: (np_adamax, {"lr": 0.02, "beta_2": 0.99}),
    opt.Nadam: (np_nadam, {"lr": 0.01}),
}


def _keras_kwargs(kwargs):
    return {("learning_rate" if k == "lr" else k): v for k, v in kwargs.items()}


def _run(cls, kwargs, gradients, start, weight_decay=None):
    w = ek.Variable(start)
    optimizer = cls(**_keras_kwargs(kwargs), weight_decay=weight_decay)
    for g in gradients:
        optimizer.apply_gradients([(ek.constant(g), w)])
    return w.numpy(), optimizer


def _reference(rule, kwargs, gradients, start, weight_decay=None):
    v, slots = start.copy(), {}
    for t, g in enumerate(gradients, start=1):
        if weight_decay:  # Keras 2.11+: decoupled, before the step, with the current rate
            v = v - v * weight_decay * kwargs["lr"]
        v = rule(v, g, slots, t, **kwargs)
    return v


GRADIENTS = hnp.arrays(
    np.float64,
    st.tuples(st.integers(1, 6), st.just(3)),
    elements=st.one_of(st.just(0.0), st.floats(-5, 5).filter(lambda x: abs(x) > 1e-3)),
)


@pytest.mark.parametrize("cls", list(RULES), ids=lambda c: c.__name__)
@settings(max_examples=25, deadline=None)
@given(gradients=GRADIENTS, weight_decay=st.sampled_from([None, 0.0, 0.1, 0.004]))
def test_each_rule_and_its_weight_decay_follow_keras(cls, gradients, weight_decay):
    rule, kwargs = RULES[cls]
    start = np.array([1.0, -2.0, 0.5])
    got, optimizer = _run(cls, kwargs, gradients, start, weight_decay)
    expected = _reference(rule, kwargs, gradients, start, weight_decay)
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-12)
    assert int(optimizer.iterations.numpy()) == len(gradients)


def test_adamw_is_adam_with_decoupled_decay():
    gradients = np.random.default_rng(3).normal(size=(5, 3))
    start = np.array([1.0, -2.0, 0.5])
    got, optimizer = _run(opt.AdamW, {"lr": 0.01}, gradients, start, weight_decay=0.2)
    expected = _reference(np_adam, {"lr": 0.01}, gradients, start, weight_decay=0.2)
    np.testing.assert_allclose(got, expected, rtol=1e-9)
    assert opt.AdamW().weight_decay == 0.004 and optimizer.get_slot_names() == ["m", "v"]


def test_weight_decay_uses_the_scheduled_rate_of_each_step():
    schedule = opt.schedules.ExponentialDecay(0.1, decay_steps=1, decay_rate=0.5)
    w = ek.Variable([2.0], dtype=ek.float64)
    sgd = opt.SGD(learning_rate=schedule, weight_decay=0.5)
    v = np.array([2.0])
    for step in range(3):
        sgd.apply_gradients([(ek.constant([1.0], dtype=ek.float64), w)])
        rate = float(np.float32(0.1)) * 0.5**step  # the schedule so far (float32, as TF's)
        v = v - v * 0.5 * rate - rate * 1.0
    np.testing.assert_allclose(w.numpy(), v, rtol=1e-12)


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="PyTorch not installed")
@pytest.mark.parametrize(
    "ours, theirs",
    [("Adamax", "Adamax"), ("Adadelta", "Adadelta"), ("AdamW", "AdamW")],
)
def test_rules_pytorch_also_has_agree_with_it(ours, theirs):  # pragma: no cover - no torch in CI
    import torch

    gradients = np.random.default_rng(0).normal(size=(6, 3))
    start = np.array([1.0, -2.0, 0.5])
    kwargs = {"lr": 0.05}
    decay = 0.004 if ours == "AdamW" else None  # AdamW requires one, as Keras'
    got, _ = _run(getattr(opt, ours), kwargs, gradients, start, weight_decay=decay)
    p = torch.nn.Parameter(torch.tensor(start))
    extra = {"eps": 1e-7, "rho": 0.95} if theirs == "Adadelta" else {"eps": 1e-7}
    extra = {**extra, "weight_decay": 0.004} if theirs == "AdamW" else extra
    torch_opt = getattr(torch.optim, theirs)([p], lr=0.05, **extra)
    for g in gradients:
        p.grad = torch.tensor(g)
        torch_opt.step()
    np.testing.assert_allclose(got, p.detach().numpy(), rtol=1e-4, atol=1e-6)


# --- get, configs, variables, compile --------------------------------------------------------
ALL = [opt.SGD, opt.Adam, opt.AdamW, opt.RMSprop, opt.Adagrad, opt.Adadelta, opt.Adamax, opt.Nadam]


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_get_finds_each_by_any_case_and_by_config(cls):
    for name in (cls.__name__, cls.__name__.lower(), cls.__name__.upper()):
        assert type(opt.get(name)) is cls
    made = opt.get(cls.__name__.lower(), learning_rate=0.25)
    assert made.learning_rate == 0.25
    config = {"class_name": cls.__name__, "config": made.get_config()}
    assert opt.get(config).get_config() == made.get_config()
    assert opt.get(made) is made


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_configs_round_trip_with_schedules_and_keras_extras(cls):
    schedule = opt.schedules.PiecewiseConstantDecay([2], [0.1, 0.01])
    optimizer = cls(learning_rate=schedule, weight_decay=0.01, clipnorm=1.0)
    config = optimizer.get_config()
    assert config["learning_rate"]["class_name"] == "PiecewiseConstantDecay"
    assert config["weight_decay"] == 0.01 and config["name"] == cls.__name__
    keras_written = {**config, "is_legacy_optimizer": False, "jit_compile": True, "use_ema": False}
    again = cls.from_config(keras_written)
    assert again.get_config() == config
    start = np.array([1.0, -2.0, 0.5])
    gradients = np.random.default_rng(1).normal(size=(4, 3))
    for one in (optimizer, again):
        w = ek.Variable(start)
        for g in gradients:
            one.apply_gradients([(ek.constant(g), w)])
        one.final = w.numpy()
    np.testing.assert_array_equal(optimizer.final, again.final)


def test_variables_is_a_list_that_can_also_be_called():
    adam = opt.Adam()
    assert adam.variables == [adam.iterations] and adam.variables() == adam.variables
    w = ek.Variable([1.0, 2.0])
    adam.apply_gradients([(ek.constant([1.0, 1.0]), w)])
    names = [v.name for v in adam.variables]
    assert names[0].startswith("iter") and len(names) == 3
    assert adam.variables[1] is adam.get_slot(w, "m")


@pytest.mark.parametrize("name", ["adamw", "nadam", "adadelta", "adamax", "Adam"])
def test_compile_by_name_fits_and_saves_the_optimizer(name, tmp_path):
    rng = np.random.default_rng(0)
    x, y = rng.random((16, 3)).astype("float32"), rng.random((16, 1)).astype("float32")
    model = keras.Sequential([keras.Input(shape=[3]), keras.layers.Dense(1)])
    model.compile(optimizer=name, loss="mse")
    model.fit(x, y, epochs=2, batch_size=8, verbose=0)
    path = str(tmp_path / "model.keras")
    model.save(path)
    again = keras.models.load_model(path)
    assert type(again.optimizer) is type(model.optimizer)
    assert again.optimizer.get_config() == model.optimizer.get_config()
    assert int(again.optimizer.iterations.numpy()) == 4
    model.fit(x, y, epochs=1, batch_size=8, verbose=0, shuffle=False)
    again.fit(x, y, epochs=1, batch_size=8, verbose=0, shuffle=False)
    np.testing.assert_allclose(again.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-6)


def test_a_scheduled_optimizer_now_saves_with_its_model(tmp_path):
    schedule = opt.schedules.ExponentialDecay(0.1, decay_steps=4, decay_rate=0.5)
    model = keras.Sequential([keras.Input(shape=[2]), keras.layers.Dense(1)])
    model.compile(optimizer=opt.AdamW(schedule, weight_decay=0.01), loss="mse")
    model.save(str(tmp_path / "m.keras"))
    loaded = keras.models.load_model(str(tmp_path / "m.keras")).optimizer
    assert type(loaded._schedule) is opt.schedules.ExponentialDecay
    assert loaded.get_config() == model.optimizer.get_config()


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda: opt.SGD(weight_decay=-0.1), "SGD: weight_decay must be a number >= 0"),
        (lambda: opt.Adam(weight_decay="l2"), "Adam: weight_decay must be a number >= 0"),
        (lambda: opt.AdamW(weight_decay=None), "AdamW: Missing value of `weight_decay`"),
        (lambda: opt.Adadelta(rho="x"), "rho must be a number >= 0"),
        (lambda: opt.Nadam(beta_1=None), "beta_1 must be a number >= 0"),
        (lambda: opt.get("adamm"), "Could not interpret optimizer identifier: 'adamm'"),
        (lambda: opt.get(3), "Could not interpret optimizer identifier: 3"),
        (lambda: opt.Adam.from_config("adam"), "config must be the dict get_config() returns"),
        (lambda: opt.SGD(lambda: 0.1).get_config(), "learning_rate is a function"),
    ],
)
def test_bad_arguments_are_refused_naming_the_call(make, words):
    with pytest.raises(InvalidArgumentError) as caught:
        make()
    assert words in str(caught.value)


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_a_refused_step_changes_nothing(cls):
    w, other = ek.Variable([1.0, 2.0]), ek.Variable([3.0])
    optimizer = cls(weight_decay=0.1)
    optimizer.apply_gradients([(ek.constant([1.0, 1.0]), w)])
    before = [v.numpy().copy() for v in (w, other, *optimizer.variables)]
    with pytest.raises(InvalidArgumentError):
        optimizer.apply_gradients(
            [(ek.constant([1.0, 1.0]), w), (ek.constant([1.0, 2.0]), other)]  # wrong shape
        )
    after = [v.numpy() for v in (w, other, *optimizer.variables)]
    assert all(np.array_equal(a, b) for a, b in zip(before, after, strict=True))

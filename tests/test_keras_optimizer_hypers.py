"""The Keras optimizers check and keep their hyperparameters in one place
(``KerasOptions._keep_hypers``) behind their own explicit Keras signatures."""

import inspect

import pytest

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

opt = ek.keras.optimizers

# class -> the hyperparameters it checks (a number >= 0, or a callable), with Keras' defaults
HYPERS = {
    opt.SGD: {"momentum": 0.0},
    opt.Adagrad: {"epsilon": 1e-7},
    opt.Adadelta: {"rho": 0.95, "epsilon": 1e-7},
    opt.Adamax: {"beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-7},
    opt.Nadam: {"beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-7},
}
CASES = [(cls, name) for cls, hypers in HYPERS.items() for name in hypers]


@pytest.mark.parametrize("cls", list(HYPERS), ids=lambda cls: cls.__name__)
def test_the_signature_names_each_hyperparameter_with_its_keras_default(cls):
    parameters = inspect.signature(cls).parameters
    for name, default in HYPERS[cls].items():
        assert parameters[name].default == default
    assert parameters["name"].default == cls.__name__
    assert not any(p.kind is p.VAR_KEYWORD for p in parameters.values())


@pytest.mark.parametrize("cls, name", CASES, ids=[f"{c.__name__}-{n}" for c, n in CASES])
@pytest.mark.parametrize("bad", [-0.5, "0.9", None, [0.9]])
def test_a_bad_hyperparameter_is_refused_with_its_keras_name(cls, name, bad):
    with pytest.raises(InvalidArgumentError, match=f"{cls.__name__}: {name} must be a number >= 0"):
        cls(**{name: bad})


@pytest.mark.parametrize("cls, name", CASES, ids=[f"{c.__name__}-{n}" for c, n in CASES])
def test_each_hyperparameter_is_kept_and_saved_under_its_keras_name(cls, name):
    optimizer = cls(**{name: 0.5})
    assert getattr(optimizer, name) == 0.5 and optimizer.get_config()[name] == 0.5
    again = cls.from_config(optimizer.get_config())
    assert getattr(again, name) == 0.5
    changing = cls(**{name: lambda: 0.25})  # a callable is read at each step, as TF's
    assert getattr(changing, name)() == 0.25

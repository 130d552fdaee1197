"""eagerkit's own Keras classes and functions by the names configs and ``compile`` use.

``layers()``, ``losses()``, ``metrics()``, ``optimizers()``, ``initializers()`` and
``activations()`` are the tables a config's names are looked up in after the user's own
(keras/serialization.py); ``function_name`` is the reverse, for saving a built-in function
by its name. The tables are built on first use: this module imports the whole of
``ek.keras``.

Examples
--------
>>> from eagerkit.keras import builtin_objects
>>> builtin_objects.layers()["Dense"].__name__, builtin_objects.optimizers()["adam"].__name__
('Dense', 'Adam')
"""

import functools
import inspect


@functools.cache
def layers():
    """Every layer and model class of ``ek.keras``, by class name (Keras' "Functional" too)."""
    from eagerkit.keras import functional, models
    from eagerkit.keras import layers as layer_module
    from eagerkit.keras.layers.op_lambda import TFOpLambda

    found = _classes(layer_module)
    found.update(
        TFOpLambda=TFOpLambda,
        Sequential=models.Sequential,
        Model=models.Model,
        Functional=functional.Functional,
    )
    return found


@functools.cache
def losses():
    """Loss classes and per-example loss functions, by name (``"mse"`` too)."""
    from eagerkit.keras import losses as loss_module

    found = _classes(loss_module)
    found.update(_functions(loss_module))
    return found


@functools.cache
def metrics():
    """Metric classes and metric functions, by name; loss functions count as metrics."""
    from eagerkit.keras import metrics as metric_module

    found = {**_functions(_loss_module()), **_functions(metric_module)}
    found.update(_classes(metric_module))
    return found


@functools.cache
def optimizers():
    """Optimizer classes by class name and by Keras' lower-case names (``"adam"``)."""
    from eagerkit.keras import optimizers as optimizer_module

    found = {}
    for name in optimizer_module.__all__:
        cls = getattr(optimizer_module, name)
        if name != "Optimizer":
            found[name] = found[name.lower()] = cls
    return found


@functools.cache
def initializers():
    """Initializer classes by class name (a saved layer's ``{"class_name": "HeNormal"}``)."""
    from eagerkit.keras import initializers as initializer_module

    return _classes(initializer_module)


@functools.cache
def activations():
    """Activation functions by the names layers accept (``"relu"``, ...)."""
    from eagerkit import nn  # the public functions, as activations.get returns them
    from eagerkit.keras.layers import activations as activation_module

    found = {name: getattr(nn, name) for name in activation_module._NAMES}
    found.update((name, getattr(activation_module, name)) for name in activation_module._OWN)
    return found  # (hard_sigmoid: not an ek.nn function)


def function_name(function):
    """The name a built-in activation, loss or metric function is saved under, or None."""
    wanted = _unwrapped(function)
    for table in (activations(), losses(), metrics()):
        for name, value in table.items():
            if _unwrapped(value) is wanted and not inspect.isclass(value):
                return name
    return None


def _unwrapped(function):
    """The function behind eagerkit's error boundary (the public name is a wrapper)."""
    return getattr(function, "__wrapped__", function)


def _loss_module():
    from eagerkit.keras import losses as loss_module

    return loss_module


def _classes(module):
    names = getattr(module, "__all__", None) or [n for n in vars(module) if not n.startswith("_")]
    values = ((name, getattr(module, name, None)) for name in names)
    return {name: value for name, value in values if inspect.isclass(value)}


def _functions(module):
    """The module's public functions (and aliases of them, such as ``mse``): its own and
    those it re-exports from the modules of ``ek.keras`` (hinge_losses.py, ...), not the
    ops it imports."""
    return {
        name: value
        for name, value in vars(module).items()
        if not name.startswith("_")
        and inspect.isfunction(value)
        and value.__module__.startswith("eagerkit.keras.")
    }

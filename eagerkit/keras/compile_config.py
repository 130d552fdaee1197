"""A compiled model's ``compile()`` settings, as ``model.save`` writes them and
``load_model`` compiles the loaded model with them again.

Names stay names; loss and metric objects are written as ``{"class_name", "config"}``
(their classes found again by name when loading, like layers); Keras' optimizers by
their ``get_config()``. What cannot be named is left out with a warning, and the
loaded model is then not compiled.

Examples
--------
>>> import eagerkit as ek
>>> model = ek.keras.Sequential([ek.keras.layers.Dense(1)])
>>> model.compile(optimizer=ek.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
>>> settings = saved(model)
>>> settings["optimizer"]["class_name"], settings["loss"], settings["metrics"]
('SGD', 'mse', ['mae'])
"""

import inspect
import warnings

from eagerkit.errors import InvalidArgumentError
from eagerkit.keras import builtin_objects
from eagerkit.keras.serialization import (
    deserialize_keras_object,
    get_registered_name,
    lookup,
    serialize_keras_object,
)


def saved(model):
    """The compile() settings as JSON-able data, or None (with a warning) when some
    setting cannot be named in a config."""
    state = vars(model).get("_compiled")
    if state is None:
        return None
    loss, metrics, loss_weights, weighted_metrics = state.specs
    try:
        return {
            "optimizer": _optimizer_config(model.optimizer),
            "loss": _spec(loss),
            "metrics": _spec(metrics),
            "loss_weights": loss_weights,
            "weighted_metrics": _spec(weighted_metrics),
        }
    except InvalidArgumentError as error:
        warnings.warn(
            f"the model was saved without its compile() settings: {error}. Load it with "
            "load_model(path, compile=False) and compile it again",
            stacklevel=3,
        )
        return None


def _spec(spec):
    if isinstance(spec, dict):
        return {"dict": {key: _spec(value) for key, value in spec.items()}}
    if isinstance(spec, (list, tuple)):
        return [_spec(item) for item in spec]
    if spec is None or isinstance(spec, str) or callable(spec) and not hasattr(spec, "__dict__"):
        return serialize_keras_object(spec)
    if hasattr(spec, "get_config") or inspect.isfunction(spec):
        return serialize_keras_object(spec)
    return {"class_name": _metric_name(spec), "config": {"name": spec.name}}


def _metric_name(metric):
    return get_registered_name(type(metric))


def _unspec(spec, table, what, custom_objects):
    """A compile() argument back from ``_spec``: names stay names (compile looks them up,
    and names its metrics after them), configs become objects."""
    if spec is None or isinstance(spec, str):
        return spec
    if isinstance(spec, list):
        return [_unspec(item, table, what, custom_objects) for item in spec]
    if isinstance(spec, dict) and "dict" in spec:
        return {k: _unspec(v, table, what, custom_objects) for k, v in spec["dict"].items()}
    if isinstance(spec, dict) and what == "metric":
        return lookup(spec["class_name"], "metric", custom_objects, table)(**spec["config"])
    return deserialize_keras_object(spec, table, custom_objects, what)


def arguments(settings, custom_objects):
    metrics = builtin_objects.metrics()
    optimizer = settings["optimizer"]
    cls = lookup(optimizer["class_name"], "optimizer", custom_objects, builtin_objects.optimizers())
    return {
        "optimizer": (
            cls.from_config(optimizer["config"])
            if hasattr(cls, "from_config")
            else cls(**optimizer["config"])
        ),
        "loss": _unspec(settings.get("loss"), builtin_objects.losses(), "loss", custom_objects),
        "metrics": _unspec(settings.get("metrics"), metrics, "metric", custom_objects),
        "loss_weights": settings.get("loss_weights"),
        "weighted_metrics": _unspec(
            settings.get("weighted_metrics"), metrics, "metric", custom_objects
        ),
    }


def _optimizer_config(optimizer):
    """``{"class_name", "config"}`` of an optimizer: Keras' own (and any with get_config)
    by ``get_config()``, which holds its constructor's arguments."""
    if hasattr(optimizer, "get_config"):
        return serialize_keras_object(optimizer)
    raise InvalidArgumentError(
        f"the optimizer {optimizer!r} is not one of ek.keras.optimizers (SGD, Adam, AdamW, "
        "RMSprop, ...) and has no get_config()",
        op="save",
    )

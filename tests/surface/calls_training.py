"""Valid calls of Keras' training API (ek/keras-training): a model's compile, fit, evaluate,
predict and their per-batch and per-step parts, saving and loading, configs, callbacks,
``ek.keras.models``, ``ek.keras.utils`` and what each layer, metric and optimizer gained
(get_config/from_config, get_weights/set_weights, add_loss/add_metric).

Every model is small: what a layer table builds (one Dense of 2 units) on 4x3 float32 data.
Files are written into new directories of the test's scratch directory.
"""

import json
import os

import numpy as np

import eagerkit as ek

from . import declare, walk
from .declare import call, fresh

X = ek.constant(np.arange(12, dtype=np.float32).reshape(4, 3) / 12.0)  # [4, 3]
Y = ek.constant(np.full((4, 2), 0.5, dtype=np.float32))  # what a Dense(2) is fit to
_counter = [0]


def directory():
    """A new directory in the scratch directory, for one call's files."""
    _counter[0] += 1
    path = f"training-{os.getpid()}-{_counter[0]}"
    os.makedirs(path)
    return path


def sequential():
    model = ek.Sequential([ek.keras.Input(shape=[3]), ek.keras.layers.Dense(2)])
    model(X)  # built
    return model


def compiled(make=sequential):
    def made():
        model = make()
        model.compile(optimizer="sgd", loss="mse")
        return model

    return made


def fitted(make=sequential):
    def made():
        model = compiled(make)()
        model.fit(X, Y, epochs=1, verbose=0)
        return model

    return made


def _is_float(r):
    return isinstance(r, float)


def _weights_path(make):
    def saved():
        path = os.path.join(directory(), "ckpt")
        make().save_weights(path)
        return path

    return saved


def model_methods(make):
    """Templates of a model's training methods, on models ``make`` builds (built, 3 -> 2)."""
    return {
        "compile": call(optimizer="sgd", loss="mse", on=make, check=lambda r: r is None),
        "fit": call(
            X,
            Y,
            epochs=2,
            verbose=0,
            on=compiled(make),
            check=lambda r: len(r.history["loss"]) == 2,
        ),
        "evaluate": call(X, Y, verbose=0, on=compiled(make), check=_is_float),
        "predict": call(X, verbose=0, on=make, check=lambda r: tuple(r.shape) == (4, 2)),
        "train_on_batch": call(X, Y, on=compiled(make), check=_is_float),
        "test_on_batch": call(X, Y, on=compiled(make), check=_is_float),
        "predict_on_batch": call(X, on=make, check=lambda r: tuple(r.shape) == (4, 2)),
        "train_step": call((X, Y), on=compiled(make), check=lambda r: "loss" in r, strict=True),
        "test_step": call((X, Y), on=compiled(make), check=lambda r: "loss" in r, strict=True),
        "predict_step": call(X, on=make, check=lambda r: tuple(r.shape) == (4, 2), strict=True),
        "compute_loss": call(X, Y, ek.zeros([4, 2]), on=compiled(make), strict=True),
        "compute_metrics": call(X, Y, ek.zeros([4, 2]), None, on=compiled(make), strict=True),
        "get_metrics_result": call(on=fitted(make), check=lambda r: "loss" in r),
        "reset_metrics": call(on=fitted(make)),
        "save": call(fresh(lambda: os.path.join(directory(), "model.keras")), on=make),
        "save_weights": call(fresh(lambda: os.path.join(directory(), "ckpt")), on=make),
        "load_weights": call(fresh(_weights_path(make)), on=make, repeatable=False),
        "get_layer": call(index=0, on=make, check=lambda r: isinstance(r, ek.keras.layers.Layer)),
        "to_json": call(on=make, check=lambda r: isinstance(json.loads(r), dict)),
        "get_config": call(on=make, check=lambda r: isinstance(r, dict)),
        "from_config": call(fresh(lambda: make().get_config())),
        "get_weights": call(on=make, check=lambda r: len(r) == 2),
        "set_weights": call(fresh(lambda: make().get_weights()), on=make),
    }


def layer_methods(built):
    """Templates of what every layer gained, on a layer ``built`` makes (called once)."""
    return {
        "get_config": call(on=built, check=lambda r: isinstance(r, dict)),
        "from_config": call(fresh(lambda: built().get_config())),
        "get_weights": call(on=built, check=lambda r: isinstance(r, list)),
        "set_weights": call(fresh(lambda: built().get_weights()), on=built),
        "add_loss": call(ek.constant(1.0)),
        "add_metric": call(ek.constant(1.0), name="mean_activation"),
    }


def config_methods(make):
    """get_config/from_config of a metric, loss or optimizer ``make`` builds."""
    return {
        "get_config": call(on=make, check=lambda r: isinstance(r, dict)),
        "from_config": call(fresh(lambda: make().get_config())),
    }


def callback_methods(make):
    """Templates of a callback's hooks and setters, on callbacks ``make`` builds."""
    templates = {
        "set_model": call(fresh(sequential), on=make),
        "set_params": call({"epochs": 1, "steps": 1, "verbose": 0}, on=make),
        "__repr__": call(on=make, check=lambda r: isinstance(r, str)),
        # ReduceLROnPlateau's: no reduction yet, so no cooldown
        "in_cooldown": call(on=_with_model(make), check=lambda r: r is False),
    }
    for stage in ("train", "test", "predict"):
        templates[f"on_{stage}_begin"] = call(on=_with_model(make))
        templates[f"on_{stage}_end"] = call(on=_with_model(make))
        templates[f"on_{stage}_batch_begin"] = call(0, on=_with_model(make))
        templates[f"on_{stage}_batch_end"] = call(0, {"loss": 0.5}, on=_with_model(make))
    for when in ("begin", "end"):
        templates[f"on_epoch_{when}"] = call(0, {"loss": 0.5}, on=_with_model(make))
        templates[f"on_batch_{when}"] = call(0, {"loss": 0.5}, on=_with_model(make))
    return templates


def _make(name, declared):
    args, kwargs = declare.arguments(declared)
    return _CLASSES[name].target(*args, **kwargs)


def _with_model(make):
    def made():
        callback = make()
        callback.set_model(compiled()())
        callback.set_params({"epochs": 1, "steps": 1, "verbose": 0})
        callback.on_train_begin()
        callback.on_epoch_begin(0)
        return callback

    return made


def _saved_model():
    path = os.path.join(directory(), "model.keras")
    compiled()().save(path)
    return path


def _progbar():
    return ek.keras.utils.Progbar(4, verbose=0)


@ek.keras.utils.register_keras_serializable(package="Surface")
def _registered(x):
    return x


def _square():
    def square(x):
        return x * x

    return square


# What a functional model (what ek.Model(inputs, outputs) returns) has of the training API.
FUNCTIONAL_METHODS = """add_loss add_metric compile compute_loss compute_metrics evaluate fit
from_config get_config get_metrics_result get_weights load_weights predict predict_on_batch
predict_step reset_metrics save save_weights set_weights test_on_batch test_step to_json
train_on_batch train_step""".split()

CALLBACKS = {  # callback class: its construction
    "ek.keras.callbacks.Callback": call(),
    "ek.keras.callbacks.History": call(),
    "ek.keras.callbacks.EarlyStopping": call(monitor="loss", patience=1),
    "ek.keras.callbacks.LambdaCallback": call(on_epoch_end=lambda epoch, logs: None),
    "ek.keras.callbacks.LearningRateScheduler": call(lambda epoch, rate: 0.1),
    "ek.keras.callbacks.ModelCheckpoint": call(
        fresh(lambda: os.path.join(directory(), "model.keras")), monitor="loss"
    ),
    "ek.keras.callbacks.ProgbarLogger": call(),
    "ek.keras.callbacks.TerminateOnNaN": call(),
    "ek.keras.callbacks.ReduceLROnPlateau": call(monitor="loss", patience=1),
    "ek.keras.callbacks.CSVLogger": call(fresh(lambda: os.path.join(directory(), "log.csv"))),
    "ek.keras.callbacks.TensorBoard": call(
        fresh(lambda: os.path.join(directory(), "logs")), histogram_freq=1, update_freq=1
    ),
}

CALLS = {
    "ek.keras.callbacks.CallbackList": call(
        fresh(lambda: [ek.keras.callbacks.History()]), check=lambda r: len(list(r)) == 1
    ),
    "ek.keras.callbacks.CallbackList.__iter__": call(check=lambda r: len(list(r)) == 1),
    "ek.keras.callbacks.CallbackList.call": call("on_train_begin"),
    "ek.keras.callbacks.CallbackList.set_model": call(fresh(sequential)),
    "ek.keras.utils.Progbar": call(4, verbose=0),
    "ek.keras.utils.Progbar.add": call(1, on=_progbar),
    "ek.keras.utils.Progbar.update": call(2, [("loss", 0.5)], on=_progbar),
    "ek.keras.utils.Progbar.final_line": call(4, on=_progbar, check=lambda r: isinstance(r, str)),
    "ek.keras.utils.CustomObjectScope": call({"registered": _registered}),
    "ek.keras.utils.get_custom_objects": call(check=lambda r: isinstance(r, dict)),
    "ek.keras.utils.register_keras_serializable": call(package="Surface", check=callable),
    "ek.keras.utils.register_keras_serializable()": call(
        fresh(_square), check=lambda r: ek.keras.utils.get_registered_name(r) == "Surface>square"
    ),
    "ek.keras.utils.get_registered_name": call(
        _registered, check=lambda r: r == "Surface>_registered"
    ),
    "ek.keras.utils.get_registered_object": call(
        "Surface>_registered", check=lambda r: r is _registered
    ),
    "ek.keras.utils.serialize_keras_object": call(
        fresh(lambda: ek.keras.layers.Dense(2)), check=lambda r: isinstance(r, dict)
    ),
    "ek.keras.utils.deserialize_keras_object": call(
        fresh(lambda: ek.keras.utils.serialize_keras_object(ek.keras.layers.Dense(2))),
        custom_objects={"Dense": ek.keras.layers.Dense},
        check=lambda r: isinstance(r, ek.keras.layers.Dense),
    ),
    "ek.keras.utils.set_random_seed": call(0, check=lambda r: r is None),
    "ek.keras.layers.serialize": call(
        fresh(lambda: ek.keras.layers.Dense(2)), check=lambda r: isinstance(r, dict)
    ),
    "ek.keras.layers.deserialize": call(
        fresh(lambda: ek.keras.layers.serialize(ek.keras.layers.Dense(2))),
        check=lambda r: isinstance(r, ek.keras.layers.Dense),
    ),
    "ek.keras.models.clone_model": call(
        fresh(sequential), check=lambda r: isinstance(r, ek.Sequential)
    ),
    "ek.keras.models.save_model": call(
        fresh(sequential), fresh(lambda: os.path.join(directory(), "model.keras"))
    ),
    "ek.keras.models.load_model": call(
        fresh(_saved_model), check=lambda r: isinstance(r, ek.Sequential), repeatable=False
    ),
    "ek.keras.models.model_from_config": call(
        fresh(lambda: ek.keras.utils.serialize_keras_object(sequential())),
        check=lambda r: isinstance(r, ek.Sequential),
    ),
    "ek.keras.models.model_from_json": call(
        fresh(lambda: sequential().to_json()), check=lambda r: isinstance(r, ek.Sequential)
    ),
    "ek.keras.backend.get_value": call(X, numpy=lambda x: x, strict=True),
    "ek.keras.backend.set_value": call(fresh(lambda: ek.Variable([1.0, 2.0])), [3.0, 4.0]),
    "ek.keras.backend.std": call(X, numpy=np.std),
    "ek.keras.backend.epsilon": call(check=lambda r: r == 1e-7),
    "ek.keras.backend.floatx": call(check=lambda r: r == "float32"),
    "ek.keras.backend.image_data_format": call(check=lambda r: r == "channels_last"),
    "ek.keras.utils.to_categorical": call(
        [0, 2, 1], numpy=lambda y: np.eye(3, dtype=np.float32)[y]
    ),
    "ek.keras.utils.pad_sequences": call(
        [[1], [2, 3]], check=lambda r: r.tolist() == [[0, 1], [2, 3]] and r.dtype == np.int32
    ),
    "ek.keras.utils.normalize": call(
        np.array([[3.0, 4.0]]), numpy=lambda x: x / np.linalg.norm(x, axis=-1, keepdims=True)
    ),
    "ek.keras.utils.timeseries_dataset_from_array": call(
        np.arange(6.0),
        np.arange(6),
        3,
        batch_size=2,
        check=lambda r: [y.numpy().tolist() for _, y in r] == [[0, 1], [2, 3]],
    ),
}
_CLASSES = walk.public_callables()
for _name, _declared in CALLBACKS.items():
    CALLS[_name] = _declared
    _templates = callback_methods(lambda n=_name, d=_declared: _make(n, d))
    for _entry in walk.methods(_name, _CLASSES[_name].target).values():
        CALLS[_entry.name] = _templates[_entry.attribute]

"""Saving a model: ``save_weights`` / ``load_weights``, ``save`` / ``load_model``, JSON.

Weights go through ``ek.train.Checkpoint`` (checksummed, written atomically, read without
pickle), keyed by the attributes that reach each variable, as TF's checkpoint format is;
a compiled model's optimizer state goes with them. A whole model adds its config and its
``compile()`` settings as JSON (keras/model_files.py). HDF5 (``.h5``) is refused: eagerkit
does not write it.

A failed load changes nothing: the checkpoint is read and matched against the model
whole before any variable is assigned; ``load_model`` builds a new model and returns it
only once its weights are in.

Examples
--------
>>> import eagerkit as ek, numpy as np, os, tempfile
>>> model = ek.keras.Sequential([ek.keras.Input(shape=[2]), ek.keras.layers.Dense(1)])
>>> folder = tempfile.mkdtemp()
>>> model.save(os.path.join(folder, "my_model.keras"))
>>> os.listdir(folder)
['my_model.keras']
>>> again = ek.keras.models.load_model(os.path.join(folder, "my_model.keras"))
>>> x = np.ones((1, 2), dtype="float32")
>>> bool((again.predict(x, verbose=0) == model.predict(x, verbose=0)).all())
True
"""

import json
import os

from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError, UnimplementedError
from eagerkit.keras import builtin_objects, compile_config, model_files
from eagerkit.keras.serialization import (
    custom_object_scope,
    deserialize_keras_object,
    serialize_keras_object,
)
from eagerkit.keras.taking_back import naming_the_call
from eagerkit.tensor import Tensor
from eagerkit.train.checkpoint import Checkpoint

_HDF5 = (".h5", ".hdf5")


class ModelSaving:
    """``save``, ``save_weights``, ``load_weights``, ``to_json`` (a base class of Model)."""

    def save_weights(self, filepath, overwrite=True, save_format=None, options=None):
        """Write the weights (and a compiled model's optimizer state) as a checkpoint
        ``filepath`` (files ``filepath.npz`` and ``filepath.index.json``)."""
        path = _checked_path(filepath, save_format, "save_weights")
        if not overwrite and os.path.exists(f"{path}.index.json"):
            raise InvalidArgumentError(
                f"save_weights: {path} exists and overwrite=False", op="save_weights"
            )
        ensure_built(self)
        _checkpoint(self).write(path)

    def load_weights(self, filepath, by_name=False, skip_mismatch=False, options=None):
        """Read weights written by ``save_weights``; returns the restore status
        (``assert_consumed()``, ...). A mismatch raises and changes nothing."""
        path = _checked_path(filepath, None, "load_weights")
        ensure_built(self)
        if by_name or skip_mismatch:
            raise UnimplementedError(
                "load_weights: by_name and skip_mismatch apply to HDF5 files, which eagerkit "
                "does not read; a checkpoint matches weights by the attributes that hold them, "
                f"so drop by_name={by_name!r:.30} and skip_mismatch={skip_mismatch!r:.30}",
                op="load_weights",
            )
        status = _checkpoint(self).read(path)
        if self.variables and not any(id(v) in status._matched for v in self.variables):
            raise InvalidArgumentError(
                f"load_weights: no value in {path} matches this model's weights (nothing was "
                "changed); load them into a model built the same way as the saved one, and check "
                "the path",
                op="load_weights",
            )
        return status

    def save(
        self,
        filepath,
        overwrite=True,
        zipped=None,
        include_optimizer=True,
        save_format=None,
        options=None,
        save_traces=True,
    ):
        """Save the whole model as one ``.keras`` file, as Keras 3 does (``zipped=False``:
        a folder); any other path is refused and nothing is written (see keras/model_files.py).
        """
        path = _checked_path(filepath, save_format, "save")
        model_files.check_destination(path, zipped, save_format)
        if not overwrite and os.path.exists(path):
            raise InvalidArgumentError(f"save: {path} exists and overwrite=False", op="save")
        ensure_built(self)
        description = {
            "model": serialize_keras_object(self),
            "compile": compile_config.saved(self) if include_optimizer else None,
            "build_input_shape": vars(self).get("_build_input_shape"),
        }
        json.dumps(description, default=model_files._json_value)  # fails here, before writing
        model_files.write(path, description, _checkpoint(self, include_optimizer).write)

    def to_json(self, **kwargs):
        """The model's config as a JSON string (``model_from_json`` rebuilds it)."""
        return json.dumps(serialize_keras_object(self), default=model_files._json_value, **kwargs)

    def build(self, input_shape):
        """Remember the input shape of the first call (a saved model is rebuilt with it)."""
        if isinstance(input_shape, Tensor) and not input_shape.dtype.is_integer:
            raise InvalidArgumentError(
                f"build: input_shape must be a shape, sizes such as (None, 3), got "
                f"{describe(input_shape)}; pass the shape of an input (x.shape), not the input",
                op="build",
            )
        vars(self)["_build_input_shape"] = _json_shape(input_shape)


@naming_the_call
def load_model(filepath, custom_objects=None, compile=True, safe_mode=True):  # noqa: A002
    """The model saved at ``filepath`` by ``model.save``: same config and weights, and,
    if it was compiled, compiled again with its optimizer's state (``compile=False``:
    not compiled). Classes not built into eagerkit must be registered
    (``register_keras_serializable``) or given in ``custom_objects``."""
    _checked_path(filepath, None, "load_model")
    description, prefix, cleanup = model_files.read(filepath)
    try:
        with custom_object_scope(custom_objects or {}):
            model = deserialize_keras_object(
                description.get("model"), builtin_objects.layers(), custom_objects, "layer"
            )
            ensure_built(model, description.get("build_input_shape"))
            settings = description.get("compile")
            if compile and settings:
                model.compile(**compile_config.arguments(settings, custom_objects))
        _checkpoint(model).read(prefix)
    finally:
        cleanup()
    return model


def save_model(
    model,
    filepath,
    overwrite=True,
    zipped=None,
    include_optimizer=True,
    save_format=None,
    **kwargs,
):
    """``model.save(filepath, ...)``."""
    model.save(
        filepath,
        overwrite=overwrite,
        zipped=zipped,
        include_optimizer=include_optimizer,
        save_format=save_format,
    )


def model_from_json(json_string, custom_objects=None):
    """The model a ``to_json()`` string describes, with fresh weights."""
    try:
        config = json.loads(json_string)
    except (TypeError, ValueError) as error:
        raise InvalidArgumentError(
            f"model_from_json: json_string is not JSON ({error}); pass the string "
            "model.to_json() returned",
            op="model_from_json",
        ) from None
    return deserialize_keras_object(config, builtin_objects.layers(), custom_objects, "layer")


def model_from_config(config, custom_objects=None):
    """The model a ``{"class_name", "config"}`` dict describes, with fresh weights."""
    return deserialize_keras_object(config, builtin_objects.layers(), custom_objects, "layer")


def clone_model(model, input_tensors=None, clone_function=None):
    """A new model like ``model`` (same config) with fresh weights, as Keras clones."""
    if input_tensors is not None or clone_function is not None:
        raise UnimplementedError(
            "clone_model: input_tensors and clone_function are not supported; call "
            "clone_model(model) alone: it rebuilds the model from its config",
            op="clone_model",
        )
    return model_from_config(serialize_keras_object(model))


def _checkpoint(model, include_optimizer=True):
    optimizer = getattr(model, "optimizer", None)
    if include_optimizer and optimizer is not None:
        return Checkpoint(model=model, optimizer=optimizer)
    return Checkpoint(model=model)


def _checked_path(filepath, save_format, caller):
    if not isinstance(filepath, (str, os.PathLike)):
        raise InvalidArgumentError(
            f"{caller}: filepath must be a path (a string), got {filepath!r:.80}", op=caller
        )
    path = os.fspath(filepath)
    if save_format in ("h5", "hdf5") or path.lower().endswith(_HDF5):
        raise UnimplementedError(
            f"{caller}: eagerkit does not write or read HDF5 (.h5) files. Use a path without "
            "that suffix: a TF-style checkpoint for weights (model.save_weights('ckpt')), a "
            "a .keras file for a whole model (model.save('my_model.keras'))",
            op=caller,
        )
    if save_format not in (None, "tf", "keras"):
        raise InvalidArgumentError(
            f"{caller}: unknown save_format {save_format!r}; use 'tf' (or leave it out)",
            op=caller,
        )
    if not path:
        raise InvalidArgumentError(
            f"{caller}: filepath is empty; pass the path to write or read (e.g. 'weights/ckpt')",
            op=caller,
        )
    return path


def ensure_built(model, shape=None):
    """Make the model's variables, as Keras has them once the input shape is known: with a
    call on zeros of that shape (the first call's, or a Sequential model's Input)."""
    if model.built:
        return
    shape = shape or vars(model).get("_build_input_shape")
    layers = getattr(model, "_tracked_layers", None)
    if shape is None and layers:  # Sequential: its Input, or its first layer's
        known = model.input_spec_shape or layers[0].input_spec_shape
        shape = None if not known else [None, *known]
        inputs = vars(layers[0]).get("inputs")  # a functional model knows its own
        if shape is None and isinstance(inputs, list) and len(inputs) == 1:
            shape = inputs[0].shape.as_list()
    if shape is None:
        return  # unknown until the first call: a restore waits for the variables
    from eagerkit.ops.creation import zeros

    graph = vars(model).get("_graph")  # a Sequential's Input says its dtype (ids, strings)
    dtype = graph.tensors[0].dtype if graph is not None else None

    def example(dims):
        return zeros([1 if d is None else d for d in dims], dtype=dtype or "float32")

    several = bool(shape) and isinstance(shape[0], (list, tuple))
    model(example(shape) if not several else [example(s) for s in shape])


def _json_shape(shape):
    if isinstance(shape, (list, tuple)) and shape and isinstance(shape[0], (list, tuple)):
        return [_json_shape(s) for s in shape]
    try:
        return [None if d is None else int(d) for d in shape]
    except (TypeError, ValueError):
        return None  # a structure no saved model needs to rebuild from

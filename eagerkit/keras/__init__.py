"""``ek.keras``: the Keras-style pieces, laid out as ``tf.keras``.

``layers``, ``Model``/``Sequential`` (``models``), ``Input`` (the functional API:
``Model(inputs, outputs)`` over layers called on ``Input`` tensors), ``initializers``,
``activations``, and
Keras' ``losses`` (``y_true, y_pred``), ``metrics`` (float32) and ``optimizers`` (``SGD``,
``Adam``, ... with ``learning_rate=``), weight ``regularizers`` (``L1``, ``L2``, ``L1L2``,
whose penalties layers add to ``model.losses``), weight ``constraints`` (``MaxNorm``,
``NonNeg``, ..., which optimizers apply after each update), and ``datasets.mnist``. TF1's
``tf.losses`` and ``tfe.metrics`` live here too, as ``tf1_losses`` and ``tf1_metrics``, and are what
``ek.losses`` and ``ek.metrics`` name, as the TF1 lessons expect. TF's Keras names eagerkit
lacks (``applications``, ``preprocessing``, ...) say so, with what to use instead
(missing_names.py).

Models train as in Keras: ``compile``, ``fit``, ``evaluate``, ``predict`` (training.py,
steps.py), with ``callbacks`` and a progress bar (progress.py); they save with
``save_weights`` / ``load_weights`` and ``save`` / ``models.load_model`` (model_saving.py),
custom classes registered through ``saving`` (or ``utils``).

Examples
--------
>>> import eagerkit as ek
>>> conv = ek.keras.layers.Conv2D(filters=64, kernel_size=3, padding="SAME")
>>> pool = ek.keras.layers.MaxPool2D(pool_size=2, strides=2, padding="SAME")
>>> imgs = ek.random_uniform(shape=(128, 32, 32, 3))
>>> pool(conv(imgs)).shape
TensorShape([128, 16, 16, 64])
"""

import sys

from eagerkit.keras import (
    backend,
    callbacks,
    constraints,
    datasets,
    initializers,
    layers,
    losses,
    metrics,
    models,
    optimizers,
    regularizers,
    saving,
    utils,
)
from eagerkit.keras.layers import activations
from eagerkit.keras.layers.input_layer import Input
from eagerkit.keras.models import Model, Sequential
from eagerkit.missing_names import attribute_error as _attribute_error


def __getattr__(name):
    raise _attribute_error(sys.modules[__name__], name)  # TF's names it lacks say so


__all__ = [
    "Input",
    "Model",
    "Sequential",
    "activations",
    "backend",
    "callbacks",
    "constraints",
    "datasets",
    "initializers",
    "layers",
    "losses",
    "metrics",
    "models",
    "optimizers",
    "regularizers",
    "saving",
    "utils",
]

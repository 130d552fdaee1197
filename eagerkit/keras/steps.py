"""One batch of Keras' loop: ``train_step``, ``test_step``, ``predict_step`` and the
``*_on_batch`` calls, which a subclass may override or call as in Keras (a base of
``Training``).

``train_step`` is the article's loop body: the forward pass under a GradientTape, the
compiled loss plus what layers added (``add_loss``), its gradients, one
``apply_gradients``; then the metrics, whose running values it returns as the logs.

Examples
--------
>>> import eagerkit as ek, numpy as np
>>> model = ek.keras.Sequential([ek.keras.layers.Dense(1, kernel_initializer="ones")])
>>> model.compile(optimizer=ek.keras.optimizers.SGD(0.1), loss="mse")
>>> model.train_on_batch(np.array([[1.0], [2.0]]), np.array([[1.0], [3.0]]))
0.5
>>> [round(float(w.sum()), 3) for w in model.get_weights()]  # one SGD step: w + 0.2, b + 0.1
[1.2, 0.1]
"""

import numpy as np

from eagerkit import nest
from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras import compiled, data_adapter
from eagerkit.keras.data_adapter import adapt, unpack_x_y_sample_weight
from eagerkit.keras.taking_back import all_or_nothing, naming_the_call
from eagerkit.tape import GradientTape
from eagerkit.tensor import Tensor, convert_to_tensor


class Steps:
    """Keras' batch-level methods (``Training`` builds its loops on them)."""

    @naming_the_call  # called directly, its errors lead with the user's call, as fit's do
    def train_step(self, data):
        """One training step on ``data`` = ``(x, y, sample_weight)``; returns the logs."""
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        with GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x, y, y_pred, sample_weight)
        variables = self.trainable_variables
        gradients = tape.gradient(loss, variables)
        self.optimizer.apply_gradients(zip(gradients, variables, strict=True))
        return self.compute_metrics(x, y, y_pred, sample_weight)

    @naming_the_call
    def test_step(self, data):
        """One evaluation step: the loss and metrics of a batch, no update."""
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        y_pred = self(x, training=False)
        self.compute_loss(x, y, y_pred, sample_weight)
        return self.compute_metrics(x, y, y_pred, sample_weight)

    @naming_the_call
    def predict_step(self, data):
        """The model's output on a batch's inputs."""
        x, _, _ = unpack_x_y_sample_weight(data)
        return self(x, training=False)

    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None):
        """The batch's total loss: the compiled one plus those layers added."""
        state = self._compile_state("compute_loss")
        y_pred = _predictions(y_pred)  # checked before the compiled loss learns its outputs
        state.ensure_built(y_pred)
        state.metrics.ensure_built(y, y_pred)  # a train_step of one's own may update them
        state.seen_data = True  # model.metrics lists the loss's and metrics' objects now
        state.track_added(self._added_metrics_now())
        return state.loss(y, y_pred, sample_weight, regularization_losses=self.losses)

    def compute_metrics(self, x, y, y_pred, sample_weight):
        """Update the compiled metrics with a batch; returns the logs."""
        state = self._compile_state("compute_metrics")
        state.ensure_built(y_pred)
        state.metrics.update_state(y, y_pred, sample_weight)
        state.seen_data = True
        return self.get_metrics_result()

    def get_metrics_result(self):
        """``{name: value}`` of every metric now (what callbacks receive as logs)."""
        return {metric.name: compiled.value_of(metric) for metric in self.metrics}

    @all_or_nothing
    def train_on_batch(
        self,
        x,
        y=None,
        sample_weight=None,
        class_weight=None,
        reset_metrics=True,
        return_dict=False,
    ):
        """One training step on one batch; returns its loss (and metrics)."""
        return self._on_batch(
            self.train_step,
            x,
            y,
            sample_weight,
            class_weight,
            reset_metrics,
            return_dict,
            "train_on_batch",
        )

    @all_or_nothing
    def test_on_batch(self, x, y=None, sample_weight=None, reset_metrics=True, return_dict=False):
        """The loss (and metrics) of one batch, without training."""
        return self._on_batch(
            self.test_step, x, y, sample_weight, None, reset_metrics, return_dict, "test_on_batch"
        )

    @all_or_nothing
    def predict_on_batch(self, x):
        """The model's outputs on one batch, as numpy arrays."""
        data = adapt(x, None, None, None, False, None, "predict_on_batch")
        return concatenated([self.predict_step(_whole_batch(data, "predict_on_batch"))])

    def _on_batch(self, step_function, x, y, sample_weight, class_weight, reset, as_dict, caller):
        self._compile_state(caller)
        data = adapt(x, y, sample_weight, None, False, class_weight, caller)
        if reset:
            self.reset_metrics()
        logs = python_values(step_function(_whole_batch(data, caller)))
        if as_dict:
            return logs
        values = [logs[name] for name in self.metrics_names]
        return values[0] if len(values) == 1 else values


def _whole_batch(data, caller):
    """All of ``data`` as one batch; no samples at all is refused (a step needs one)."""
    if isinstance(data, data_adapter.ArrayData):
        data.batch_size = max(data.size, 1)
    batch = next(iter(data.batches()), None)
    if batch is None:
        raise InvalidArgumentError(
            f"{caller}: the batch is empty (its first, sample axis has size 0); give at least "
            "one sample",
            op=caller,
        )
    return batch


def _predictions(y_pred):
    """``y_pred`` as the model's outputs: a tensor, or a list or dict of them (numpy arrays
    and a list of numbers become tensors); anything else is refused, naming what it is."""
    if data_adapter.numbers_only(y_pred) or isinstance(y_pred, np.ndarray):
        y_pred = convert_to_tensor(y_pred)
    leaves = nest.flatten(y_pred)
    if leaves and all(isinstance(leaf, (Tensor, np.ndarray)) for leaf in leaves):
        return nest.pack_sequence_as(y_pred, [convert_to_tensor(leaf) for leaf in leaves])
    raise InvalidArgumentError(
        f"compute_loss: y_pred must be the model's outputs on a batch, a tensor (or a list "
        f"or dict of them, one per output), got {describe(y_pred)}; pass y_pred = model(x), "
        "as train_step does",
        op="compute_loss",
    )


def python_values(logs):
    """The logs' values as Python floats (Keras gives callbacks plain numbers)."""
    return {name: _number(value) for name, value in logs.items()}


def _number(value):
    if hasattr(value, "numpy"):
        value = value.numpy()
    if isinstance(value, (np.ndarray, np.generic)) and np.ndim(value) == 0:
        return value.item()
    return value


def concatenated(batches):
    """Each output's batches joined along the batch axis, as numpy arrays."""
    first = batches[0]
    columns = zip(*(nest.flatten(batch) for batch in batches), strict=True)
    joined = [np.concatenate([np.asarray(part.numpy()) for part in column]) for column in columns]
    return nest.pack_sequence_as(first, joined)

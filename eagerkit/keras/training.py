"""``compile``, ``fit``, ``evaluate``, ``predict``: Keras' training loop (a base of ``Model``).

``fit`` runs, per epoch, a ``train_step`` per batch: a forward pass under a GradientTape,
the compiled loss (plus what layers added with ``add_loss``), its gradients, one
``optimizer.apply_gradients``; then the metrics. Everything runs eagerly, so a tape,
a widget or a debugger sees each op. Callbacks (keras/callback_base.py) are called around
each batch and epoch; a subclass may override ``train_step`` / ``test_step`` /
``predict_step`` as in Keras.

Examples
--------
>>> import eagerkit as ek, numpy as np
>>> ek.random.set_seed(0)
>>> x = np.linspace(-1, 1, 32, dtype="float32").reshape(-1, 1)
>>> model = ek.keras.Sequential([ek.keras.layers.Dense(1)])
>>> model.compile(optimizer=ek.keras.optimizers.SGD(0.5), loss="mse")
>>> history = model.fit(x, 3 * x + 1, epochs=20, batch_size=8, verbose=0)
>>> round(history.history["loss"][-1], 4), len(history.epoch)
(0.0, 20)
>>> np.round(model.predict(np.array([[0.5]]), verbose=0), 3)
array([[2.5]], dtype=float32)
"""

from eagerkit.errors import FailedPreconditionError, InvalidArgumentError
from eagerkit.keras import compile_utils, compiled, fit_arguments
from eagerkit.keras.data_adapter import EpochBatches, adapt, check_finite
from eagerkit.keras.steps import Steps, concatenated, python_values
from eagerkit.keras.taking_back import all_or_nothing


class Training(Steps):
    """Keras' training API for models (``Model`` inherits it)."""

    @all_or_nothing
    def compile(
        self,
        optimizer="rmsprop",
        loss=None,
        metrics=None,
        loss_weights=None,
        weighted_metrics=None,
        run_eagerly=None,
        steps_per_execution=None,
        jit_compile=None,
        **kwargs,
    ):
        """Choose the optimizer, the loss and the metrics that ``fit`` and ``evaluate`` use.

        Each may be given by name (``"adam"``, ``"sparse_categorical_crossentropy"``,
        ``"accuracy"``) or as an object; several outputs take a list or a dict by output
        name. Nothing changes if an argument is refused.
        """
        if kwargs:
            raise TypeError(
                f"Invalid keyword argument(s) in `compile()`: {sorted(kwargs)}. Valid keyword "
                "arguments are optimizer, loss, metrics, loss_weights, weighted_metrics, "
                "run_eagerly, steps_per_execution and jit_compile"
            )
        chosen = compile_utils.get_optimizer(optimizer)
        state = compiled.CompileState(
            loss, metrics, loss_weights, weighted_metrics, self._known_output_names()
        )
        self.optimizer, self.loss = chosen, loss  # checked: now the model changes
        vars(self)["_compiled"] = state
        self.stop_training = False

    @all_or_nothing
    def fit(
        self,
        x=None,
        y=None,
        batch_size=None,
        epochs=1,
        verbose="auto",
        callbacks=None,
        validation_split=0.0,
        validation_data=None,
        shuffle=True,
        class_weight=None,
        sample_weight=None,
        initial_epoch=0,
        steps_per_epoch=None,
        validation_steps=None,
        validation_batch_size=None,
        validation_freq=1,
    ):
        """Train for ``epochs`` passes over ``x``/``y`` (arrays or a Dataset); returns the
        ``History`` (also kept as ``model.history``)."""
        self._compile_state("fit")
        verbose = fit_arguments.verbosity(verbose)
        epochs = fit_arguments.whole(epochs, "epochs", 0)
        initial_epoch = fit_arguments.whole(initial_epoch, "initial_epoch", 0)
        steps_per_epoch = fit_arguments.steps(steps_per_epoch, "steps_per_epoch", "fit")
        validation_steps = fit_arguments.steps(validation_steps, "validation_steps", "fit")
        data = adapt(x, y, sample_weight, batch_size, shuffle, class_weight, "fit")
        data, validation = fit_arguments.with_validation(
            data, validation_data, validation_split, validation_batch_size or batch_size
        )
        check_finite(data, steps_per_epoch, "steps_per_epoch", "fit")
        check_finite(validation, validation_steps, "validation_steps", "fit", "validation_data")
        batches = EpochBatches(data, steps_per_epoch, epochs)
        fit_arguments.planned_epochs(epochs, initial_epoch, batches.steps)  # before any work
        callbacks = fit_arguments.callback_list(
            callbacks, self, verbose, epochs, batches.steps, history=True
        )
        self.stop_training = False
        callbacks.call("on_train_begin", {})
        epoch_logs = {}
        for epoch in range(initial_epoch, epochs):
            self.reset_metrics()
            callbacks.call("on_epoch_begin", epoch, {})
            logs = None
            for step, batch in batches.epoch():
                callbacks.call("on_train_batch_begin", step, {})
                logs = python_values(self.train_step(batch))
                callbacks.call("on_train_batch_end", step, logs)
                if self.stop_training:
                    break
            if logs is None:
                if batches.ran_out:
                    break
                raise InvalidArgumentError(
                    "fit: the training data is empty (no batch in this epoch); give at "
                    "least one sample",
                    op="fit",
                )
            callbacks.params["steps"] = batches.steps  # learned from a Dataset's first pass
            epoch_logs = dict(logs)
            if validation is not None and fit_arguments.validation_due(epoch, validation_freq):
                results = self._test_loop(validation, validation_steps, callbacks)
                epoch_logs.update({f"val_{name}": value for name, value in results.items()})
            callbacks.call("on_epoch_end", epoch, epoch_logs)
            if self.stop_training or batches.ran_out:
                break
        callbacks.call("on_train_end", epoch_logs)
        self.history = callbacks.history
        return callbacks.history

    @all_or_nothing
    def evaluate(
        self,
        x=None,
        y=None,
        batch_size=None,
        verbose="auto",
        sample_weight=None,
        steps=None,
        callbacks=None,
        return_dict=False,
    ):
        """The loss and metrics on ``x``/``y``: a number, a list in ``metrics_names`` order,
        or (``return_dict``) a dict."""
        self._compile_state("evaluate")
        verbose = fit_arguments.verbosity(verbose)
        steps = fit_arguments.steps(steps, "steps", "evaluate")
        data = adapt(x, y, sample_weight, batch_size, False, None, "evaluate")
        check_finite(data, steps, "steps", "evaluate")
        steps_known = data.steps if steps is None else steps
        callbacks = fit_arguments.callback_list(callbacks, self, verbose, 1, steps_known)
        logs = self._test_loop(data, steps, callbacks)
        if return_dict:
            return logs
        values = [logs[name] for name in self.metrics_names]
        return values[0] if len(values) == 1 else values

    @all_or_nothing
    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None):
        """The model's outputs on ``x`` (arrays or a Dataset), batch by batch, as numpy
        arrays (a list or dict of them for several outputs)."""
        verbose = fit_arguments.verbosity(verbose)
        steps = fit_arguments.steps(steps, "steps", "predict")
        data = adapt(x, None, None, batch_size, False, None, "predict")
        check_finite(data, steps, "steps", "predict")
        batches = EpochBatches(data, steps, 1, "predict")
        callbacks = fit_arguments.callback_list(callbacks, self, verbose, 1, batches.steps)
        callbacks.call("on_predict_begin", {})
        outputs = []
        for step, batch in batches.epoch():
            callbacks.call("on_predict_batch_begin", step, {})
            result = self.predict_step(batch)
            callbacks.call("on_predict_batch_end", step, {"outputs": result})
            outputs.append(result)
        callbacks.call("on_predict_end", {})
        if not outputs:
            raise InvalidArgumentError(
                "predict: the input is empty (0 samples, no batch to predict on); pass at "
                "least one sample (e.g. x[:1]), or check the slicing or filter that emptied it",
                op="predict",
            )
        return concatenated(outputs)

    @property
    def optimizer(self):
        """The optimizer ``compile`` chose (None before). It is saved with the weights by
        ``save_weights`` and ``save``, beside the model, not inside its checkpoint."""
        holder = vars(self).get("_optimizer")
        return None if holder is None else holder.optimizer

    @optimizer.setter
    def optimizer(self, optimizer):
        vars(self)["_optimizer"] = compiled.OptimizerHolder(optimizer)

    # --- metrics ------------------------------------------------------------------------
    @property
    def metrics(self):
        """The metric objects fit logs (the loss first); empty until data has been seen."""
        state = vars(self).get("_compiled")
        if state is None or not state.seen_data:
            return []
        return state.all_metrics()

    @property
    def metrics_names(self):
        """The names of ``metrics``: the keys of the logs and of ``History.history``."""
        return [metric.name for metric in self.metrics]

    @property
    def compiled_loss(self):
        """Keras 2's compiled loss, for a ``train_step`` of one's own:
        ``self.compiled_loss(y, y_pred, regularization_losses=self.losses)`` (None before
        ``compile``). Set up on its first call, from the predictions it is given."""
        state = vars(self).get("_compiled")
        return None if state is None else compiled.FirstCallBuilds(state, "loss")

    @property
    def compiled_metrics(self):
        """Keras 2's compiled metrics: ``self.compiled_metrics.update_state(y, y_pred)``."""
        state = vars(self).get("_compiled")
        return None if state is None else compiled.FirstCallBuilds(state, "metrics")

    def reset_metrics(self):
        """Start every metric afresh (fit does at each epoch, evaluate at its start)."""
        state = vars(self).get("_compiled")
        if state is not None:
            for metric in state.all_metrics():
                compiled.reset(metric)

    # --- helpers ------------------------------------------------------------------------
    def _compile_state(self, caller):
        state = vars(self).get("_compiled")
        if state is None:
            raise FailedPreconditionError(
                "You must compile your model before training/testing. Use "
                "`model.compile(optimizer, loss)`.",
                op=caller,
            )
        return state

    def _known_output_names(self):
        """The output names of a functional model; None until a call shows the others'."""
        outputs = vars(self).get("outputs")  # a Sequential model's graph names none
        if not isinstance(outputs, list):
            return None
        return [t.node.layer.name for t in outputs]

    def _test_loop(self, data, steps, callbacks):
        self.reset_metrics()
        callbacks.call("on_test_begin", {})
        logs = {}
        for step, batch in EpochBatches(data, steps, 1, "evaluate").epoch():
            callbacks.call("on_test_batch_begin", step, {})
            logs = python_values(self.test_step(batch))
            callbacks.call("on_test_batch_end", step, logs)
        callbacks.call("on_test_end", logs)
        return logs

"""The callback protocol: what ``fit``, ``evaluate`` and ``predict`` call, and when.

A callback is any object with some of Keras' hooks; ``ek.keras.callbacks.Callback`` has
them all, doing nothing, for subclasses to override. Objects outside Keras (eagerkit's
``LossCurve`` and ``GradientFlow`` widgets) implement just the hooks they need, with the
same names and arguments, without inheriting from anything here:

- ``set_model(model)``, ``set_params(params)`` before anything else (``params``:
  ``verbose``, ``epochs``, ``steps``);
- ``on_train_begin(logs)`` / ``on_train_end(logs)``, ``on_test_*``, ``on_predict_*``;
- ``on_epoch_begin(epoch, logs)`` / ``on_epoch_end(epoch, logs)`` (training only);
- ``on_train_batch_begin(batch, logs)`` / ``on_train_batch_end(batch, logs)``, and the
  same for ``test`` and ``predict``.

``logs`` is a dict: empty at the beginnings; at a training or test batch's end, the
running means of the loss and metrics over the epoch so far (``{"loss": 0.31, ...}``); at
an epoch's end, the epoch's values and the validation ones (``val_loss``, ...); at a
predict batch's end, ``{"outputs": ...}``.

Examples
--------
>>> import eagerkit as ek
>>> class Counter:  # no base class needed: only the hooks it uses
...     def on_train_batch_end(self, batch, logs):
...         self.batches = batch + 1
>>> counter = Counter()
>>> model = ek.keras.Sequential([ek.keras.layers.Dense(1)])
>>> model.compile(optimizer="sgd", loss="mse")
>>> _ = model.fit(ek.ones([8, 2]), ek.ones([8, 1]), batch_size=4, verbose=0,
...               callbacks=[counter])
>>> counter.batches
2
"""

from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras import hook_arguments

HOOKS = tuple(
    f"on_{what}_{when}"
    for what in (
        "train",
        "test",
        "predict",
        "epoch",
        "train_batch",
        "test_batch",
        "predict_batch",
        "batch",
    )
    for when in ("begin", "end")
)


class Callback:
    """Base class of Keras callbacks: every hook, doing nothing.

    ``self.model`` is the model being trained, evaluated or used; ``self.params`` the
    run's ``verbose``, ``epochs`` and ``steps``. ``on_train_batch_begin/end`` call
    ``on_batch_begin/end``, Keras' older names, so either may be overridden.
    """

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.__module__.startswith("eagerkit."):  # eagerkit's own; a user's stay as written
            for hook in HOOKS:
                if hook in vars(cls):
                    setattr(cls, hook, hook_arguments.checked(cls.__name__, hook, vars(cls)[hook]))

    def __init__(self):
        self.validation_data = None
        self.model = None
        self.params = {}

    def set_params(self, params):
        self.params = params

    def set_model(self, model):
        self.model = model

    def on_batch_begin(self, batch, logs=None):
        """A training batch starts (Keras' older name of ``on_train_batch_begin``)."""

    def on_batch_end(self, batch, logs=None):
        """A training batch ended (Keras' older name of ``on_train_batch_end``)."""

    def on_epoch_begin(self, epoch, logs=None):
        """An epoch of ``fit`` starts."""

    def on_epoch_end(self, epoch, logs=None):
        """An epoch of ``fit`` ended; ``logs`` has its metrics, validation ones too."""

    def on_train_batch_begin(self, batch, logs=None):
        self.on_batch_begin(batch, logs=logs)

    def on_train_batch_end(self, batch, logs=None):
        self.on_batch_end(batch, logs=logs)

    def on_test_batch_begin(self, batch, logs=None):
        """A batch of ``evaluate`` (or of fit's validation) starts."""

    def on_test_batch_end(self, batch, logs=None):
        """A batch of ``evaluate`` ended; ``logs`` has the running metrics."""

    def on_predict_batch_begin(self, batch, logs=None):
        """A batch of ``predict`` starts."""

    def on_predict_batch_end(self, batch, logs=None):
        """A batch of ``predict`` ended; ``logs["outputs"]`` is what the model gave."""

    def on_train_begin(self, logs=None):
        """``fit`` starts."""

    def on_train_end(self, logs=None):
        """``fit`` ended; ``logs`` holds the last epoch's metrics."""

    def on_test_begin(self, logs=None):
        """``evaluate`` (or fit's validation) starts."""

    def on_test_end(self, logs=None):
        """``evaluate`` ended; ``logs`` has its results."""

    def on_predict_begin(self, logs=None):
        """``predict`` starts."""

    def on_predict_end(self, logs=None):
        """``predict`` ended."""

    def _checkpoint_dependencies(self):
        return []  # a callback kept on a model (model.history) is not part of its weights


class CallbackList:
    """Calls each hook on every callback that has it, in order.

    ``fit`` puts Keras' defaults around the user's callbacks: the progress bar first (when
    ``verbose``), the ``History`` last.
    """

    def __init__(self, callbacks=None, add_history=False, add_progbar=False, model=None, **params):
        from eagerkit.keras.callbacks import History, ProgbarLogger

        self.callbacks = list(callbacks or [])
        if add_progbar and not any(isinstance(c, ProgbarLogger) for c in self.callbacks):
            self.callbacks.insert(0, ProgbarLogger())
        self.history = None
        if add_history:
            self.history = next((c for c in self.callbacks if isinstance(c, History)), None)
            if self.history is None:
                self.history = History()
                self.callbacks.append(self.history)
        self.params = params
        for callback in self.callbacks:
            _call(callback, "set_params", params)
        if model is not None:
            self.set_model(model)

    def set_model(self, model):
        self.model = model
        for callback in self.callbacks:
            _call(callback, "set_model", model)

    def call(self, hook, *args):
        """Call ``hook(*args)`` on each callback that has it."""
        if not isinstance(hook, str):  # getattr would say "attribute name must be string"
            raise InvalidArgumentError(
                f"CallbackList.call: hook must be the name of a callback method (a str, e.g. "
                f"'on_epoch_end'), got {describe(hook)}",
                op="CallbackList.call",
            )
        for callback in self.callbacks:
            _call(callback, hook, *args)

    def __iter__(self):
        return iter(self.callbacks)


def _call(callback, hook, *args):
    method = getattr(callback, hook, None)
    if method is not None:
        method(*args)

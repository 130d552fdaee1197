"""What a compiled model keeps: its loss, its metrics, and the running means ``fit`` logs.

``CompiledLoss`` adds up each output's loss (times its weight) and the losses layers
added (``add_loss``); ``CompiledMetrics`` keeps the metric objects, made on the first
batch, when the targets and predictions show what ``"accuracy"`` means. Both track their
values in Keras metrics (``loss``, ``<output>_loss``, ``accuracy``, ...), whose names are
the keys of the logs callbacks receive and of ``History.history``.
"""

import functools
import inspect
import numbers

from eagerkit import nest
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras import compile_utils
from eagerkit.keras.metrics import Mean
from eagerkit.keras.tf1_metrics import Metric as AnyMetric
from eagerkit.ops.reduce import reduce_sum
from eagerkit.tensor import convert_to_tensor


class CompileState:
    """Everything ``compile`` set up, kept out of the model's checkpoint (metric totals are
    not weights); ``model.optimizer`` alone is a checkpointed attribute, as in Keras.

    A functional model names its outputs, so its loss and metrics are set up at once; other
    models show how many outputs they have on their first batch (``ensure_built``).
    """

    def __init__(self, loss, metrics, loss_weights, weighted_metrics, output_names):
        self.specs = (loss, metrics, loss_weights, weighted_metrics)
        self.loss = self.metrics = None
        self.added = {}  # name -> Mean, for what layers log with add_metric
        self.seen_data = False
        _check_names(loss, metrics, loss_weights, weighted_metrics)  # misspelt: fail now
        if output_names is not None:
            self._build(output_names)

    def ensure_built(self, y_pred):
        if self.loss is None:
            count = len(nest.flatten(y_pred))
            self._build([f"output_{i + 1}" for i in range(count)])

    def _build(self, output_names):
        loss, metrics, loss_weights, weighted_metrics = self.specs
        self.loss = CompiledLoss(loss, loss_weights, output_names)
        self.metrics = CompiledMetrics(metrics, weighted_metrics, output_names, self.loss)

    def all_metrics(self):
        """``model.metrics``: the loss trackers, the compiled metrics, the added ones."""
        if self.loss is None:
            return list(self.added.values())
        return [*self.loss.trackers(), *self.metrics.metrics, *self.added.values()]

    def track_added(self, pairs):
        """Update the running mean of each ``(name, value)`` a layer logged."""
        for name, value in pairs:
            if name not in self.added:
                self.added[name] = Mean(name=name)
            self.added[name].update_state(value)

    def _checkpoint_dependencies(self):
        return []


def _check_names(loss, metrics, loss_weights, weighted_metrics):
    """Look every name up now, so that a misspelt one fails in compile()."""
    for what, spec in (("metrics", metrics), ("weighted_metrics", weighted_metrics)):
        if spec is not None and not isinstance(spec, (list, tuple, dict)):
            raise InvalidArgumentError(
                f"Expected `{what}` argument to be a list, tuple, or dict. Received: "
                f"{what}={spec!r:.100} of type {type(spec).__name__}; e.g. metrics=['accuracy']",
                op="compile",
            )
    for spec in _leaves(loss):
        compile_utils.get_loss(spec)
    for spec in _leaves(metrics) + _leaves(weighted_metrics):
        if isinstance(spec, str) and spec not in compile_utils.MATCHED_NAMES:
            compile_utils.lookup_metric(spec)
        elif not (isinstance(spec, (str, dict, AnyMetric)) or callable(spec)):
            compile_utils.get_metric(spec, None, None, None)  # Keras' "Could not interpret"
    for weight in _leaves(loss_weights):
        if isinstance(weight, bool) or not isinstance(weight, numbers.Real):
            raise InvalidArgumentError(
                f"loss_weights must hold numbers (one per output, or a dict by output name), "
                f"got {weight!r:.100}; e.g. loss_weights=[1.0, 0.2]",
                op="compile",
            )


def _leaves(spec):
    if isinstance(spec, dict):
        return [leaf for value in spec.values() for leaf in _leaves(value)]
    if isinstance(spec, (list, tuple)):
        return [leaf for value in spec for leaf in _leaves(value)]
    return [] if spec is None else [spec]


class FirstCallBuilds:
    """``model.compiled_loss`` or ``model.compiled_metrics`` (``part``) as a ``train_step``
    of one's own calls them: set up on the first call from the predictions it is given, as
    Keras does (a subclassed model shows its outputs only then)."""

    def __init__(self, state, part):
        self._state, self._part = state, part

    def __call__(self, y_true, y_pred, sample_weight=None, regularization_losses=()):
        self._state.ensure_built(y_pred)
        self._state.seen_data = True
        return self._state.loss(y_true, y_pred, sample_weight, regularization_losses)

    def update_state(self, y_true, y_pred, sample_weight=None):
        self._state.ensure_built(y_pred)
        self._state.seen_data = True
        self._state.metrics.update_state(y_true, y_pred, sample_weight)

    @property
    def metrics(self):
        """The metric objects of this part: empty until data has been seen."""
        if not self._state.seen_data:
            return []
        if self._part == "loss":
            return self._state.loss.trackers()
        return list(self._state.metrics.metrics)


class OptimizerHolder:
    """Keeps ``model.optimizer`` where a checkpoint of the model does not look: its state
    is saved next to the model's (``Checkpoint(model=..., optimizer=...)``), as TF does."""

    def __init__(self, optimizer):
        self.optimizer = optimizer

    def _checkpoint_dependencies(self):
        return []


class CompiledLoss:
    """The total loss of a batch, and its running mean (the ``loss`` of the logs)."""

    def __init__(self, loss, loss_weights, output_names):
        self.output_names = list(output_names)
        specs = compile_utils.per_output(loss, self.output_names, "loss")
        self.losses = [compile_utils.get_loss(spec) for spec in specs]
        weights = compile_utils.per_output(loss_weights, self.output_names, "loss_weights")
        self.weights = [1.0 if w is None else float(w) for w in weights]
        self.total = Mean(name="loss")
        several = len(self.output_names) > 1
        self.per_output = [
            Mean(name=f"{name}_loss") if several and fn is not None else None
            for name, fn in zip(self.output_names, self.losses, strict=True)
        ]

    @property
    def given(self):
        """Whether compile was given any loss at all."""
        return any(fn is not None for fn in self.losses)

    def trackers(self):
        return [self.total, *(m for m in self.per_output if m is not None)]

    def __call__(self, y_true, y_pred, sample_weight=None, regularization_losses=()):
        """The batch's total loss (a scalar tensor); updates the running means."""
        outputs = nest.flatten(y_pred)
        targets = targets_per_output(y_true, self.output_names, self.losses)
        batch = outputs[0].shape[0] if outputs and outputs[0].ndim else 1
        terms = []
        for i, (fn, weight) in enumerate(zip(self.losses, self.weights, strict=True)):
            if fn is None:
                continue
            if targets[i] is None:
                raise InvalidArgumentError(
                    f"Target data is missing for output '{self.output_names[i]}'. Your model "
                    f"was compiled with a loss for it, and therefore expects target data for "
                    "it in fit() / evaluate(): pass y, the targets",
                    op="fit",
                )
            y, output = compile_utils.aligned(targets[i], outputs[i])
            value = fn(y, output, sample_weight)
            if self.per_output[i] is not None:
                self.per_output[i].update_state(value, sample_weight=batch)
            terms.append(value * weight if weight != 1.0 else value)
        terms += [convert_to_tensor(loss) for loss in regularization_losses]
        if not terms:
            raise InvalidArgumentError(
                "No loss found. You may have forgotten to provide a `loss` argument in the "
                "`compile()` method (e.g. model.compile(optimizer='adam', loss='mse'))",
                op="fit",
            )
        total = _scalar(terms[0])
        for term in terms[1:]:
            total = total + _scalar(term)
        self.total.update_state(total, sample_weight=batch)
        return total


def _scalar(loss):
    return loss if loss.ndim == 0 else reduce_sum(loss)  # an added loss may be a vector


class CompiledMetrics:
    """The compiled metrics of each output, made on the first batch."""

    def __init__(self, metrics, weighted_metrics, output_names, compiled_loss):
        self.output_names = list(output_names)
        self.specs = _per_output_lists(metrics, self.output_names, "metrics")
        self.weighted_specs = _per_output_lists(weighted_metrics, self.output_names, "metrics")
        self.compiled_loss = compiled_loss
        self.metrics = []  # every metric object, in the order Keras lists them
        self._slots = None  # [(output index, metric, weighted)], once built

    def ensure_built(self, y_true, y_pred):
        """Make the metric objects, if not yet made: the batch shows what each one means."""
        if self._slots is None:
            targets = targets_per_output(y_true, self.output_names, self.compiled_loss.losses)
            self._build(targets, nest.flatten(y_pred))

    def update_state(self, y_true, y_pred, sample_weight=None):
        self.ensure_built(y_true, y_pred)
        outputs = nest.flatten(y_pred)
        targets = targets_per_output(y_true, self.output_names, self.compiled_loss.losses)
        for index, metric, weighted in self._slots:
            if targets[index] is None:
                continue
            y = targets[index]  # the metrics align (batch,) with (batch, 1) themselves
            weight = sample_weight if weighted else None
            if weight is None:
                metric.update_state(y, outputs[index])
            else:
                metric.update_state(y, outputs[index], sample_weight=weight)

    def _build(self, targets, outputs):
        several = len(self.output_names) > 1
        slots = []
        for weighted, specs in ((False, self.specs), (True, self.weighted_specs)):
            for index, output_specs in enumerate(specs):
                for spec in output_specs:
                    target = targets[index] if targets[index] is not None else outputs[index]
                    loss = self.compiled_loss.losses[index]
                    metric = compile_utils.get_metric(spec, _tensor(target), outputs[index], loss)
                    if several:  # Keras names them after their output
                        metric.name = f"{self.output_names[index]}_{metric.name}"
                    if weighted and not several and metric.name in _names(slots):
                        metric.name = f"weighted_{metric.name}"
                    slots.append((index, metric, weighted))
        self._slots = slots
        self.metrics = [metric for _, metric, _ in slots]


def _names(slots):
    return {metric.name for _, metric, _ in slots}


def _tensor(value):
    return convert_to_tensor(value)


def _per_output_lists(spec, output_names, what):
    """``metrics=`` as a list of metric specs per output."""
    if spec is None:
        return [[] for _ in output_names]
    if isinstance(spec, dict):
        per = compile_utils.per_output(spec, output_names, what)
        return [_as_list(item) for item in per]
    if not isinstance(spec, (list, tuple)):
        raise InvalidArgumentError(
            f"Expected `metrics` argument to be a list, tuple, or dict. Received: "
            f"metrics={spec!r:.100} of type {type(spec).__name__}",
            op="compile",
        )
    nested = len(output_names) > 1 and all(isinstance(s, (list, tuple)) or s is None for s in spec)
    if nested:  # one list per output
        return [_as_list(item) for item in compile_utils.per_output(spec, output_names, what)]
    return [list(spec) for _ in output_names]  # the same metrics for every output


def _as_list(item):
    if item is None:
        return []
    return list(item) if isinstance(item, (list, tuple)) else [item]


def targets_per_output(y_true, output_names, losses):
    """The targets of each output (a list aligned with ``output_names``; None: missing)."""
    count = len(output_names)
    if y_true is None:
        return [None] * count
    if isinstance(y_true, dict):
        return [y_true.get(name) for name in output_names]
    if count == 1:
        return [y_true[0] if isinstance(y_true, (list, tuple)) and len(y_true) == 1 else y_true]
    if isinstance(y_true, (list, tuple)):
        if len(y_true) == count:
            return list(y_true)
        with_loss = [i for i, fn in enumerate(losses) if fn is not None]
        if len(y_true) == len(with_loss):  # targets only for the outputs that have a loss
            found = [None] * count
            for i, target in zip(with_loss, y_true, strict=True):
                found[i] = target
            return found
    raise InvalidArgumentError(
        f"the model has {count} outputs ({', '.join(output_names)}) but the targets are "
        f"{type(y_true).__name__} of {len(y_true) if hasattr(y_true, '__len__') else 1}; "
        "give a list with one array per output, or a dict keyed by the output names",
        op="fit",
    )


def value_of(metric):
    """A metric's result as a Python float (eagerkit's metrics log no summary here)."""
    if _takes_write_summary(type(metric)):
        value = metric.result(write_summary=False)
    else:
        value = metric.result()
    return float(value.numpy() if hasattr(value, "numpy") else value)


@functools.cache
def _takes_write_summary(cls):
    return "write_summary" in inspect.signature(cls.result).parameters


def reset(metric):
    """Reset a metric, honouring a subclass that overrides ``reset_states`` (Keras 2's
    older name) rather than ``reset_state``."""
    cls = type(metric)
    for owner in cls.__mro__:
        if owner is AnyMetric:
            break
        if "reset_state" in vars(owner):
            return metric.reset_state()
        if "reset_states" in vars(owner):
            return metric.reset_states()
    return metric.reset_state()

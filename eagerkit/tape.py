"""GradientTape: an ordered list of the ops that ran, replayed backwards for gradients.

While a tape is active (inside its ``with`` block) every op whose inputs it watches is
appended to ``tape.records`` as a ``TapeRecord(op, inputs, output, params)``. Watching
spreads: an op's output is watched because its input was (the tape puts its mark on the
output, ``_recorded_by``). Trainable variables are watched the moment they are read.
Several tapes can be active at once (a stack); each records the ops that touch what *it*
watches, which is how nested tapes give higher-order gradients.
"""

import contextlib
import inspect
import warnings

from eagerkit import backprop, boundary, nest, recording
from eagerkit.arguments import describe
from eagerkit.errors import FailedPreconditionError, InvalidArgumentError
from eagerkit.recording import (  # noqa: F401 - TapeRecord and READ_VARIABLE for readers
    READ_VARIABLE,
    TapeRecord,
    active_tapes,
    read_variable,
)
from eagerkit.tensor import Tensor


class GradientTape:
    """Record operations for automatic differentiation.

    Parameters
    ----------
    persistent : allow more than one ``gradient`` call (keeps the records until deleted).
    watch_accessed_variables : watch every trainable Variable read inside the block.

    Examples
    --------
    >>> import eagerkit as ek
    >>> x = ek.constant(3.0)
    >>> with ek.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = x * x
    >>> tape.gradient(y, x)
    <ek.Tensor: shape=(), dtype=float32, numpy=6.0>
    """

    # Slots: a tape is made at every training step, and a slotted object is quicker to make
    # and to read than one with a __dict__ (the recording fast paths read these on every op).
    __slots__ = (
        "_persistent",
        "_watch_accessed",
        "records",
        "_mark",
        "_watched_by_id",
        "_recording",
        "_spent",
        "_swept",
        "_listeners",
        "_paused_at",
        "__weakref__",
    )

    def __init__(self, *arguments, **options):
        # GradientTape(persistent=False, watch_accessed_variables=True), made at every
        # training step: the commonest call, GradientTape(), binds nothing; any other binds
        # through the public boundary (the same errors as every public call, naming it).
        persistent, watch_accessed_variables = False, True
        if arguments or options:
            persistent, watch_accessed_variables = _bound(self, *arguments, **options)
        self._persistent = persistent
        self._watch_accessed = watch_accessed_variables
        self.records = []
        self._mark = object()  # put on every output this tape records; new when it forgets
        # What tape.watch and variable reads watched (not outputs), by id: the values keep
        # them alive, so their ids stay theirs.
        self._watched_by_id = {}
        self._recording = False
        self._spent = False
        self._swept = False  # a gradient (or jacobian) ran: a TapeView made later says so
        self._listeners = None  # the list ``listeners`` makes when first asked: most tapes
        self._paused_at = None  # have no listener and never pause (one list less per step)

    @property
    def listeners(self):
        """Objects told of each record and backward step: ``on_record(tape, record)``,
        ``on_backward(tape, step)`` (the widgets append themselves here)."""
        if self._listeners is None:
            self._listeners = []
        return self._listeners

    @property
    def paused_at(self):
        """``len(records)`` at each ``stop_recording()``: the widgets explain a None with it."""
        if self._paused_at is None:
            self._paused_at = []
        return self._paused_at

    # --- the with-block ------------------------------------------------------------------
    # self._push() and self._pop(), written in recording.py beside the answers they set, so
    # that a training step's tape starts and stops in one call each.
    __enter__ = recording.enter_tape
    __exit__ = recording.exit_tape

    def _push(self):
        if self._spent:
            raise FailedPreconditionError(
                "this non-persistent GradientTape has already computed its gradients; "
                "make a new tape (or pass persistent=True)",
                op="GradientTape",
            )
        recording.push_tape(self)
        self._recording = True

    def _pop(self):
        recording.pop_tape(self)
        self._recording = False

    @contextlib.contextmanager
    def stop_recording(self):
        """Temporarily stop recording: ops inside the block get no gradient through them.

        Examples
        --------
        >>> import eagerkit as ek
        >>> x = ek.constant(2.0)
        >>> with ek.GradientTape() as tape:
        ...     tape.watch(x)
        ...     with tape.stop_recording():
        ...         y = x ** 2
        >>> print(tape.gradient(y, x))
        None
        """
        if not self._recording:
            raise RuntimeError("Trying to stop recording a tape which is not recording.")
        self._pop()
        self.paused_at.append(len(self.records))
        try:
            yield
        finally:
            self._push()

    def reset(self):
        """Forget everything recorded and watched so far (keeps recording if it was)."""
        self.records = []
        self._mark = object()  # the outputs recorded so far are not watched any more
        self._watched_by_id = {}
        self._paused_at = None
        self._swept = False

    # --- watching --------------------------------------------------------------------------
    def watch(self, tensor):
        """Record what is computed from ``tensor`` (a Tensor, Variable or nest of them)."""
        for leaf in nest.flatten(tensor):
            if not isinstance(leaf, Tensor):
                raise ValueError(
                    f"Passed in object of type {type(leaf).__name__}, not ek.Tensor: "
                    "tape.watch takes tensors or variables (convert with ek.constant)"
                )
            self._watch_one(leaf, warn=True)

    def _watch_one(self, tensor, warn):
        if id(tensor) in self._watched_by_id:
            return
        if tensor.dtype.kind not in "fc":  # gradients flow through floats and complex numbers
            if warn:
                warnings.warn(
                    f"The dtype of the watched tensor must be floating (e.g. ek.float32), got "
                    f"ek.{tensor.dtype.name}: its gradient will be None. Use a float value "
                    "(3.0, not 3) or ek.cast.",
                    stacklevel=3,
                )
            return
        self._watched_by_id[id(tensor)] = tensor

    @property
    def _watched(self):
        """What tape.watch and variable reads watched, in that order (the widgets read it)."""
        return list(self._watched_by_id.values())

    def watched_variables(self):
        """The variables this tape watches, in the order they were created."""
        found = [t for t in self._watched if t._is_variable]
        return tuple(sorted(found, key=lambda v: v._creation_index))

    def _watches(self, x):
        """Whether this tape watches the Tensor ``x``: watched, or the output of an op recorded."""
        by = x._recorded_by  # None, one tape's mark, or a tuple of marks (nested tapes)
        mark = self._mark
        return by is mark or id(x) in self._watched_by_id or (type(by) is tuple and mark in by)

    def _watches_any(self, inputs):
        for x in inputs:
            if self._watches(x):
                return True
        return False

    def _append(self, entry):
        self.records.append(entry)
        output, by = entry.output, entry.output._recorded_by
        if by is None:
            output._recorded_by = self._mark
        else:  # another tape (nested) recorded it too: the output keeps every mark
            output._recorded_by = (*by, self._mark) if type(by) is tuple else (by, self._mark)
        if self._listeners:
            for listener in self._listeners:
                listener.on_record(self, entry)

    # --- gradients ---------------------------------------------------------------------------
    def gradient(self, target, sources, output_gradients=None, unconnected_gradients="none"):
        """d(target)/d(sources), in the structure of ``sources``.

        A non-scalar (or list) ``target`` means the gradient of its sum, weighted by
        ``output_gradients`` when given. Sources that ``target`` does not depend on get
        ``None`` (or zeros with ``unconnected_gradients="zero"``).
        """
        if type(target) is Tensor:  # a loss, the commonest: no structure, not a Variable
            flat_targets = [target]
        else:
            flat_targets = [self._read_if_variable(t) for t in nest.flatten(target)]
        flat_sources = _flat_sources(sources)
        self._start_backward()
        grads = backprop.gradients(
            self, flat_targets, flat_sources, output_gradients, unconnected_gradients
        )
        for listener in self._listeners or ():  # optional hook: a TapeView explains None gradients
            on_gradient = getattr(listener, "on_gradient", None)
            if on_gradient is not None:
                on_gradient(self, flat_targets, flat_sources, grads)
        self._finish_backward()
        return nest.pack_sequence_as(sources, grads)

    def jacobian(self, target, sources, unconnected_gradients="none", **unused_tf_options):
        """Full Jacobian: for each source, an array of shape target.shape + source.shape."""
        from eagerkit import jacobians

        _tensors([target], "target", "jacobian")
        flat = _tensors(nest.flatten(sources), "sources", "jacobian")
        self._start_backward()
        result = [jacobians.jacobian(self, target, s, unconnected_gradients) for s in flat]
        self._finish_backward()
        return nest.pack_sequence_as(sources, result)

    def batch_jacobian(self, target, source, unconnected_gradients="none", **unused_tf_options):
        """Per-example Jacobian: shape (batch,) + target.shape[1:] + source.shape[1:]."""
        from eagerkit import jacobians

        for value, what in ((target, "target"), (source, "source")):
            if not (_tensors([value], what, "batch_jacobian")[0].ndim >= 1):
                raise InvalidArgumentError(
                    f"batch_jacobian: {what} needs a batch axis (rank >= 1), got a scalar; "
                    "stack the examples along axis 0",
                    op="batch_jacobian",
                )
        self._start_backward()
        result = jacobians.batch_jacobian(self, target, source, unconnected_gradients)
        self._finish_backward()
        return result

    def _read_if_variable(self, target):
        """A Variable target is read on this tape first (as TF does), so d(v)/d(v) is 1."""
        if isinstance(target, Tensor) and target._is_variable and not self._spent:
            return read_variable(target, tapes=(self,))
        return target

    def _start_backward(self):
        if recording.graph_tracers:  # a gradient inside ek.function: its graph holds sizes
            recording.graph_tracers[-1].bind_shapes()
        if self._spent:
            raise RuntimeError(
                "A non-persistent GradientTape can only be used to compute one set of "
                "gradients (or jacobians). Pass persistent=True to call gradient() again."
            )
        if self._recording:
            if self._persistent:
                warnings.warn(
                    "Calling GradientTape.gradient on a persistent tape inside its context is "
                    "significantly less efficient than calling it outside the context (it "
                    "records the gradient computation on itself).",
                    stacklevel=3,
                )
            else:
                self._pop()  # a one-shot tape is finished: stop recording before replaying

    def _finish_backward(self):
        self._swept = True
        if not self._persistent:
            self._spent = True
            self.records = []  # free the intermediate values now, not when the tape dies
            # Keep only the variables (they live on anyway): watched_variables() still answers.
            # (A spent tape records nothing more, so what it watches decides nothing now.)
            watched = self._watched_by_id.items()
            self._watched_by_id = {key: t for key, t in watched if t._is_variable}
            self._mark = object()


def _arguments(self, persistent=False, watch_accessed_variables=True):
    return persistent, watch_accessed_variables


# GradientTape's signature, its arguments bound inside the boundary (a wrong call raises
# the eagerkit error any public call raises); namespaces.py wraps no __init__ marked so.
_bound = boundary.public_method(_arguments, "__init__")
GradientTape.__init__.__signature__ = inspect.signature(_arguments)
GradientTape.__init__.__boundary__ = True


def _flat_sources(sources):
    """``gradient``'s sources flattened (``nest.flatten``), each a tensor or variable, else an
    error naming what is not; a flat list (``model.trainable_variables``, the commonest)
    is copied as it is."""
    if type(sources) is list:
        for value in sources:
            if not isinstance(value, Tensor):
                break
        else:
            return sources[:]
    return _tensors(nest.flatten(sources), "sources", "gradient")


def _tensors(values, what, op):
    """``values``, all tensors or variables; anything else is named in the error."""
    for value in values:
        if not isinstance(value, Tensor):
            raise InvalidArgumentError(
                f"{op}: {what} must be tensors or variables, got {type(value).__name__} "
                f"{describe(value)}; the tape records tensors (ek.constant, ek.Variable)",
                op=op,
            )
    return values

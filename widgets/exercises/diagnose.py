"""Where does a student's computation first go wrong? Blame an op only when the values prove it.

The student's function runs under a persistent tape (``Trace``). An op is blamed for a wrong
*value* only when both hold:

- its output is a value that no correct computation makes (it matches none of the
  reference's values), and
- putting one of the reference's values in its place, and running the rest of the student's
  own code on it, makes the whole result right.

A correct step spelled differently (``t**2`` where the reference wrote ``0.5*t*t``) fails the
second test and is never blamed. When no single op passes both, no op is named.

For a wrong *gradient* with a right value, the engine's own VJPs are right (its tests check
them), so the op to blame is either the one whose VJP turns a finite gradient into nan or
inf (``sqrt`` at 0, under an ``ek.where``), or the student's own op (a custom gradient or a
``defop``), whose VJP is the student's.
"""

import contextlib
import io

import numpy as np

from eagerkit import recording
from eagerkit.tape import READ_VARIABLE, GradientTape
from eagerkit.tensor import Tensor

from ..tape_view.model import host
from .compare import isclose


class Trace:
    """``fn(*inputs)`` run under a persistent tape, with its reverse sweep collected and the
    ops in the order they ran (``dispatched``)."""

    def __init__(self, fn, inputs, upstream=None):
        self.inputs = inputs
        self.tape = GradientTape(persistent=True)
        self.steps = []  # BackwardSteps, in sweep order
        self.dispatched = []  # every op's output, in the order the ops ran
        self.ran = []  # (op, inputs, output) of every op, forward
        self.ran_backward = []  # (op, inputs, output) of every op the backward pass ran
        self.tape.listeners.append(self)
        floats = [x for x in inputs if isinstance(x, Tensor) and x.dtype.is_floating]
        with quiet(), running(self._ran), self.tape:
            self.tape.watch(floats)
            self.output = fn(*inputs)
        if _is_float_tensor(self.output) and floats:
            seed = None if upstream is None else _seed(upstream, self.output)
            with quiet(), running(lambda *ran: self.ran_backward.append(ran)):
                self.tape.gradient(self.output, floats, output_gradients=seed)

    def _ran(self, op, inputs, output):
        self.dispatched.append(output)
        self.ran.append((op, inputs, output))

    def record_of(self, output):
        """The index in ``tape.records`` of the record that made ``output``, or None."""
        for index, record in enumerate(self.tape.records):
            if record.output is output:
                return index
        return None

    def op_names(self):
        """The names of the ops that ran forward, in order."""
        return [getattr(op, "name", type(op).__name__) for op, _, _ in self.ran]

    def on_record(self, tape, record):
        pass

    def on_backward(self, tape, step):
        self.steps.append(step)

    def feeds_output(self):
        """Indices of the records the output depends on."""
        outputs = self.output if isinstance(self.output, (tuple, list)) else [self.output]
        needed, used = {id(t) for t in outputs}, set()
        for index in range(len(self.tape.records) - 1, -1, -1):
            record = self.tape.records[index]
            if id(record.output) in needed:
                used.add(index)
                needed.update(id(x) for x in record.inputs)
        return used

    def position(self, output):
        """Where ``output`` is in the order the ops ran (None if no op made it)."""
        for i, made in enumerate(self.dispatched):
            if made is output:
                return i
        return None


def _is_float_tensor(value):
    return isinstance(value, Tensor) and value.dtype.is_floating


def _seed(upstream, output):
    array = np.asarray(upstream)
    return array.reshape(output.shape).astype(output.dtype.as_numpy_dtype)


@contextlib.contextmanager
def running(callback):
    recording.add_callback(callback)
    try:
        yield
    finally:
        recording.remove_callback(callback)


@contextlib.contextmanager
def quiet():
    """The student's prints, hidden while a check calls the function again and again."""
    with contextlib.redirect_stdout(io.StringIO()):
        yield


def reference_values(reference):
    """Every value the correct computation makes: its inputs and each op's output."""
    values = [x.numpy() for x in reference.inputs if isinstance(x, Tensor)]
    values += [r.output.numpy() for r in reference.tape.records]
    return [np.asarray(v) for v in values]


def known(value, pool):
    """Whether a right computation makes ``value`` too (it is in ``pool``, shape and all)."""
    return any(v.shape == value.shape and np.all(isclose(value, v)) for v in pool)


def first_wrong_value(fn, student, reference, want):
    """The index of the record to blame for a wrong value, or None (see the module's text)."""
    pool = reference_values(reference)
    used = student.feeds_output()
    tried = 0
    for i, record in enumerate(student.tape.records):
        if i not in used or record.op is READ_VARIABLE:
            continue
        value = np.asarray(record.output.numpy())
        if known(value, pool):
            continue
        position = student.position(record.output)
        if position is None:
            continue
        for candidate in [v for v in pool if v.shape == value.shape][:30]:
            tried += 1
            if tried > 200:  # a long computation: give up rather than keep the student waiting
                return None
            if _fixed_by(fn, student.inputs, position, candidate, want):
                return i
    return None


def _fixed_by(fn, inputs, position, value, want):
    """Whether the student's result is right once the op that ran at ``position`` gives
    ``value`` instead of what it computed."""
    count, elsewhere = [0], [False]

    def substitute(op, op_inputs, output):
        if count[0] == position and isinstance(output, Tensor):
            if tuple(output.shape) != np.shape(value):  # the run took another path: no proof
                elsewhere[0] = True
            else:
                output._data = np.asarray(value, output.dtype.as_numpy_dtype)
        count[0] += 1

    try:
        with quiet(), running(substitute):
            got = fn(*inputs)
    except Exception:  # the student's code may not survive a changed value
        return False
    if elsewhere[0]:
        return False
    if not isinstance(got, Tensor) or not isinstance(want, Tensor):
        return False
    got, target = got.numpy(), want.numpy()
    return got.size == target.size and bool(np.all(isclose(got.reshape(target.shape), target)))


def nan_source(student):
    """``(record index, step)`` of the first backward step whose VJP made nan or inf from a
    finite incoming gradient, or None."""
    for step in student.steps:
        g = host(step.g, step.record.output._device)
        if not np.all(np.isfinite(g)):
            continue
        for gx, x in zip(step.input_grads, step.record.inputs, strict=False):
            if gx is not None and not np.all(np.isfinite(host(gx, x._device))):
                return step.index, step
    return None


def silent_users_op(trace):
    """The first op whose VJP the student wrote that sent back no gradient at all (its
    gradient function returned None: a missing ``return``), or None."""
    for step in trace.steps:
        if is_users_op(step.record.op) and all(g is None for g in step.input_grads):
            return step.record.op
    return None


def users_op(trace):
    """The index of the first op on the tape whose VJP the student wrote, or None."""
    used = trace.feeds_output()
    for index, record in enumerate(trace.tape.records):
        if index in used and is_users_op(record.op):
            return index
    return None


def is_users_op(op):
    """A custom gradient (``ek.custom_gradient``) or an op the user registered with ``defop``
    (lesson 12): its VJP is the user's, not the engine's."""
    if type(op).__name__ == "_CustomGradientOp":
        return True
    forward = getattr(op, "forward", None)
    return forward is not None and not forward.__module__.startswith("eagerkit.")

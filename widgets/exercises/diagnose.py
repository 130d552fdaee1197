"""Where does a student's computation first go wrong? Compare two tapes, op by op.

The student's function and the reference run on the same inputs, each under its own
persistent tape. Tensors are matched across the two tapes by *value* (the student may
write the same computation with other ops, in another order), then:

- forward: the first op on the student's tape that feeds the result and computes a value
  the reference never computes is where the student's arithmetic left the right path;
- backward: the tensors whose total gradient is known, in the order the reverse sweep
  completes them (each op's output, then the inputs), are compared with the reference's
  gradient for the same value. The first wrong one was given its gradient by the VJPs of
  its consumers: the culprit is the consumer the sweep visited (a user's custom gradient
  in preference to a built-in op, whose VJP the engine's tests already check).
"""

import numpy as np

from eagerkit.tape import READ_VARIABLE, GradientTape
from eagerkit.tensor import Tensor

from ..tape_view.model import host


class Trace:
    """``fn(*inputs)`` run under a persistent tape, with its reverse sweep collected."""

    def __init__(self, fn, inputs):
        self.inputs = inputs
        self.tape = GradientTape(persistent=True)
        self.steps = []  # BackwardSteps, in sweep order
        self.tape.listeners.append(self)
        with self.tape:
            for x in inputs:
                if x.dtype.is_floating:
                    self.tape.watch(x)
            self.output = fn(*inputs)
        self.grads = [None] * len(inputs)
        floats = [x for x in inputs if x.dtype.is_floating]
        if isinstance(self.output, Tensor) and self.output.dtype.is_floating and floats:
            found = dict(zip(map(id, floats), self.tape.gradient(self.output, floats), strict=True))
            self.grads = [found.get(id(x)) for x in inputs]  # integers: None, and no warning

    def on_record(self, tape, record):
        pass

    def on_backward(self, tape, step):
        self.steps.append(step)

    def completed_gradients(self):
        """``(tensor, gradient array, step or None)``, in the order the sweep completes them."""
        for k, step in enumerate(self.steps):
            yield step.record.output, host(step.g, step.record.output._device), k
        for x, g in zip(self.inputs, self.grads, strict=True):
            if x.dtype.is_floating:  # None: no gradient reached x, which reads as zeros
                yield x, np.zeros(x.shape) if g is None else g.numpy(), None

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


class ValueIndex:
    """Find a tensor's counterpart on another tape by its value (same shape, close values);
    among several, the one an op of the same name made."""

    def __init__(self, entries):
        self._entries = [(np.asarray(value), op, item) for value, op, item in entries]

    def find(self, value, op=None, default=None):
        value = np.asarray(value)
        found = [
            (known_op, item)
            for known, known_op, item in self._entries
            if known.shape == value.shape and np.allclose(known, value, rtol=1e-4, atol=1e-5)
        ]
        same_op = [item for known_op, item in found if known_op == op]
        return (same_op or [item for _, item in found] or [default])[0]


def first_wrong_value(student, reference):
    """The index of the first record feeding the student's result whose value the
    reference never computes, or None."""
    known = [(x.numpy(), None, True) for x in reference.inputs]
    known += [(r.output.numpy(), r.op.name, True) for r in reference.tape.records]
    index = ValueIndex(known)
    used = student.feeds_output()
    for i, record in enumerate(student.tape.records):
        if i in used and record.op is not READ_VARIABLE:
            if not index.find(record.output.numpy(), record.op.name, False):
                return i
    return None


def first_wrong_gradient(student, reference):
    """``(record index, tensor, student gradient, reference gradient)`` for the first
    wrong gradient of the student's sweep, or None."""
    index = ValueIndex(
        (t.numpy(), reference.steps[k].record.op.name, g)
        for t, g, k in reference.completed_gradients()
        if k is not None  # an op's output; the inputs are matched by position
    )
    given = {id(x): g for x, g, k in reference.completed_gradients() if k is None}  # same inputs
    visited = {id(step.record): k for k, step in enumerate(student.steps)}
    for tensor, got, k in student.completed_gradients():
        if k is None:
            want = given.get(id(tensor))
        else:
            want = index.find(tensor.numpy(), student.steps[k].record.op.name)
        if want is None or np.allclose(got, want, rtol=1e-4, atol=1e-5):
            continue
        culprit = _culprit(student, tensor, visited)
        if culprit is not None:
            return culprit, tensor, got, want
    return None


def _culprit(trace, tensor, visited):
    """The record the sweep visited that sent ``tensor`` (part of) its gradient."""
    consumers = [
        i
        for i, r in enumerate(trace.tape.records)
        if id(r) in visited and any(x is tensor for x in r.inputs)
    ]
    if not consumers:
        return None
    custom = [i for i in consumers if is_users_op(trace.tape.records[i].op)]
    return (custom or consumers)[0]


def is_users_op(op):
    """A custom gradient (``ek.custom_gradient``) or an op the user registered with ``defop``
    (lesson 12): its VJP is the user's, not the engine's."""
    if type(op).__name__ == "_CustomGradientOp":
        return True
    forward = getattr(op, "forward", None)
    return forward is not None and not forward.__module__.startswith("eagerkit.")

"""Ops that fail while tracing: TF runs only what a graph's results and effects need.

eagerkit traces on the call's values, so every op of the function runs once while
tracing, also one whose result nothing uses. TF does not run such an op at all ("non-strict
execution": ``tf.gather(x, [1])`` on a one-element ``x``, unused, raises nothing). So when an
op fails inside a trace, the trace goes on: the op becomes a node of the graph as usual, and
its result a ``FailedTensor`` standing for the value it could not compute. Using it (as an
op's input, or from Python: ``.numpy()``, ``if``, its shape) raises its error at once, as
eager code would. When the trace is done, a failed node that the results or an
effect need raises its error (the one eager code would have raised, where it was raised);
one that nothing needs is dropped with the dead code.
"""

import copy
import linecache
import sys

from eagerkit.graph.graph import Node
from eagerkit.graph.graph_ops import NO_ARRAY
from eagerkit.graph.graph_tensor import GraphTensor
from eagerkit.graph.optimize import eliminate_dead_code
from eagerkit.tensor import Tensor


class Failed:
    """The array of a FailedTensor: any kernel given it fails (it is no array)."""

    __slots__ = ("error",)
    dtype = NO_ARRAY
    shape = ()
    ndim = 0
    size = 1

    def __init__(self, error):
        self.error = error

    def __array__(self, *args, **kwargs):
        raise TypeError("a failed op's result has no value")


class FailedTensor(GraphTensor):
    """The result of an op that failed while tracing (see the module docstring)."""

    __slots__ = ()

    def _raise(self, *args, **kwargs):
        # A copy: the op that used this result adds its name to what it raises, and the
        # failed op's own error must still name the call the user made (raise_needed_failure)
        error = copy.copy(self._data.error)
        raise error from error.__cause__

    numpy = __bool__ = __float__ = __int__ = __index__ = __array__ = __iter__ = __len__ = _raise

    @property
    def shape(self):
        self._raise()

    @property
    def dtype(self):
        self._raise()


def record_failed(tracer, op, inputs, params, error):
    """Add the node of ``op`` that failed with ``error``; its stand-in result."""
    # Its tensor inputs only: they decide whether the results need it (Python values do not).
    args = tuple(tracer.node_for(x) for x in inputs if isinstance(x, Tensor))
    node = Node("op", (), NO_ARRAY, None, op=op, inputs=args, params=dict(params or {}))
    result = FailedTensor.__new__(FailedTensor)
    device = next((x._device for x in inputs if hasattr(x, "_device")), None)
    result._data, result._device, result._recorded_by = Failed(error), device, None
    node.device = device
    error.where = user_line(sys._getframe(1))  # the user's call (its traceback starts in here)
    tracer.failures.append((node, error))
    tracer._remember(result, node, op.name)
    result.__class__ = FailedTensor  # _remember made it a GraphTensor
    return result


def raise_needed_failure(tracer, outputs):
    """Raise the error of the first failed node that ``outputs`` or an effect needs."""
    if not tracer.failures:
        return
    kept, _, _, _ = eliminate_dead_code(tracer.nodes, [tracer.node_for(t) for t in outputs])
    live = {id(node) for node in kept}
    for node, error in tracer.failures:
        if id(node) in live:
            raise error from error.__cause__


def user_line(frame):
    """``(line number, source text)`` of the innermost frame from ``frame`` outward that is
    the user's code (not eagerkit's, numpy's or Python's), or None."""
    while frame is not None:
        if is_user_file(frame.f_code.co_filename):
            return line_of(frame.f_code.co_filename, frame.f_lineno)
        frame = frame.f_back
    return None


def is_user_file(filename):
    from eagerkit.boundary import _LIBRARY_DIRS

    return not filename.startswith(_LIBRARY_DIRS) and not filename.startswith("<frozen")


def line_of(filename, number):
    return number, linecache.getline(filename, number).strip()

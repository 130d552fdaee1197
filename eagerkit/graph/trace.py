"""Tracing: run the Python function once and write down every op it calls.

While a ``Tracer`` is in ``recording.graph_tracers``, dispatch hands it each op call
(op, inputs, input arrays, output, params) right after the op ran. The function runs on
*placeholders*: fresh Tensors holding the first call's values, one per tensor argument, so
the tracer can tell the arguments apart by identity even when the caller passed the same
tensor twice. Whatever the function does in Python (loops, ``if`` on Python values,
``print``) happens now, once; only the ops end up in the graph.

A tensor the tracer has never seen becomes a node on first use: a Variable becomes a
``variable`` node (read again at every call), anything else a ``constant``.
"""

import contextlib

from eagerkit import recording
from eagerkit.errors import UnimplementedError
from eagerkit.graph.graph import Graph, Node
from eagerkit.tensor import Tensor


class Tracer:
    """Builds a Graph from the op calls the registry reports while it is active."""

    def __init__(self, name):
        self.name = name
        self.nodes = []
        self._node_of = {}  # id(tensor) -> Node
        self._variable_of_array = {}  # id(a variable's array) -> its variable Node
        self._alive = []  # the traced tensors, kept alive so no id is reused mid-trace

    def placeholder(self, tensor, position):
        """A fresh Tensor standing for tensor argument ``position`` (same value, own identity)."""
        stand_in = Tensor(tensor._data, tensor._device)
        node = Node("input", stand_in.shape, stand_in._data.dtype, stand_in._device, value=position)
        self._remember(stand_in, node)
        return stand_in

    def record(self, op, inputs, arrays, output, params):
        """Called by the registry after each op: add it to the graph."""
        args = tuple(
            self.node_for(x, a, output._device) for x, a in zip(inputs, arrays, strict=True)
        )
        node = Node(
            "op",
            output.shape,
            output._data.dtype,
            output._device,
            op=op,
            inputs=args,
            params=dict(params),
        )
        self._remember(output, node)

    def refuse_assign(self, variable, method):
        """Called by Variable.assign* while tracing: graphs read variables but never write them."""
        raise UnimplementedError(
            f"ek.function {self.name!r}: {method} on variable {variable.name!r} while tracing. "
            "A traced graph reads variables afresh at every call but cannot change them. "
            "Return the new value (or the gradients) from the function and do the assign, "
            "or optimizer.apply_gradients, outside it.",
            op=method,
        )

    def node_for(self, value, array=None, device=None):
        """The node for an op input or output: known tensor, new variable/constant, or literal."""
        if isinstance(value, Tensor):
            node = self._node_of.get(id(value)) or self._variable_of_array.get(id(value._data))
            if node is None:
                kind = "variable" if value._is_variable else "constant"
                data = value if kind == "variable" else value._data
                node = Node(kind, value.shape, value._data.dtype, value._device, value=data)
                self._remember(value, node)
                if kind == "variable":
                    # A tape's snapshot of this read shares the array: it is the same read.
                    self._variable_of_array[id(value._data)] = node
            return node
        # A Python or numpy value the op converted to ``array`` (e.g. the 2.0 in ``x * 2.0``).
        node = Node("constant", array.shape, array.dtype, device, value=array)
        self.nodes.append(node)
        return node

    def graph(self, outputs):
        """The finished Graph returning the nodes for ``outputs`` (Tensors)."""
        returned = [self.node_for(t) for t in outputs]
        return Graph(self.name, self.nodes, returned)

    def _remember(self, tensor, node):
        self._node_of[id(tensor)] = node
        self._alive.append(tensor)
        self.nodes.append(node)


@contextlib.contextmanager
def tracing(tracer):
    """Make ``tracer`` see every op; the caller's tapes do not see the trace run."""
    with recording.paused():
        recording.push_tracer(tracer)
        try:
            yield tracer
        finally:
            recording.pop_tracer()

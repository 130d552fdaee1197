"""Tracing: run the Python function once and write down every op it calls.

While a ``Tracer`` is in ``recording.graph_tracers``, dispatch hands it each op call
(op, inputs, input arrays, output, params) right after the op ran. The function runs on
*placeholders*: fresh tensors holding the call's values, one per tensor argument, so the
tracer can tell the arguments apart by identity even when the caller passed the same tensor
twice. Whatever the function does in Python (``if`` on Python values, ``print``) happens
now, once; only the ops end up in the graph. Every tensor the trace makes is a GraphTensor
(it prints as a graph node) and becomes symbolic when the trace ends (graph_tensor.py).

A tensor the tracer has never seen becomes a node on first use: a Variable becomes a
``variable`` node (read again at every call, after the assignments before it), a tensor of
an enclosing trace becomes an ``input`` of this one (a *capture*: the branches of a ``cond``
and the body of a ``while_loop`` are traced by tracers of their own, see subgraph.py), and
anything else a ``constant``.

As in TF, tracing only writes effects down (``ek.print``, ``assign``: graph/effects.py);
they happen when the graph runs, right after the trace for the call that traced.
"""

import contextlib

from eagerkit import recording
from eagerkit.errors import UnimplementedError
from eagerkit.graph.graph import Graph, Node
from eagerkit.graph.graph_ops import NO_ARRAY, OUTPUT
from eagerkit.graph.graph_tensor import GraphTensor, SymbolicTensor, out_of_scope_error, retire
from eagerkit.tensor import Tensor


class Captures:
    """The tensors of enclosing traces that some subgraphs read, in first-use order.

    Sibling subgraphs (a cond's two branches) share one, so they take the same inputs.
    """

    def __init__(self, first_position):
        self.first_position = first_position  # the subgraphs' own inputs come before
        self.tensors = []
        self._index = {}  # id(tensor) -> its place in ``tensors``

    def position(self, tensor):
        """The input position of ``tensor`` in every subgraph sharing these captures."""
        index = self._index.get(id(tensor))
        if index is None:
            index = self._index[id(tensor)] = len(self.tensors)
            self.tensors.append(tensor)
        return self.first_position + index


class Tracer:
    """Builds a Graph from the op calls the registry reports while it is active.

    Parameters
    ----------
    name : the graph's name.
    parent : the tracer of the enclosing graph, for a subgraph (a branch, a loop body).
    captures : for a subgraph, the Captures it shares with its siblings.
    """

    def __init__(self, name, parent=None, captures=None, buffer_reuse=True):
        self.name = name
        self.parent = parent
        self.captures = captures
        # Subgraphs may write into dead temporaries when the whole function may.
        self.buffer_reuse = buffer_reuse if parent is None else parent.buffer_reuse
        self.nodes = []
        self.names = {}  # id(tensor) -> its name in the graph ("add:0")
        self.static_shapes = {}  # id(placeholder) -> the shape it stands for, None sizes open
        self.range_bounds = {}  # id(a range this trace made) -> its bound tensors
        self.failures = []  # (node, error) of ops that failed while tracing (deferred.py)
        self.created_variables = []  # Variables made while tracing (TF allows it once)
        self.variable_slices = {}  # id(v[key] traced) -> (v, key): its assign writes v[key]
        self.guards = []  # f() -> whether a later call may replay this trace (see add_guard)
        self.shape_bound = False  # a gradient was taken while tracing (see bind_shapes)
        self._node_of = {}  # id(tensor) -> Node
        self._variable_nodes = {}  # id(variable) or id(its array) -> its latest read Node
        self._alive = []  # the tensors it saw, kept alive so no id is reused mid-trace
        self._made = []  # the tensors this trace made (placeholders, op results)
        self._name_counts = {}
        self.draw_count = 0  # random draws traced so far: the next one's site (draw_sites.py)

    # --- the nodes ------------------------------------------------------------------------
    def placeholder(self, tensor, position, name="input"):
        """A fresh tensor standing for tensor argument ``position`` (same value, own identity)."""
        stand_in = Tensor(tensor._data, tensor._device)
        node = Node("input", stand_in.shape, stand_in._data.dtype, stand_in._device, value=position)
        node.params = {"name": name}  # what a GraphDef calls it
        self._remember(stand_in, node, name)
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
        self._remember(output, node, op.name)

    def record_graph_op(self, op, inputs, params, results):
        """Add a node of a GraphOp (graph_ops.py) reading ``inputs`` (tensors).

        ``results`` are the values this run gives (fresh tensors): None for an op without
        a result, one tensor, or a list of them (one ``output`` node each). Returns them,
        now part of the graph.
        """
        args = tuple(self.node_for(x) for x in inputs)
        if isinstance(results, Tensor):
            node = Node("op", results.shape, results._data.dtype, results._device, op, args, params)
            self._remember(results, node, op.name)
            return results
        node = Node("op", (), NO_ARRAY, self._device_of(inputs), op=op, inputs=args, params=params)
        self.nodes.append(node)
        if results is None:
            return None
        for index, result in enumerate(results):
            picked = Node(
                "op",
                result.shape,
                result._data.dtype,
                result._device,
                OUTPUT,
                (node,),
                {"index": index},
            )
            self._remember(result, picked, op.name if len(results) == 1 else f"{op.name}_{index}")
        return results

    def node_for(self, value, array=None, device=None):
        """The node for an op input: known tensor, capture, new variable/constant, or literal."""
        if isinstance(value, Tensor):
            if type(value) is SymbolicTensor:
                raise out_of_scope_error(value)
            node = self._node_of.get(id(value))
            if node is None and value._is_variable:
                node = self._variable_node(value)
            elif node is None:
                node = self._variable_nodes.get(id(value._data))  # a tape's snapshot of a read
            if node is None and self.parent is not None and self.parent.knows(value):
                node = Node("input", value.shape, value._data.dtype, value._device)
                node.value = self.captures.position(value)
                self._remember(value, node)
            if node is None:
                node = Node("constant", value.shape, value._data.dtype, value._device)
                node.value = value._data
                self._remember(value, node)
            return node
        # A Python or numpy value the op converted to ``array`` (e.g. the 2.0 in ``x * 2.0``).
        node = Node("constant", array.shape, array.dtype, device, value=array)
        self.nodes.append(node)
        return node

    def knows(self, tensor):
        """Whether ``tensor`` is a value of this trace or of an enclosing one."""
        if id(tensor) in self._node_of:
            return True
        return self.parent is not None and self.parent.knows(tensor)

    def _variable_node(self, variable):
        node = self._variable_nodes.get(id(variable))
        if node is None:
            node = Node("variable", variable.shape, variable._data.dtype, variable._device)
            node.value = variable
            self.nodes.append(node)
            # A tape's snapshot of this read shares the array: it is the same read.
            self._variable_nodes[id(variable)] = self._variable_nodes[id(variable._data)] = node
            if variable._shape_spec is not None:  # made with shape=: its shape may change
                traced = variable._data.shape  # a later call replays this trace only for it
                self.add_guard(lambda: variable._data.shape == traced)
        return node

    def note_variable_slice(self, tensor, variable, key):
        """``tensor`` is ``variable[key]``: its ``assign`` writes there (graph_tensor.py)."""
        self.variable_slices[id(tensor)] = (variable, key)

    def add_guard(self, holds):
        """A later call replays the finished graph only while ``holds()``; else it traces
        again (a loop that read an iterator to its end: data/iterator.py)."""
        root = self
        while root.parent is not None:
            root = root.parent
        root.guards.append(holds)

    def bind_shapes(self):
        """A gradient is taken while tracing: the VJPs build their ops with the sizes of this
        call (a reshape back to x's shape, a sum broadcast back), so the finished graph is
        right for these sizes only. A trace for relaxed shapes (None sizes) then keeps the
        sizes it was traced with, and a call with other sizes traces again."""
        root = self
        while root.parent is not None:
            root = root.parent
        root.shape_bound = True

    def forget_variable_reads(self):
        """After a write (or a subgraph that may write), the next read is a new node."""
        self._variable_nodes.clear()

    def graph(self, outputs):
        """The finished Graph returning the nodes for ``outputs`` (Tensors)."""
        returned = [self.node_for(t) for t in outputs]
        return Graph(self.name, self.nodes, returned)

    # --- effects --------------------------------------------------------------------------
    def refuse_assign(self, variable, method):
        """Called when something writes a variable in a way a graph cannot replay."""
        raise UnimplementedError(
            f"ek.function {self.name!r}: {method} on variable {variable.name!r} while tracing. "
            "Inside ek.function a variable changes through assign, assign_add, assign_sub or "
            "an optimizer's apply_gradients; do this write outside the function.",
            op=method,
        )

    # --- names and lifetimes ------------------------------------------------------------------
    def _remember(self, tensor, node, name=None):
        """Map ``tensor`` to ``node``; with a ``name``, the trace made it: a GraphTensor."""
        self._node_of[id(tensor)] = node
        self._alive.append(tensor)
        self.nodes.append(node)
        if name is None:  # a tensor made outside (a capture, a constant): left as it is
            return
        tensor.__class__ = GraphTensor  # prints as a node of this graph
        self._made.append(tensor)
        count = self._name_counts.get(name, 0)
        self._name_counts[name] = count + 1
        self.names[id(tensor)] = f"{name}:0" if count == 0 else f"{name}_{count}:0"

    def retire(self):
        """The trace is over: its tensors become symbolic (graph_tensor.py)."""
        retire(self._made, self.names)

    @staticmethod
    def _device_of(inputs):
        from eagerkit.devices import current_device

        return next((x._device for x in inputs if isinstance(x, Tensor)), current_device())


@contextlib.contextmanager
def tracing(tracer):
    """Make ``tracer`` see every op; the caller's tapes do not see the trace run."""
    with recording.paused():
        recording.push_tracer(tracer)
        try:
            yield tracer
        finally:
            recording.pop_tracer()


@contextlib.contextmanager
def outside_traces():
    """Ops in the block run eagerly, unseen by the traces in progress (``ek.init_scope``,
    an effect run now); the same traces see ops again afterwards."""
    suspended = recording.graph_tracers[:]
    for _ in suspended:
        recording.pop_tracer()
    try:
        yield
    finally:
        for tracer in suspended:
            recording.push_tracer(tracer)


def note_variable_created(variable):
    """Variable() calls this while tracing: the function's trace counts what it creates."""
    tracer = recording.graph_tracers[-1]
    while tracer.parent is not None:
        tracer = tracer.parent
    tracer.created_variables.append(variable)


def current_tracer():
    """The innermost trace in progress, or None when running eagerly."""
    return recording.graph_tracers[-1] if recording.graph_tracers else None

"""Subgraphs: the branches of a ``cond``, the test and the body of a ``while_loop``.

A subgraph is a Python callable traced by a tracer of its own, inside the trace of the
enclosing graph. Its inputs are the callable's arguments (a loop's variables), then the
tensors of enclosing graphs it reads (its *captures*, shared with its siblings, so the two
branches of a cond take the same arguments). Like a whole function it is optimized and
compiled into one Python function over raw arrays (``run``), and it can also run through
the public ops (``run_with_ops``), recorded on tapes or traced again.
"""

from eagerkit import nest
from eagerkit.graph.graph_ops import graph_has_effects
from eagerkit.graph.optimize import optimize
from eagerkit.graph.replay import compile_graph, plan_buffer_reuse, run_with_ops
from eagerkit.graph.trace import Tracer, tracing
from eagerkit.tensor import Tensor


class SubgraphTrace:
    """One traced callable, before its graph is finished (its siblings may still add captures).

    ``result``: what the callable returned, with this trace's tensors in it;
    ``tracer``: the tracer that saw it.
    """

    def __init__(self, tracer, result):
        self.tracer = tracer
        self.result = result

    def finish(self, outputs, arity, buffer_reuse):
        """The Subgraph returning ``outputs`` (tensors of this trace, constants or captures)."""
        subgraph = Subgraph(self.tracer, outputs, arity, buffer_reuse)
        self.tracer.retire()  # tensors made inside the branch or body cannot leak out of it
        return subgraph


def trace_subgraph(parent, name, function, args, captures):
    """Trace ``function(*args)`` as a subgraph of ``parent``'s graph.

    ``args`` are tensors: each becomes an input (positions 0, 1, ...); ``captures`` is the
    Captures object the subgraph shares with its siblings.
    """
    tracer = Tracer(name, parent=parent, captures=captures)
    with tracing(tracer):
        stand_ins = [tracer.placeholder(x, i, f"{name}_input") for i, x in enumerate(args)]
        result = function(*stand_ins)
    return SubgraphTrace(tracer, result)


class Subgraph:
    """A finished subgraph: its graph (optimized), compiled code, and whether it has effects.

    Examples
    --------
    >>> import eagerkit as ek
    >>> @ek.function
    ... def relu(x):
    ...     return ek.cond(x > 0, lambda: x, lambda: x * 0.1)
    >>> graph = relu.get_concrete_function(ek.constant(1.0)).graph
    >>> [node.name for node in graph.ops]
    ['greater', 'cond', 'output']
    >>> branches = graph.ops[1].params["subgraphs"]
    >>> [node.name for node in branches["false branch"].graph.ops]
    ['multiply']
    """

    def __init__(self, tracer, outputs, arity, buffer_reuse=True):
        self.traced_graph = tracer.graph(outputs)
        self.graph, self.optimizations = optimize(self.traced_graph)
        self.optimizations["buffer_reuse"] = plan_buffer_reuse(self.graph) if buffer_reuse else 0
        self._arity = arity
        self.constants = {
            id(node): Tensor(node.value, node.device) for node in self.graph.constants
        }
        self.has_effects = graph_has_effects(self.graph)
        self.variables = [node.value for node in self.graph.variables]  # read at every run

    def run(self, *arrays):
        """Run the compiled subgraph on raw arrays (compiled on first use, which then
        replaces this method)."""
        self.source, self.run = compile_graph(self.graph, self._arity)
        return self.run(*arrays)

    def run_with_ops(self, tensors):
        """Run through the public ops on ``tensors`` (inputs, then captures): a list."""
        return run_with_ops(self.graph, list(tensors), self.constants)

    def __repr__(self):
        return f"<subgraph {self.graph.name}: {len(self.graph.ops)} ops>"


def fresh(tensor):
    """A new tensor holding ``tensor``'s value: what a cond or loop gives its own graph."""
    return Tensor(tensor._data, tensor._device)


def structure_text(structure):
    """``structure`` with every leaf shown as ``*``: to compare and name structures."""
    leaves = nest.flatten(structure)
    return repr(nest.pack_sequence_as(structure, ["*"] * len(leaves)))

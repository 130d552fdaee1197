"""Graph optimizations: what a graph can do that op-by-op eager execution cannot.

Eager execution sees one op at a time. A traced graph sees the whole computation before
running it, so it can:

- **fold constants**: an op whose inputs are all constants gives the same answer at every
  call; compute it once, now, and keep the result as a constant;
- **eliminate common subexpressions**: the same op on the same inputs with the same
  params computes the same value; compute it once and share it;
- **eliminate dead code**: an op whose result never reaches an output need not run.

Graph ops (graph_ops.py: control flow, prints, assignments, random draws) are never folded
or merged, and those with effects always run, needed or not (TF's "non-strict execution":
only outputs and effects are observable).

(Buffer reuse, the fourth, is decided when the graph is compiled: see replay.py.)
Each pass returns new nodes and leaves the traced graph as it was, so lessons can show
both side by side.
"""

import numpy as np

from eagerkit.graph.graph import Graph, Node
from eagerkit.graph.graph_ops import GraphOp, has_effects

_CONSTANT_KEY_LIMIT = 64  # constants up to this many elements are compared by value for CSE


def optimize(graph):
    """The optimized copy of ``graph`` and how many nodes each pass removed or folded.

    Examples
    --------
    >>> import eagerkit as ek
    >>> def f(x):
    ...     unused = ek.exp(x)                    # dead code
    ...     two = ek.constant(1.0) + 1.0          # a constant subexpression
    ...     return ek.tanh(x) * two + ek.tanh(x)  # tanh(x) twice
    >>> concrete = ek.function(f).get_concrete_function(ek.constant([1.0, 2.0]))
    >>> len(concrete.traced_graph.ops), len(concrete.graph.ops)
    (6, 3)
    >>> concrete.optimizations["constant_folding"], concrete.optimizations["dead_code"]
    (1, 3)
    """
    counts = {}
    nodes, outputs = graph.nodes, graph.outputs
    for name, run_pass in PASSES:
        nodes, outputs, counts[name], _ = run_pass(nodes, outputs)
    return Graph(graph.name, nodes, outputs, traced=graph), counts


def fold_constants(nodes, outputs):
    """Run every op whose inputs are all constants now; it becomes a constant.

    Like every pass, returns the new nodes, the new outputs, how many nodes it changed
    and ``replaced``: ``id(old node) -> the node standing for it`` (absent: dropped).
    """
    replaced, kept, folded = {}, [], 0  # replaced: id(old node) -> the node standing for it
    for old in nodes:
        node = _with_inputs(old, replaced)
        foldable = node.kind == "op" and not isinstance(node.op, GraphOp)
        if foldable and node.inputs and all(x.kind == "constant" for x in node.inputs):
            array = node.op.forward(node.device.xp, *[x.value for x in node.inputs], **node.params)
            node = Node("constant", array.shape, array.dtype, node.device, value=array)
            folded += 1
        replaced[id(old)] = node
        kept.append(node)
    return kept, _renamed(outputs, replaced), folded, replaced


def eliminate_common_subexpressions(nodes, outputs):
    """Keep the first of several nodes that compute the same thing; reuse it for the rest."""
    replaced, kept, first, merged = {}, [], {}, 0
    for old in nodes:
        node = _with_inputs(old, replaced)
        key = _key(node)
        if key is not None and key in first:
            replaced[id(old)] = first[key]
            merged += 1
            continue
        if key is not None:
            first[key] = node
        replaced[id(old)] = node
        kept.append(node)
    return kept, _renamed(outputs, replaced), merged, replaced


def eliminate_dead_code(nodes, outputs):
    """Drop every op, constant and variable read that no output or effect depends on
    (inputs stay)."""
    live = {id(node) for node in outputs}
    live.update(id(node) for node in nodes if has_effects(node))
    for node in reversed(nodes):  # run order, backwards: consumers come before producers
        if id(node) in live:
            live.update(id(x) for x in node.inputs)
    kept = [node for node in nodes if id(node) in live or node.kind == "input"]
    return kept, outputs, len(nodes) - len(kept), {id(node): node for node in kept}


# In this order: dead code after folding (folding leaves the folded op's constants unused),
# so the merge count counts only live duplicates. Merging never leaves anything dead behind.
PASSES = (
    ("constant_folding", fold_constants),
    ("dead_code", eliminate_dead_code),
    ("common_subexpressions", eliminate_common_subexpressions),
)


def _with_inputs(node, replaced):
    """A copy of an op node reading the replacements of its inputs (other nodes as they are).

    Copying keeps the traced graph as it was traced, whatever later steps mark on the copy.
    """
    if node.kind != "op":
        return node
    inputs = tuple(replaced.get(id(x), x) for x in node.inputs)
    return Node(
        "op", node.shape, node.dtype, node.device, op=node.op, inputs=inputs, params=node.params
    )


def _renamed(nodes, replaced):
    return [replaced.get(id(node), node) for node in nodes]


def _key(node):
    """What makes two nodes compute the same value, or None when that cannot be told."""
    try:
        if node.kind == "op" and isinstance(node.op, GraphOp):
            return None  # control flow, effects, draws: each node is its own
        if node.kind == "op":
            return ("op", node.op.name, tuple(id(x) for x in node.inputs), _freeze(node.params))
        if node.kind == "constant" and np.size(node.value) <= _CONSTANT_KEY_LIMIT:
            value = node.value
            if not isinstance(value, np.generic):  # a Python number operand stays one
                value = node.device.backend.to_host(value)  # on any device (cupy takes it)
            host = np.asarray(value)
            return ("constant", host.dtype.str, host.shape, host.tobytes(), node.device.name)
    except TypeError:  # a param that cannot be compared (unhashable): leave the node alone
        return None
    return None  # inputs, variable reads and large constants are never merged


def _freeze(value):
    """A hashable stand-in for a param value: equal stand-ins mean equal values."""
    if isinstance(value, dict):
        return ("dict", tuple(sorted((key, _freeze(item)) for key, item in value.items())))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_freeze(item) for item in value))
    if isinstance(value, slice):
        return ("slice", _freeze(value.start), _freeze(value.stop), _freeze(value.step))
    if isinstance(value, np.ndarray):
        return ("array", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, float):
        return ("float", repr(value))  # tells 0.0 from -0.0
    hash(value)  # raises TypeError for anything unhashable
    return (type(value).__qualname__, value)

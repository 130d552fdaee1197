"""Graph: the ops one trace of a Python function ran, as a list of nodes in run order.

A node is one of four kinds:

- ``input``: an argument of the function (its position among the tensor arguments);
- ``variable``: a Variable the function read; its *current* value is read at every call;
- ``constant``: a value fixed at trace time (a Python number, a tensor made outside);
- ``op``: a primitive from the registry applied to earlier nodes, with its params.

The list is already in a valid run order (the order the ops ran while tracing), so
running a graph is one pass over it.
"""

import numpy as np

from eagerkit import dtypes


class Node:
    """One value in a graph: an input, a variable read, a constant or an op's output."""

    __slots__ = ("kind", "op", "inputs", "params", "shape", "dtype", "device", "value", "reuses")

    def __init__(self, kind, shape, dtype, device, op=None, inputs=(), params=None, value=None):
        self.kind = kind
        self.op = op  # the OpDef, for kind == "op"
        self.inputs = inputs  # earlier Nodes, for kind == "op"
        self.params = params or {}
        self.shape = tuple(shape)
        self.dtype = dtype  # a numpy dtype
        self.device = device
        self.value = value  # input: position; variable: the Variable; constant: the array
        self.reuses = None  # set by buffer reuse: the input Node whose array this op writes into

    @property
    def name(self):
        """What the node is: the op name, or ``input``/``variable``/``constant``."""
        return self.op.name if self.kind == "op" else self.kind

    @property
    def type_text(self):
        """``float32[2, 3]``; ``-`` for a node that is not one array (a cond's results)."""
        if self.dtype == np.dtype(object):
            return "-"
        return f"{dtypes.from_numpy(self.dtype).name}{list(self.shape)}"

    @property
    def subgraphs(self):
        """The graphs this node runs (a cond's branches, a loop's test and body), by role."""
        found = self.params.get("subgraphs", {}) if self.kind == "op" else {}
        return {role: sub.graph for role, sub in found.items()}

    def __repr__(self):
        return f"<Node {self.name} {self.type_text}>"


class Graph:
    """The nodes of one trace, in run order, and which of them the function returns.

    Examples
    --------
    >>> import eagerkit as ek
    >>> f = ek.function(lambda x: ek.tanh(x * 2.0))
    >>> graph = f.get_concrete_function(ek.constant([1.0, 2.0])).graph
    >>> [node.name for node in graph.ops]
    ['multiply', 'tanh']
    """

    def __init__(self, name, nodes, outputs, traced=None):
        self.name = name
        self.nodes = list(nodes)
        self.outputs = list(outputs)
        self.traced = traced  # an optimized graph: the graph as traced, before the passes

    @property
    def ops(self):
        """The op nodes, in run order."""
        return [node for node in self.nodes if node.kind == "op"]

    @property
    def inputs(self):
        return [node for node in self.nodes if node.kind == "input"]

    @property
    def variables(self):
        return [node for node in self.nodes if node.kind == "variable"]

    @property
    def constants(self):
        return [node for node in self.nodes if node.kind == "constant"]

    def __len__(self):
        return len(self.nodes)

    def as_graph_def(self):
        """The graph as TF's ``GraphDef`` lists it: one ``NodeDef`` (name, op, inputs) each.

        Examples
        --------
        >>> import eagerkit as ek
        >>> graph = ek.function(lambda x: x * 2.0).get_concrete_function(ek.constant(1.0)).graph
        >>> for node in graph.as_graph_def().node:
        ...     print(f"{node.input} -> {node.name}")
        [] -> x
        [] -> Const
        ['x', 'Const'] -> multiply
        """
        return GraphDef(self.traced or self)  # TF's GraphDef is the function before Grappler

    def __str__(self):
        """A listing: one line per node (``%i = op(%a, %b)``, dtype and shape), then the outputs."""
        number = {id(node): i for i, node in enumerate(self.nodes)}
        lines = [
            f"graph {self.name}: {len(self.inputs)} inputs, {len(self.variables)} variables, "
            f"{len(self.constants)} constants, {len(self.ops)} ops"
        ]
        for i, node in enumerate(self.nodes):
            left = f"  %{i} = {_describe(node, number)}"
            right = node.type_text
            if node.reuses is not None:
                right += f"  (writes into %{number[id(node.reuses)]})"
            lines.append(f"{left:<44} {right}")
        returned = ", ".join(f"%{number[id(node)]}" for node in self.outputs)
        lines.append(f"  return {returned}")
        for i, node in enumerate(self.nodes):  # a cond's branches, a loop's test and body
            for role, graph in node.subgraphs.items():
                lines.append(f"  %{i} {role}:")
                lines.extend("    " + line for line in str(graph).splitlines())
        return "\n".join(lines)

    def __repr__(self):
        return f"<Graph {self.name}: {len(self.nodes)} nodes, {len(self.ops)} ops>"


def _describe(node, number):
    if node.kind == "input":
        return f"input {node.value}"
    if node.kind == "variable":
        return f"variable {node.value.name!r}"
    if node.kind == "constant":
        return f"constant {_short(node.value, node.device)}"
    args = [f"%{number[id(x)]}" for x in node.inputs]
    listed = getattr(node.op, "listed_params", None)  # a graph op shows what it chooses
    params = node.params if listed is None else listed(node.params)
    args += [f"{key}={value!r}" for key, value in params.items()]
    return f"{node.op.name}({', '.join(args)})"


def _short(array, device):
    """A constant's value when it is small, else just its size."""
    host = np.asarray(device.backend.to_host(array))
    if host.size <= 4:
        return repr(host.tolist())
    return f"<{host.size} values>"


_TF_KINDS = {"input": "Placeholder", "constant": "Const", "variable": "ReadVariableOp"}


class NodeDef:
    """One node of a GraphDef: its ``name``, its ``op`` and the names of its ``input``s."""

    def __init__(self, name, op, inputs):
        self.name, self.op, self.input = name, op, inputs

    def __str__(self):
        lines = [f'  name: "{self.name}"', f'  op: "{self.op}"']
        lines += [f'  input: "{name}"' for name in self.input]
        return "node {\n" + "\n".join(lines) + "\n}"


class GraphDef:
    """A graph as TF's ``GraphDef`` lists it (``graph.as_graph_def().node``); prints in
    protobuf's text format."""

    def __init__(self, graph):
        names, taken = {}, {}
        self.node = []
        for node in graph.nodes:
            base = node.params.get("name") if node.kind == "input" else None
            base = base or (node.name if node.kind == "op" else _TF_KINDS[node.kind])
            count = taken.get(base, 0)
            taken[base] = count + 1
            name = base if count == 0 else f"{base}_{count}"
            names[id(node)] = name
            op = node.name if node.kind == "op" else _TF_KINDS[node.kind]
            self.node.append(NodeDef(name, op, [names[id(x)] for x in node.inputs]))

    def __str__(self):
        return "\n".join(str(node) for node in self.node)

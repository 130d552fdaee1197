"""Running a graph, two ways.

- ``compile_graph`` turns the graph into one plain Python function over raw arrays, one
  line per op (``t3 = tanh(xp, t2)``), and ``exec``s it. Calling it does none of eager
  execution's per-op work: no argument conversion, no dtype checks, no Tensor objects, no
  look at the tapes. That is the fast path, used when nothing is recording.
- ``run_with_ops`` runs the same nodes through the public ops (``ek.tanh``, ...). The ops
  are then recorded on the active tapes like any eager op, so gradients of any order flow
  through the call with no gradient code of its own.

Buffer reuse happens in the compiled function only: an elementwise op whose input is a
temporary that nothing reads afterwards writes its result into that input's array
(``out=``) instead of allocating a new one. Each temporary is also deleted (``del t2``)
right after its last reader, so the graph holds no more memory than eager code would.
"""

import math

from eagerkit.graph.fused_runs import find_runs, fuses
from eagerkit.graph.graph_ops import OUTPUT

# Ops whose forward is exactly this ufunc of the array library, so it can write with out=.
INPLACE_UFUNCS = {
    "add": "add",
    "subtract": "subtract",
    "multiply": "multiply",
    "truediv": "true_divide",
    "maximum": "maximum",
    "minimum": "minimum",
    "negative": "negative",
    "abs": "absolute",
    "sqrt": "sqrt",
    "exp": "exp",
    "log": "log",
    "log1p": "log1p",
    "sin": "sin",
    "cos": "cos",
    "tan": "tan",
    "tanh": "tanh",
}


def plan_buffer_reuse(graph):
    """Mark each op that may write into a dead input's array (``node.reuses``); count them.

    An array may be overwritten only if this graph made it (never an argument, variable or
    constant), nothing else can see it (every reader is an elementwise ufunc, which never
    returns a view of its input) and this op is its last reader.

    Examples
    --------
    >>> import eagerkit as ek
    >>> f = ek.function(lambda x: ek.exp(ek.sin(x)) + ek.sin(x), buffer_reuse=False)
    >>> graph = f.get_concrete_function(ek.constant([1.0, 2.0])).graph
    >>> plan_buffer_reuse(graph)  # sin(x) is read twice: only add may write into exp's array
    1
    >>> [(node.name, node.reuses.name) for node in graph.ops if node.reuses is not None]
    [('add', 'exp')]
    """
    readers = {}
    for node in graph.nodes:
        for x in node.inputs:
            readers.setdefault(id(x), []).append(node)
    for node in graph.outputs:  # returned arrays are read by the caller
        readers.setdefault(id(node), []).append(None)
    remaining = {key: len(value) for key, value in readers.items()}

    def private(node):  # a fresh array that no view or caller can see
        return _inplace_able(node) and all(
            r is not None and _inplace_able(r) for r in readers.get(id(node), ())
        )

    reused = 0
    for node in graph.nodes:
        if _inplace_able(node):
            for x in node.inputs:
                last_reader = remaining[id(x)] == node.inputs.count(x)
                if last_reader and private(x) and x.shape == node.shape and x.dtype == node.dtype:
                    node.reuses = x
                    reused += 1
                    break
        for x in node.inputs:
            remaining[id(x)] -= 1
    return reused


def _inplace_able(node):
    return (
        node.kind == "op"
        and node.op.name in INPLACE_UFUNCS
        and node.dtype.kind == "f"
        and len(node.shape) > 0  # 0-d ufunc results are numpy scalars, not writable arrays
        and not node.device.restricted
    )


def compile_graph(graph, arity=None):
    """The graph as Python source over raw arrays, and the function that source defines.

    ``arity``: how many arguments the function takes (default: one per input node); a
    subgraph takes every capture its siblings share, read or not.

    Examples
    --------
    >>> import eagerkit as ek
    >>> f = ek.function(lambda x: ek.tanh(x * 2.0) - x)
    >>> print(f.get_concrete_function(ek.constant([1.0, 2.0])).source)
    def graph_lambda(t0):
        t2 = multiply(xp, t0, t1)
        t3 = tanh_(t2, out=t2); del t2
        t4 = subtract_(t3, t0, out=t3); del t3
        return (t4,)
    """
    names = {id(node): f"t{i}" for i, node in enumerate(graph.nodes)}
    # On a GPU, each run of elementwise ops is one kernel, computed at its last member's line
    # from the run's inputs (fused_runs.py); its other members have no line.
    runs = {id(run.result): run for run in find_runs(graph) if fuses(run.result.device)}
    inside = {id(node) for run in runs.values() for node in run.members[:-1]}
    reads = {key: run.inputs for key, run in runs.items()}  # a run's line reads its inputs
    last_reader = {
        id(x): node
        for node in graph.nodes
        if id(node) not in inside
        for x in reads.get(id(node), node.inputs)
    }
    returned = {id(node) for node in graph.outputs}
    scope = {}  # the compiled function's globals: kernels, constants, variables, xp
    arguments, lines = [], []
    for node in graph.nodes:
        name = names[id(node)]
        if id(node) in inside:
            continue  # computed inside its run's kernel, never as an array of its own
        if node.kind == "input":
            arguments.append((node.value, name))
        elif node.kind == "constant":
            scope[name] = node.value
        elif node.kind == "variable":
            scope[f"{name}_variable"] = node.value
            lines.append(f"{name} = {name}_variable._data  # read now, at every call")
        else:
            run = runs.get(id(node))
            call = _call(node, names, scope) if run is None else _fused(run, names, scope)
            line = f"{name} = {call}"
            dead = [
                names[id(x)]
                for x in dict.fromkeys(reads.get(id(node), node.inputs))
                if x.kind == "op" and last_reader[id(x)] is node and id(x) not in returned
            ]
            if dead:  # free the arrays nothing reads any more, as eager code would
                line += f"; del {', '.join(dead)}"
            if run is not None:  # what its one kernel computes
                line += f"  # {' -> '.join(member.name for member in run.members)}"
            lines.append(line)
    results = "".join(f"{names[id(node)]}, " for node in graph.outputs)
    lines.append(f"return ({results.rstrip(' ')})")
    given = dict(arguments)
    count = len(arguments) if arity is None else arity
    parameters = ", ".join(given.get(i, f"unused{i}") for i in range(count))
    header = f"def graph_{_identifier(graph.name)}({parameters}):"
    source = "\n    ".join([header] + lines)
    exec(compile(source, f"<ek.function {graph.name}>", "exec"), scope)  # noqa: S102
    return source, scope[f"graph_{_identifier(graph.name)}"]


def _call(node, names, scope):
    """The right-hand side of one op's line, adding what it needs to ``scope``."""
    args = [names[id(x)] for x in node.inputs]
    if node.op is OUTPUT:  # one result of a cond or a loop: an element of its tuple
        return f"{args[0]}[{node.params['index']}]"
    xp = _xp_name(node, scope)
    if node.reuses is not None:
        ufunc = f"{node.op.name}_" if xp == "xp" else f"{node.op.name}_{xp}"
        scope[ufunc] = getattr(scope[xp], INPLACE_UFUNCS[node.op.name])
        return f"{ufunc}({', '.join(args)}, out={names[id(node.reuses)]})"
    kernel = node.op.name
    if all(_literal(value) for value in node.params.values()):
        args += [f"{key}={value!r}" for key, value in node.params.items()]
    else:  # params Python cannot write as a literal (dtypes, slices): bind them instead
        kernel = f"{kernel}_{names[id(node)]}"
        scope[f"{kernel}_params"] = node.params
        args.append(f"**{kernel}_params")
    scope.setdefault(kernel, node.op.forward)
    return f"{kernel}({', '.join([xp] + args)})"


def _fused(run, names, scope):
    """The right-hand side of a run's line: its one kernel, on the run's inputs."""
    kernel = f"fused_{names[id(run.result)]}"
    scope[kernel] = run.result.device.backend.fuse(run.function, f"{kernel}_{len(run.members)}")
    return f"{kernel}({', '.join(names[id(x)] for x in run.inputs)})"


def _xp_name(node, scope):
    # The namespace eager execution would pass: the inputs' device (a copy op's source).
    device = node.inputs[0].device if node.inputs else node.device
    name = "xp" if device.name == "/cpu:0" else f"xp_{_identifier(device.name)}"
    scope[name] = device.xp
    return name


def _literal(value):
    """Whether ``repr(value)`` is Python source that gives ``value`` back."""
    if value is None or type(value) in (bool, int, str):
        return True
    if type(value) is float:
        return math.isfinite(value)
    if type(value) in (tuple, list):
        return all(_literal(item) for item in value)
    return False


def _identifier(text):
    cleaned = "".join(c for c in text if c.isalnum() or c == "_")  # "<lambda>" -> "lambda"
    return cleaned if cleaned.isidentifier() else f"f_{cleaned}"


def run_with_ops(graph, tensors, constants):
    """Run ``graph`` through the public ops (recorded on active tapes); returns its outputs.

    ``tensors`` are the caller's tensor arguments (so a tape watching them sees the ops);
    ``constants`` maps each constant node to its Tensor.
    """
    values = {}
    for node in graph.nodes:
        if node.kind == "input":
            value = tensors[node.value]
        elif node.kind == "variable":
            value = node.value  # the Variable itself: read (and watched) as in eager code
        elif node.kind == "constant":
            value = constants[id(node)]
        else:
            value = node.op.call(*[values[id(x)] for x in node.inputs], **node.params)
        values[id(node)] = value
    return [values[id(node)] for node in graph.outputs]

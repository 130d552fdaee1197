"""Which subgraphs one call of a graph runs, and how often: a dry run, for lessons and views.

A traced ``cond`` holds both branches and a ``while_loop`` its test and body (cond.py,
while_loop.py); which branch a call takes, and how many times a loop turns, depends on the
call's values. ``subgraph_runs`` finds out by running the graph on raw arrays, node by node,
and counting each subgraph it enters. It runs nothing that changes state: a graph with side
effects (a print, an assignment, Python code) or random draws gives ``None`` instead, as a
dry run of it could not be told apart from a real call.
"""

from eagerkit import nest
from eagerkit.graph.cond import BRANCHES, COND
from eagerkit.graph.graph_ops import has_effects, is_stateful
from eagerkit.graph.signature import TensorSpec
from eagerkit.graph.while_loop import WHILE, iteration_limit

CONTROL_FLOW = (COND, WHILE)


def call_runs(concrete, args, kwargs):
    """``subgraph_runs`` of ``concrete``'s graph for the call ``concrete(*args, **kwargs)``;
    ``None`` without values to run on (no arguments, or TensorSpecs).

    Examples
    --------
    >>> import eagerkit as ek
    >>> @ek.function
    ... def count_down(n):
    ...     return ek.while_loop(lambda i: i > 0, lambda i: i - 1, [n])
    >>> concrete = count_down.get_concrete_function(ek.constant(3))
    >>> sorted(call_runs(concrete, [ek.constant(3)], {}).values())  # body 3, test 4 times
    [3, 4]
    >>> call_runs(concrete, [ek.TensorSpec([], ek.int32)], {}) is None
    True
    """
    given = nest.flatten([list(args), dict(kwargs)])
    if not given or any(isinstance(leaf, TensorSpec) for leaf in given):
        return None
    leaves = concrete._call.leaves_for(args, kwargs)
    return subgraph_runs(concrete.graph, [leaves[i]._data for i in concrete._positions])


def subgraph_runs(graph, arrays):
    """``{id(subgraph): runs}`` for every subgraph in ``graph`` (nested ones too), when
    ``graph`` runs on ``arrays`` (one raw array per input position); ``None`` when running
    it would have effects or draw random numbers.

    Examples
    --------
    >>> import eagerkit as ek
    >>> @ek.function
    ... def relu(x):
    ...     return ek.cond(x > 0, lambda: x, lambda: x * 0.1)
    >>> graph = relu.get_concrete_function(ek.constant(1.0)).graph
    >>> branches = graph.ops[1].params["subgraphs"]
    >>> runs = subgraph_runs(graph, [ek.constant(-2.0).numpy()])
    >>> {role: runs[id(sub)] for role, sub in branches.items()}
    {'true branch': 0, 'false branch': 1}
    """
    runs = {}
    if not _count_subgraphs(graph, runs):
        return None
    _run(graph, list(arrays), runs)
    return runs


def _count_subgraphs(graph, runs):
    """Give every subgraph of ``graph`` a count of 0; whether a dry run of it is safe."""
    for node in graph.nodes:
        if node.kind != "op":
            continue
        if node.op in CONTROL_FLOW:  # their effects are their subgraphs': looked at below
            for sub in node.params["subgraphs"].values():
                runs[id(sub)] = 0
                if not _count_subgraphs(sub.graph, runs):
                    return False
        elif is_stateful(node) or has_effects(node):
            return False
    return True


def _run(graph, arrays, runs):
    """Run ``graph`` on ``arrays`` with each op's raw kernel (never in place); its outputs."""
    values = {}
    for node in graph.nodes:
        if node.kind == "input":
            value = arrays[node.value]
        elif node.kind == "variable":
            value = node.value._data  # read, as the compiled replay reads it
        elif node.kind == "constant":
            value = node.value
        else:
            given = [values[id(x)] for x in node.inputs]
            if node.op is COND:
                value = _cond(node, given, runs)
            elif node.op is WHILE:
                value = _while(node, given, runs)
            else:
                device = node.inputs[0].device if node.inputs else node.device
                value = node.op.forward(device.xp, *given, **node.params)
        values[id(node)] = value
    return [values[id(node)] for node in graph.outputs]


def _cond(node, given, runs):
    pred, captures = given[0], given[1:]
    branch = node.params["subgraphs"][BRANCHES[0] if bool(pred) else BRANCHES[1]]
    runs[id(branch)] += 1
    return tuple(_run(branch.graph, captures, runs))


def _while(node, given, runs):
    """As while_loop.run_loop: the test runs before every iteration, unless the limit is hit."""
    count, subgraphs = node.params["count"], node.params["subgraphs"]
    loop, extra = list(given[:count]), given[count:]
    limit = iteration_limit(node.params["maximum_iterations"], extra)
    steps = 0
    while limit is None or steps < limit:
        runs[id(subgraphs["test"])] += 1
        if not bool(_run(subgraphs["test"].graph, [*loop, *extra], runs)[0]):
            break
        runs[id(subgraphs["body"])] += 1
        loop = _run(subgraphs["body"].graph, [*loop, *extra], runs)
        steps += 1
    return tuple(loop)

"""``cond`` in a graph: both branches traced, one chosen at every run.

Eagerly, ``ek.cond(pred, true_fn, false_fn)`` is just ``true_fn() if pred else false_fn()``.
Inside ``ek.function`` that would freeze the branch the first call took, so the trace
records both: each branch is traced into a subgraph of its own (subgraph.py), and the graph
gets one ``cond`` node reading the predicate and every tensor the branches read. Running
the graph runs only the branch the predicate picks, which is why a Python ``print`` in
either branch shows while tracing, and an ``ek.print`` only when its branch runs.

The two branches must give the same structure with tensors of the same dtypes; how a
Python value on one side meets a tensor on the other is the caller's ``merge`` (the public
``ek.cond`` converts it, AutoGraph also lets a name stay undefined, see autograph/).
"""

from eagerkit import nest
from eagerkit.graph.control_gradients import COND_RESULT, record_on_tapes
from eagerkit.graph.graph_ops import GraphOp
from eagerkit.graph.subgraph import fresh, structure_text, trace_subgraph
from eagerkit.graph.trace import Captures
from eagerkit.tensor import Tensor

BRANCHES = ("true branch", "false branch")


def _cond_forward(xp, pred, *captures, subgraphs):
    return subgraphs[BRANCHES[0] if pred else BRANCHES[1]].run(*captures)


def _cond_call(pred, *captures, subgraphs):
    from eagerkit.control_flow import cond

    true_branch, false_branch = (subgraphs[role] for role in BRANCHES)
    return cond(
        pred,
        lambda: true_branch.run_with_ops(captures),
        lambda: false_branch.run_with_ops(captures),
    )


COND = GraphOp(
    "cond",
    _cond_forward,
    _cond_call,
    effects=lambda params: any(sub.has_effects for sub in params["subgraphs"].values()),
)


def traced_cond(tracer, pred, true_fn, false_fn, merge, name="cond"):
    """Trace ``true_fn`` and ``false_fn`` into ``tracer``'s graph as one ``cond`` node.

    ``pred``: a scalar bool tensor. ``merge(a, b, where)``: for each pair of leaves of
    the two results, ``("tensor", a, b)`` (tensors of one dtype, ``a`` of the true branch)
    or ``("python", value)`` (the same Python value on both sides). Returns the result in
    fresh tensors of the graph, holding the values of the branch ``pred`` picks now (an
    example: the graph computes the real ones when it runs).
    """
    taken = bool(pred._data)
    captures = Captures(first_position=0)
    traces = [
        trace_subgraph(tracer, f"{name}_{side}", function, [], captures)
        for side, function in (("true", true_fn), ("false", false_fn))
    ]
    true_result, false_result = traces[0].result, traces[1].result
    if structure_text(true_result) != structure_text(false_result):
        raise ValueError(
            f"{name}: true_fn and false_fn arguments to {name} must have the same number, "
            f"type, and overall structure of return values.\n  true_fn returned "
            f"{structure_text(true_result)}\n  false_fn returned {structure_text(false_result)}"
        )
    merged = [
        merge(a, b, i)
        for i, (a, b) in enumerate(
            zip(nest.flatten(true_result), nest.flatten(false_result), strict=True)
        )
    ]
    sides = [[m[1 + side] for m in merged if m[0] == "tensor"] for side in (0, 1)]
    reuse = tracer.buffer_reuse
    subgraphs = {
        role: trace.finish(outputs, len(captures.tensors), reuse)
        for role, trace, outputs in zip(BRANCHES, traces, sides, strict=True)
    }
    results = [fresh(t) for t in sides[0 if taken else 1]]
    if results or any(sub.has_effects for sub in subgraphs.values()):
        inputs = [pred, *captures.tensors]
        tracer.record_graph_op(COND, inputs, {"subgraphs": subgraphs}, results)
        tracer.forget_variable_reads()  # a branch may have assigned one
        record_on_tapes(COND_RESULT, inputs, results, {"subgraphs": subgraphs}, subgraphs)
    given = iter(results)
    leaves = [next(given) if m[0] == "tensor" else m[1] for m in merged]
    return nest.pack_sequence_as(true_result, leaves)


def is_scalar_bool(pred):
    """Whether ``pred`` can pick a branch: a bool tensor of one element."""
    return isinstance(pred, Tensor) and pred._data.dtype == bool and pred._data.size == 1

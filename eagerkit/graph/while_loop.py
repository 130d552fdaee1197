"""``while_loop`` in a graph: the test and the body traced once, run as often as needed.

Eagerly, ``ek.while_loop(cond, body, loop_vars)`` is a Python ``while`` loop. Inside
``ek.function`` a Python loop would be unrolled into the graph for the first call's count,
so the trace records the test and the body once each, as subgraphs (subgraph.py) taking
the loop variables, and the graph gets one ``while_loop`` node: at every run it calls the
compiled test and body until the test says stop. The loop variables must keep their dtypes,
and their shapes unless ``shape_invariants`` leaves sizes open, as in TF.
"""

from eagerkit.graph.control_gradients import WHILE_RESULT, record_on_tapes
from eagerkit.graph.graph_ops import GraphOp
from eagerkit.graph.subgraph import fresh, trace_subgraph
from eagerkit.graph.trace import Captures
from eagerkit.tensor import Tensor, convert_to_tensor

ROLES = ("test", "body")


def iteration_limit(maximum_iterations, extra):
    """The iteration limit: a Python int, or the value of the captured tensor it names."""
    if isinstance(maximum_iterations, tuple):  # ("capture", index): a tensor of the graph
        return int(extra[maximum_iterations[1]])
    return maximum_iterations


def run_loop(test, body, loop, extra, limit, steps=0):
    """Run the compiled ``test`` and ``body`` on arrays until the test is false; the arrays."""
    while (limit is None or steps < limit) and test(*loop, *extra)[0]:
        loop = body(*loop, *extra)
        steps += 1
    return tuple(loop)


def _while_forward(xp, *arrays, subgraphs, count, maximum_iterations):
    extra = arrays[count:]
    limit = iteration_limit(maximum_iterations, extra)
    return run_loop(subgraphs["test"].run, subgraphs["body"].run, arrays[:count], extra, limit)


def _while_call(*tensors, subgraphs, count, maximum_iterations):
    from eagerkit.control_flow import while_loop

    extra = tensors[count:]
    test, body = subgraphs["test"], subgraphs["body"]
    return while_loop(
        lambda *loop: test.run_with_ops([*loop, *extra])[0],
        lambda *loop: tuple(body.run_with_ops([*loop, *extra])),
        list(tensors[:count]),
        maximum_iterations=iteration_limit(maximum_iterations, extra),
        # The trace checked the shapes; a TensorArray with dynamic_size grows its tensor.
        shape_invariants=[None] * count,
    )


WHILE = GraphOp(
    "while_loop",
    _while_forward,
    _while_call,
    shown=("maximum_iterations",),
    effects=lambda params: any(sub.has_effects for sub in params["subgraphs"].values()),
)


def traced_while(
    tracer, test_fn, body_fn, loop_vars, check_body, maximum_iterations, name, shapes_vary=False
):
    """Trace a while loop over the tensors ``loop_vars`` into ``tracer``'s graph.

    ``test_fn(*vars)`` gives a scalar bool; ``body_fn(*vars)`` the next values, which
    ``check_body(outputs)`` turns into a list of tensors like ``loop_vars`` (or raises).
    Returns the loop variables after the loop as fresh tensors of the graph holding their
    initial values (an example: the graph computes the real ones when it runs).
    ``shapes_vary``: shape invariants let sizes change, so no op may write in place.
    """
    count = len(loop_vars)
    captures = Captures(first_position=count)
    limit = maximum_iterations
    if isinstance(limit, Tensor) and tracer.knows(limit):  # a value of the graph: read per run
        limit = ("capture", captures.position(limit) - count)
    elif limit is not None:
        limit = int(limit)
    test_trace = trace_subgraph(tracer, f"{name}_test", test_fn, loop_vars, captures)
    keep = test_trace.result
    keep = keep if isinstance(keep, Tensor) else convert_to_tensor(bool(keep))
    body_trace = trace_subgraph(tracer, f"{name}_body", body_fn, loop_vars, captures)
    outputs = check_body(body_trace.result)
    arity = count + len(captures.tensors)
    reuse = tracer.buffer_reuse and not shapes_vary
    subgraphs = {
        "test": test_trace.finish([keep], arity, reuse),
        "body": body_trace.finish(outputs, arity, reuse),
    }
    results = [fresh(t) for t in loop_vars]
    params = {"subgraphs": subgraphs, "count": count, "maximum_iterations": limit}
    inputs = [*loop_vars, *captures.tensors]
    tracer.record_graph_op(WHILE, inputs, params, results)
    tracer.forget_variable_reads()  # the body may have assigned one
    record_on_tapes(WHILE_RESULT, inputs, results, params, subgraphs)
    return results

"""Gradients through ``cond`` and ``while_loop`` for a tape *inside* a traced function.

A tape outside the function needs nothing from here: the call then runs the graph through
the public ops, so a cond runs its branch op by op and a loop its iterations, each recorded.
A tape opened inside the function (a training step: ``with ek.GradientTape()``, then
``tape.gradient``) sees the trace instead, where a cond or a loop is one node of the graph.
So each of its results is recorded on that tape as an op of its own, whose gradient is:

- for a ``cond``: a ``cond`` over the gradients of the two branches (each branch run again,
  op by op, under a tape of its own), so the graph picks the right one at every run;
- for a ``while_loop``: a ``while_loop_gradient`` node that, at every run, runs the loop op
  by op under a tape and returns its gradients (the iterations taken decide them). It gives
  first-order gradients; for higher orders through a loop, take them outside the function.

Variables read inside a branch or the body count among the op's inputs, so the tape's
gradients reach them too.
"""

from eagerkit import recording
from eagerkit.graph.graph_ops import GraphOp
from eagerkit.graph.trace import outside_traces
from eagerkit.tensor import Tensor


class ControlFlowResult:
    """On a tape: result ``index`` of a cond or while_loop node, with its gradient rule."""

    differentiable = True

    def __init__(self, name, gradient):
        self.name = name
        self._gradient = gradient

    def has_gradient(self, position):
        return True

    def input_gradients(self, ops, g, ans, inputs, params, wanted):
        tensors = [x if isinstance(x, Tensor) else Tensor(x) for x in inputs]
        g = g if isinstance(g, Tensor) else Tensor(g)
        grads = self._gradient(tensors, g, params)
        return [grad if want else None for grad, want in zip(grads, wanted, strict=True)]


def record_on_tapes(op, inputs, results, params, subgraphs):
    """Record each of ``results`` on the tapes watching ``inputs`` (or the variables the
    subgraphs read)."""
    if not recording.active_tapes or not results:
        return
    variables = list({id(v): v for sub in subgraphs.values() for v in sub.variables}.values())
    for tape in recording.active_tapes:  # read inside: watched as if read here (TF)
        if tape._watch_accessed:
            for variable in variables:
                if variable.trainable:
                    tape._watch_one(variable, warn=False)
    inputs = (*inputs, *variables)
    for index, result in enumerate(results):
        recording.record(
            op, inputs, result, {**params, "index": index, "variables": len(variables)}
        )


def _differentiable(tensors):
    return [t for t in tensors if t.dtype.is_floating]


def _gradients_of(run, tensors, index, g):
    """d(result ``index`` of ``run()``)/d``tensors`` (None for non-floats), op by op."""
    from eagerkit.tape import GradientTape

    sources = _differentiable(tensors)
    with GradientTape() as tape:
        for source in sources:
            tape.watch(source)
        outputs = run()
    found = iter(
        tape.gradient(outputs[index], sources, output_gradients=g, unconnected_gradients="zero")
    )
    return [next(found) if t.dtype.is_floating else None for t in tensors]


# --- cond ----------------------------------------------------------------------------------------
def _cond_gradient(inputs, g, params):
    from eagerkit.control_flow import cond

    pred, rest = inputs[0], list(inputs[1:])
    captures = rest[: len(rest) - params["variables"]]

    def branch(role):
        subgraph = params["subgraphs"][role]
        return lambda: _gradients_of(
            lambda: subgraph.run_with_ops(captures), rest, params["index"], g
        )

    return [None, *cond(pred, branch("true branch"), branch("false branch"))]


COND_RESULT = ControlFlowResult("cond", _cond_gradient)


# --- while_loop ---------------------------------------------------------------------------------
def _loop_gradients(node_inputs, g, variables, params):
    """The gradients of result ``index`` of the loop w.r.t. its inputs and the variables it
    reads, the loop run op by op."""
    from eagerkit.graph.while_loop import WHILE

    def run():
        return WHILE.call(
            *node_inputs,
            subgraphs=params["subgraphs"],
            count=params["count"],
            maximum_iterations=params["maximum_iterations"],
        )

    return _gradients_of(run, [*node_inputs, *variables], params["index"], g)


def _loop_gradients_forward(xp, *arrays, params, variables, devices):
    tensors = [Tensor(a, d) for a, d in zip(arrays, devices, strict=True)]
    grads = _loop_gradients(tensors[:-1], tensors[-1], variables, params)
    return tuple(grad._data for grad in grads if grad is not None)


def _loop_gradients_call(*tensors, params, variables, devices):
    grads = _loop_gradients(list(tensors[:-1]), tensors[-1], variables, params)
    return tuple(grad for grad in grads if grad is not None)


LOOP_GRADIENTS = GraphOp(
    "while_loop_gradient", _loop_gradients_forward, _loop_gradients_call, stateful=True
)


def _while_gradient(inputs, g, params):
    from eagerkit.graph.trace import current_tracer

    split = len(inputs) - params["variables"]
    node_inputs, variables = inputs[:split], tuple(inputs[split:])
    with outside_traces():
        grads = _loop_gradients(node_inputs, g, variables, params)
    tracer = current_tracer()
    if tracer is None:
        return grads
    results = [Tensor(grad._data, grad._device) for grad in grads if grad is not None]
    devices = tuple(t._device for t in (*node_inputs, g))
    node_params = {"params": params, "variables": variables, "devices": devices}
    tracer.record_graph_op(LOOP_GRADIENTS, [*node_inputs, g], node_params, results)
    given = iter(results)
    return [next(given) if grad is not None else None for grad in grads]


WHILE_RESULT = ControlFlowResult("while_loop", _while_gradient)

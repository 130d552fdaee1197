"""Ops that exist only in graphs: control flow, side effects, and picking one output.

The registry's primitives are pure: the same inputs always give the same array, so a graph
may fold, merge or drop them. The ops here are different, and say how:

- ``stateful``: each run may differ (a random draw, a print, reading a Python object), so
  constant folding and common-subexpression elimination leave them alone;
- ``effects``: the op does something besides its result (prints, assigns a variable,
  calls Python), so dead-code elimination keeps it even when nothing reads its result.
  ``cond`` and ``while_loop`` have effects when one of their subgraphs has.

Like a primitive, a GraphOp has a ``forward(xp, *arrays, **params)`` (the compiled replay
calls it on raw arrays) and a ``call(*tensors, **params)`` (run through the public API:
recorded on tapes, or traced again when one ek.function calls another).
An op with several results (``cond``, ``while_loop``) gives a tuple; an ``output`` node picks
one element of it, so every other node stays one array.
"""

import numpy as np

NO_ARRAY = np.dtype(object)  # the dtype of a node that is not one array (a tuple, or None)


class GraphOp:
    """An op that only graphs have (see the module docstring).

    Parameters
    ----------
    name : what graph listings and views call it.
    forward : ``forward(xp, *arrays, **params)``, the compiled replay's kernel.
    call : ``call(*tensors, **params)``, the same through the public API.
    stateful : never folded or merged.
    effects : never dropped as dead code; a callable ``effects(params)`` decides per node.
    """

    differentiable = False  # tapes record what ``call`` runs, never the op itself

    def __init__(self, name, forward, call, *, stateful=False, effects=False, shown=()):
        self.name = name
        self.forward = forward
        self.call = call
        self.stateful = stateful
        self._effects = effects
        self.shown = shown  # the params a graph listing shows (the rest are machinery)

    def listed_params(self, params):
        """The params a listing shows, as text (a variable by its name)."""
        return {
            key: value.name if getattr(value, "_is_variable", False) else value
            for key, value in params.items()
            if key in self.shown
        }

    def has_effects(self, params):
        """Whether a node of this op with ``params`` must run even when its result is unused."""
        return self._effects(params) if callable(self._effects) else self._effects

    def __repr__(self):
        return f"<GraphOp {self.name}>"


def _pick(xp, values, index):
    return values[index]


# One element of a multi-result node (``t7 = t6[1]`` in compiled source).
OUTPUT = GraphOp("output", _pick, lambda values, index: values[index], shown=("index",))


def is_stateful(node):
    """Whether ``node``'s value may differ between runs of the same inputs."""
    return node.kind == "op" and getattr(node.op, "stateful", False)


def has_effects(node):
    """Whether ``node`` must run even when nothing reads its result."""
    return node.kind == "op" and isinstance(node.op, GraphOp) and node.op.has_effects(node.params)


def graph_has_effects(graph):
    """Whether running ``graph`` does anything besides computing its outputs."""
    return any(has_effects(node) for node in graph.nodes)

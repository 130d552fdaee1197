"""What each optimization pass did to a traced graph, as data (for lessons and views).

``optimize`` (optimize.py) only counts. ``optimization_passes`` runs the same passes
one at a time, then plans buffer reuse (replay.py), and reports for each pass the graph
before and after it, which nodes it folded, removed or merged (and into which node), and
what that saves: nodes, ops and the bytes of arrays allocated per call.
"""

import math

from eagerkit.graph.graph import Graph
from eagerkit.graph.optimize import PASSES
from eagerkit.graph.replay import plan_buffer_reuse

TITLES = {
    "constant_folding": "constant folding",
    "dead_code": "dead code elimination",
    "common_subexpressions": "common subexpression elimination",
    "buffer_reuse": "buffer reuse",
}


class PassReport:
    """One pass: the graph before and after it, and each node it changed.

    ``changes`` holds ``(index, change, target)`` triples: ``index`` is the node's place
    in ``before.nodes``; ``change`` is ``"folded"`` (now a constant, ``target`` its place
    in ``after.nodes``), ``"removed"`` (``target`` None), ``"merged"`` (``target``: the
    place in ``before.nodes`` of the equal node kept instead) or ``"reuses"`` (the op
    writes into the array of the node at ``target``, in ``before.nodes``).
    ``origins[i]`` is the place in the traced graph of the node ``before.nodes[i]`` stands
    for, so a node keeps one number from pass to pass.
    """

    def __init__(self, name, before, after, changes, origins, reusing=()):
        self.name = name
        self.origins = origins  # per node of ``before``: its place in the traced graph
        self.title = TITLES[name]
        self.before = before
        self.after = after
        self.changes = changes
        reused_after = {id(after.nodes[i]) for i, change, _ in changes if change == "reuses"}
        self.bytes_before = bytes_per_call(before, reusing)
        self.bytes_after = bytes_per_call(after, set(reusing) | reused_after)

    @property
    def bytes_saved(self):
        """Bytes of arrays each call no longer allocates."""
        return self.bytes_before - self.bytes_after

    def __repr__(self):
        return (
            f"<PassReport {self.name}: {len(self.changes)} changed, ops "
            f"{len(self.before.ops)} -> {len(self.after.ops)}, {self.bytes_saved} bytes saved>"
        )


def optimization_passes(graph):
    """Run the passes of ``ek.function`` on ``graph`` one by one; a PassReport for each.

    The traced graph is left as it was (every pass makes new nodes).

    Examples
    --------
    >>> import eagerkit as ek
    >>> def f(x):
    ...     unused = ek.exp(x)                    # dead code
    ...     two = ek.constant(1.0) + 1.0          # a constant subexpression
    ...     return ek.tanh(x) * two + ek.tanh(x)  # tanh(x) twice
    >>> concrete = ek.function(f).get_concrete_function(ek.constant([1.0, 2.0]))
    >>> for report in optimization_passes(concrete.traced_graph):
    ...     print(f"{report.title}: {[c[1] for c in report.changes]}, "
    ...           f"{len(report.before.ops)} -> {len(report.after.ops)} ops, "
    ...           f"{report.bytes_saved} bytes saved per call")
    constant folding: ['folded'], 6 -> 5 ops, 4 bytes saved per call
    dead code elimination: ['removed', 'removed', 'removed'], 5 -> 4 ops, 8 bytes saved per call
    common subexpression elimination: ['merged'], 4 -> 3 ops, 8 bytes saved per call
    buffer reuse: ['reuses'], 3 -> 3 ops, 8 bytes saved per call
    """
    reports = []
    before = graph
    origin = {id(node): i for i, node in enumerate(graph.nodes)}
    for name, run_pass in PASSES:
        nodes, outputs, _, replaced = run_pass(before.nodes, before.outputs)
        after = Graph(graph.name, nodes, outputs)
        origins = [origin[id(node)] for node in before.nodes]
        changes = _changes(before, after, replaced)
        reports.append(PassReport(name, before, after, changes, origins))
        for node in before.nodes:  # the node standing for it takes its number (the first's)
            if id(node) in replaced:
                origin.setdefault(id(replaced[id(node)]), origin[id(node)])
        before = after
    # Buffer reuse marks the final graph's ops (fresh copies: the traced graph is untouched).
    reused_before = {id(node) for node in before.nodes if node.reuses is not None}
    for node in before.nodes:
        node.reuses = None
    plan_buffer_reuse(before)
    place = {id(node): i for i, node in enumerate(before.nodes)}
    changes = [
        (i, "reuses", place[id(node.reuses)])
        for i, node in enumerate(before.nodes)
        if node.reuses is not None
    ]
    after = Graph(graph.name, before.nodes, before.outputs)
    origins = [origin[id(node)] for node in before.nodes]
    reports.append(PassReport("buffer_reuse", before, after, changes, origins, reused_before))
    return reports


def _changes(before, after, replaced):
    """What became of each node of ``before``: folded, removed, merged or (unlisted) kept."""
    place = {id(node): i for i, node in enumerate(after.nodes)}
    changes = []
    first = {}  # id(after-node) -> the place of the first before-node it stands for
    for i, node in enumerate(before.nodes):
        new = replaced.get(id(node))
        if new is None or id(new) not in place:
            changes.append((i, "removed", None))
        elif id(new) in first:
            changes.append((i, "merged", first[id(new)]))
        elif node.kind == "op" and new.kind == "constant":
            changes.append((i, "folded", place[id(new)]))
        first.setdefault(id(new), i)
    return changes


def bytes_per_call(graph, reusing=()):
    """Bytes of the arrays the graph's ops allocate per call (an op writing into another
    array's buffer, one of ``reusing`` ids, allocates nothing).

    Examples
    --------
    >>> import eagerkit as ek
    >>> f = ek.function(lambda x: ek.tanh(x) * 2.0)
    >>> bytes_per_call(f.get_concrete_function(ek.zeros([10])).traced_graph)  # 2 ops x 40
    80
    """
    return sum(
        math.prod(node.shape) * node.dtype.itemsize for node in graph.ops if id(node) not in reusing
    )

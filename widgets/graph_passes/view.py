"""GraphPassView: step through what ``ek.function``'s optimizations do to a traced graph.

The graph is drawn once per stage: before each pass (with the nodes the pass folds,
removes, merges or lets write into a dead buffer marked), and the optimized result. The
numbers say what each pass saved: nodes, ops, and bytes of arrays allocated per call.
The stages are computed here, from ``eagerkit.graph.passes`` (the engine reports, the
widget draws); stepping happens in the browser, so it works while the kernel is busy.

A traced ``cond`` or ``while_loop`` is a box that a click opens in place onto its
subgraphs (drawing.py). Given example arguments, the view dry-runs the graph on them
(``eagerkit.graph.dry_run``) to mark the branch that call takes and to count the loop's
turns; the marks stay as the student steps from pass to pass.
"""

import itertools
import pathlib

import traitlets

from eagerkit.graph.dry_run import call_runs
from eagerkit.graph.passes import bytes_per_call, optimization_passes

from ..common.live import SnapshotWidget
from .drawing import draw_graph, what
from .snapshot import stages_png

HERE = pathlib.Path(__file__).parent
COMMON = HERE.parent / "common"
ALL_STATES_UP_TO = 3  # control-flow nodes whose open/closed combinations are all laid out
WORDS = {
    "folded": "folded into a constant",
    "removed": "removed: no output needs it",
    "merged": "merged: computes what {target} computes",
    "reuses": "writes into {target}'s buffer (no new array)",
}


class GraphPassView(SnapshotWidget):
    """The optimization passes of one trace of an ``ek.function``, one stage at a time.

    Parameters
    ----------
    function : an ``ek.function`` (traced for ``args``) or one of its concrete functions.
    args, kwargs : example arguments, as for ``function.get_concrete_function``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> def f(x):
    ...     unused = ek.exp(x)                    # dead code
    ...     return ek.tanh(x) * 2.0 + ek.tanh(x)  # tanh(x) twice
    >>> view = GraphPassView(ek.function(f), ek.zeros([100]))
    >>> [(stage["title"], stage["ops"], stage["bytes_saved"]) for stage in view.stages]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('constant folding', [5, 5], 0), ('dead code elimination', [5, 4], 400),
     ('common subexpression elimination', [4, 3], 400), ('buffer reuse', [3, 3], 400),
     ('optimized graph', [5, 3], 1200)]
    >>> view
    GraphPassView(f)
    """

    _esm = HERE / "view.js"
    _css = (COMMON / "frame.css").read_text() + (HERE / "view.css").read_text()
    name = traitlets.Unicode("").tag(sync=True)
    stages = traitlets.List().tag(sync=True)
    runs_known = traitlets.Bool(False).tag(sync=True)  # which branches the call takes

    def __init__(self, function, *args, **kwargs):
        concrete = function
        if hasattr(function, "get_concrete_function"):
            concrete = function.get_concrete_function(*args, **kwargs)
        if not hasattr(concrete, "traced_graph"):
            raise TypeError(
                "GraphPassView: expected an ek.function (with example arguments) or a "
                f"concrete function, got {type(function).__name__}; write "
                "GraphPassView(ek.function(f), x)"
            )
        # Which branch of each cond this call takes, how often each loop turns (None: unknown).
        runs = call_runs(concrete, args, kwargs) if concrete is not function else None
        reports = optimization_passes(concrete.traced_graph)
        stages = [_stage(report, runs) for report in reports]
        stages.append(_result(reports[0].before, reports[-1], runs))
        name = concrete.traced_graph.name
        super().__init__(name=name, stages=stages, runs_known=runs is not None)

    def __repr__(self):
        return f"GraphPassView({self.name})"

    def snapshot_png(self):
        return stages_png(self.stages, self.name)


def _stage(report, runs):
    """One pass as drawing data: the graph before it, its changes marked, and the numbers."""
    marks = {i: (change, target) for i, change, target in report.changes}
    names = _names(report.origins)
    notes = {
        i: WORDS[change].format(target=names[target] if target is not None else "")
        for i, (change, target) in marks.items()
    }
    reuses = [(target, i) for i, (change, target) in marks.items() if change == "reuses"]
    drawn = _drawings(
        report.before, names, {i: m[0] for i, m in marks.items()}, notes, reuses, runs
    )
    changes = [f"{names[i]}: {notes[i]}" for i in sorted(notes)]
    bytes_ = (report.bytes_before, report.bytes_after)
    return _summary(report.title, drawn, changes, report.before, report.after, bytes_)


def _result(traced, last, runs):
    """The optimized graph, with its buffer reuse, against the traced one."""
    graph = last.after
    names = _names(last.origins)
    marks = {i: "reuses" for i, change, _ in last.changes if change == "reuses"}
    notes = {i: WORDS["reuses"].format(target=names[t]) for i, _, t in last.changes}
    reuses = [(t, i) for i, _, t in last.changes]
    drawn = _drawings(graph, names, marks, notes, reuses, runs)
    bytes_ = (bytes_per_call(traced), last.bytes_after)
    return _summary("optimized graph", drawn, [], traced, graph, bytes_)


def _drawings(graph, names, marks, notes, reuses, runs):
    """The stage's drawing with every cond and loop closed, and one per set of open ones.

    ``layouts`` maps the names of the open nodes (``"%4,%9"``, sorted) to a drawing: every
    combination for up to ALL_STATES_UP_TO nodes, else all of them open at once.
    """
    labels = [f"{names[i]} {what(node)}" for i, node in enumerate(graph.nodes)]
    control = [i for i, node in enumerate(graph.nodes) if node.subgraphs]
    if len(control) <= ALL_STATES_UP_TO:
        states = [s for k in range(1, len(control) + 1) for s in itertools.combinations(control, k)]
    else:
        states = [tuple(control)]
    drawings = {}
    for opened in [(), *states]:
        drawing = draw_graph(graph, labels, marks, notes, set(opened), runs)
        drawing["edges"] += [_edge(drawing, a, b, "reuse") for a, b in reuses]
        drawings[",".join(sorted(names[i] for i in opened))] = drawing
    closed = drawings.pop("")
    return {"drawing": closed, "layouts": drawings, "control": [names[i] for i in control]}


def _summary(title, drawn, changes, before, after, bytes_):
    """A stage as the front end reads it: what to draw, what changed, and the numbers."""
    return {
        "title": title,
        **drawn,
        "changes": changes,
        "nodes": [len(before.nodes), len(after.nodes)],
        "ops": [len(before.ops), len(after.ops)],
        "bytes": list(bytes_),
        "bytes_saved": bytes_[0] - bytes_[1],
    }


def _names(origins):
    """Each node's name: its number in the traced graph, kept through every pass."""
    return [f"%{i}" for i in origins]


def _edge(drawing, source, target, kind):
    """An edge from the bottom of ``source``'s box to the top of ``target``'s; a reuse
    edge bends to the left, off the data edge it would otherwise hide."""
    a, b = drawing["nodes"][source], drawing["nodes"][target]
    start, end = [a["x"] + a["w"] / 2, a["y"] + a["h"]], [b["x"] + b["w"] / 2, b["y"]]
    if kind == "reuse":
        start, end = [a["x"] + 10, a["y"] + a["h"]], [b["x"] + 10, b["y"]]
        bend = [max(2, min(start[0], end[0]) - 24), (start[1] + end[1]) / 2]
        return {"from": source, "to": target, "kind": kind, "points": [start, bend, end]}
    return {"from": source, "to": target, "kind": kind, "points": [start, end]}

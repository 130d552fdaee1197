"""GraphPassView: step through what ``ek.function``'s optimizations do to a traced graph.

The graph is drawn once per stage: before each pass (with the nodes the pass folds,
removes, merges or lets write into a dead buffer marked), and the optimized result. The
numbers say what each pass saved: nodes, ops, and bytes of arrays allocated per call.
The stages are computed here, from ``eagerkit.graph.passes`` (the engine reports, the
widget draws); stepping happens in the browser, so it works while the kernel is busy.
"""

import pathlib

import traitlets

from eagerkit import dtypes
from eagerkit.graph.passes import bytes_per_call, optimization_passes

from ..common.drawing import make_drawing, path_points
from ..common.live import SnapshotWidget
from .snapshot import stages_png

HERE = pathlib.Path(__file__).parent
COMMON = HERE.parent / "common"
CHAR_W, BOX_H, PAD_W = 7, 34, 18  # box size: monospace label width, height, padding
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
        reports = optimization_passes(concrete.traced_graph)
        stages = [_stage(report) for report in reports]
        stages.append(_result(reports[0].before, reports[-1]))
        super().__init__(name=concrete.traced_graph.name, stages=stages)

    def __repr__(self):
        return f"GraphPassView({self.name})"

    def snapshot_png(self):
        return stages_png(self.stages, self.name)


def _stage(report):
    """One pass as drawing data: the graph before it, its changes marked, and the numbers."""
    marks = {i: (change, target) for i, change, target in report.changes}
    names = _names(report.origins)
    notes = {
        i: WORDS[change].format(target=names[target] if target is not None else "")
        for i, (change, target) in marks.items()
    }
    drawing = _drawing(report.before, names, {i: m[0] for i, m in marks.items()}, notes)
    drawing["edges"] += [
        _edge(drawing, target, i, "reuse")
        for i, (change, target) in marks.items()
        if change == "reuses"
    ]
    changes = [f"{names[i]}: {notes[i]}" for i in sorted(notes)]
    bytes_ = (report.bytes_before, report.bytes_after)
    return _summary(report.title, drawing, changes, report.before, report.after, bytes_)


def _result(traced, last):
    """The optimized graph, with its buffer reuse, against the traced one."""
    graph = last.after
    names = _names(last.origins)
    marks = {i: "reuses" for i, change, _ in last.changes if change == "reuses"}
    notes = {i: WORDS["reuses"].format(target=names[t]) for i, _, t in last.changes}
    drawing = _drawing(graph, names, marks, notes)
    drawing["edges"] += [_edge(drawing, t, i, "reuse") for i, _, t in last.changes]
    bytes_ = (bytes_per_call(traced), last.bytes_after)
    return _summary("optimized graph", drawing, [], traced, graph, bytes_)


def _summary(title, drawing, changes, before, after, bytes_):
    """A stage as the front end reads it: what to draw, what changed, and the numbers."""
    return {
        "title": title,
        "drawing": drawing,
        "changes": changes,
        "nodes": [len(before.nodes), len(after.nodes)],
        "ops": [len(before.ops), len(after.ops)],
        "bytes": list(bytes_),
        "bytes_saved": bytes_[0] - bytes_[1],
    }


def _names(origins):
    """Each node's name: its number in the traced graph, kept through every pass."""
    return [f"%{i}" for i in origins]


def _drawing(graph, names, marks, notes):
    """Boxes (in pixels, laid out in layers) and edges of a graph, each node with its mark."""
    number = {id(node): i for i, node in enumerate(graph.nodes)}
    labels = [f"{names[i]} {_what(node)}" for i, node in enumerate(graph.nodes)]
    types = [f"{dtypes.from_numpy(node.dtype).name}{list(node.shape)}" for node in graph.nodes]
    ids = list(range(len(graph.nodes)))
    edges = [(number[id(x)], i) for i, node in enumerate(graph.nodes) for x in node.inputs]
    sizes = {i: (CHAR_W * max(len(labels[i]), len(types[i])) + PAD_W, BOX_H) for i in ids}
    placed = make_drawing(
        [{"id": i, "w": sizes[i][0], "h": sizes[i][1]} for i in ids],
        [{"id": k, "from": a, "to": b} for k, (a, b) in enumerate(edges)],
    )
    boxes = {box["id"]: box for box in placed["boxes"]}
    outputs = {number[id(node)] for node in graph.outputs}
    nodes = [
        {
            "id": i,
            "label": labels[i],
            "type": types[i],
            "kind": node.kind,
            "mark": marks.get(i, "kept"),
            "note": notes.get(i, ""),
            "output": i in outputs,
            "x": boxes[i]["x"],
            "y": boxes[i]["y"],
            "w": sizes[i][0],
            "h": sizes[i][1],
        }
        for i, node in enumerate(graph.nodes)
    ]
    drawing = {"nodes": nodes, "edges": [], "width": placed["width"], "height": placed["height"]}
    # Data edges follow the layout's routes (around boxes, fan-out from separate ports).
    drawing["edges"] = [
        {"from": e["from"], "to": e["to"], "kind": "data", "points": path_points(e["path"])}
        for e in placed["edges"]
    ]
    return drawing


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


def _what(node):
    if node.kind == "op":
        return node.op.name
    if node.kind == "input":
        return f"input {node.value}"
    if node.kind == "variable":
        return f"variable {node.value.name.rsplit(':', 1)[0]}"
    return "constant"

"""The TapeView's ``drawing``: the tape graph laid out, folded and labelled, in pixels.

One drawing per folding state the browser can switch to without the kernel: every layer
folded (the default, ``drawing`` itself), and each layer unfolded on its own
(``drawing["unfolded"][group id]``). Each drawing is self-sufficient: boxes carry their
text lines, edges their paths and the graph edges they stand for, labels their gradient.
"""

from ..common.boxes import box_lines, box_size
from ..common.drawing import make_drawing
from .folding import fold
from .model import preview

LABEL_CHARS = 18  # an edge's gradient label: short, the box says the rest


def tape_drawing(graph, edge_values):
    """The drawing of ``graph`` (from ``build_graph``) with ``edge_values`` as labels.

    Examples
    --------
    >>> import eagerkit as ek
    >>> from eagerkit.widgets import TapeView
    >>> view = TapeView.record(lambda c: c * c + c, 3.0)
    >>> [(b["id"], b["lines"][0]) for b in view.drawing["boxes"]][:3]
    [('n0', 'c  () float32'), ('op0', 'multiply'), ('n1', 't0  () float32')]
    >>> sorted(label["text"] for label in view.drawing["labels"])
    ['1.0', '1.0', '1.0', '1.0', '3.0', '3.0']
    """
    groups = graph.get("groups", [])
    every = {g["id"] for g in groups}
    drawing = _one(graph, edge_values, every)
    if groups:
        drawing["unfolded"] = {g["id"]: _one(graph, edge_values, every - {g["id"]}) for g in groups}
    return drawing


def _one(graph, edge_values, folded):
    nodes, edges, alias = fold(graph["nodes"], graph["edges"], graph.get("groups", []), folded)
    sized = [{"id": n["id"], **dict(zip(("w", "h"), box_size(n), strict=True))} for n in nodes]
    labels = {}
    for edge in edges:
        # An edge into a folded box stands for several inputs' edges: their VJPs add up.
        # (An edge "..._out" carries the same gradient as the input edge it joins.)
        ids = [i for i in edge["ids"] if not i.endswith("_out")] or edge["ids"]
        values = [edge_values[i] for i in ids if i in edge_values]
        if values:
            labels[edge["id"]] = preview(sum(values[1:], values[0]), width=LABEL_CHARS)
    drawing = make_drawing(sized, edges, labels)
    for box, node in zip(drawing["boxes"], nodes, strict=True):
        box["type"] = node["type"]
        box["kind"] = node.get("kind", node["type"])
        box["lines"] = box_lines(node)
        if node["type"] == "op":
            box["depth"] = node["depth"]  # how many tapes recorded it
        if node.get("target"):
            box["target"] = True
    for drawn, edge in zip(drawing["edges"], edges, strict=True):
        drawn["ids"] = edge["ids"]
    drawing["alias"] = alias
    drawing["folded"] = sorted(folded)
    return drawing

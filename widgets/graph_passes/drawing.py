"""GraphPassView's drawing of one graph: boxes laid out in layers, edges routed, and each
``cond`` or ``while_loop`` as a box that opens in place onto its subgraphs.

A control-flow node is drawn *closed* (one box saying what the call did: the branch it
took, the loop's iterations) or *open*: a bigger box holding one *panel* per subgraph (a
cond's true and false branch, a loop's test and body), each panel the drawing of that
subgraph with everything inside it open. A panel's ``state`` says whether the call ran it
(``taken``), did not (``not-taken``, drawn greyed) or is not known (``unknown``: the view
had no example values, or the graph has effects a dry run must not repeat); the counts come
from ``eagerkit.graph.dry_run``.
"""

from eagerkit import dtypes

from ..common.drawing import make_drawing, path_points

CHAR_W, BOX_H, PAD_W = 7, 34, 18  # box size: monospace label width, height, padding
HEADER_H = 24  # an open box's title line, above its panels
TITLE_H = 22  # a panel's title line, above its subgraph
INSET = 10  # between an open box's frame and its panels, and between two panels
SIDE_BY_SIDE = 560  # the widest two panels go side by side (a laptop's notebook: ~850 px)


def draw_graph(graph, labels, marks=None, notes=None, opened=(), runs=None, times=1):
    """Boxes (in pixels, laid out in layers) and routed edges of ``graph``.

    Parameters
    ----------
    graph : an ``eagerkit.graph.Graph``.
    labels : each node's first line (``%3 tanh``, or ``tanh`` inside a subgraph).
    marks, notes : per node index, what a pass does to it (``folded``, ...) and its words.
    opened : indices of the control-flow nodes drawn open; ``None``: all of them.
    runs : ``{id(subgraph): runs}`` on the call shown (``dry_run.subgraph_runs``) or None.
    times : how often ``graph`` itself ran on that call (a branch: 0 or 1; a loop body: n).

    Examples
    --------
    >>> import eagerkit as ek
    >>> f = ek.function(lambda x: ek.cond(x > 0, lambda: x, lambda: -x))
    >>> graph = f.get_concrete_function(ek.constant(1.0)).graph
    >>> labels = [f"%{i} {what(node)}" for i, node in enumerate(graph.nodes)]
    >>> closed = draw_graph(graph, labels)
    >>> [(n["label"], n["type"]) for n in closed["nodes"] if n["control"]]
    [('%3 cond ▸', 'true / false branch')]
    >>> opened = draw_graph(graph, labels, opened={3})["nodes"][3]
    >>> [(panel["title"], panel["state"]) for panel in opened["panels"]]
    [('true branch', 'unknown'), ('false branch', 'unknown')]
    """
    marks, notes = marks or {}, notes or {}
    number = {id(node): i for i, node in enumerate(graph.nodes)}
    boxes = []
    for i, node in enumerate(graph.nodes):
        if node.subgraphs:
            is_open = opened is None or i in opened
            sources = [_reference(labels[number[id(x)]]) for x in node.inputs]
            box = _control_box(node, labels[i], sources, is_open, runs, times)
        else:
            box = _plain_box(node, labels[i])
        box.update(id=i, mark=marks.get(i, "kept"), note=notes.get(i, ""))
        boxes.append(box)
    edges = [(number[id(x)], i) for i, node in enumerate(graph.nodes) for x in node.inputs]
    placed = make_drawing(
        [{"id": box["id"], "w": box["w"], "h": box["h"]} for box in boxes],
        [{"id": k, "from": a, "to": b} for k, (a, b) in enumerate(edges)],
        # A constant gives way to the op it feeds: a traced loop's chain stays straight
        # rather than drifting right by half a box at every constant.
        pinned=[box["id"] for box in boxes if box["kind"] == "constant"],
    )
    for box, where in zip(boxes, placed["boxes"], strict=True):
        box.update(x=where["x"], y=where["y"])
    outputs = {number[id(node)] for node in graph.outputs}
    for box in boxes:
        box["output"] = box["id"] in outputs
    # Data edges follow the layout's routes (around boxes, fan-out from separate ports).
    routed = [
        {"from": e["from"], "to": e["to"], "kind": "data", "points": path_points(e["path"])}
        for e in placed["edges"]
    ]
    return {"nodes": boxes, "edges": routed, "width": placed["width"], "height": placed["height"]}


def what(node):
    """A node's words: its op, or which input, variable or constant it is."""
    if node.kind == "op":
        return node.op.name
    if node.kind == "input":
        return f"input {node.value}"
    if node.kind == "variable":
        return f"variable {node.value.name.rsplit(':', 1)[0]}"
    return "constant"


def _plain_box(node, label):
    kind = f"{dtypes.from_numpy(node.dtype).name}{list(node.shape)}"
    return _box(node, label, kind)


def _box(node, label, second_line, control=None):
    width = CHAR_W * max(len(label), len(second_line)) + PAD_W
    return dict(label=label, type=second_line, kind=node.kind, control=control, w=width, h=BOX_H)


def _control_box(node, label, sources, is_open, runs, times):
    """A cond or while_loop: closed, one box saying what the call did; open, its panels."""
    subs = node.params["subgraphs"]
    counts = {role: runs[id(sub)] if runs is not None else None for role, sub in subs.items()}
    summary = _summary(node.op.name, counts, times)
    box = _box(node, f"{label} {'▾' if is_open else '▸'}", summary, control=node.op.name)
    if not is_open:
        return box
    box["open"] = True
    box["panels"] = []
    for role, sub in subs.items():
        names = _input_names(node, sub.graph, sources)
        inner = [names.get(i) or what(n) for i, n in enumerate(sub.graph.nodes)]
        drawing = draw_graph(sub.graph, inner, opened=None, runs=runs, times=counts[role])
        title, state = _panel_title(node.op.name, role, counts[role], times)
        width = max(drawing["width"], CHAR_W * len(title) + 2 * INSET)
        panel = {"role": role, "title": title, "state": state, "drawing": drawing}
        box["panels"].append(dict(panel, w=width, h=TITLE_H + drawing["height"]))
    _place_panels(box["panels"])
    header = CHAR_W * len(box["label"] + "  " + summary) + PAD_W
    box["w"] = max(max(p["x"] + p["w"] for p in box["panels"]) + INSET, header)
    box["h"] = max(p["y"] + p["h"] for p in box["panels"]) + INSET
    return box


def _place_panels(panels):
    """Side by side below the box's title; one above the other when side by side they would
    be wider than SIDE_BY_SIDE (a loop's body beside its test no longer fits a laptop)."""
    side_by_side = sum(p["w"] for p in panels) + INSET * (len(panels) - 1) <= SIDE_BY_SIDE
    x, y = INSET, HEADER_H
    for panel in panels:
        panel.update(x=x, y=y)
        if side_by_side:
            x += panel["w"] + INSET
        else:
            y += panel["h"] + INSET


def _reference(label):
    """How a subgraph names a tensor of the enclosing graph: ``%0``, or inside a subgraph its
    words (``tanh``; ``%0`` again for what that subgraph took from further out)."""
    if label.startswith("%"):
        return label.split()[0]
    return label.removeprefix("from ")


def _input_names(node, graph, sources):
    """What a subgraph's inputs stand for: a loop variable, or a tensor of the enclosing graph."""
    count = node.params.get("count", 0)  # a loop's variables come first; a cond has none
    captures = sources[1:] if node.op.name == "cond" else sources[count:]  # after its pred
    return {
        i: f"loop var {n.value}" if n.value < count else f"from {captures[n.value - count]}"
        for i, n in enumerate(graph.nodes)
        if n.kind == "input"
    }


def _summary(op, counts, times):
    """The second line of a closed box: what the call did (or what the box holds)."""
    if None in counts.values() or times is None:
        return "true / false branch" if op == "cond" else "test and body"
    if times == 0:  # inside a branch the call skips
        return "not run by this call"
    if op == "cond" and times == 1:
        return "took the " + ("true branch" if counts["true branch"] else "false branch")
    if op == "cond":  # inside a loop's body: run once per iteration
        return f"true ×{counts['true branch']}, false ×{counts['false branch']}"
    return f"{counts['body']} iteration{'s' * (counts['body'] != 1)}"


def _panel_title(op, role, count, times):
    """A panel's title and state: whether (and how often) the call ran this subgraph."""
    if count is None or times is None:
        return role, "unknown"
    state = "taken" if count else "not-taken"
    if op == "cond":
        if count == 0:
            return f"{role}: not taken", state
        return (f"{role}: taken" if times == 1 else f"{role}: taken {count} of {times}"), state
    if role == "test":
        return f"test: ran {count}×", state
    return f"body: {count} iteration{'s' * (count != 1)}", state

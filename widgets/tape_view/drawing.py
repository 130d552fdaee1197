"""The TapeView's ``drawing``: the tape graph folded, laid out and labelled, in pixels.

A tape opens *readable*: in the most detailed folding that fits ``FIT_W`` x ``FIT_H``
pixels (all of it on a 1280x720 laptop with text at 9 px or more), found by unfolding
groups one at a time while the drawing still fits. The browser switches between folding
states without the kernel, so the drawing holds one laid-out state per folding the view
can reach from there (``drawing["states"]``, keyed by the ids of the unfolded groups),
unfolding or folding one group at a time, at most ``MAX_STATES`` of them; any other is
laid out by the kernel when the browser asks for it (``Layouts.state``).

The layout is done once, before the gradient: boxes are sized for the gradient they will
show (boxes.py), and ``label_states`` later writes the gradients into the same geometry.
"""

import numpy as np

from ..common.drawing import MARGIN, make_drawing, place_labels
from . import boxes as text
from .folding import fold, is_literal
from .model import preview

# The drawing that fits, at 90%, the room a notebook cell gives a view on a 1280x720 laptop
# with JupyterLab's file browser open (834 x 425 pixels): text at 9 px or more.
FIT_W, FIT_H = 900, 460
MAX_STATES = 16  # prepared for the browser; the kernel lays out the others when asked
MAX_TRIALS = 16  # layouts tried while choosing the opening state
LABEL_CHARS = 18  # an edge's gradient label: short, the box says the rest


def state_key(expanded):
    """The key of the state with the groups ``expanded`` unfolded: their ids, in order.

    Examples
    --------
    >>> state_key({"g10", "g2"})
    'g2,g10'
    """
    return ",".join(sorted(expanded, key=lambda g: int(g[1:])))


def tape_drawing(graph):
    """The prepared states of ``graph`` (from ``build_graph``, with ``groups``), laid out:
    ``{"states": {key: state}, "open": key}``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> from eagerkit.widgets import TapeView
    >>> view = TapeView.record(lambda c: c * c + c, 3.0)
    >>> state = view.drawing["states"][view.drawing["open"]]
    >>> [b["lines"][0] for b in state["boxes"]]
    ['c', 't0 = multiply(c, c)', 'out = add(t0, c)']
    >>> sorted(label["text"] for label in state["labels"])  # c sends 3 twice to c * c
    ['1.0', '1.0', '3.0', '3.0']
    """
    return Layouts(graph).prepared()


class Layouts:
    """The folding states of one graph, each laid out once, when first asked for."""

    def __init__(self, graph):
        self.graph = graph
        self.by_id = {g["id"]: g for g in graph["groups"]}
        self.index = _Index(graph)
        self.cache = {}
        self.weights_inside = False
        if not _fits(self.state(set())):  # too wide even folded: weights go inside groups
            self.weights_inside, self.cache = True, {}

    def state(self, expanded):
        """The laid-out state with the groups ``expanded`` unfolded."""
        key = state_key(expanded)
        if key not in self.cache:
            self.cache[key] = _lay_out(self.graph, set(expanded), self.index, self.weights_inside)
        return self.cache[key]

    def prepared(self):
        """The opening state and those one unfold or fold away from it (breadth first, at
        most MAX_STATES): what the browser can show with no kernel."""
        opening = self._opening()
        seen, queue = {state_key(opening): opening}, [opening]
        while queue and len(seen) < MAX_STATES:
            expanded = queue.pop(0)
            for other in self._neighbours(expanded):
                key = state_key(other)
                if key not in seen and len(seen) < MAX_STATES:
                    seen[key] = other
                    queue.append(other)
        return {"states": {k: self.state(s) for k, s in seen.items()}, "open": state_key(opening)}

    def _opening(self):
        """The most unfolded state that still fits: unfold the outermost, biggest group
        first, for as long as the drawing still fits."""
        expanded, trials = set(), 0
        if not _fits(self.state(expanded)):
            return expanded
        while trials < MAX_TRIALS:
            folded = self._folded(expanded)
            folded.sort(key=lambda g: (_depth(g, self.by_id), -len(self.by_id[g]["records"])))
            for group in folded:
                if self.by_id[group].get("count", 0) > 8:
                    continue  # a long loop unfolded never fits
                trials += 1
                if _fits(self.state(expanded | {group})):
                    expanded = expanded | {group}
                    break
                if trials >= MAX_TRIALS:
                    break
            else:
                break
        return expanded

    def _neighbours(self, expanded):
        nexts = [expanded | {g} for g in self._folded(expanded) if _worth(self.by_id[g])]
        return nexts + [expanded - _subtree(g, self.by_id) for g in sorted(expanded)]

    def _folded(self, expanded):
        return [b["group"] for b in self.state(expanded)["boxes"] if b["type"] == "group"]


def _worth(group):
    """Every group is worth preparing unfolded, except the middle iterations of a long loop
    (they look alike): the first two and the last are (the kernel lays out the others)."""
    index, count = group.get("index"), group.get("of")
    return index is None or count is None or index <= 2 or index == count


def _subtree(group, by_id):
    out = {group}
    for other in by_id.values():
        if other["parent"] in out:
            out.add(other["id"])
    return out


def _depth(group, by_id):
    depth = 0
    while by_id[group]["parent"] is not None:
        group, depth = by_id[group]["parent"], depth + 1
    return depth


def _fits(drawing):
    return drawing["width"] <= FIT_W and drawing["height"] <= FIT_H


class _Index:
    """What the boxes' texts need to know about the graph, looked up once."""

    def __init__(self, graph):
        self.nodes = {n["id"]: n for n in graph["nodes"]}
        self.made = {}  # op id -> the tensor it made
        self.inputs = {}  # op id -> the names of its inputs, in order
        self.users = {}  # tensor id -> the ops that used it (once per use)
        for edge in graph["edges"]:
            if edge["id"].endswith("_out"):
                self.made[edge["from"]] = edge["to"]
            else:
                given = self.nodes[edge["from"]]
                name = given["value"] if is_literal(given) else given["label"]
                self.inputs.setdefault(edge["to"], []).append(name)
                self.users.setdefault(edge["from"], []).append(edge["to"])
        self.variables = [
            n for n in graph["nodes"] if n["type"] == "tensor" and n["kind"] == "variable"
        ]


def _lay_out(graph, expanded, index, weights_inside):
    boxes, edges, alias, folded = fold(graph, graph["groups"], expanded, weights_inside)
    by_id = {g["id"]: g for g in graph["groups"]}
    shown = {b["id"] for b in boxes}
    for box in boxes:
        _write(box, index, by_id, alias, shown)
    sized = [{"id": b["id"], "w": b["w"], "h": b["h"]} for b in boxes]
    proxies = [b["id"] for b in boxes if b["type"] == "proxy"]  # they stay beside their use
    drawing = make_drawing(sized, edges, max_row_width=FIT_W - 2 * MARGIN, pinned=proxies)
    for placed, box in zip(drawing["boxes"], boxes, strict=True):
        placed.update({k: v for k, v in box.items() if k not in ("w", "h")})
    for drawn, edge in zip(drawing["edges"], edges, strict=True):
        drawn["ids"] = edge["ids"]
    drawing["alias"] = alias
    drawing["folded"] = {str(record): box for record, box in folded.items()}  # JSON keys
    drawing["expanded"] = state_key(expanded).split(",") if expanded else []
    return drawing


def _write(box, index, groups, alias, shown):
    """A box's lines, colour (``kind``), size and the tensors whose gradients it shows
    (``shown``: the ids of the nodes drawn with a box of their own)."""
    nodes, kind = index.nodes, box["type"]
    if kind == "leaf" or kind == "proxy":
        node = nodes[box["node"]]
        box["kind"] = node["kind"]
        box["lines"] = [node["label"]] if kind == "proxy" else text.leaf_lines(node)
        graded = [node] if kind == "leaf" else []
    elif kind == "value":
        op, node = nodes[box["op"]], nodes[box["node"]]
        box.update(kind="intermediate", depth=op["depth"])
        box["lines"] = text.value_lines(op, node, index.inputs.get(op["id"], []))
        graded = [node]
    else:
        group = groups[box["group"]]
        graded = [nodes[o] for o in _outputs(group, index, alias, box["id"])]
        hidden = [  # the weights it uses that have no box of their own
            n["label"].rsplit("/", 1)[-1]
            for n in index.variables
            if n["id"] not in shown
            and any(alias[user] == box["id"] for user in index.users.get(n["id"], ()))
        ]
        box["kind"] = "group"
        box["lines"] = text.group_lines(group, graded, hidden)
    # One gradient line per value it hands on (lesson 15's time step hands on h and logits).
    uses = {n["id"]: len(index.users.get(n["id"], ())) for n in graded}
    box["grads"] = text.grad_lines(graded, uses)
    box["w"], box["h"] = text.box_size(box["lines"], box["grads"])


def _outputs(group, index, alias, box):
    """The tensors made in ``group`` that leave it (used outside, or used by nothing)."""
    out = []
    for record in group["records"]:
        tensor = index.made.get(f"op{record}")
        if tensor is None:
            continue  # a read of a variable makes nothing new
        users = index.users.get(tensor, [])
        if not users or any(alias[user] != box for user in users):
            out.append(tensor)
    return out


def label_states(drawing, graph, edge_values):
    """Write the sweep's gradients into every state: each edge's label (what flowed along
    it; an edge into a folded box carries the sum of the edges it stands for) and each
    box's gradient line. The geometry stays as it was laid out; ``drawing`` itself is not
    changed (a new one is returned, so the browser sees the change).
    """
    nodes = {n["id"]: n for n in graph["nodes"]}
    sums = {}  # the ids an edge stands for -> its label (the same in many states)
    states = {k: label_state(s, nodes, edge_values, sums) for k, s in drawing["states"].items()}
    return dict(drawing, states=states)


def label_state(laid_out, nodes, edge_values, sums=None):
    """One state of ``label_states``, as a new dict."""
    sums = {} if sums is None else sums
    state = dict(laid_out, boxes=[dict(box) for box in laid_out["boxes"]])
    texts = {}
    for edge in state["edges"]:
        ids = tuple(edge["ids"])
        if ids not in sums:
            values = [edge_values[i] for i in ids if i in edge_values]
            with np.errstate(all="ignore"):  # inf + -inf: a NaN the view shows, no warning
                total = sum(values[1:], values[0]) if values else None
            sums[ids] = None if total is None else preview(total, LABEL_CHARS)
        if sums[ids] is not None:
            texts[edge["id"]] = sums[ids]
    place_labels(state, texts)
    for box in state["boxes"]:
        box["grad_texts"] = [text.grad_text(nodes[g["node"]], g["prefix"]) for g in box["grads"]]
        box["target"] = any(nodes[g["node"]].get("target", False) for g in box["grads"])
    return state

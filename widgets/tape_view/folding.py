"""Folding: which boxes one *state* of the view draws, and the edges between them.

A state is the set of groups (structure.py) shown unfolded; every other group is folded
into one box. In a state:

- a record inside a folded group is drawn as the group's box (the outermost folded group
  around it); any other record is a *value* box: its op and the tensor it made, in one;
- a leaf (a tensor no op made) has its own box, except a number written in the code (the
  2.0 of ``x * 2.0``: the boxes that use it show its value) and, when all its uses are
  inside one folded group, a constant of a few numbers, data a folded loop goes through
  and a layer's own weights: they go inside the group's box (any weight, into every
  group that uses it, when the tape is too wide to show otherwise);
- an edge joins the boxes of a tensor and of an op that used it; the edges between a box
  and a group merge into one (a weight used at all 20 steps of a folded loop: one edge),
  and x * x keeps its two edges side by side;
- a leaf that still has edges to many boxes (TensorBoard's high-degree nodes) is drawn
  once, unconnected, and as a small *proxy* beside each use.

Every hidden node is an *alias* of the box drawn in its place, so stepping and marks find
something to show.
"""

PROXY_MIN = 4  # a leaf with edges to this many boxes gets proxies
SMALL = 4  # a constant of at most this many numbers (a label, an index) folds with its use


def fold(graph, groups, expanded, weights_inside=False):
    """The boxes and edges of one state.

    Parameters
    ----------
    graph : the view's graph (``nodes``, ``edges``; op nodes carry ``record``).
    groups : the group list of structure.group_tree (parents first).
    expanded : set of the ids of the groups shown unfolded.
    weights_inside : a variable used only inside one folded group goes inside it too (not
        only a layer's own): TensorBoard's way, for a tape too wide to show otherwise.

    Returns
    -------
    ``(boxes, edges, alias, folded)``: boxes are dicts with ``id`` and ``type``
    (``leaf``, ``value``, ``group`` or ``proxy``) and the node, op or group they show;
    edges carry ``ids`` (the graph edges they stand for); ``alias`` maps every graph node
    id to the id of the box that shows it, ``folded`` each folded record to its group's.

    Examples
    --------
    >>> graph = {"nodes": [{"id": "x", "type": "tensor", "kind": "watched"},
    ...                    {"id": "op0", "type": "op", "record": 0},
    ...                    {"id": "t", "type": "tensor", "kind": "intermediate"},
    ...                    {"id": "op1", "type": "op", "record": 1},
    ...                    {"id": "y", "type": "tensor", "kind": "intermediate"}],
    ...          "edges": [{"id": "e0_0", "from": "x", "to": "op0"},
    ...                    {"id": "e0_out", "from": "op0", "to": "t"},
    ...                    {"id": "e1_0", "from": "t", "to": "op1"},
    ...                    {"id": "e1_out", "from": "op1", "to": "y"}]}
    >>> groups = [{"id": "g0", "kind": "line", "parent": None, "records": [0, 1]}]
    >>> boxes, edges, alias, folded = fold(graph, groups, set())
    >>> [(b["id"], b["type"]) for b in boxes], [(e["from"], e["to"]) for e in edges]
    ([('x', 'leaf'), ('g0', 'group')], [('x', 'g0')])
    >>> boxes, edges, alias, folded = fold(graph, groups, {"g0"})
    >>> [b["id"] for b in boxes], [e["ids"] for e in edges], alias["t"]
    (['x', 'op0', 'op1'], [['e0_0'], ['e1_0']], 'op0')
    """
    by_id = {g["id"]: g for g in groups}
    box_of_record = _record_boxes(groups, by_id, expanded)
    layer_of = _layers(groups, by_id)
    in_loop = {r for g in groups if g["kind"] in ("series", "iteration") for r in g["records"]}
    consumers, producer = {}, {}
    for edge in graph["edges"]:
        if edge["id"].endswith("_out"):
            producer[edge["to"]] = edge["from"]
        else:
            consumers.setdefault(edge["from"], []).append(edge["to"])
    op_record = {n["id"]: n["record"] for n in graph["nodes"] if n["type"] == "op"}

    def op_box(op):
        return box_of_record.get(op_record[op], op)

    def leaf_box(node, users):
        """A leaf's own id, or the folded group it hides in."""
        boxes = {op_box(op) for op in users}
        if node["kind"] == "watched" or not boxes or not boxes <= by_id.keys():
            return node["id"]  # what the student watched, or used by a box of its own
        records, first = [op_record[op] for op in users], op_box(users[0])
        if node["kind"] == "constant":  # data a loop goes through, or a few numbers
            inside = all(r in in_loop for r in records) or _size(node) <= SMALL
        else:  # a variable: a layer's own weight, or any, when weights go inside
            layers = {layer_of.get(r) for r in records}
            inside = weights_inside or all(
                layer is not None and _within(layer, first, by_id) for layer in layers
            )
        if not inside or (len(boxes) > 1 and not weights_inside):
            return node["id"]
        return first  # (used in several groups: named in each, drawn in none)

    alias, boxes, order, tucked = {}, {}, [], set()
    for node in graph["nodes"]:
        if node["type"] == "op":
            box = op_box(node["id"])
            kind = ("group", box) if box in by_id else ("value", node["id"])
        elif node["id"] in producer:
            continue  # a tensor an op made: drawn with its op (below)
        else:
            users = consumers.get(node["id"], [])
            if users and is_literal(node):  # 2.0 in x * 2.0: written in its user's box
                alias[node["id"]] = op_box(users[0])
                continue
            box = leaf_box(node, users)
            if box != node["id"] and len({op_box(op) for op in users}) > 1:
                tucked.add(node["id"])  # its edges would join unrelated groups: none drawn
            kind = ("group", box) if box in by_id else ("leaf", node["id"])
        alias[node["id"]] = box
        if box not in boxes:
            boxes[box] = _box(box, *kind)
            order.append(box)
    for tensor, op in producer.items():
        alias[tensor] = alias[op]
        if alias[op] == op:
            boxes[op]["node"] = tensor  # the value box shows the op's output
    unseen = tucked | {n["id"] for n in graph["nodes"] if is_literal(n)}
    edges = _edges([e for e in graph["edges"] if e["from"] not in unseen], alias, by_id)
    order, edges = _proxies(order, edges, boxes)
    return [boxes[b] for b in order], edges, alias, box_of_record


def is_literal(node):
    """A number written in the code (the 2.0 of ``x * 2.0``): a scalar constant. It gets
    no box: the boxes of the ops that use it show its value."""
    return node["type"] == "tensor" and node.get("kind") == "constant" and not node["shape"]


def _record_boxes(groups, by_id, expanded):
    """record -> the id of the outermost folded group around it (records not folded are
    absent)."""
    out = {}
    for group in groups:  # parents first: an outer folded group wins
        if group["id"] in expanded or not _open_above(group, by_id, expanded):
            continue
        for record in group["records"]:
            out.setdefault(record, group["id"])
    return out


def _open_above(group, by_id, expanded):
    parent = group["parent"]
    while parent is not None:
        if parent not in expanded:
            return False
        parent = by_id[parent]["parent"]
    return True


def _layers(groups, by_id):
    """record -> the id of the innermost layer group it ran in."""
    out = {}
    for group in groups:  # parents first: inner layers overwrite
        if group["kind"] == "layer":
            for record in group["records"]:
                out[record] = group["id"]
    return out


def _size(node):
    size = 1
    for n in node["shape"]:
        size *= n
    return size


def _within(group, ancestor, by_id):
    while group is not None:
        if group == ancestor:
            return True
        group = by_id[group]["parent"]
    return False


def _box(box_id, kind, what):
    box = {"id": box_id, "type": kind}
    box["group" if kind == "group" else "node" if kind == "leaf" else "op"] = what
    return box


def _edges(graph_edges, alias, by_id):
    lines, where = [], {}
    for edge in graph_edges:
        if edge["id"].endswith("_out"):
            continue  # an op and its output share a box
        a, b = alias[edge["from"]], alias[edge["to"]]
        if a == b:
            continue  # inside a folded box
        key = (a, b) if a in by_id or b in by_id else edge["id"]
        if key not in where:
            where[key] = len(lines)
            lines.append({"id": edge["id"], "from": a, "to": b, "ids": []})
        lines[where[key]]["ids"].append(edge["id"])
    return lines


def _proxies(order, edges, boxes):
    """A leaf joined to many boxes: one unconnected box, and a proxy beside each use."""
    targets = {}
    for edge in edges:
        if boxes[edge["from"]]["type"] == "leaf":
            targets.setdefault(edge["from"], set()).add(edge["to"])
    crowded = {leaf for leaf, ends in targets.items() if len(ends) >= PROXY_MIN}
    if not crowded:
        return order, edges
    before = {}  # consumer box -> proxies to place just before it (they sit above it)
    for edge in edges:
        leaf = edge["from"]
        if leaf in crowded:
            proxy = f"{leaf}@{edge['to']}"
            if proxy not in boxes:
                boxes[proxy] = {"id": proxy, "type": "proxy", "node": boxes[leaf]["node"]}
                before.setdefault(edge["to"], []).append(proxy)
            edge["from"] = proxy
    placed = []
    for box in order:
        placed += before.get(box, [])
        placed.append(box)
    return placed, edges

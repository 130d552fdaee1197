"""Folding: the records a layer made become one box, so a big model's step fits one screen.

A *group* is the records one layer made (``origins.capture`` tells which). Folded, the
group's ops and the tensors that live only inside it (its variables, its intermediate
values) are drawn as one box, and so is a value it hands straight to the next folded
layer (it rides on the edge between the two boxes). The tensors it takes from outside and
the ones it hands on to other ops stay visible, joined to the box. Every hidden node is
an *alias* of a box, so stepping and highlighting still find something to mark.
"""


def fold(nodes, edges, groups, folded):
    """The nodes and edges to draw with the groups in ``folded`` folded.

    Parameters
    ----------
    nodes, edges : the graph's nodes (op nodes carry ``group``) and edges.
    groups : list of group dicts (``id``, ``label``, ``records``).
    folded : set of group ids to fold.

    Returns
    -------
    ``(nodes, edges, alias)``: drawn edges carry ``ids`` (the graph edges they stand for);
    ``alias`` maps each hidden node id to the box drawn in its place.

    Examples
    --------
    >>> nodes = [{"id": "x", "type": "tensor", "kind": "watched"},
    ...          {"id": "op0", "type": "op", "group": "g0"},
    ...          {"id": "t", "type": "tensor", "kind": "intermediate"},
    ...          {"id": "op1", "type": "op", "group": "g0"},
    ...          {"id": "y", "type": "tensor", "kind": "intermediate"}]
    >>> edges = [{"id": "a", "from": "x", "to": "op0"}, {"id": "b", "from": "op0", "to": "t"},
    ...          {"id": "c", "from": "t", "to": "op1"}, {"id": "d", "from": "op1", "to": "y"}]
    >>> groups = [{"id": "g0", "label": "dense", "records": [0, 1]}]
    >>> drawn, lines, alias = fold(nodes, edges, groups, {"g0"})
    >>> [n["id"] for n in drawn], [(e["from"], e["to"], e["ids"]) for e in lines]
    (['x', 'g0', 'y'], [('x', 'g0', ['a']), ('g0', 'y', ['d'])])
    >>> alias
    {'op0': 'g0', 'op1': 'g0', 't': 'g0'}
    """
    group_of = {n["id"]: n["group"] for n in nodes if n.get("group") in folded}
    consumers, producers = {}, {}
    for edge in edges:
        consumers.setdefault(edge["from"], []).append(edge["to"])
        producers.setdefault(edge["to"], []).append(edge["from"])
    for node in nodes:  # inside: made in the group (or a variable) and used only there
        made = producers.get(node["id"])
        if node["type"] != "tensor" or not (made or node["kind"] == "variable"):
            continue
        if node.get("target") or (node.get("source") and node["kind"] != "variable"):
            continue  # what the student asked about stays in sight; a layer's weights fold
        around = {group_of.get(op) for op in [*consumers.get(node["id"], []), *(made or [])]}
        if len(around) == 1 and None not in around and consumers.get(node["id"]):
            group_of[node["id"]] = around.pop()
    for node in nodes:  # a value one folded layer hands to the next rides on the edge
        made, used = producers.get(node["id"], []), consumers.get(node["id"], [])
        if node["type"] != "tensor" or node["id"] in group_of or len(used) != 1 or not made:
            continue
        if node.get("target") or node.get("source"):
            continue
        if group_of.get(made[0]) is not None and group_of.get(used[0]) is not None:
            group_of[node["id"]] = group_of[made[0]]
    alias = dict(group_of)
    drawn, boxes = [], {}
    for node in nodes:
        group = group_of.get(node["id"])
        if group is None:
            drawn.append(node)
        elif group not in boxes:
            boxes[group] = _group_box(next(g for g in groups if g["id"] == group), nodes, group_of)
            drawn.append(boxes[group])
    lines, where = [], {}
    for edge in edges:
        a, b = alias.get(edge["from"], edge["from"]), alias.get(edge["to"], edge["to"])
        if a == b:
            continue  # inside a folded box
        # Edges into or out of a box merge; x * x keeps its two edges side by side.
        key = (a, b) if a in boxes or b in boxes else edge["id"]
        if key not in where:
            where[key] = len(lines)
            lines.append({"id": edge["id"], "from": a, "to": b, "ids": []})
        lines[where[key]]["ids"].append(edge["id"])
    return drawn, lines, alias


def _group_box(group, nodes, group_of):
    inside = [n for n in nodes if group_of.get(n["id"]) == group["id"]]
    variables = [n["label"].rsplit("/", 1)[-1] for n in inside if n.get("kind") == "variable"]
    return {
        "id": group["id"],
        "type": "group",
        "label": group["label"],
        "records": len(group["records"]),
        "variables": variables,
    }

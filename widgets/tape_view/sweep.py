"""The reverse sweep as a TapeView shows it: the gradients at its ends (each target, and
each source's result or the reason it is None), every step of the sweep with the gradient
sent along each edge and the running sum of each tensor that fans out, and the gradient
that reached every tensor. Plain JSON-able data, as model.py's forward graph.
"""

import numpy as np

from eagerkit.tape import READ_VARIABLE

from .model import host, preview


def mark_ends(nodes, node_of, targets, source_grads, why_none):
    """Mark the targets and the sources of ``gradient()`` on their nodes: a source gets its
    gradient's preview, or ``none`` (``why_none(source)`` gives the code and the reason)."""
    by_id = {node["id"]: node for node in nodes}
    for target in targets:
        by_id[node_of[id(target)]]["target"] = True
    for source, grad in source_grads:
        node = by_id[node_of[id(source)]]
        node["source"] = True
        if grad is not None:
            node["grad"] = preview(host(grad))
        else:
            code, text = why_none(source)
            node["none"] = {"code": code, "text": text}


def backward_steps(steps, records, node_of, namer, groups=None):
    """The reverse sweep as the browser shows it, from the engine's BackwardSteps.

    Each step gives the incoming gradient ``g`` of the record's output, the VJP result for
    each input, and for an input that fans out (used more than once) the running total.
    Returns ``(steps, edge_values, nonfinite)``: the gradient that flowed along each edge
    (numpy arrays, for labels) and the first step that sent a NaN or Inf (or None).
    """
    groups = groups or {}
    totals, counts, shown, edge_values, nonfinite = {}, {}, [], {}, None
    for step in steps:
        record = records[step.index]
        out_name = namer(record.output)
        is_read = record.op is READ_VARIABLE
        grads = []
        for k, (x, gx) in enumerate(zip(record.inputs, step.input_grads, strict=True)):
            if gx is None:
                continue
            value = host(gx, x._device)
            if not is_read:
                edge_values[f"e{step.index}_{k}"] = value
            if nonfinite is None and not np.isfinite(value).all():
                nonfinite = {"phase": "backward", "record": step.index, "node": node_of[id(x)]}
            key = node_of[id(x)]  # a variable and what reading it gave share a node
            if not is_read or key not in totals:  # a read passes on the sum: no new use
                totals[key] = value if key not in totals else totals[key] + value
                counts[key] = counts.get(key, 0) + 1
            grads.append(
                {
                    "node": key,
                    "edge": None if is_read else f"e{step.index}_{k}",
                    "name": namer(x),
                    "value": preview(value),
                    "count": counts[key],
                    "total": preview(totals[key]),
                }
            )
        text = (
            f"the gradient of {out_name} is the gradient of the variable it read"
            if is_read
            else f"d/d{out_name} arrives; the VJPs of {record.op.name} pass it to its inputs"
        )
        g = host(step.g, record.output._device)
        if not is_read:
            edge_values[f"e{step.index}_out"] = g
        shown.append(
            {
                "record": step.index,
                "op": None if is_read else f"op{step.index}",
                "output": node_of[id(record.output)],
                "g": preview(g),
                "text": text,
                "grads": grads,
                "group": groups.get(step.index),
            }
        )
    return shown, edge_values, nonfinite


def grads_of_tensors(nodes, backward):
    """Every tensor the sweep reached gets its gradient (sources already have theirs)."""
    by_id = {node["id"]: node for node in nodes}
    for step in backward:
        if step["op"] is not None:
            by_id[step["output"]].setdefault("grad", step["g"])
        for grad in step["grads"]:
            by_id[grad["node"]]["total"] = grad["total"]
    for node in nodes:
        total = node.pop("total", None)
        if total is not None:
            node.setdefault("grad", total)

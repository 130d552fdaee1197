"""The drawing's invariants, as one function the Python and the browser tests both use.

Geometry is plain: boxes ``(id, x, y, w, h)``, edges ``(from, to, points)`` where points
follow the drawn path closely (curves sampled), labels ``(text, x, y, w, h)``.
"""

from eagerkit.widgets.common.drawing import text_width
from eagerkit.widgets.tape_view.boxes import LINE_H

SAMPLES = 12  # points per curve segment
TOUCH = 1.0  # pixels of rounding we forgive


def sample_path(path):
    """Points along a drawing edge's path commands (curves sampled)."""
    points, here = [], path[0][1:]
    points.append(tuple(here))
    for command in path[1:]:
        if command[0] == "L":
            here = command[1:]
            points.append(tuple(here))
            continue
        (x0, y0), (x1, y1, x2, y2, x3, y3) = here, command[1:]
        for k in range(1, SAMPLES + 1):
            t = k / SAMPLES
            s = 1 - t
            points.append(
                (
                    s**3 * x0 + 3 * s * s * t * x1 + 3 * s * t * t * x2 + t**3 * x3,
                    s**3 * y0 + 3 * s * s * t * y1 + 3 * s * t * t * y2 + t**3 * y3,
                )
            )
        here = command[-2:]
    return points


def problems(width, height, boxes, edges, labels):
    """Every broken invariant, in words (an empty list when the drawing is right)."""
    found = []
    where = {b[0]: b for b in boxes}
    for kind, items in (("box", boxes), ("label", labels)):
        for item in items:
            _, x, y, w, h = item
            if x < -TOUCH or y < -TOUCH or x + w > width + TOUCH or y + h > height + TOUCH:
                found.append(f"{kind} {item[0]!r} lies outside the {width}x{height} drawing")
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if _overlap(a[1:], b[1:]):
                found.append(f"boxes {a[0]!r} and {b[0]!r} overlap")
    for i, a in enumerate(labels):
        for b in labels[i + 1 :]:
            if _overlap(a[1:], b[1:]):
                found.append(f"labels {a[0]!r} and {b[0]!r} overlap")
        for box in boxes:
            if _overlap(a[1:], box[1:]):
                found.append(f"label {a[0]!r} lies on box {box[0]!r}")
    for source, target, points in edges:
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        span = (min(xs), min(ys), max(xs) - min(xs) + 2 * TOUCH, max(ys) - min(ys) + 2 * TOUCH)
        for box in boxes:
            if box[0] in (source, target) or not _overlap(span, box[1:]):
                continue  # an endpoint, or nowhere near the edge
            if any(_crosses(p, q, box[1:]) for p, q in zip(points, points[1:], strict=False)):
                found.append(f"edge {source}->{target} passes through box {box[0]!r}")
        for end in (source, target):
            if end not in where:
                found.append(f"edge {source}->{target} ends at a missing box {end!r}")
    return found


def _overlap(a, b):
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return (
        ax < bx + bw - TOUCH
        and bx < ax + aw - TOUCH
        and ay < by + bh - TOUCH
        and by < ay + ah - TOUCH
    )


def _crosses(p, q, box):
    """Does the segment p-q enter the inside of box (shrunk by TOUCH)? Liang-Barsky clip."""
    x, y, w, h = box
    left, right, top, bottom = x + TOUCH, x + w - TOUCH, y + TOUCH, y + h - TOUCH
    (x0, y0), (x1, y1) = p, q
    dx, dy = x1 - x0, y1 - y0
    t0, t1 = 0.0, 1.0
    for edge_p, edge_q in ((-dx, x0 - left), (dx, right - x0), (-dy, y0 - top), (dy, bottom - y0)):
        if edge_p == 0:
            if edge_q < 0:
                return False
            continue
        t = edge_q / edge_p
        if edge_p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def drawing_problems(drawing):
    """``problems`` of a TapeView ``drawing`` dict."""
    boxes = [(b["id"], b["x"], b["y"], b["w"], b["h"]) for b in drawing["boxes"]]
    edges = [(e["from"], e["to"], sample_path(e["path"])) for e in drawing["edges"]]
    labels = [(lab["text"], lab["x"], lab["y"], lab["w"], lab["h"]) for lab in drawing["labels"]]
    return problems(drawing["width"], drawing["height"], boxes, edges, labels)


def text_problems(state):
    """Lines of text that would not fit their box in a TapeView state (its gradient lines
    included, at their longest)."""
    found = []
    for box in state["boxes"]:
        lines = list(box["lines"])
        lines += [grad["prefix"] + "x" * grad["reserve"] for grad in box["grads"]]
        widest = max(text_width(line) for line in lines)
        if widest + 8 > box["w"] or 8 + LINE_H * len(lines) > box["h"] + 0.5:
            found.append(f"the text of box {box['id']!r} does not fit it: {lines}")
    return found


def every_state(view):
    """``(key, state)`` of every folding state a view prepared."""
    return list(view.drawing["states"].items())


def opening(view):
    """The state a view opens on."""
    return view.drawing["states"][view.drawing["open"]]

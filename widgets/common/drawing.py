"""A tape graph's drawing, in pixels: every box, every edge's path, every label's box.

The browser and the PNG snapshot both draw exactly this data, and tests read it. Rows come
from ``layout.layered_layout``; this file turns them into geometry:

- a *box* per node, centred vertically in its row;
- an *edge* path per edge, as SVG-style commands ``["M", x, y]``, ``["L", x, y]`` and
  ``["C", x1, y1, x2, y2, x, y]``. An edge leaves its source's bottom at a *port* (fan-out
  edges leave from separate ports, ordered by where they go), runs straight down inside
  its own column of a row, and crosses the gap between two rows as a curve whose control
  points stay inside the gap. A long edge crosses the rows in between at its dummy node's
  column, which the layout kept free. So no edge can pass through a box;
- a *label* box per edge that has a text (a gradient), placed in a gap beside its edge
  where it touches no box and no other label (or none, when there is no room near it).

All text is drawn in one monospace font, so a text's width is its length times ``CHAR_W``.
"""

from .layout import layered_layout

CHAR_W = 6.02  # DejaVu Sans Mono at 10 px: the advance of every character
LABEL_H = 14
GAP_Y = 32  # between rows: room for a gradient label (14 px) and its margin
MARGIN = 12
LABEL_SPILL = 120  # how far a label may stick out of the drawing's right side


def text_width(text):
    """Pixels that ``text`` takes in the drawing's 10 px monospace font."""
    return len(text) * CHAR_W


def make_drawing(nodes, edges, labels=None, max_row_width=None, pinned=()):
    """Lay out and route a graph.

    Parameters
    ----------
    nodes : list of dicts with ``id``, ``w``, ``h`` (the box size), in a stable order.
    edges : list of dicts with ``id``, ``from``, ``to``.
    labels : dict ``edge id -> text`` of the labels to place.
    max_row_width, pinned : see ``layout.layered_layout`` (sources move up out of wider
        rows, except the pinned ones).

    Examples
    --------
    >>> nodes = [{"id": "a", "w": 60, "h": 20}, {"id": "b", "w": 60, "h": 20}]
    >>> d = make_drawing(nodes, [{"id": "e", "from": "a", "to": "b"}], {"e": "1.0"})
    >>> d["boxes"][1]
    {'id': 'b', 'x': 12.0, 'y': 64, 'w': 60, 'h': 20}
    >>> d["edges"][0]["path"]  # a straight drop, as a curve across the gap
    [['M', 42.0, 32], ['C', 42.0, 48.0, 42.0, 48.0, 42.0, 64]]
    >>> d["labels"][0], d["width"], d["height"]
    ({'edge': 'e', 'text': '1.0', 'x': 46.0, 'y': 41.0, 'w': 22.1, 'h': 14}, 84.0, 96)
    """
    labels = labels or {}
    sizes = {n["id"]: (n["w"], n["h"]) for n in nodes}
    pairs = [(e["from"], e["to"]) for e in edges]
    layout = layered_layout([n["id"] for n in nodes], pairs, sizes, max_row_width, pinned)
    rows, x = layout["rows"], layout["x"]
    row_of, tops, heights, y = {}, [], [], MARGIN
    for r, row in enumerate(rows):
        height = max((sizes[n][1] for n in row if not isinstance(n, tuple)), default=0)
        tops.append(y)
        heights.append(height)
        for node in row:
            row_of[node] = r
        y += height + GAP_Y
    boxes = {}
    for node in (n["id"] for n in nodes):
        w, h = sizes[node]
        r = row_of[node]
        boxes[node] = (x[node] - w / 2 + MARGIN, tops[r] + (heights[r] - h) // 2, w, h)
    dummies = _dummy_chains(rows)
    unique = {pair: i for i, pair in enumerate(dict.fromkeys(pairs))}
    points = [  # each edge's x at every row it crosses, from source to target
        [x[a], *(x[d] for d in dummies.get(unique[(a, b)], [])), x[b]] for a, b in pairs
    ]
    out_ports, in_ports = _ports(pairs, points, boxes)
    width = layout["width"] + 2 * MARGIN
    drawn = []
    for i, (edge, (a, b)) in enumerate(zip(edges, pairs, strict=True)):
        middle = [p + MARGIN for p in points[i][1:-1]]
        path = _route(
            boxes[a], boxes[b], out_ports[i], in_ports[i], middle, row_of[a], tops, heights
        )
        drawn.append({"id": edge["id"], "from": a, "to": b, "path": path})
    drawing = {
        "width": round(width, 1),
        "height": y - GAP_Y + MARGIN if rows else 2 * MARGIN,
        "boxes": [
            dict(zip(("id", "x", "y", "w", "h"), (k, *v), strict=True)) for k, v in boxes.items()
        ],
        "edges": drawn,
    }
    return place_labels(drawing, labels)


def place_labels(drawing, texts):
    """Put a label box for each ``edge id -> text`` into ``drawing`` (replacing any it
    had): beside its edge, touching no box and no other label. Returns the drawing.

    Examples
    --------
    >>> nodes = [{"id": "a", "w": 60, "h": 20}, {"id": "b", "w": 60, "h": 20}]
    >>> d = make_drawing(nodes, [{"id": "e", "from": "a", "to": "b"}])
    >>> place_labels(d, {"e": "2.5"})["labels"]
    [{'edge': 'e', 'text': '2.5', 'x': 46.0, 'y': 41.0, 'w': 22.1, 'h': 14}]
    """
    boxes = [(b["x"], b["y"], b["w"], b["h"]) for b in drawing["boxes"]]
    width = drawing.setdefault("laid_out_width", drawing["width"])  # before any label
    placed = _place_labels(drawing["edges"], texts, boxes, width, drawing["height"])
    right = max([width, *(label["x"] + label["w"] + MARGIN for label in placed)])
    drawing["width"], drawing["labels"] = round(right, 1), placed  # a label may widen it
    return drawing


def path_points(path, samples=8):
    """The points of a path's commands, each curve flattened to ``samples`` segments
    (for drawings that take polylines).

    Examples
    --------
    >>> path_points([["M", 0, 0], ["C", 0, 5, 10, 5, 10, 10]], samples=2)
    [[0, 0], [5.0, 5.0], [10.0, 10.0]]
    """
    points, here = [list(path[0][1:])], path[0][1:]
    for command in path[1:]:
        if command[0] == "L":
            points.append(list(command[1:]))
        else:
            segment = (here, command)
            points += [list(_curve_point(segment, k / samples)) for k in range(1, samples + 1)]
        here = command[-2:]
    return points


def _dummy_chains(rows):
    chains = {}
    for row in rows:
        for node in row:
            if isinstance(node, tuple):
                chains.setdefault(node[1], []).append(node)
    return {k: sorted(chain, key=lambda d: d[2]) for k, chain in chains.items()}


def _ports(pairs, points, boxes):
    """Where each edge leaves its source and enters its target: spread along the box side,
    in the order of where the edge goes next (so fan-out edges do not cross at the box)."""
    leaving, entering = {}, {}
    for i, (a, b) in enumerate(pairs):
        leaving.setdefault(a, []).append(i)
        entering.setdefault(b, []).append(i)
    out_ports, in_ports = {}, {}
    for ports, groups, toward in ((out_ports, leaving, 1), (in_ports, entering, -2)):
        for node, indices in groups.items():
            x, _, w, _ = boxes[node]
            indices.sort(key=lambda i: (points[i][toward], i))
            for k, i in enumerate(indices):
                ports[i] = x + w * (k + 1) / (len(indices) + 1)
    return out_ports, in_ports


def _route(source, target, x0, x1, middle, row, tops, heights):
    """Path commands from the source's port to the target's port (see the module doc)."""
    path = [["M", x0, source[1] + source[3]]]
    bottom = tops[row] + heights[row]
    if bottom > path[0][2]:
        path.append(["L", x0, bottom])
    here = x0
    for r, column in enumerate(middle, start=row + 1):
        path.append(_curve(here, tops[r - 1] + heights[r - 1], column, tops[r]))
        path.append(["L", column, tops[r] + heights[r]])
        here = column
    r = row + len(middle) + 1
    path.append(_curve(here, tops[r - 1] + heights[r - 1], x1, tops[r]))
    if target[1] > tops[r]:
        path.append(["L", x1, target[1]])
    return path


def _curve(x0, y0, x1, y1):
    """An S-curve across a gap; its control points, hence the curve, stay in the gap."""
    mid = (y0 + y1) / 2
    return ["C", x0, mid, x1, mid, x1, y1]


def _place_labels(edges, texts, boxes, width, height):
    """A box for every edge's text, beside its edge, touching no box and no other label;
    an edge with no room near it gets no label (one far from its edge misleads)."""
    taken = _Grid()
    for box in boxes:
        taken.add(box)
    placed = []
    for edge in edges:
        text = texts.get(edge["id"])
        if text is None:
            continue
        w = text_width(text) + 4
        spot = _free_spot(edge["path"], w, taken, width, height)
        if spot is None:
            continue
        box = (round(spot[0], 1), round(spot[1], 1), round(w, 1), LABEL_H)
        taken.add(box)
        placed.append(
            dict(zip(("edge", "text", "x", "y", "w", "h"), (edge["id"], text, *box), strict=True))
        )
    return placed


def _free_spot(path, w, taken, width, height):
    """Beside the edge in one of the gaps it crosses, or beside one of its straight runs
    (down from a short box, or down a row it passes); then sliding sideways, a little
    further each time."""
    curves = _middle_first(_curves(path))[:4]
    points = [_curve_point(segment, t) for t in (0.5, 0.3, 0.7) for segment in curves]
    points += _run_middles(path)
    for slide in (0, 12, 28, 48, 72, 100):
        for px, py in points:
            top = py - LABEL_H / 2
            for left in (px + 4 + slide, px - 4 - w - slide):
                box = (left, top, w, LABEL_H)
                if _inside(box, width, height) and not taken.hits(_padded(box)):
                    return left, top
    return None


def _run_middles(path):
    """The middle of each straight vertical run of the path long enough to hold a label
    beside it: a crowded gap leaves those as the places still near the edge."""
    middles, here = [], path[0][1:]
    for command in path[1:]:
        end = command[-2:]
        if command[0] == "L" and end[1] - here[1] >= LABEL_H:
            middles.append((here[0], (here[1] + end[1]) / 2))
        here = end
    return middles


def _padded(box, pad=3):
    """A label's box with room around it, so two labels never touch."""
    x, y, w, h = box
    return (x - pad, y - pad, w + 2 * pad, h + 2 * pad)


def _curves(path):
    """(start point, C command) of each gap crossing."""
    out, here = [], path[0][1:]
    for command in path[1:]:
        if command[0] == "C":
            out.append((here, command))
        here = command[-2:]
    return out


def _middle_first(items):
    middle = (len(items) - 1) / 2
    order = sorted(range(len(items)), key=lambda i: abs(i - middle))
    return [items[i] for i in order]


def _curve_point(segment, t):
    (x0, y0), (_, x1, y1, x2, y2, x3, y3) = segment
    s = 1 - t
    return (
        s**3 * x0 + 3 * s * s * t * x1 + 3 * s * t * t * x2 + t**3 * x3,
        s**3 * y0 + 3 * s * s * t * y1 + 3 * s * t * t * y2 + t**3 * y3,
    )


def _inside(box, width, height):
    """Inside the drawing, or at most ``LABEL_SPILL`` pixels beyond its right side (the
    drawing then widens to hold it)."""
    x, y, w, h = box
    return x >= MARGIN / 2 and y >= 0 and x + w <= width + LABEL_SPILL and y + h <= height


def _overlap(a, b):
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


class _Grid:
    """Boxes bucketed by 64-pixel cells: asking what a box touches looks at a few cells."""

    CELL = 64

    def __init__(self):
        self.cells = {}

    def _keys(self, box):
        x, y, w, h = box
        c = self.CELL
        return [
            (i, j)
            for i in range(int(x // c), int((x + w) // c) + 1)
            for j in range(int(y // c), int((y + h) // c) + 1)
        ]

    def add(self, box):
        for key in self._keys(box):
            self.cells.setdefault(key, []).append(box)

    def hits(self, box):
        cells = self.cells
        for key in self._keys(box):
            for other in cells.get(key, ()):
                if _overlap(box, other):
                    return True
        return False

"""A layered (Sugiyama-style) graph layout in pure Python: deterministic, no graphviz needed.

Three classic steps:

1. *layers*: a node sits one row below its lowest predecessor (longest path), and a leaf
   (a constant, a watched input) moves down to just above its first consumer;
2. *order*: within a row, nodes are sorted by the mean position of their neighbours
   (the barycenter heuristic), sweeping down and up a few times to untangle edges;
3. *coordinates*: each node wants to sit under its predecessors, but is pushed right until
   it no longer touches its left neighbour, so boxes in a row never overlap.

Ties are always broken by the order the nodes were given in, so the same tape gives the
same picture every time.
"""

SWEEPS = 4  # barycenter passes down and up; more rarely changes a small graph
GAP_X = 24  # pixels between boxes in a row
GAP_Y = 36  # pixels between rows
MARGIN = 12


def layered_layout(nodes, edges, sizes):
    """Positions for a directed acyclic graph, drawn top to bottom.

    Parameters
    ----------
    nodes : list of hashable ids, in a stable order (ties are broken by it).
    edges : list of ``(source, target)`` pairs; the graph must be acyclic.
    sizes : dict ``id -> (width, height)`` of each node's box.

    Returns
    -------
    dict with ``"positions"`` (``id -> (x, y)`` of each box's top-left corner),
    ``"width"`` and ``"height"`` of the whole drawing.

    Examples
    --------
    >>> out = layered_layout(["a", "b", "c"], [("a", "c"), ("b", "c")],
    ...                      {"a": (40, 20), "b": (40, 20), "c": (40, 20)})
    >>> out["positions"]
    {'a': (12, 12), 'b': (76, 12), 'c': (44, 68)}
    """
    rank = {node: i for i, node in enumerate(nodes)}
    preds = {node: [] for node in nodes}
    succs = {node: [] for node in nodes}
    for source, target in edges:
        preds[target].append(source)
        succs[source].append(target)

    layer = _assign_layers(nodes, preds, succs, rank)
    rows = _order_rows(nodes, layer, preds, succs)
    return _coordinates(rows, preds, sizes)


def _assign_layers(nodes, preds, succs, rank):
    layer = {}
    for node in _topological(nodes, preds, succs, rank):
        layer[node] = 1 + max((layer[p] for p in preds[node]), default=-1)
    # Pull leaves down next to their first consumer: short edges read better.
    for node in nodes:
        if not preds[node] and succs[node]:
            layer[node] = max(0, min(layer[s] for s in succs[node]) - 1)
    return layer


def _topological(nodes, preds, succs, rank):
    """Kahn's algorithm, always taking the earliest-given ready node (deterministic)."""
    import heapq

    waiting = {node: len(preds[node]) for node in nodes}
    ready = [rank[n] for n in nodes if waiting[n] == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        node = nodes[heapq.heappop(ready)]
        order.append(node)
        for s in succs[node]:
            waiting[s] -= 1
            if waiting[s] == 0:
                heapq.heappush(ready, rank[s])
    if len(order) != len(nodes):
        raise ValueError("layered_layout: the graph has a cycle; a tape never does")
    return order


def _order_rows(nodes, layer, preds, succs):
    depth = max(layer.values(), default=-1) + 1
    rows = [[] for _ in range(depth)]
    for node in nodes:  # initial order: the order given (record order for a tape)
        rows[layer[node]].append(node)
    for _ in range(SWEEPS):
        for r in range(1, depth):
            _sort_by_barycenter(rows[r], rows[r - 1], preds)
        for r in range(depth - 2, -1, -1):
            _sort_by_barycenter(rows[r], rows[r + 1], succs)
    return rows


def _sort_by_barycenter(row, neighbour_row, neighbours):
    where = {node: i for i, node in enumerate(neighbour_row)}
    keys = {}
    for i, node in enumerate(row):
        seen = [where[n] for n in neighbours[node] if n in where]
        # A node with no neighbour in that row keeps its place.
        keys[node] = (sum(seen) / len(seen) if seen else i, i)
    row.sort(key=keys.__getitem__)


def _coordinates(rows, preds, sizes):
    center = {}
    positions = {}
    y = MARGIN
    for row in rows:
        height = max((sizes[n][1] for n in row), default=0)
        right = None  # right edge of the last box placed in this row
        for node in row:
            width = sizes[node][0]
            placed = [center[p] for p in preds[node] if p in center]
            wanted = sum(placed) / len(placed) - width / 2 if placed else MARGIN
            x = wanted if right is None else max(wanted, right + GAP_X)
            center[node] = x + width / 2
            positions[node] = (x, y)
            right = x + width
        y += height + GAP_Y
    shift = MARGIN - min((x for x, _ in positions.values()), default=MARGIN)
    positions = {n: (round(x + shift), round(py)) for n, (x, py) in positions.items()}
    width = max((x + sizes[n][0] for n, (x, _) in positions.items()), default=0) + MARGIN
    return {"positions": positions, "width": width, "height": y - GAP_Y + MARGIN}

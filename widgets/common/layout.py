"""A layered (Sugiyama) layout of a directed acyclic graph: rows, order and x positions.

The classic method, in four steps:

1. *ranks*: each node gets a row below all its predecessors (the longest path from a
   source); a source then sinks to just above its first consumer, so a weight used late
   is drawn beside its use, not at the top;
2. *dummies*: a long edge gets a small dummy node in every row it crosses, so it can be
   routed around the boxes there;
3. *order*: within a row, nodes are reordered to reduce edge crossings (the barycentre
   heuristic: each node moves to the mean position of its neighbours in the row above,
   then below; the order with the fewest crossings wins);
4. *coordinates*: each node wants to sit at the mean of its neighbours' centres; boxes in
   a row keep their order and never overlap (isotonic regression, pool adjacent violators).

Each step is linear or nearly so in the size of the graph (with its dummies), so a tape of
300 records lays out in a fraction of a second (benchmarks/tape_layout.py); grandalf,
which this file used before, spent two seconds on the same tape. Ties are broken by the
order nodes are given in, so the same graph always gives the same picture.
"""

GAP_X = 24  # pixels between neighbouring boxes in a row
DUMMY_W = 10  # the width a long edge reserves in each row it crosses
ORDER_SWEEPS = 6  # down-and-up barycentre sweeps
SWEEPS = 4  # coordinate sweeps down and up
PINNED_WEIGHT = 1e-6  # a pinned node gives way to the others in its row: a chain stays straight


def layered_layout(nodes, edges, sizes, max_row_width=None, pinned=()):
    """Rows of a directed acyclic graph, drawn top to bottom, and each node's x centre.

    Parameters
    ----------
    nodes : list of hashable ids, in a stable order (ties are broken by it).
    edges : list of ``(source, target)`` pairs; the graph must be acyclic.
    sizes : dict ``id -> (width, height)`` of each node's box.
    max_row_width : when a row is wider, sources (nodes with no predecessor: the weights
        beside a layer, say) move up a row, as many as it takes (or as there are); and
        nodes with no edge at all fill rows of at most this width, on top.
    pinned : sources that stay just above their first use, however wide their row.

    Returns
    -------
    dict with ``"rows"`` (a list of rows, each a list of ids left to right; a dummy is
    ``("dummy", edge_index, row)``, ``edge_index`` counting distinct pairs in order),
    ``"x"`` (id -> x centre, dummies included) and ``"width"`` (from 0 to the right edge
    of the widest row).

    Examples
    --------
    >>> out = layered_layout(["a", "b", "c"], [("a", "c"), ("b", "c")],
    ...                      {"a": (40, 20), "b": (40, 20), "c": (40, 20)})
    >>> out["rows"], out["x"]
    ([['a', 'b'], ['c']], {'a': 20.0, 'b': 84.0, 'c': 52.0})
    """
    pairs = list(dict.fromkeys(edges))  # x * x: one layout edge, two drawn edges
    succs, preds = _adjacency(nodes, pairs)
    alone = [n for n in nodes if not succs[n] and not preds[n]]
    shelves = _shelves(alone, sizes, max_row_width)  # on top: an unused input, say
    linked = [n for n in nodes if succs[n] or preds[n]]
    order = _topological_order(linked, succs, preds)
    rank = _ranks(order, succs, preds)
    if max_row_width is not None:
        _lift_sources(linked, rank, preds, sizes, max_row_width, set(pinned))
    rows, up, down = _with_dummies(linked, pairs, rank)
    rows = shelves + _order_rows(rows, up, down)
    for node in alone:
        up[node], down[node] = [], []
    widths = {n: DUMMY_W if isinstance(n, tuple) else sizes[n][0] for row in rows for n in row}
    light = {node: PINNED_WEIGHT for node in pinned}
    x = _coordinates(rows, up, down, widths, light)
    width = max((x[n] + widths[n] / 2 for row in rows for n in row), default=0)
    return {"rows": rows, "x": x, "width": width}


def _adjacency(nodes, pairs):
    succs = {node: [] for node in nodes}
    preds = {node: [] for node in nodes}
    for a, b in pairs:
        succs[a].append(b)
        preds[b].append(a)
    return succs, preds


def _topological_order(nodes, succs, preds):
    """Kahn's algorithm, taking ready nodes in the order given; refuses a cycle."""
    waiting = {node: len(preds[node]) for node in nodes}
    ready = [node for node in reversed(nodes) if not waiting[node]]  # a stack: first on top
    order = []
    while ready:
        node = ready.pop()
        order.append(node)
        for succ in reversed(succs[node]):
            waiting[succ] -= 1
            if not waiting[succ]:
                ready.append(succ)
    if len(order) != len(nodes):
        raise ValueError("layered_layout: the graph has a cycle; a tape never does")
    return order


def _ranks(order, succs, preds):
    """Longest path from the sources; then each source sinks to just above its first use."""
    rank = {}
    for node in order:
        rank[node] = max((rank[p] + 1 for p in preds[node]), default=0)
    for node in order:
        if not preds[node] and succs[node]:
            rank[node] = min(rank[s] for s in succs[node]) - 1
    return rank


def _shelves(alone, sizes, max_width):
    """Nodes with no edge, packed into rows of at most ``max_width`` (one row if None)."""
    rows, width = [], None
    for node in alone:
        w = sizes[node][0]
        if width is None or (max_width is not None and width + GAP_X + w > max_width):
            rows.append([])
            width = -GAP_X
        rows[-1].append(node)
        width += GAP_X + w
    return rows


def _lift_sources(nodes, rank, preds, sizes, max_width, pinned):
    """Move sources up out of rows wider than ``max_width``, bottom row first, the last
    ones first (a new row on top when the top row is too wide)."""
    r = max(rank.values(), default=0)
    while r >= 0:
        row = [n for n in nodes if rank[n] == r]
        width = sum(sizes[n][0] for n in row) + GAP_X * (len(row) - 1)
        movable = [n for n in row if not preds[n] and n not in pinned]
        if width <= max_width or not movable or len(movable) == len(row) == 1:
            r -= 1
            continue
        if r == 0:  # make room above: everything moves down a row
            for node in rank:
                rank[node] += 1
            r = 1
        rank[movable[-1]] = r - 1


def _with_dummies(nodes, pairs, rank):
    """Rows with a dummy per crossed row of each long edge, and each node's neighbours in
    the row above (``up``) and below (``down``), in edge order."""
    rows = [[] for _ in range(max(rank.values(), default=-1) + 1)]
    for node in nodes:
        rows[rank[node]].append(node)
    up = {node: [] for node in nodes}
    down = {node: [] for node in nodes}
    for i, (a, b) in enumerate(pairs):
        previous = a
        for r in range(rank[a] + 1, rank[b]):
            dummy = ("dummy", i, r)
            rows[r].append(dummy)
            up[dummy], down[dummy] = [previous], []
            down[previous].append(dummy)
            previous = dummy
        down[previous].append(b)
        up[b].append(previous)
    return rows, up, down


def _order_rows(rows, up, down):
    """Barycentre sweeps from the rows' first order (the nodes' own: for a tape, record
    order, each row's dummies placed below their edge's start by a first sweep down); the
    first order with the fewest crossings is kept."""
    for r in range(1, len(rows)):
        rows[r] = _by_barycentre(rows[r], rows[r - 1], up)
    best, fewest = [list(row) for row in rows], _crossings(rows, down)
    for _ in range(ORDER_SWEEPS):
        for r in range(1, len(rows)):
            rows[r] = _by_barycentre(rows[r], rows[r - 1], up)
        for r in range(len(rows) - 2, -1, -1):
            rows[r] = _by_barycentre(rows[r], rows[r + 1], down)
        count = _crossings(rows, down)
        if count < fewest:
            best, fewest = [list(row) for row in rows], count
        if not fewest:
            break
    return best


def _by_barycentre(row, fixed, neighbours):
    """``row`` sorted by the mean position of each node's neighbours in ``fixed``; a node
    with none keeps its place (its current position is its key)."""
    where = {node: i for i, node in enumerate(fixed)}
    keys = []
    for i, node in enumerate(row):
        near = [where[n] for n in neighbours[node] if n in where]
        keys.append((sum(near) / len(near) if near else i * len(fixed) / max(len(row), 1), i))
    return [row[i] for _, i in sorted(keys)]


def _crossings(rows, down):
    """Edge crossings between neighbouring rows (inversions, counted by merge sort)."""
    total = 0
    for upper, lower in zip(rows, rows[1:], strict=False):
        where = {node: i for i, node in enumerate(lower)}
        ends = [end for a in upper for end in sorted(where[b] for b in down[a])]
        total += _inversions(ends)
    return total


def _inversions(values):
    if len(values) < 2:
        return 0
    middle = len(values) // 2
    left, right = values[:middle], values[middle:]
    count = _inversions(left) + _inversions(right)
    left.sort()
    right.sort()
    i = 0
    for value in right:  # how many of the left half are greater than each right value
        while i < len(left) and left[i] <= value:
            i += 1
        count += len(left) - i
    return count


def _coordinates(rows, up, down, widths, light):
    """x centres: near the mean of the neighbours' centres, in order, never overlapping."""
    x = {}
    for row in rows:  # start packed from the left
        left = 0.0
        for node in row:
            x[node] = left + widths[node] / 2
            left += widths[node] + GAP_X
    for _ in range(SWEEPS):
        for row in rows[1:]:
            _place_row(row, x, up, widths, light)
        for row in reversed(rows[:-1]):
            _place_row(row, x, down, widths, light)
    shift = -min((x[n] - widths[n] / 2 for row in rows for n in row), default=0)
    return {node: value + shift for node, value in x.items()}


def _place_row(row, x, neighbours, widths, light):
    """The best centres for ``row`` keeping its order and spacing (isotonic regression);
    a node placed by its neighbours heeds the pinned ones (``light``) only when it has no
    other."""
    if not row:
        return
    offsets, total = [], 0.0  # the least distance from the row's first centre to each centre
    for i, node in enumerate(row):
        if i:
            total += (widths[row[i - 1]] + widths[node]) / 2 + GAP_X
        offsets.append(total)
    wanted = []
    for node, offset in zip(row, offsets, strict=True):
        near = [n for n in neighbours[node] if n not in light] or neighbours[node]
        wanted.append((sum(x[n] for n in near) / len(near) if near else x[node]) - offset)
    # Pool adjacent violators: merge neighbours whose wanted order is wrong, use their
    # weighted mean (a pinned node gives way to the others).
    blocks = []  # [mean, weight, count]
    for node, value in zip(row, wanted, strict=True):
        blocks.append([value, light.get(node, 1.0), 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            mean, weight, count = blocks.pop()
            previous = blocks[-1]
            total = previous[1] + weight
            previous[0] = (previous[0] * previous[1] + mean * weight) / total
            previous[1], previous[2] = total, previous[2] + count
    i = 0
    for mean, _, count in blocks:
        for _ in range(count):
            x[row[i]] = mean + offsets[i]
            i += 1

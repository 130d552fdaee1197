"""A layered (Sugiyama) layout of a directed acyclic graph: rows, order and x positions.

The classic method, in three steps:

1. *ranks*: each node gets a row, below all its predecessors; a long edge gets a small
   *dummy* node in every row it crosses, so it can be routed around the boxes there;
2. *order*: within a row, nodes are reordered to reduce edge crossings;
3. *coordinates*: each node wants to sit at the mean of its neighbours' centres; boxes in
   a row keep their order and never overlap.

Steps 1 and 2 are grandalf's (a maintained pure-Python Sugiyama implementation). Step 3 is
ours: grandalf's Brandes-Koepf placement costs half a second on a 300-record tape, while a
few sweeps of isotonic regression (pool adjacent violators) cost milliseconds and give the
best positions that keep order and spacing. Ties are broken by the order nodes are given
in, so the same graph always gives the same picture.
"""

from grandalf.graphs import Edge, Vertex, graph_core
from grandalf.layouts import SugiyamaLayout

GAP_X = 24  # pixels between neighbouring boxes in a row
DUMMY_W = 10  # the width a long edge reserves in each row it crosses
SWEEPS = 4  # coordinate sweeps down and up


class _Box:
    """The ``view`` grandalf reads a vertex's size from."""

    def __init__(self, w, h):
        self.w, self.h = w, h


def layered_layout(nodes, edges, sizes):
    """Rows of a directed acyclic graph, drawn top to bottom, and each node's x centre.

    Parameters
    ----------
    nodes : list of hashable ids, in a stable order (ties are broken by it).
    edges : list of ``(source, target)`` pairs; the graph must be acyclic.
    sizes : dict ``id -> (width, height)`` of each node's box.

    Returns
    -------
    dict with ``"rows"`` (a list of rows, each a list of ids left to right; a dummy is
    ``("dummy", edge_index, row)``), ``"x"`` (id -> x centre, dummies included) and
    ``"width"`` (from 0 to the right edge of the widest row).

    Examples
    --------
    >>> out = layered_layout(["a", "b", "c"], [("a", "c"), ("b", "c")],
    ...                      {"a": (40, 20), "b": (40, 20), "c": (40, 20)})
    >>> out["rows"], out["x"]
    ([['a', 'b'], ['c']], {'a': 20.0, 'b': 84.0, 'c': 52.0})
    """
    index = {node: i for i, node in enumerate(nodes)}
    vertices = {node: Vertex(node) for node in nodes}
    for node, vertex in vertices.items():
        vertex.view = _Box(*sizes[node])
    pairs = list(dict.fromkeys(edges))  # x * x: one layout edge, two drawn edges
    links = [Edge(vertices[a], vertices[b]) for a, b in pairs]
    _refuse_cycles(nodes, pairs)
    rows = []
    for component in _components(nodes, pairs, vertices, links):
        _merge_rows(rows, _rank_and_order(component, index, links))
    widths = {n: DUMMY_W if isinstance(n, tuple) else sizes[n][0] for row in rows for n in row}
    x = _coordinates(rows, pairs, widths)
    width = max((x[n] + widths[n] / 2 for row in rows for n in row), default=0)
    return {"rows": rows, "x": x, "width": width}


def _components(nodes, pairs, vertices, links):
    """Each weakly connected component as a grandalf graph (grandalf lays out one at a time)."""
    parent = {node: node for node in nodes}

    def find(node):
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for a, b in pairs:
        parent[find(a)] = find(b)
    members, own_links = {}, {}
    for node in nodes:
        members.setdefault(find(node), []).append(vertices[node])
    for (a, _), link in zip(pairs, links, strict=True):
        own_links.setdefault(find(a), []).append(link)
    return [graph_core(vs, own_links.get(root, [])) for root, vs in members.items()]


def _rank_and_order(component, index, links):
    """grandalf's ranks, dummy nodes and crossing reduction for one component."""
    layout = SugiyamaLayout(component)
    layout.dw, layout.dh = DUMMY_W, 0  # the size grandalf gives dummy nodes
    roots = [v for v in component.sV if not v.e_in()]
    roots.sort(key=lambda v: index[v.data])
    layout.init_all(roots=roots, inverted_edges=[], optimize=True)  # optimize: leaves move down
    for _ in range(2):
        for _ in layout.ordering_step():
            pass
    edge_index = {id(link): i for i, link in enumerate(links)}
    names = {}
    for edge, ctrl in layout.ctrls.items():
        for rank, vertex in ctrl.items():
            if vertex not in (edge.v[0], edge.v[1]):
                names[vertex] = ("dummy", edge_index[id(edge)], rank)
    return [[names.get(v, getattr(v, "data", None)) for v in layer] for layer in layout.layers]


def _refuse_cycles(nodes, pairs):
    succs = {node: [] for node in nodes}
    for a, b in pairs:
        succs[a].append(b)
    state = {}  # 1: on the current path, 2: done
    for start in nodes:
        stack = [(start, iter(succs[start]))]
        state.setdefault(start, 1)
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                state[node] = 2
                stack.pop()
            elif state.get(child) == 1:
                raise ValueError("layered_layout: the graph has a cycle; a tape never does")
            elif child not in state:
                state[child] = 1
                stack.append((child, iter(succs[child])))


def _merge_rows(rows, component_rows):
    """Components sit side by side: row r of each is appended to the shared row r."""
    while len(rows) < len(component_rows):
        rows.append([])
    for row, extra in zip(rows, component_rows, strict=False):
        row.extend(extra)


def _coordinates(rows, pairs, widths):
    """x centres: near the mean of the neighbours' centres, in order, never overlapping."""
    up, down = {}, {}  # neighbours in the row above / below, dummies included
    chains = {}
    for row in rows:
        for node in row:
            if isinstance(node, tuple):
                chains.setdefault(node[1], []).append(node)
    for i, (a, b) in enumerate(pairs):
        path = [a, *sorted(chains.get(i, []), key=lambda d: d[2]), b]
        for upper, lower in zip(path, path[1:], strict=False):
            down.setdefault(upper, []).append(lower)
            up.setdefault(lower, []).append(upper)
    x = {}
    for row in rows:  # start packed from the left
        left = 0.0
        for node in row:
            x[node] = left + widths[node] / 2
            left += widths[node] + GAP_X
    for _ in range(SWEEPS):
        for row in rows[1:]:
            _place_row(row, x, up, widths)
        for row in reversed(rows[:-1]):
            _place_row(row, x, down, widths)
    shift = -min((x[n] - widths[n] / 2 for row in rows for n in row), default=0)
    return {node: value + shift for node, value in x.items()}


def _place_row(row, x, neighbours, widths):
    """The best centres for ``row`` keeping its order and spacing (isotonic regression)."""
    if not row:
        return
    offsets, total = [], 0.0  # the least distance from the row's first centre to each centre
    for i, node in enumerate(row):
        if i:
            total += (widths[row[i - 1]] + widths[node]) / 2 + GAP_X
        offsets.append(total)
    wanted = []
    for node, offset in zip(row, offsets, strict=True):
        near = [x[n] for n in neighbours.get(node, ())]
        wanted.append((sum(near) / len(near) if near else x[node]) - offset)
    # Pool adjacent violators: merge neighbours whose wanted order is wrong, use the mean.
    blocks = []  # [mean, count]
    for value in wanted:
        blocks.append([value, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            mean, count = blocks.pop()
            previous = blocks[-1]
            previous[0] = (previous[0] * previous[1] + mean * count) / (previous[1] + count)
            previous[1] += count
    i = 0
    for mean, count in blocks:
        for _ in range(count):
            x[row[i]] = mean + offsets[i]
            i += 1

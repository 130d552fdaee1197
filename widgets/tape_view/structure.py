"""The structure of a tape, from the context of each record: the groups a view can fold.

Each record carries a *path* (common/origins.py): the lines, layers and name scopes it ran
in, outermost first, each with a key that changes when the line runs again. Records whose
paths share a prefix belong together, which gives a tree:

- a *line* group: the records one execution of a line made (``h = ek.tanh(...)``, or a
  call such as ``logits = model.step(x, h)`` with the groups of the lines inside it);
- a *layer* group: one call of a Keras layer; a *scope* group: a name scope;
- a *series*: the same line (or lines, or layer) run again and again in a row, i.e. a
  Python loop's iterations, or an RNN's time steps ("h = ... ×20"). TorchLens finds loops
  in a model the same way, from repeated operations at the same place in the code; here
  the place is the line itself, so a loop is found even when its iterations differ;
- an *iteration*: one turn of a loop whose body has several lines.

A group with a single op in it, or a single group, says nothing new and is dissolved.
"""

MAX_PERIOD = 6  # the most groups one loop iteration may span


class _Group:
    __slots__ = ("kind", "key", "signature", "label", "where", "children", "index", "count")

    def __init__(self, kind, key, signature, label, where=None):
        self.kind, self.key, self.signature, self.label = kind, key, signature, label
        self.where, self.children, self.index, self.count = where, [], None, None


def innermost_group(groups):
    """Each record's innermost group: ``{record: group id}`` (``groups`` as ``group_tree``
    gives them, parents first, so a group inside another comes later and wins).

    Examples
    --------
    >>> innermost_group([{"id": "g0", "records": [0, 1, 2]}, {"id": "g1", "records": [1]}])
    {0: 'g0', 1: 'g1', 2: 'g0'}
    """
    return {record: group["id"] for group in groups for record in group["records"]}


def group_tree(paths, reads=(), wheres=None):
    """The groups of a tape, from each record's path.

    Parameters
    ----------
    paths : list, per record, of its path (a tuple of ``(kind, key, signature, label)``;
        empty when unknown).
    reads : indices of the records that read a variable (they have no box of their own,
        so they do not count as ops).
    wheres : dict ``signature -> text`` such as ``"cell In [3], line 2"`` for line groups.

    Returns
    -------
    ``(groups, top)``: ``groups`` is a list of dicts in tree order (parents first) with
    ``id``, ``kind``, ``label``, ``parent``, ``records`` (every record inside, in order),
    ``count`` (a series: its iterations) and ``index`` (an iteration: its number);
    ``top`` lists what the root holds: group ids and record indices.

    Examples
    --------
    >>> line = lambda key, n: ("line", key, ("f", n), f"line {n}")
    >>> paths = [(line(1, 3),), (line(1, 3),), (line(2, 3),), (line(2, 3),), ()]
    >>> groups, top = group_tree(paths)
    >>> [(g["id"], g["kind"], g["label"], g["records"]) for g in groups]
    [('g0', 'series', 'line 3 ×2', [0, 1, 2, 3]), ('g1', 'line', 'line 3', [0, 1]),
     ('g2', 'line', 'line 3', [2, 3])]
    >>> top
    ['g0', 4]
    """
    root = _Group("root", None, None, "")
    _build(root, _without_common_start(paths))
    _find_series(root)
    root.children = _simplify(root.children, set(reads))
    groups = []
    top = [_number(child, None, groups, wheres or {}) for child in root.children]
    return groups, top


def _without_common_start(paths):
    """Paths without the entries every record shares (the line that called the function
    the tape recorded in, say): they fold nothing."""
    known = [p for p in paths if p]
    if not known:
        return paths
    keys = [tuple(entry[1] for entry in p) for p in known]
    common = 0
    while all(len(k) > common and k[common] == keys[0][common] for k in keys):
        common += 1
    common = min(common, min(len(p) for p in known) - 1)  # keep each record's own line
    return [p[common:] if p else p for p in paths]


def _build(root, paths):
    stack = [root]
    for index, path in enumerate(paths):
        depth = 0
        while (
            depth < len(path) and depth + 1 < len(stack) and stack[depth + 1].key == path[depth][1]
        ):
            depth += 1
        del stack[depth + 1 :]
        for kind, key, signature, label in path[depth:]:
            group = _Group(kind, key, signature, label)
            stack[-1].children.append(group)
            stack.append(group)
        stack[-1].children.append(index)


def _find_series(group):
    """Runs of children that repeat (a loop), innermost first, folded into series."""
    for child in group.children:
        if isinstance(child, _Group):
            _find_series(child)
    kids = group.children
    signatures = [c.signature if isinstance(c, _Group) else None for c in kids]
    out, at = [], 0
    while at < len(kids):
        period, count = _repeat_at(signatures, at)
        if count < 2:
            out.append(kids[at])
            at += 1
            continue
        out.append(_series(kids[at : at + period * count], period, count))
        at += period * count
    group.children = out


def _repeat_at(signatures, at):
    """(period, count) of the longest run of repeats starting at ``at`` (count 1: none)."""
    best = (1, 1)
    for period in range(1, MAX_PERIOD + 1):
        unit = signatures[at : at + period]
        if len(unit) < period or None in unit:
            break
        count = 1
        while signatures[at + count * period : at + (count + 1) * period] == unit:
            count += 1
        if count >= 2 and count * period > best[0] * best[1]:
            best = (period, count)
    return best


def _series(kids, period, count):
    first = kids[0]
    label = first.label if period == 1 else f"{first.label} …"
    series = _Group("series", None, ("series", first.signature), f"{label} ×{count}")
    series.where = first.signature if first.kind == "line" else first.where
    for k in range(count):
        members = kids[k * period : (k + 1) * period]
        if period == 1:
            member = members[0]
        else:
            member = _Group("iteration", None, None, f"iteration {k + 1} of {count}")
            member.children = members
        member.index, member.count = k + 1, count
        series.children.append(member)
    series.count = count
    return series


def _simplify(children, reads):
    """Dissolve groups that fold nothing: one op (reads aside) or one group."""
    out = []
    for child in children:
        if not isinstance(child, _Group):
            out.append(child)
            continue
        child.children = _simplify(child.children, reads)
        ops = sum(1 for r in _records(child) if r not in reads)
        if child.kind not in ("series", "iteration") and ops <= 1:
            out.extend(child.children)  # a line with one op: the op is its own box
        elif len(child.children) == 1 and isinstance(child.children[0], _Group):
            out.append(_merge(child, child.children[0]))
        else:
            out.append(child)
    return out


TELLING = {"series": 3, "layer": 2, "scope": 2, "line": 1, "iteration": 0}


def _merge(outer, inner):
    """One group for a group holding just one other: the more telling label wins (a loop,
    then a layer or a name scope, then a line), the inner one on a tie."""
    kept = outer if TELLING[outer.kind] > TELLING[inner.kind] else inner
    kept.children = inner.children
    kept.index = inner.index if inner.index is not None else outer.index
    kept.count = inner.count if inner.count is not None else outer.count
    line = next((g.signature for g in (inner, outer) if g.kind == "line"), None)
    kept.where = kept.where or inner.where or outer.where or line
    return kept


def _records(group):
    for child in group.children:
        if isinstance(child, _Group):
            yield from _records(child)
        else:
            yield child


def _number(node, parent, groups, wheres):
    if not isinstance(node, _Group):
        return node
    entry = {
        "id": f"g{len(groups)}",
        "kind": node.kind,
        "label": node.label,
        "parent": parent,
        "records": list(_records(node)),
    }
    signature = node.signature if node.kind == "line" else node.where
    if signature in wheres:
        entry["where"] = wheres[signature]
    if node.count is not None:
        entry["count" if node.kind == "series" else "of"] = node.count
    if node.index is not None:
        entry["index"] = node.index
    groups.append(entry)
    entry["children"] = [_number(child, entry["id"], groups, wheres) for child in node.children]
    return entry["id"]

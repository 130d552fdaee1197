"""The tape graph layout: deterministic, downward edges, and no two boxes overlap."""

import numpy as np
import pytest
from eagerkit.widgets import TapeView
from eagerkit.widgets.layout import layered_layout

import eagerkit as ek

OPS = [lambda a, b: a + b, lambda a, b: a * b, lambda a, b: ek.tanh(a), lambda a, b: a - 2.0]


def random_tape(records, seed):
    """A tape of ``records`` ops, each on one or two earlier tensors chosen at random."""
    rng = np.random.default_rng(seed)
    leaves = [ek.constant(float(v)) for v in rng.normal(size=4)]
    tape = ek.GradientTape(persistent=True)
    with tape:
        for leaf in leaves:
            tape.watch(leaf)
        pool = list(leaves)
        while len(tape.records) < records:
            a, b = (pool[i] for i in rng.integers(0, len(pool), size=2))
            make = OPS[rng.integers(0, len(OPS))]
            pool.append(make(a, b))
    return tape, leaves, pool[-1]


def overlapping_pairs(nodes):
    boxes = sorted((n["y"], n["x"], n["w"], n["h"], n["id"]) for n in nodes)
    pairs = []
    for i, (y1, x1, w1, h1, a) in enumerate(boxes):
        for y2, x2, w2, _, b in boxes[i + 1 :]:
            if y2 >= y1 + h1:
                break  # sorted by y: nothing further down can touch this box
            if x1 < x2 + w2 and x2 < x1 + w1:
                pairs.append((a, b))
    return pairs


@pytest.mark.parametrize("records", [1, 10, 60, 300])
def test_no_two_nodes_overlap_and_edges_point_down(records):
    tape, leaves, out = random_tape(records, seed=records)
    view = TapeView(tape)
    tape.gradient(out, leaves)
    graph = view.graph
    assert len([n for n in graph["nodes"] if n["type"] == "op"]) == records
    assert overlapping_pairs(graph["nodes"]) == []
    where = {n["id"]: n for n in graph["nodes"]}
    for edge in graph["edges"]:
        source, target = where[edge["from"]], where[edge["to"]]
        assert source["y"] + source["h"] < target["y"], edge
    assert max(n["x"] + n["w"] for n in graph["nodes"]) < graph["width"]
    assert max(n["y"] + n["h"] for n in graph["nodes"]) < graph["height"]


def test_the_same_tape_gives_the_same_picture():
    first = TapeView(random_tape(300, seed=7)[0]).graph
    second = TapeView(random_tape(300, seed=7)[0]).graph
    assert first == second


def test_the_overlap_check_catches_an_overlap():
    nodes = [
        {"id": "a", "x": 0, "y": 0, "w": 50, "h": 20},
        {"id": "b", "x": 40, "y": 10, "w": 50, "h": 20},
    ]
    assert overlapping_pairs(nodes) == [("a", "b")]


def test_a_leaf_sits_just_above_its_first_consumer():
    sizes = {name: (40, 20) for name in "abcd"}
    # a -> b -> c, and d feeds only c: d belongs in b's row, not at the top.
    out = layered_layout(["a", "b", "c", "d"], [("a", "b"), ("b", "c"), ("d", "c")], sizes)
    positions = out["positions"]
    assert positions["d"][1] == positions["b"][1]
    assert positions["a"][1] < positions["b"][1] < positions["c"][1]


def test_a_cycle_is_refused_with_a_clear_message():
    with pytest.raises(ValueError, match="layered_layout: the graph has a cycle"):
        layered_layout(["a", "b"], [("a", "b"), ("b", "a")], {"a": (1, 1), "b": (1, 1)})

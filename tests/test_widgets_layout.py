"""The tape graph's drawing on a corpus of tapes: no edge through a box, no label on a
label or a box, everything inside, deterministic, and fast enough for 300 records."""

import pytest
from drawing_checks import drawing_problems, problems, sample_path
from eagerkit.widgets import TapeView
from eagerkit.widgets.common.drawing import make_drawing
from eagerkit.widgets.common.layout import layered_layout
from tape_corpus import CORPUS, random_tape


@pytest.fixture(scope="module", params=sorted(CORPUS))
def view(request):
    return CORPUS[request.param]()


def every_state(drawing):
    return [drawing, *drawing.get("unfolded", {}).values()]


def test_the_corpus_draws_without_a_broken_invariant(view):
    for drawing in every_state(view.drawing):
        assert drawing_problems(drawing) == []
        # Every edge starts on its source's box and ends on its target's.
        boxes = {b["id"]: b for b in drawing["boxes"]}
        for edge in drawing["edges"]:
            (x0, y0), (x1, y1) = sample_path(edge["path"])[0], sample_path(edge["path"])[-1]
            a, b = boxes[edge["from"]], boxes[edge["to"]]
            assert a["x"] <= x0 <= a["x"] + a["w"] and y0 == a["y"] + a["h"], edge["id"]
            assert b["x"] <= x1 <= b["x"] + b["w"] and y1 == b["y"], edge["id"]


def test_every_gradient_of_the_sweep_has_a_label(view):
    drawing = view.drawing
    sent = {f"e{s['record']}_out" for s in view.graph["backward"] if s["op"]}
    sent |= {g["edge"] for s in view.graph["backward"] for g in s["grads"] if g["edge"]}
    labelled = {lab["edge"] for lab in drawing["labels"]}
    drawn_with_gradient = {e["id"] for e in drawing["edges"] if sent & set(e["ids"])}
    assert labelled == drawn_with_gradient


def test_a_value_used_three_times_gets_three_separate_edges():
    drawing = CORPUS["value_used_three_times"]().drawing
    c = next(b for b in drawing["boxes"] if b["lines"][0].startswith("c "))
    leaving = [e for e in drawing["edges"] if e["from"] == c["id"]]
    starts = sorted(e["path"][0][1] for e in leaving)
    assert len(leaving) == 3 and len(set(starts)) == 3  # three ports, three paths
    labels = sorted(
        lab["text"] for lab in drawing["labels"] if lab["edge"] in {e["id"] for e in leaving}
    )
    assert labels == ["1.0", "3.0", "3.0"]  # c*c sends c twice, + sends 1


def test_a_long_edge_is_routed_around_the_rows_it_skips():
    drawing = CORPUS["edges_skipping_levels"]().drawing
    rows = sorted({b["y"] for b in drawing["boxes"]})
    longest = max(drawing["edges"], key=lambda e: len(e["path"]))
    assert len(longest["path"]) > 8  # it bends through several rows' free columns
    assert drawing_problems(drawing) == []
    assert len(rows) > 10


def test_the_checker_sees_a_broken_drawing():
    boxes = [("a", 0, 0, 50, 20), ("b", 40, 10, 50, 20), ("c", 0, 100, 50, 20)]
    edges = [("a", "c", [(25, 20), (25, 100)]), ("c", "a", [(60, 120), (60, -5)])]
    labels = [("1.0", 10, 50, 30, 14), ("2.0", 20, 55, 30, 14), ("3.0", 0, 95, 20, 14)]
    found = problems(100, 130, boxes, edges, labels)
    assert found == [
        "boxes 'a' and 'b' overlap",
        "labels '1.0' and '2.0' overlap",
        "label '3.0' lies on box 'c'",
        "edge c->a passes through box 'b'",
    ]
    assert problems(100, 90, boxes[:1], [], [("x", 95, 0, 20, 14)]) == [
        "label 'x' lies outside the 100x90 drawing"
    ]


def test_the_same_tape_gives_the_same_drawing():
    first = TapeView(random_tape(120, seed=7)[0])
    second = TapeView(random_tape(120, seed=7)[0])
    assert first.drawing == second.drawing and first.graph == second.graph


def test_a_leaf_sits_just_above_its_first_consumer():
    sizes = {name: (40, 20) for name in "abcd"}
    # a -> b -> c, and d feeds only c: d belongs in b's row, not at the top.
    out = layered_layout(["a", "b", "c", "d"], [("a", "b"), ("b", "c"), ("d", "c")], sizes)
    assert out["rows"] == [["a"], ["b", "d"], ["c"]]


def test_a_cycle_is_refused_with_a_clear_message():
    with pytest.raises(ValueError, match="layered_layout: the graph has a cycle"):
        layered_layout(["a", "b"], [("a", "b"), ("b", "a")], {"a": (1, 1), "b": (1, 1)})


def test_a_crowded_gap_sends_labels_to_a_free_column():
    # Ten edges from one box to the next: their labels cannot all sit in the gap.
    nodes = [{"id": "a", "w": 60, "h": 20}, {"id": "b", "w": 60, "h": 20}]
    edges = [{"id": f"e{i}", "from": "a", "to": "b"} for i in range(10)]
    drawing = make_drawing(nodes, edges, {f"e{i}": f"{i}.123456" for i in range(10)})
    assert len(drawing["labels"]) == 10
    assert drawing_problems({**drawing, "edges": drawing["edges"]}) == []
    assert drawing["width"] > 84  # the drawing grew to hold them

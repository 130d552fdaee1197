"""Graph mode made visible: each optimization pass reported as data, and GraphPassView."""

import base64

import numpy as np
import pytest
from eagerkit.widgets import GraphPassView

import eagerkit as ek
from eagerkit.graph.passes import bytes_per_call, optimization_passes


def lesson_function(x):
    ek.exp(x)  # dead code: nothing uses it
    two = ek.constant(1.0) + 1.0  # folded
    return ek.tanh(x) * two + ek.tanh(x)  # tanh(x) twice: merged


weights = ek.Variable(np.ones([4, 3], "float32"), name="w")


def layer(x):
    scale = ek.constant(2.0) * ek.constant(0.5)  # folded twice over
    hidden = ek.matmul(x, weights) * scale
    return ek.nn.relu(hidden) + ek.nn.relu(hidden), ek.reduce_sum(hidden)


@pytest.mark.parametrize(
    ("function", "example"), [(lesson_function, ek.zeros([100])), (layer, ek.ones([2, 4]))]
)
def test_the_reports_agree_with_what_ek_function_did(function, example):
    concrete = ek.function(function).get_concrete_function(example)
    traced_listing = str(concrete.traced_graph)
    reports = optimization_passes(concrete.traced_graph)
    assert [r.name for r in reports] == [*concrete.optimizations]
    for report in reports:  # each pass makes one kind of change, and counts them
        assert len(report.changes) == concrete.optimizations[report.name]
    assert str(reports[-1].after) == str(concrete.graph)  # the same optimized graph
    assert str(concrete.traced_graph) == traced_listing  # the traced graph is untouched
    for earlier, later in zip(reports, reports[1:], strict=False):
        assert later.before is earlier.after
        assert earlier.bytes_after == later.bytes_before
    total = sum(r.bytes_saved for r in reports)
    assert total == bytes_per_call(concrete.traced_graph) - reports[-1].bytes_after


def test_each_change_names_the_nodes_involved():
    concrete = ek.function(lesson_function).get_concrete_function(ek.zeros([100]))
    folding, dead, merging, reuse = optimization_passes(concrete.traced_graph)
    [(index, change, target)] = folding.changes
    assert change == "folded" and folding.before.nodes[index].name == "add"
    assert folding.after.nodes[target].kind == "constant"
    assert folding.bytes_saved == 4  # one float32 scalar no longer computed per call
    assert sorted(dead.before.nodes[i].name for i, _, _ in dead.changes) == [
        "constant",
        "constant",
        "exp",
    ]
    assert dead.bytes_saved == 400  # exp of 100 float32 values
    [(index, change, target)] = merging.changes
    assert change == "merged"
    assert merging.before.nodes[index].name == merging.before.nodes[target].name == "tanh"
    assert target < index  # the first tanh is kept
    # Numbers stay those of the traced graph: the second tanh is %7 in every stage.
    assert merging.origins[index] == 7 and folding.before.nodes[7].name == "tanh"
    [(index, change, target)] = reuse.changes
    assert (reuse.before.nodes[index].name, reuse.before.nodes[target].name) == ("add", "multiply")
    assert reuse.bytes_saved == 400


def test_the_view_steps_through_every_pass_and_its_drawing_holds_together():
    view = GraphPassView(ek.function(lesson_function), ek.zeros([100]))
    titles = [stage["title"] for stage in view.stages]
    assert titles == [
        "constant folding",
        "dead code elimination",
        "common subexpression elimination",
        "buffer reuse",
        "optimized graph",
    ]
    merged = view.stages[2]
    assert merged["changes"] == ["%7: merged: computes what %5 computes"]
    labels = [node["label"] for node in merged["drawing"]["nodes"]]
    assert "%7 tanh" in labels and "%5 tanh" in labels
    assert view.stages[-1]["bytes_saved"] == sum(s["bytes_saved"] for s in view.stages[:-1])
    for stage in view.stages:
        drawing = stage["drawing"]
        boxes = drawing["nodes"]
        for a in boxes:  # every box inside the drawing, no two boxes overlapping
            assert 0 <= a["x"] and a["x"] + a["w"] <= drawing["width"]
            assert 0 <= a["y"] and a["y"] + a["h"] <= drawing["height"]
            for b in boxes:
                if a is not b:
                    apart = a["x"] + a["w"] <= b["x"] or b["x"] + b["w"] <= a["x"]
                    assert apart or a["y"] + a["h"] <= b["y"] or b["y"] + b["h"] <= a["y"]
        for edge in drawing["edges"]:
            assert all(0 <= x <= drawing["width"] for x, _ in edge["points"])


def test_the_view_has_a_fixed_repr_and_a_reproducible_png():
    function = ek.function(layer)
    view = GraphPassView(function, ek.ones([2, 4]))
    data, _ = view._repr_mimebundle_()
    assert data["text/plain"] == repr(view) == "GraphPassView(layer)"
    png = base64.b64decode(data["image/png"])
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    again = GraphPassView(function.get_concrete_function(ek.ones([2, 4])))
    assert again._repr_mimebundle_()[0]["image/png"] == data["image/png"]


def test_a_plain_python_function_is_refused_with_the_fix():
    with pytest.raises(TypeError, match=r"GraphPassView\(ek.function\(f\), x\)"):
        GraphPassView(lesson_function, ek.zeros([3]))


def test_a_traced_python_loop_is_drawn_readable_in_the_png(monkeypatch):
    """200 turns of a Python loop trace 600 ops: the PNG shows the graph's top-left part at
    a readable size (the live view scrolls), not the whole graph shrunk to a smear."""
    from eagerkit.widgets.graph_passes import snapshot

    def unrolled(x):
        for _ in range(200):
            x = ek.tanh(x) * 0.9 + 0.1
        return x

    drawn = []

    def spy(axes, drawing, font, **where):
        drawn.append((font, axes.get_xlim(), axes.get_ylim(), drawing["height"]))

    monkeypatch.setattr(snapshot, "draw_graph", spy)
    view = GraphPassView(ek.function(unrolled), ek.ones([3]))
    view.snapshot_png()
    ((font, xlim, ylim, full_height),) = drawn
    assert font >= 7 * snapshot.READABLE + 1  # the labels' size, in points
    assert ylim == (900 / snapshot.READABLE, 0) and full_height > 10 * ylim[0]  # its top part
    small = GraphPassView(ek.function(layer), ek.ones([2, 4]))
    drawn.clear()
    small.snapshot_png()
    assert drawn[0][2][0] == max(drawn[0][3], 80)  # a small graph is drawn whole


def test_a_chain_fed_by_constants_is_drawn_straight():
    """Each turn of ``x = tanh(x) * 0.9 + 0.1`` adds two constants beside the chain: the
    constants give way, so the chain's boxes stay in one column (they drifted half a box
    right at every constant, into a diagonal thousands of pixels wide)."""

    def unrolled(x):
        for _ in range(20):
            x = ek.tanh(x) * 0.9 + 0.1
        return x

    drawing = GraphPassView(ek.function(unrolled), ek.ones([3])).stages[0]["drawing"]  # traced
    chain = [n for n in drawing["nodes"] if n["kind"] != "constant"]
    centres = {round(n["x"] + n["w"] / 2) for n in chain}
    assert len(chain) == 1 + 3 * 20 and max(centres) - min(centres) <= 1
    widest = max(n["x"] + n["w"] for n in drawing["nodes"])
    assert widest < 300 and drawing["width"] < 300

"""The tape graph's drawing on a corpus of tapes, in every folding state a view prepares:
no edge through a box, no label on a label or a box, everything inside, text inside its
box; the big tapes open folded, whole and readable; a weight used at every step is one
edge while its loop is folded and a proxy beside each use when it is not; deterministic."""

import linecache

import pytest
from drawing_checks import (
    drawing_problems,
    every_state,
    opening,
    problems,
    sample_path,
    text_problems,
)
from eagerkit.widgets import TapeView
from eagerkit.widgets.common.drawing import make_drawing, place_labels
from eagerkit.widgets.common.layout import layered_layout
from eagerkit.widgets.tape_view.drawing import FIT_H, FIT_W
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tape_corpus import BIG, CORPUS, random_tape

import eagerkit as ek


@pytest.fixture(scope="module", params=sorted(CORPUS))
def view(request):
    return CORPUS[request.param]()


def test_every_prepared_state_draws_without_a_broken_invariant(view):
    for key, state in every_state(view):
        assert drawing_problems(state) == [], key
        assert text_problems(state) == [], key
        boxes = {b["id"]: b for b in state["boxes"]}
        for edge in state["edges"]:  # each edge starts on its source, ends on its target
            (x0, y0), (x1, y1) = sample_path(edge["path"])[0], sample_path(edge["path"])[-1]
            a, b = boxes[edge["from"]], boxes[edge["to"]]
            assert a["x"] <= x0 <= a["x"] + a["w"] and y0 == a["y"] + a["h"], (key, edge["id"])
            assert b["x"] <= x1 <= b["x"] + b["w"] and y1 == b["y"], (key, edge["id"])


def test_every_record_is_shown_in_every_state(view):
    ops = {n["id"] for n in view.graph["nodes"] if n["type"] == "op"}
    for key, state in every_state(view):
        shown = {b["id"] for b in state["boxes"]}
        assert {state["alias"][op] for op in ops} <= shown, key
        for record, box in state["folded"].items():
            assert box in shown and int(record) in _records_of(view, box), key


def _records_of(view, group):
    return next(g["records"] for g in view.graph["groups"] if g["id"] == group)


def test_the_opening_state_labels_every_gradient_of_the_sweep(view):
    state = opening(view)
    sent = {g["edge"] for s in view.graph["backward"] for g in s["grads"] if g["edge"]}
    labelled = {lab["edge"] for lab in state["labels"]}
    assert labelled == {e["id"] for e in state["edges"] if sent & set(e["ids"])}


@pytest.mark.parametrize("name", [*BIG, "char_rnn_one_step", "lesson02_fan_out", "cnn_step"])
def test_a_tape_opens_whole_and_readable_by_folding(name):
    view = CORPUS[name]()
    state = opening(view)
    # The view opens at 100% when the cell has FIT_W x FIT_H (a 1280x720 laptop with the
    # file browser open), never below 90%: text at 9 px or more, nothing cut off.
    assert state["width"] <= FIT_W and state["height"] <= FIT_H, (state["width"], state["height"])
    if name in BIG:  # too big to show unfolded: something is folded
        assert any(b["type"] == "group" for b in state["boxes"])


@pytest.mark.parametrize(
    ("name", "loop"),
    [
        ("hand_unrolled_rnn", "h = ek.tanh(w_h * h + w_x * x_t) ×20"),
        ("chain_with_skip_edges", "h = ek.sin(h) + x ×150"),
        ("char_rnn_window", "logits, h = self.step(inputs[:, t], h) ×24"),
    ],
)
def test_a_loop_is_one_box_labelled_with_its_count(name, loop):
    view = CORPUS[name]()
    series = [g for g in view.graph["groups"] if g["kind"] == "series"]
    assert [g["label"] for g in series] == [loop]
    drawn = [b["lines"][0] for key, s in every_state(view) for b in s["boxes"]]
    assert f"▸ {loop}" in drawn


def test_a_weight_used_at_every_step_is_one_edge_folded_and_a_proxy_beside_each_use():
    view = CORPUS["hand_unrolled_rnn"]()
    w_h = next(n["id"] for n in view.graph["nodes"] if n["label"] == "w_h")
    folded = opening(view)
    assert [e["to"] for e in folded["edges"] if e["from"] == w_h] == ["g0"]  # one bundled edge
    unfolded = view.drawing["states"]["g0"]  # the loop unfolded: 20 iterations
    assert not [e for e in unfolded["edges"] if e["from"] == w_h]  # drawn once, unconnected
    proxies = [b for b in unfolded["boxes"] if b["type"] == "proxy" and b["node"] == w_h]
    assert len(proxies) == 20
    boxes = {b["id"]: b for b in unfolded["boxes"]}
    for proxy in proxies:  # beside its use: its one edge crosses one gap, no curtain
        (edge,) = [e for e in unfolded["edges"] if e["from"] == proxy["id"]]
        assert boxes[edge["to"]]["y"] - (proxy["y"] + proxy["h"]) < 60


def test_a_loop_unfolded_is_a_straight_chain_of_its_iterations():
    state = CORPUS["hand_unrolled_rnn"]().drawing["states"]["g0"]
    steps = [b for b in state["boxes"] if b["type"] == "group"]
    assert len(steps) == 20
    centres = {round(b["x"] + b["w"] / 2) for b in steps}
    assert max(centres) - min(centres) < 30  # one above the other, no staircase


def test_the_layout_is_done_once_not_again_after_the_gradient(monkeypatch):
    from eagerkit.widgets.tape_view import view as view_module

    made = []

    class Counting(view_module.Layouts):
        def __init__(self, graph):
            made.append(len(graph["forward"]))
            super().__init__(graph)

    monkeypatch.setattr(view_module, "Layouts", Counting)
    tape, leaves, out = random_tape(60, seed=3)
    view = TapeView(tape)  # made after the records: laid out now
    before = {k: (s["boxes"], s["edges"]) for k, s in every_state(view)}
    tape.gradient(out, leaves)
    after = {k: s for k, s in every_state(view)}
    assert made == [60]
    for key, (boxes, edges) in before.items():
        geometry = [(b["id"], b["x"], b["y"], b["w"], b["h"]) for b in boxes]
        assert geometry == [(b["id"], b["x"], b["y"], b["w"], b["h"]) for b in after[key]["boxes"]]
        assert [e["path"] for e in edges] == [e["path"] for e in after[key]["edges"]]
    sources = {n["id"] for n in view.graph["nodes"] if n.get("source")}
    shown = [b for b in opening(view)["boxes"] if {g["node"] for g in b["grads"]} & sources]
    assert len(shown) == 4 and all(b["grad_texts"][0].startswith("grad: ") for b in shown)


def test_the_same_tape_gives_the_same_drawing():
    first = TapeView(random_tape(120, seed=7)[0])
    second = TapeView(random_tape(120, seed=7)[0])
    assert first.drawing == second.drawing and first.graph == second.graph


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
    too_long = {"id": "a", "lines": ["a long line of text"], "grads": [], "w": 40, "h": 23}
    grad = {"node": "n1", "prefix": "grad h1: ", "chars": 4, "reserve": 4}
    too_low = {"id": "b", "lines": ["h1"], "grads": [grad], "w": 200, "h": 23}  # 2 lines: 38
    assert text_problems({"boxes": [too_long, too_low]}) == [
        "the text of box 'a' does not fit it: ['a long line of text']",
        "the text of box 'b' does not fit it: ['h1', 'grad h1: xxxx']",
    ]
    assert text_problems({"boxes": [dict(too_low, h=38)]}) == []


SIZES = {name: (40, 20) for name in "abcdefgh"}


def test_a_leaf_sits_just_above_its_first_consumer():
    # a -> b -> c, and d feeds only c: d belongs in b's row, not at the top.
    out = layered_layout(["a", "b", "c", "d"], [("a", "b"), ("b", "c"), ("d", "c")], SIZES)
    assert out["rows"] == [["a"], ["b", "d"], ["c"]]


def test_a_row_too_wide_sends_sources_up_but_not_the_pinned_ones():
    edges = [(s, "h") for s in "abcde"]
    wide = layered_layout(list("abcdeh"), edges, SIZES, max_row_width=150)
    assert [len(row) for row in wide["rows"]][-1] == 1 and len(wide["rows"]) > 2
    assert all(_row_width(row) <= 150 for row in wide["rows"][:-1])
    pinned = layered_layout(list("abcdeh"), edges, SIZES, max_row_width=150, pinned="abcde")
    assert pinned["rows"] == [list("abcde"), ["h"]]


def _row_width(row):  # the boxes of a row (the dummies of the edges lifted add to it)
    boxes = [n for n in row if not isinstance(n, tuple)]
    return sum(SIZES[n][0] for n in boxes) + 24 * (len(boxes) - 1)


def test_nodes_with_no_edge_wait_on_a_shelf_above():
    out = layered_layout(list("abfgh"), [("a", "b")], SIZES, max_row_width=110)
    assert out["rows"] == [["f", "g"], ["h"], ["a"], ["b"]]


def test_a_cycle_is_refused_with_a_clear_message():
    with pytest.raises(ValueError, match="layered_layout: the graph has a cycle"):
        layered_layout(["a", "b"], [("a", "b"), ("b", "a")], {"a": (1, 1), "b": (1, 1)})


def test_a_crowded_gap_places_the_labels_that_fit_and_no_label_far_away():
    # Ten edges from one box to the next: their labels cannot all sit in the gap.
    nodes = [{"id": "a", "w": 60, "h": 20}, {"id": "b", "w": 60, "h": 20}]
    edges = [{"id": f"e{i}", "from": "a", "to": "b"} for i in range(10)]
    drawing = make_drawing(nodes, edges, {f"e{i}": f"{i}.123456" for i in range(10)})
    assert 2 <= len(drawing["labels"]) < 10
    assert drawing_problems(drawing) == []
    for label in drawing["labels"]:  # in the gap, beside the edges (within 120 px)
        assert 32 <= label["y"] and label["y"] + label["h"] <= 64
        assert label["x"] + label["w"] <= 72 + 120 + 12


def test_a_label_with_no_room_in_the_gap_sits_beside_its_edge_s_straight_run():
    # A short source box beside a tall one: its edge runs straight down to the row's
    # bottom, then crosses the gap. The gap is taken (boxes fill it on both sides of the
    # edge): the label goes beside the straight run, next to its own edge, not nowhere.
    path = [["M", 50, 40], ["L", 50, 100], ["C", 50, 116, 50, 116, 50, 132]]
    source, target = (20, 20, 60, 20), (20, 132, 60, 20)
    boxes = [source, target, (0, 100, 44, 32), (56, 100, 244, 32)]
    drawing = {
        "width": 300,
        "height": 160,
        "boxes": [dict(zip("xywh", box, strict=True), id=f"b{i}") for i, box in enumerate(boxes)],
        "edges": [{"id": "e", "from": "b0", "to": "b1", "path": path}],
    }
    (label,) = place_labels(drawing, {"e": "0.5"})["labels"]
    assert 40 <= label["y"] and label["y"] + label["h"] <= 100  # beside the run
    assert label["x"] == 54 or label["x"] + label["w"] == 46  # 4 px from the edge
    assert drawing_problems(drawing) == []


# --- generated programs: loops (nested too) of ops on a weight, run under a tape ----------

PROGRAM_OPS = ["h * w", "ek.tanh(h)", "h + x", "ek.sin(h) * 2.0", "h - w * x", "h * h + 1.0"]


@st.composite
def programs(draw, depth=0, indent=8):
    """Lines of a function body: ``h = <op>`` and ``for`` loops of 1 to 5 turns."""
    lines, loops = [], []
    for _ in range(draw(st.integers(1, 3))):
        if depth < 2 and draw(st.booleans()):
            turns = draw(st.integers(1, 5))
            body, inner = draw(programs(depth + 1, indent + 4))
            lines += [" " * indent + f"for _ in range({turns}):", *body]
            loops += [turns, *inner]
        else:
            lines.append(" " * indent + "h = " + draw(st.sampled_from(PROGRAM_OPS)))
    return lines, loops


def run_program(body, number):
    """Run ``body`` as a function in a file of its own (so lines have source), with a
    TapeView listening; the view after ``tape.gradient``."""
    source = "\n".join(
        [
            "def run(ek, TapeView, x, w):",
            "    with ek.GradientTape(persistent=True) as tape:",
            "        view = TapeView(tape)",
            "        tape.watch(x)",
            "        h = x",
            *body,
            "        loss = h * h",
            "    tape.gradient(loss, [x, w])",
            "    return view",
        ]
    )
    name = f"<generated program {number}>"
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    namespace = {}
    exec(compile(source, name, "exec"), namespace)
    return namespace["run"](ek, TapeView, ek.constant(0.3), ek.Variable(0.7, name="w"))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_generated_programs_draw_fold_and_open_well(program):
    body, loops = program
    view = run_program(body, len(linecache.cache))
    for key, state in every_state(view):
        assert drawing_problems(state) == [], key
        assert text_problems(state) == [], key
    ops = [n for n in view.graph["nodes"] if n["type"] == "op"]
    assert all(op["origin"]["code"] for op in ops)  # every record knows its line
    series = [g for g in view.graph["groups"] if g["kind"] == "series"]
    assert bool(series) == any(turns >= 2 for turns in loops)  # a loop, and only a loop
    state = opening(view)
    fits = state["width"] <= FIT_W and state["height"] <= FIT_H
    assert fits or view.drawing["open"] == ""  # whole, or as folded as it gets

"""A traced cond or while_loop in GraphPassView: a box that opens onto its subgraphs, with
what one call runs (the dry run of eagerkit.graph.dry_run) marked taken and the rest greyed."""

import pytest
from eagerkit.widgets import GraphPassView
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.graph.dry_run import call_runs, subgraph_runs

STAGES = [
    "constant folding",
    "dead code elimination",
    "common subexpression elimination",
    "buffer reuse",
    "optimized graph",
]


@ek.function
def shift(x):  # AutoGraph turns the tensor `if` into ek.cond
    if ek.reduce_sum(x) > 0:
        y = ek.tanh(x) * 2.0
    else:
        y = -x
    return y + 1.0


@ek.function
def count_evens(n):  # a while_loop whose body holds a cond
    i = ek.constant(0)
    evens = ek.constant(0.0)
    while i < n:
        if i % 2 == 0:
            evens = evens + 1.0
        i = i + 1
    return evens


def _branches(function, x):
    concrete = function.get_concrete_function(x)
    [cond] = [node for node in concrete.graph.ops if node.name == "cond"]
    return concrete, cond.params["subgraphs"]


def _control_box(stage, key):
    [box] = [node for node in stage["layouts"][key]["nodes"] if node["control"]]
    return box


@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(-5, 5, width=32), min_size=2, max_size=2))
def test_the_dry_run_takes_the_branch_the_call_takes(values):
    x = ek.constant(values)
    concrete, branches = _branches(shift, ek.constant([1.0, 1.0]))  # one trace for all
    runs = call_runs(concrete, [x], {})
    taken = "true branch" if sum(values) > 0 else "false branch"
    assert {role: runs[id(sub)] for role, sub in branches.items()} == {
        role: int(role == taken) for role in branches
    }
    expected = (ek.tanh(x) * 2.0 if taken == "true branch" else -x) + 1.0
    assert shift(x).numpy().tolist() == expected.numpy().tolist()  # as the real call


@pytest.mark.parametrize("n", [0, 1, 2, 5, 8])
def test_the_dry_run_counts_a_loops_turns_and_the_branches_inside(n):
    concrete = count_evens.get_concrete_function(ek.constant(n))
    [loop] = [node for node in concrete.graph.ops if node.name == "while_loop"]
    test, body = loop.params["subgraphs"]["test"], loop.params["subgraphs"]["body"]
    [cond] = [node for node in body.graph.ops if node.name == "cond"]
    true, false = cond.params["subgraphs"].values()
    runs = call_runs(concrete, [ek.constant(n)], {})
    assert (runs[id(test)], runs[id(body)]) == (n + 1, n)  # a test before every turn, and the last
    assert (runs[id(true)], runs[id(false)]) == ((n + 1) // 2, n // 2)
    assert count_evens(ek.constant(n)).numpy() == (n + 1) // 2


def test_no_dry_run_of_a_graph_with_effects_or_without_values():
    @ek.function
    def loud(x):
        return ek.cond(x > 0, lambda: ek.identity(ek.print("positive") or x), lambda: -x)

    concrete = loud.get_concrete_function(ek.constant(1.0))
    assert subgraph_runs(concrete.graph, [ek.constant(1.0).numpy()]) is None  # would print
    concrete = shift.get_concrete_function(ek.constant([1.0, 1.0]))
    assert call_runs(concrete, [ek.TensorSpec([2], ek.float32)], {}) is None
    assert call_runs(concrete, [], {}) is None


@pytest.mark.parametrize(("values", "taken"), [([1.0, 2.0], "true"), ([1.0, -2.0], "false")])
def test_every_stage_draws_the_cond_closed_and_open_with_the_branch_the_call_took(values, taken):
    view = GraphPassView(shift, ek.constant(values))
    skipped = "false" if taken == "true" else "true"
    assert [stage["title"] for stage in view.stages] == STAGES  # the stepping order
    assert view.runs_known
    for stage in view.stages:  # stepping keeps the cond, its name and what the call took
        assert stage["control"] == ["%4"] and list(stage["layouts"]) == ["%4"]
        [closed] = [node for node in stage["drawing"]["nodes"] if node["control"]]
        assert (closed["label"], closed["type"]) == ("%4 cond ▸", f"took the {taken} branch")
        assert "panels" not in closed
        box = _control_box(stage, "%4")
        assert box["label"] == "%4 cond ▾"
        states = {p["role"]: (p["title"], p["state"]) for p in box["panels"]}
        assert states == {
            f"{taken} branch": (f"{taken} branch: taken", "taken"),
            f"{skipped} branch": (f"{skipped} branch: not taken", "not-taken"),
        }
        inner = {p["role"]: [n["label"] for n in p["drawing"]["nodes"]] for p in box["panels"]}
        assert inner["true branch"] == ["from %0", "tanh", "constant", "multiply"]
        assert inner["false branch"] == ["from %0", "negative"]
        _check_geometry(stage["layouts"]["%4"])


def test_a_loop_opens_onto_its_test_and_body_and_the_cond_inside_it():
    view = GraphPassView(count_evens, ek.constant(5))
    box = _control_box(view.stages[-1], view.stages[-1]["control"][0])
    assert box["control"] == "while_loop" and box["type"] == "5 iterations"
    test, body = box["panels"]
    assert (test["title"], body["title"]) == ("test: ran 6×", "body: 5 iterations")
    assert [n["label"] for n in test["drawing"]["nodes"]][-1] == "less"
    [cond] = [node for node in body["drawing"]["nodes"] if node["control"]]
    assert cond["type"] == "true ×3, false ×2"  # once per turn of the loop
    assert [p["title"] for p in cond["panels"]] == [
        "true branch: taken 3 of 5",
        "false branch: taken 2 of 5",
    ]
    _check_geometry(view.stages[-1]["layouts"][view.stages[-1]["control"][0]])
    zero = _control_box(GraphPassView(count_evens, ek.constant(0)).stages[-1], "%4")
    assert [p["state"] for p in zero["panels"]] == ["taken", "not-taken"]  # the body never ran


@ek.function
def clipped_sign(x):  # a cond inside a branch of a cond
    if x > 0:
        if x > 10:
            y = x * 0.0 + 2.0
        else:
            y = x * 0.0 + 1.0
    else:
        y = -ek.tanh(x)
    return y


@pytest.mark.parametrize(
    ("x", "outer", "inner"),
    [
        (3.0, ["taken", "not-taken"], ("took the false branch", ["not-taken", "taken"])),
        (30.0, ["taken", "not-taken"], ("took the true branch", ["taken", "not-taken"])),
        (-3.0, ["not-taken", "taken"], ("not run by this call", ["not-taken", "not-taken"])),
    ],
)
def test_a_cond_inside_a_branch_opens_with_it_and_says_what_the_call_ran(x, outer, inner):
    stage = GraphPassView(clipped_sign, ek.constant(x)).stages[0]
    box = _control_box(stage, "%3")
    assert [p["state"] for p in box["panels"]] == outer
    [nested] = [n for n in box["panels"][0]["drawing"]["nodes"] if n["control"]]
    assert nested["label"] == "cond ▾" and nested["type"] == inner[0]  # open with its parent
    assert [p["state"] for p in nested["panels"]] == inner[1]
    assert [n["label"] for n in nested["panels"][0]["drawing"]["nodes"]][0] == "from %0"
    _check_geometry(stage["layouts"]["%3"])


def test_a_concrete_function_alone_shows_both_branches_unmarked():
    view = GraphPassView(shift.get_concrete_function(ek.constant([1.0, 1.0])))
    assert not view.runs_known
    box = _control_box(view.stages[0], "%4")
    assert [(p["title"], p["state"]) for p in box["panels"]] == [
        ("true branch", "unknown"),
        ("false branch", "unknown"),
    ]


def test_many_conds_open_together_and_up_to_three_in_every_combination():
    def chain(count):
        def f(x):
            for _ in range(count):  # a Python loop: unrolled, one cond per turn
                x = ek.cond(ek.reduce_sum(x) > 0, lambda x=x: x - 1.0, lambda x=x: x + 1.0)
            return x

        return ek.function(f)

    three = GraphPassView(chain(3), ek.constant(0.5)).stages[0]
    assert len(three["control"]) == 3 and len(three["layouts"]) == 7  # 2**3 - 1 open states
    four = GraphPassView(chain(4), ek.constant(0.5)).stages[0]
    assert list(four["layouts"]) == [",".join(sorted(four["control"]))]  # all open at once
    for drawing in four["layouts"].values():
        _check_geometry(drawing)


def _check_geometry(drawing, at=(0, 0)):
    """Every box inside its drawing, no two overlapping; each open box's panels apart from
    each other inside it, below its title, each panel's drawing inside the panel."""
    boxes = drawing["nodes"]
    for a in boxes:
        assert 0 <= a["x"] and a["x"] + a["w"] <= drawing["width"]
        assert 0 <= a["y"] and a["y"] + a["h"] <= drawing["height"]
        for b in boxes:
            if a is not b:
                apart = a["x"] + a["w"] <= b["x"] or b["x"] + b["w"] <= a["x"]
                assert apart or a["y"] + a["h"] <= b["y"] or b["y"] + b["h"] <= a["y"]
        panels = a.get("panels", [])
        for first, then in zip(panels, panels[1:], strict=False):  # side by side, or stacked
            assert first["x"] + first["w"] < then["x"] or first["y"] + first["h"] < then["y"]
        for panel in panels:
            assert panel["x"] > 0 and panel["x"] + panel["w"] < a["w"]
            assert panel["y"] >= 20 and panel["y"] + panel["h"] < a["h"]
            inner = panel["drawing"]
            assert inner["width"] <= panel["w"] and 22 + inner["height"] <= panel["h"]
            _check_geometry(inner)
    for edge in drawing["edges"]:
        assert all(0 <= x <= drawing["width"] for x, _ in edge["points"])

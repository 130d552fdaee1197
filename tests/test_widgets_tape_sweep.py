"""The reverse sweep as a folded tape view shows it: a folded group's gradients, on its
box and on its edges, as the same records show them unfolded."""

import pytest
from eagerkit.widgets.tape_view.boxes import grad_text
from tape_corpus import CORPUS


def sent_edges(view):
    """The graph's edges the sweep sent a gradient along."""
    return {g["edge"] for s in view.graph["backward"] for g in s["grads"] if g.get("edge")}


def test_a_folded_step_shows_the_gradient_of_each_value_it_hands_on():
    view = CORPUS["char_rnn_two_steps"]()
    nodes = {n["id"]: n for n in view.graph["nodes"]}
    labels = {n["label"]: n for n in view.graph["nodes"] if n["type"] == "tensor"}
    folded = view.drawing["states"][""]  # every group folded
    step_1 = next(b for b in folded["boxes"] if "logits_1, h1 = " in b["lines"][0])
    assert [g["prefix"] for g in step_1["grads"]] == ["grad h1: ", "grad logits_1: "]
    assert [g["node"] for g in step_1["grads"]] == [labels["h1"]["id"], labels["logits_1"]["id"]]
    expected = [grad_text(nodes[g["node"]], g["prefix"]) for g in step_1["grads"]]
    assert step_1["grad_texts"] == expected and all(t.count("[[") == 1 for t in expected)
    # Step 2 hands on only its logits (h2 dies inside it): one plain line, as a tensor has.
    step_2 = next(b for b in folded["boxes"] if "logits_2, h2 = " in b["lines"][0])
    assert [g["prefix"] for g in step_2["grads"]] == ["grad: "]
    assert step_2["grad_texts"] == [grad_text(labels["logits_2"])]


@pytest.mark.parametrize("name", ["char_rnn_two_steps", "mlp_step", "char_rnn_window"])
def test_the_edges_the_gradient_flowed_along_are_labelled_folded_as_unfolded(name):
    view = CORPUS[name]()
    sent = sent_edges(view)
    assert sent
    single = {}  # a drawn edge that stands for one graph edge: its label, in any state
    for key, state in view.drawing["states"].items():
        texts = {label["edge"]: label["text"] for label in state["labels"]}
        carrying = {e["id"] for e in state["edges"] if sent & set(e["ids"])}
        assert set(texts) <= carrying, key  # a label only where a gradient flowed
        if key in ("", view.drawing["open"]):  # all folded, and as the view opens: all
            assert set(texts) == carrying, key
        # (deeper unfoldings may crowd a gap: an edge with no room near it gets no label)
        for edge in state["edges"]:
            if len(edge["ids"]) == 1 and edge["id"] in texts:
                assert single.setdefault(edge["ids"][0], texts[edge["id"]]) == texts[edge["id"]]


def test_a_group_handing_on_many_values_shows_no_gradient_line():
    # A loop over 24 time steps hands on 24 logits: no line for each (its summary names
    # them; unfolding it shows each step's).
    view = CORPUS["char_rnn_window"]()
    opening = view.drawing["states"][view.drawing["open"]]
    loop = next(b for b in opening["boxes"] if b["lines"][0].endswith("×24"))
    assert loop["grads"] == [] and loop["grad_texts"] == []
    heights = {len(b["lines"]) + len(b["grads"]): b["h"] for b in opening["boxes"]}
    assert all(h == 8 + 15 * lines for lines, h in heights.items())


def test_a_box_gradient_line_matches_the_sum_of_the_sweep():
    # The state handed on by step 1 (h1) gets two contributions: through step 2 and through
    # its own logits; the box shows their sum, the one tape.gradient returns.
    view = CORPUS["char_rnn_two_steps"]()
    h1 = next(n for n in view.graph["nodes"] if n.get("label") == "h1")
    contributions = [g for s in view.graph["backward"] for g in s["grads"] if g["node"] == h1["id"]]
    assert [g["count"] for g in contributions] == [1, 2]
    assert h1["grad"] == contributions[-1]["total"]

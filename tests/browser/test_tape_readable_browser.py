"""Big tapes open readable, in a real JupyterLab in Debian's chromium, at 1280x720 (a
laptop, JupyterLab's file browser open) and at 1920x1080.

tape_corpus_demo.ipynb shows every tape of the test corpus, the ones issue 17 found
unreadable among them (a 20-step RNN unrolled by hand, an MLP step, lesson 15's model on a
24-character window, a 300-record chain whose input feeds every step). For each, as the
browser drew it: all text at
9 px or more, the whole drawing in view (nothing cut off), the widget no taller than the
notebook's area, the repeated structure folded, the drawing's invariants. Then, on the
RNN: stepping forwards and backwards, a gradient that adds up use by use, unfolding the
loop in place (its weights as proxies beside each use), zooming about the centre and
panning with the minimap. Screenshots go to test-artifacts/ for a human to look at.
"""

import os
import re
import sys
from pathlib import Path

import pytest
from pages import KERNEL_WAIT_MS, SEVERAL_WAITS_S, recorded_page, settle
from test_tape_view_browser import check_drawing
from test_widgets_browser import WIDGET_ERRORS, _assert_offline, _run_all_cells, _shot

sys.path.insert(0, str(Path(__file__).parents[1]))
from tape_corpus import BIG, CORPUS  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.timeout(SEVERAL_WAITS_S)]
os.environ["EAGERKIT_TESTS_DIR"] = str(Path(__file__).parents[1])  # the kernel imports from it
NOTEBOOK = "tape_corpus_demo.ipynb"
TAPES = list(CORPUS)  # the notebook shows them all, in this order
WINDOWS = [(1280, 720), (1920, 1080)]

# What the reader sees: the zoom, the part of the drawing in view, each text's size in
# screen pixels, the widget's height and the notebook area's.
SEEN = """(root) => {
  const svg = root.querySelector("svg.ek-graph");
  const zoom = Number(svg.dataset.zoom);
  const texts = [...svg.querySelectorAll("text")].filter((t) => t.textContent);
  const sizes = texts.map((t) => parseFloat(getComputedStyle(t).fontSize) * zoom);
  const box = svg.viewBox.baseVal;
  let area = window.innerHeight;
  for (let n = root.parentElement; n; n = n.parentElement) {
    const o = getComputedStyle(n).overflowY;
    if ((o === "auto" || o === "scroll") && n.clientHeight > 0) area = n.clientHeight;
  }
  return {zoom, smallest: Math.min(...sizes), view: [box.x, box.y, box.width, box.height],
          width: Number(svg.dataset.width), height: Number(svg.dataset.height),
          widget: root.getBoundingClientRect().height, area,
          groups: root.querySelectorAll("g.ek-group").length, state: root.dataset.state};
}"""


@pytest.fixture(scope="module")
def notebook(lab, browser):
    """The demo notebook, run: one page, its window resized for each size."""
    url, token, _ = lab
    page = recorded_page(browser, f"{url}/lab/tree/{NOTEBOOK}?reset&token={token}", WINDOWS[0])
    _run_all_cells(page)
    page.wait_for_function(
        "(n) => document.querySelectorAll('.eagerkit-tape svg.ek-graph').length >= n",
        arg=len(TAPES),
        timeout=KERNEL_WAIT_MS,
    )
    yield page
    page.context.close()


def _at(page, size):
    page.set_viewport_size({"width": size[0], "height": size[1]})
    settle(page, frames=10)  # the views fit themselves to their cells' new width
    return page


@pytest.mark.parametrize("size", WINDOWS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_tape_opens_whole_readable_and_folded(notebook, size):
    page = _at(notebook, size)
    assert not any(message in page.inner_text(".jp-NotebookPanel") for message in WIDGET_ERRORS)
    tapes = page.locator(".eagerkit-tape")
    smallest = {}
    for i, name in enumerate(TAPES):
        tape = tapes.nth(i)
        tape.scroll_into_view_if_needed()
        seen = tape.evaluate(SEEN)
        smallest[name] = round(seen["smallest"], 2)
        assert seen["smallest"] >= 9, (name, seen)  # the 10 px font at 90% or more
        x, y, w, h = seen["view"]  # the whole drawing is in view: nothing cut off
        assert x <= 0.5 and y <= 0.5, (name, seen)
        assert x + w >= seen["width"] - 0.5 and y + h >= seen["height"] - 0.5, (name, seen)
        assert seen["widget"] <= seen["area"], (name, seen)  # it fits the notebook's area
        if name in BIG:
            assert seen["groups"] >= 1, (name, seen)  # what repeats is folded
        check_drawing(tape, name)
        _shot(tape, f"readable_{name}_{size[0]}x{size[1]}.png")
    print(f"smallest text at {size[0]}x{size[1]}: {smallest}")  # for the report
    assert page.problems == []
    _assert_offline(page.requests)


def test_stepping_unfolding_and_zooming_a_folded_loop(notebook):
    page = _at(notebook, (1280, 720))
    tape = page.locator(".eagerkit-tape").nth(TAPES.index("hand_unrolled_rnn"))
    tape.scroll_into_view_if_needed()
    series = tape.locator("g.ek-group").first
    assert "×20" in series.text_content()
    # Forward: the folded loop is one step; the reverse sweep too.
    tape.locator(".ek-next").click()
    assert tape.get_attribute("data-current") == series.get_attribute("data-id")
    assert "82 records folded into one step" in tape.locator(".ek-info").inner_text()
    _shot(tape, "rnn_folded_forward.png")
    while tape.get_attribute("data-phase") != "backward":
        tape.locator(".ek-next").click()
    _shot(tape, "rnn_folded_backward.png")
    # Unfold the loop in place: 20 iterations, each weight drawn as a proxy at every use.
    series.click()
    page.wait_for_function(
        "(el) => el.querySelectorAll('g.ek-group').length >= 20",
        arg=tape.element_handle(),
        timeout=KERNEL_WAIT_MS,
    )
    assert tape.locator("g.ek-proxy").count() == 40
    check_drawing(tape, "rnn_unfolded")
    seen = tape.evaluate(SEEN)
    assert seen["smallest"] >= 9  # too tall to show whole: readable, with the minimap
    assert tape.locator(".ek-minimap").get_attribute("data-shown") == "true"
    _shot(tape, "rnn_unfolded_open.png")
    # The reverse sweep adds w_h's gradient up, one use at a time.
    w_h = tape.locator("g.ek-leaf", has_text="w_h").locator("text.ek-grad")
    grads = []
    while tape.get_attribute("data-phase") != "backward":
        tape.locator(".ek-next").click()
    for _ in range(25):
        tape.locator(".ek-next").click()
        grads.append(w_h.text_content())
    partial = [g for g in grads if re.fullmatch(r"grad: \S+ \(\d+/20\)", g)]
    counts = [int(re.search(r"\((\d+)/20\)", g).group(1)) for g in partial]
    assert len(set(counts)) >= 5 and counts == sorted(counts), grads  # it grows, step by step
    _shot(tape, "rnn_unfolded_backward.png")
    tape.locator(".ek-prev").click()  # and steps back
    assert tape.get_attribute("data-phase") == "backward"
    # Zoom about the centre: the drawing's point at the centre of the view stays there.
    before = _centre(tape)
    tape.locator(".ek-zoom-in").click()
    after = _centre(tape)
    assert abs(before[0] - after[0]) < 1 and abs(before[1] - after[1]) < 1
    assert float(tape.locator("svg.ek-graph").get_attribute("data-zoom")) > 0.9
    _shot(tape, "rnn_zoomed_in.png")
    # The minimap moves the view; folding again goes back to one box.
    minimap = tape.locator(".ek-minimap")
    box = minimap.bounding_box()
    view_box = tape.locator("svg.ek-graph").get_attribute("viewBox")
    minimap.click(position={"x": box["width"] / 2, "y": box["height"] - 4})
    assert tape.locator("svg.ek-graph").get_attribute("viewBox") != view_box
    tape.locator(".ek-fold.ek-open").click()
    assert tape.locator("g.ek-group").count() == 1
    assert page.problems == []


def _centre(tape):
    x, y, w, h = map(float, tape.locator("svg.ek-graph").get_attribute("viewBox").split())
    return x + w / 2, y + h / 2


def test_the_sweep_shows_a_folded_steps_gradients_on_its_box_and_edges(notebook):
    # Lesson 15's tape: the first time step, folded, hands on its state h1 and its logits.
    page = _at(notebook, (1280, 720))
    tape = page.locator(".eagerkit-tape").nth(TAPES.index("char_rnn_two_steps"))
    tape.scroll_into_view_if_needed()
    tape.locator(".ek-fold.ek-open").click()  # it opens on step 1 unfolded: fold it
    step_1 = tape.locator("g.ek-group", has_text="logits_1, h1 = ")
    lines = step_1.locator("text.ek-grad")
    assert lines.count() == 2
    final = [line.text_content() for line in lines.all()]  # the overview: the final sums
    tape.locator(".ek-next").click()
    assert [line.text_content() for line in lines.all()] == ["", ""]  # forward: no gradient
    for _ in range(int(tape.get_attribute("data-steps"))):  # the rest of it, then the sweep
        tape.locator(".ek-next").click()
        if tape.get_attribute("data-phase") == "backward":
            if tape.get_attribute("data-current") == step_1.get_attribute("data-id"):
                break  # step 1's turn in the sweep
    texts = [line.text_content() for line in lines.all()]
    assert tape.get_attribute("data-current") == step_1.get_attribute("data-id")
    assert texts[0].startswith("grad h1: [[") and texts[1].startswith("grad logits_1: [["), texts
    assert texts == final  # step 1 is the last the sweep reaches: its sums are complete
    # Its edges carry the gradient, labelled, as an unfolded step's do.
    leaving = tape.locator(f"path.ek-edge[data-from='{step_1.get_attribute('data-id')}']")
    assert leaving.count() == 2
    for edge in leaving.all():
        assert "ek-edge-grad" in edge.get_attribute("class")
        label = tape.locator(f"g.ek-label[data-edge='{edge.get_attribute('data-id')}']")
        assert "ek-shown" in label.get_attribute("class") and label.text_content().startswith("[[")
    _shot(tape, "two_steps_folded_backward.png")
    assert page.problems == []


@pytest.mark.parametrize(
    "name, parts",
    [
        (
            "bidirectional_lstm",
            ["forward_layer (LSTM)70 records", "backward_layer (LSTM)70 records"],
        ),
        ("self_attention", [f"multi_head_attention/{p} (E" for p in ("query", "key", "value")]),
    ],
)
def test_a_keras_layer_unfolds_into_its_own_layers(notebook, name, parts):
    """A Bidirectional LSTM opens as its two LSTMs, MultiHeadAttention as its projections,
    each folded again and readable."""
    page = _at(notebook, (1280, 720))
    tape = page.locator(".eagerkit-tape").nth(TAPES.index(name))
    tape.scroll_into_view_if_needed()
    folded = [g.text_content() for g in tape.locator("g.ek-group").all()]
    tape.locator("g.ek-group").first.click()
    settle(page, frames=10)
    groups = [g.text_content() for g in tape.locator("g.ek-group").all()]
    for part in parts:
        assert any(g.startswith(f"▸ {part}") for g in groups), (part, groups)
    seen = tape.evaluate(SEEN)
    assert seen["smallest"] >= 9 and seen["widget"] <= seen["area"], seen
    check_drawing(tape, f"{name}_unfolded")
    _shot(tape, f"readable_{name}_unfolded_1280x720.png")
    tape.locator(".ek-fold.ek-open").first.click()  # and folds back into one box
    settle(page, frames=10)
    assert [g.text_content() for g in tape.locator("g.ek-group").all()] == folded
    assert page.problems == []


def test_a_recorded_backward_pass_unfolds_into_its_ops(notebook):
    """Double backpropagation's outer tape holds the inner sweep folded: one click shows
    its records, the cross-entropy's gradient as one op (TF's backprop) and the matmul."""
    page = _at(notebook, (1280, 720))
    tape = page.locator(".eagerkit-tape").nth(TAPES.index("double_backpropagation"))
    tape.scroll_into_view_if_needed()
    folded = tape.locator("g.ek-group", has_text="inner.gradient(loss, x)")
    assert "2 records" in folded.text_content()
    folded.click()
    page.wait_for_function(
        "(el) => el.textContent.includes('sparse_softmax_cross_entropy_grad')",
        arg=tape.element_handle(),
        timeout=KERNEL_WAIT_MS,
    )
    check_drawing(tape, "double_backpropagation_unfolded")
    seen = tape.evaluate(SEEN)
    assert seen["smallest"] >= 9, seen
    _shot(tape, "double_backpropagation_unfolded.png")
    assert page.problems == []

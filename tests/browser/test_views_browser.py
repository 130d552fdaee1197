"""The live views and the graph-pass view in a real JupyterLab, in Debian's chromium.

views_demo.ipynb shows a GradientFlow before its training loop, trains under a
LossCurve, draws a 2-epoch curve and steps an ek.function's passes. The checks read what a
student reads: tick labels, axis names, the colour bar's words, the hover read-out, the
pass titles and numbers. Screenshots go to test-artifacts/ for a human to look at.
"""

import re

import pytest
from eagerkit.widgets import GraphPassView, LossCurve
from pages import KERNEL_WAIT_MS, recorded_page, settle
from playwright.sync_api import expect
from test_widgets_browser import (
    WIDGET_ERRORS,
    _assert_offline,
    _run_all_cells,
    _shot,
    _wait_for,
    _wait_until_all_ran,
)

import eagerkit as ek

pytestmark = pytest.mark.browser


@pytest.fixture
def page(lab, browser):
    url, token, _ = lab
    page = recorded_page(browser, f"{url}/lab/tree/views_demo.ipynb?reset&token={token}")
    yield page
    page.context.close()


def _tick_labels(locator):
    return [t.strip() for t in locator.all_text_contents()]


def _show_the_flow_then_train(page):
    """Run All, but wait for the browser to draw the GradientFlow (cell 1) before the
    training cell runs: its live messages are sent while the loop trains, so its view must
    exist by then, and a busy machine can draw an output seconds after its cell ran (one
    batch run waited 8 minutes for messages sent before the view was there)."""
    _run_all_cells(page, first_cells=2)
    _wait_for(page, ".eagerkit-flow")
    page.evaluate(
        """() => {
            window.jupyterapp.commands
                .execute('notebook:run-all-below')
                .then(() => { window.eagerkitRanAll = true; });
        }"""
    )


def test_live_views_read_well_and_the_passes_step(page):
    _show_the_flow_then_train(page)
    flow = page.locator(".eagerkit-flow").first
    # Shown before the loop, the flow fills in while the loop runs (live messages).
    page.wait_for_function(
        "() => Number(document.querySelector('.eagerkit-flow').dataset.messages) >= 2",
        timeout=KERNEL_WAIT_MS,
    )
    _wait_for(page, ".eagerkit-passes .ek-node", count=5)
    _wait_for(page, ".eagerkit-loss svg.ek-panel", count=3)
    # A run's view is drawn again from its final history when the run ends: read it after.
    _wait_until_all_ran(page)
    assert not any(text in page.content() for text in WIDGET_ERRORS)

    _check_flow(flow)
    curves = page.locator(".eagerkit-loss")
    _check_curve(curves.nth(0), page)
    _check_short_curve(curves.nth(1))
    _check_passes(page.locator(".eagerkit-passes").first, page)
    assert page.problems == []
    _assert_offline(page.requests)


def _check_flow(flow):
    assert flow.locator(".ek-layer-name").all_inner_texts() == ["hidden", "logits"]
    assert int(flow.get_attribute("data-steps")) == 200
    bar = flow.locator("svg.ek-colour-bar")
    assert bar.count() == 1 and bar.locator("text.ek-tick").count() >= 2
    assert "brighter = larger" in flow.locator(".ek-scale").inner_text()
    steps = _tick_labels(flow.locator("svg.ek-step-axis text.ek-tick"))
    assert steps == ["50", "100", "150", "200"]  # 200 steps, numbered from 1
    assert "training step" in flow.locator("svg.ek-step-axis").text_content()
    _shot(flow, "views_gradient_flow.png")


def _check_curve(curve, page):
    loss = curve.locator("svg.ek-panel[data-panel=loss]")
    assert _tick_labels(loss.locator("text.ek-tick-x")) == ["0", "2", "4", "6", "8"]
    assert loss.locator("text.ek-axis-label").text_content() == "epoch"
    accuracy = curve.locator("svg.ek-panel[data-panel=accuracy]")
    labels = _tick_labels(accuracy.locator("text.ek-tick-y"))
    assert labels == ["0.2", "0.4", "0.6", "0.8"], labels
    loss.scroll_into_view_if_needed()
    box = loss.bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.55, box["y"] + box["height"] * 0.5)
    hover = curve.locator(".ek-hover:not([hidden])")
    hover.wait_for(state="visible")
    text = hover.inner_text()
    assert re.match(r"epoch \d\n", text) and "loss" in text and "val_loss" in text, text
    _shot(curve, "views_loss_curve_hover.png")
    page.mouse.move(0, 0)
    slider = curve.locator(".ek-smoothing")
    slider.fill("0.6")
    assert slider.evaluate("(input) => input.value") == "0.6"
    # The kernel hears the log box and redraws the saved picture, so the output (view and
    # all) is drawn anew: wait for the new view, which keeps the smoothing chosen before.
    curve.evaluate("(root) => { root.dataset.before = 'log'; }")
    curve.locator(".ek-log").check()
    page.wait_for_function(
        "() => document.querySelector('.eagerkit-loss').dataset.before === undefined",
        timeout=KERNEL_WAIT_MS,
    )
    settle(page)
    assert curve.locator(".ek-smoothing").input_value() == "0.6"
    loss = curve.locator("svg.ek-panel[data-panel=loss]")
    label = loss.locator("text.ek-axis-label")
    expect(label).to_contain_text("log scale", timeout=KERNEL_WAIT_MS)
    labels = _tick_labels(loss.locator("text.ek-tick-y"))
    assert labels and all(re.fullmatch(r"0\.0?[125]|[125]", label) for label in labels), labels
    _shot(curve, "views_loss_curve_log_smoothed.png")


def _check_short_curve(curve):
    assert _tick_labels(curve.locator("text.ek-tick-x")) == ["0", "1"]
    assert curve.locator("circle.ek-dot").count() == 2  # one dot per epoch
    labels = _tick_labels(curve.locator("text.ek-tick-y"))
    assert "0.0715" not in labels and all(len(label) <= 4 for label in labels), labels
    _shot(curve, "views_loss_curve_2_epochs.png")


def _check_passes(view, page):
    titles, saved = [], []
    for stage in range(5):
        titles.append(view.locator(".ek-stage-title").inner_text())
        saved.append(view.locator(".ek-saved").inner_text())
        _shot(view, f"views_passes_{stage}.png")
        if stage == 0:
            assert view.locator("g.ek-mark-folded").count() == 1  # constant(1.0) + 1.0
        if stage == 1:
            assert view.locator("g.ek-mark-removed").count() >= 1  # exp(x), unused
        if stage == 2:
            assert view.locator("g.ek-mark-merged").count() == 1  # the second tanh(x)
        if stage < 4:
            view.locator(".ek-next").click()
    assert view.locator(".ek-next").is_disabled()
    assert titles[0] == "pass 1 of 4: constant folding"
    assert titles[-1].startswith("the optimized graph")
    assert saved[1] == "saves 400 B of arrays per call"  # exp of 100 float32 values
    view.focus()
    page.keyboard.press("ArrowLeft")
    assert view.locator(".ek-stage-title").inner_text() == "pass 4 of 4: buffer reuse"


def test_saved_pages_of_the_views_step_and_read_out_offline(browser, tmp_path):
    def f(x):
        return ek.tanh(x) * (ek.constant(1.0) + 1.0) + ek.tanh(x)

    GraphPassView(ek.function(f), ek.zeros([10])).save_html(tmp_path / "passes.html")
    curve = LossCurve(title="saved", x="epoch")
    for epoch in range(5):
        curve.log(epoch, loss=1.0 / (epoch + 1))
    curve.flush(final=True)
    curve.save_html(tmp_path / "curve.html")

    context = browser.new_context(viewport={"width": 1000, "height": 700}, offline=True)
    context.set_default_timeout(KERNEL_WAIT_MS)
    page = context.new_page()
    page.goto((tmp_path / "passes.html").as_uri())
    page.wait_for_selector("body[data-ready=true] .eagerkit-passes g.ek-node")
    title = page.locator(".ek-stage-title")
    assert title.inner_text() == "pass 1 of 4: constant folding"
    page.locator(".ek-next").click()
    assert title.inner_text() == "pass 2 of 4: dead code elimination"
    page.goto((tmp_path / "curve.html").as_uri())
    page.wait_for_selector("body[data-ready=true] svg.ek-panel")
    assert _tick_labels(page.locator("text.ek-tick-x")) == ["0", "1", "2", "3", "4"]
    box = page.locator("svg.ek-panel").bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.5)
    hover = page.locator(".ek-hover:not([hidden])")
    hover.wait_for(state="visible")
    assert hover.inner_text().startswith("epoch 2\nloss 0.3333")
    context.close()


def test_a_traced_python_loop_scrolls_inside_a_laptop_screen(browser, tmp_path):
    """600 ops of an unrolled loop: the graph scrolls in its box, and the whole view fits a
    1280x720 screen (it made the notebook thousands of pixels long)."""

    def unrolled(x):
        for _ in range(200):
            x = ek.tanh(x) * 0.9 + 0.1
        return x

    GraphPassView(ek.function(unrolled), ek.ones([3])).save_html(tmp_path / "loop.html")
    context = browser.new_context(viewport={"width": 1280, "height": 720}, offline=True)
    context.set_default_timeout(KERNEL_WAIT_MS)
    page = context.new_page()
    page.goto((tmp_path / "loop.html").as_uri())
    page.wait_for_selector("body[data-ready=true] .eagerkit-passes g.ek-node")
    box = page.locator(".ek-graph-box")
    inner, outer = box.evaluate("b => [b.scrollHeight, b.clientHeight]")
    assert inner > 10 * outer and outer <= 0.7 * 720 + 1
    assert page.locator(".ek-header").bounding_box()["y"] >= 0
    assert box.bounding_box()["y"] + box.bounding_box()["height"] <= 720
    GraphPassView(ek.function(lambda x: ek.tanh(x) * 0.9 + 0.1), ek.ones([3])).save_html(
        tmp_path / "short.html"
    )
    page.goto((tmp_path / "short.html").as_uri())
    page.wait_for_selector("body[data-ready=true] .eagerkit-passes g.ek-node")
    inner, outer = page.locator(".ek-graph-box").evaluate("b => [b.scrollHeight, b.clientHeight]")
    assert inner == outer  # a short graph is shown whole, with no scrolling of its own
    context.close()

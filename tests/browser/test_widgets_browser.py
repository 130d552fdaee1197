"""The widgets in a real JupyterLab, in Debian's chromium, with no network beyond 127.0.0.1.

One test runs the whole demo notebook (it is slow to start a server and a kernel), then
checks every widget: it rendered (no error text, no console errors), the tape steps
forwards and backwards in the browser, the live views drew their final points. It saves
screenshots to test-artifacts/ for a human to look at.
"""

import time
from pathlib import Path
from urllib.parse import urlparse

import pytest
from eagerkit.widgets.loss_curve.snapshot import validation_colour
from pages import KERNEL_WAIT_MS, SEVERAL_WAITS_S, recorded_page, settle

ARTIFACTS = Path(__file__).parents[2] / "test-artifacts"  # gitignored
pytestmark = [pytest.mark.browser, pytest.mark.timeout(SEVERAL_WAITS_S)]

WIDGET_ERRORS = ["Error displaying widget", "Click to show javascript error"]


@pytest.fixture
def page(lab, browser):
    """A notebook page with every request and console error recorded."""
    url, token, _ = lab
    page = recorded_page(browser, f"{url}/lab/tree/widgets_demo.ipynb?reset&token={token}")
    yield page
    page.context.close()


def _run_all_cells(page, first_cells=None):
    """Run every cell (Run All), or with ``first_cells`` only that many from the top, which
    leaves the next cell active (for notebook:run-all-below)."""
    page.wait_for_selector(".jp-NotebookPanel", timeout=KERNEL_WAIT_MS)
    # Wait for the kernel once, then run everything (Run All has no default shortcut).
    page.wait_for_function(
        """() => {
            const panel = window.jupyterapp.shell.currentWidget;
            const session = panel && panel.sessionContext;
            return session && session.isReady && session.session.kernel.status === 'idle';
        }""",
        timeout=KERNEL_WAIT_MS,
    )
    # Do not await the command: it resolves only when every cell has finished, which
    # _wait_until_all_ran waits for (the tests read live views while cells still run).
    if first_cells is not None:
        page.evaluate(
            """async (count) => {
                window.eagerkitRanAll = false;
                for (let i = 0; i < count; i++) {
                    await window.jupyterapp.commands.execute('notebook:run-cell-and-select-next');
                }
            }""",
            first_cells,
        )
        return
    page.evaluate(
        """() => {
            window.eagerkitRanAll = false;
            window.jupyterapp.commands
                .execute('notebook:run-all-cells')
                .then(() => { window.eagerkitRanAll = true; });
        }"""
    )


def _wait_until_all_ran(page):
    """Wait until Run All has finished every cell, then for the views' last redraw."""
    page.wait_for_function("() => window.eagerkitRanAll === true", timeout=KERNEL_WAIT_MS)
    settle(page)


def _wait_for(page, selector, count=1, timeout=KERNEL_WAIT_MS):
    try:
        page.wait_for_function(
            "([sel, n]) => document.querySelectorAll(sel).length >= n",
            arg=[selector, count],
            timeout=timeout,
        )
    except Exception as error:  # show what the browser said, not only "timeout"
        raise AssertionError(
            f"{selector} x{count} never appeared; browser problems: {page.problems}"
        ) from error


def _element(page, selector):
    _wait_for(page, selector)
    return page.query_selector(selector)


def _shot(locator, name):
    ARTIFACTS.mkdir(exist_ok=True)
    locator.scroll_into_view_if_needed()
    locator.screenshot(path=str(ARTIFACTS / name))


def test_every_widget_renders_and_steps_offline(page):
    _run_all_cells(page)
    _wait_for(page, ".eagerkit-tape svg g.ek-node", count=1)
    _wait_for(page, ".eagerkit-tape", count=3)
    # While the training cells still run, points stream in (several messages, not all yet).
    streaming = "(el) => Number(el.dataset.messages) >= 2 && Number(el.dataset.{}) < {}"
    page.wait_for_function(streaming.format("points", 1200), arg=_element(page, ".eagerkit-loss"))
    page.wait_for_function(streaming.format("steps", 150), arg=_element(page, ".eagerkit-flow"))
    # When a run ends, its output is re-rendered from the final history.
    _wait_for(page, ".eagerkit-loss[data-points='1200']")  # 2 runs x 2 metrics x 300
    _wait_for(page, ".eagerkit-flow[data-steps='150']")
    page.wait_for_function(
        "() => document.querySelector('.jp-Notebook-ExecutionIndicator')"
        "?.getAttribute('data-status') === 'idle'",
        timeout=KERNEL_WAIT_MS,
    )

    text = page.inner_text(".jp-NotebookPanel")
    for message in WIDGET_ERRORS:
        assert message not in text
    assert page.problems == []

    tapes = page.locator(".eagerkit-tape")
    _step_through_first_tape(page, tapes.nth(0))
    _check_none_reasons(tapes)
    _check_nested_tape(tapes.nth(2))
    _check_loss_curve(page.locator(".eagerkit-loss").first)
    _check_gradient_flow(page.locator(".eagerkit-flow").first)

    assert page.problems == []
    _assert_offline(page.requests)
    page.screenshot(path=str(ARTIFACTS / "notebook.png"), full_page=True)


def _step_through_first_tape(page, tape):
    _shot(tape, "tape_overview.png")
    assert tape.get_attribute("data-phase") == "overview"
    assert tape.get_attribute("data-current") == ""
    tape.locator(".ek-next").click()  # record 1: reading the variable w
    first = tape.get_attribute("data-current")
    tape.locator(".ek-next").click()  # record 2: h = multiply(x, w)
    second = tape.get_attribute("data-current")
    assert first != "" and second != first
    assert tape.locator("g.ek-node.ek-current").count() == 1
    assert "h = multiply(x, w)" in tape.locator(".ek-info").inner_text()
    _shot(tape, "tape_forward.png")
    tape.locator(".ek-prev").click()
    assert tape.get_attribute("data-current") == first

    # On to the reverse sweep: the first backward step is the last record's op.
    while tape.get_attribute("data-phase") != "backward":
        tape.locator(".ek-next").click()
    info = tape.locator(".ek-info").inner_text()
    assert "reverse sweep, step 1" in info and "incoming gradient g = 1.0" in info
    assert tape.locator(".ek-edge-grad").count() >= 1
    tape.locator(".ek-next").click()  # h * h: h fans out, its gradients accumulate
    assert "fan-out" in tape.locator(".ek-info").inner_text()
    _shot(tape, "tape_backward.png")
    before = tape.get_attribute("data-current")
    tape.locator(".ek-prev").click()
    assert tape.get_attribute("data-current") != before


def _check_none_reasons(tapes):
    # A None gradient shows in its box; the overview says why.
    first = tapes.nth(0)
    assert "grad: None" in first.inner_text()
    first.locator("button.ek-first").click()
    assert "is int32: gradients flow only through floating-point" in _info(first)
    magic = tapes.nth(1)
    assert "grad: None" in magic.inner_text()
    assert "stop_recording()" in _info(magic)
    _shot(magic, "tape_magic_stop_recording.png")


def _info(tape):
    return tape.locator(".ek-info").inner_text()


def _check_nested_tape(tape):
    # The inner tape's forward ops were recorded by both tapes, its backward ops by one.
    assert tape.locator("g.ek-value.ek-depth-2").count() >= 2
    assert tape.locator("g.ek-value.ek-depth-1, g.ek-group").count() >= 1
    assert "grad: 12.0" in tape.inner_text()  # d2(x^3)/dx2 at x=2
    _shot(tape, "tape_nested.png")


def _check_validation_stands_out(curve):
    # Each run's val_ line: its colour darker (the PNG's validation_colour), wider, on top
    # (drawn last); its training lines fade; the legend shows a sample of each kind of line.
    paths = curve.locator("path.ek-line").evaluate_all(
        "ps => ps.map(p => [p.getAttribute('class'), p.getAttribute('stroke'),"
        " parseFloat(getComputedStyle(p).strokeWidth), getComputedStyle(p).opacity])"
    )
    training = [p for p in paths if "ek-val" not in p[0]]
    validation = [p for p in paths if "ek-val" in p[0]]
    assert paths == training + validation  # validation on top
    assert {p[1] for p in validation} == {validation_colour(p[1]) for p in training}
    assert min(p[2] for p in validation) >= 1.5 * max(p[2] for p in training)
    assert {p[3] for p in training} == {"0.55"} and {p[3] for p in validation} == {"1"}
    assert curve.locator(".ek-line-key").all_inner_texts() == ["training", "validation (val_)"]


def _check_loss_curve(curve):
    panels = curve.locator("svg.ek-panel")
    assert panels.count() == 1  # val_loss shares the loss panel
    assert curve.locator("path.ek-line").count() == 4
    assert curve.locator("path.ek-val").count() == 2
    _check_validation_stands_out(curve)
    _shot(curve, "loss_curve.png")
    shown = curve.element_handle()
    curve.locator(".ek-log").check()
    # The kernel follows the box (y_scale is synced) and redraws the output, PNG and all, so
    # the view is made anew: wait for that, or the screenshot catches the old one leaving.
    curve.page.wait_for_function("(el) => !el.isConnected", arg=shown)
    assert curve.locator(".ek-log").is_checked()  # the new view draws the kernel's scale
    curve.locator(".ek-smoothing").fill("0.8")
    time.sleep(0.2)  # one animation frame
    assert curve.locator("path.ek-line").count() == 4
    _shot(curve, "loss_curve_log_smoothed.png")


def _check_gradient_flow(flow):
    layers = flow.locator(".ek-layer")
    assert layers.count() == 3
    assert "vanishing" in flow.locator(".ek-flag-vanishing").inner_text()
    assert "every step;" in flow.locator(".ek-title").inner_text()  # every=1
    flow.locator(".ek-layer", has_text="hidden").click()
    flow.locator(".ek-hist").first.wait_for()
    assert flow.locator(".ek-hist").count() == 2  # hidden/kernel and hidden/bias
    _shot(flow, "gradient_flow.png")


def _assert_offline(urls):
    # anywidget loads its ESM from blob: URLs; data: URLs are inline images.
    leaving = [
        url
        for url in urls
        if urlparse(url).scheme not in ("blob", "data") and urlparse(url).hostname != "127.0.0.1"
    ]
    assert leaving == [], f"requests left 127.0.0.1: {leaving}"

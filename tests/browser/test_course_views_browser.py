"""What the course adds to the views, in a real JupyterLab in Debian's chromium: a LossCurve
opened on a log scale whose box the kernel hears, one colour per run in the browser as in
Python, and a saved notebook that keeps only the widgets it shows (a cell run twice leaves
one widget, not two).
"""

import json
import re

import pytest
from pages import KERNEL_WAIT_MS, recorded_page, settle
from playwright.sync_api import expect
from test_widgets_browser import WIDGET_ERRORS, _run_all_cells, _shot, _wait_for

pytestmark = pytest.mark.browser
NOTEBOOK = "course_demo.ipynb"
STATE = "application/vnd.jupyter.widget-state+json"
VIEW = "application/vnd.jupyter.widget-view+json"


@pytest.fixture
def page(lab, browser):
    url, token, _ = lab
    page = recorded_page(browser, f"{url}/lab/tree/{NOTEBOOK}?reset&token={token}")
    yield page
    page.context.close()


def test_log_scale_colours_and_saved_state(page, lab):
    _run_all_cells(page)
    _wait_for(page, ".eagerkit-loss svg.ek-panel")
    _wait_for(page, ".eagerkit-tape svg g.ek-node")
    _wait_idle(page)
    curve = page.locator(".eagerkit-loss").first
    fast, slow = _output_of(page, 2).split()[1:]  # the colours Python gave the runs

    # Opened on the log scale the curve was made with: powers of ten, and the box ticked.
    assert curve.locator(".ek-log").is_checked()
    panel = curve.locator("svg.ek-panel[data-panel=loss]")
    assert "log scale" in panel.locator("text.ek-axis-label").text_content()
    labels = [t.strip() for t in panel.locator("text.ek-tick-y").all_text_contents()]
    assert labels and all(re.fullmatch(r"(0\.0*)?1|10*", label) for label in labels), labels
    strokes = [path.get_attribute("stroke") for path in panel.locator("path.ek-line").all()]
    assert strokes == [fast, slow]  # in the order the runs got points
    swatches = curve.locator(".ek-legend .ek-swatch")
    assert [
        _hex(s.evaluate("e => getComputedStyle(e).backgroundColor")) for s in swatches.all()
    ] == [
        fast,
        slow,
    ]
    _shot(curve, "course_loss_curve_log.png")

    # Unticked in the browser, the kernel's curve is linear too (and its PNG with it).
    curve.locator(".ek-log").uncheck()
    label = panel.locator("text.ek-axis-label")
    expect(label).not_to_contain_text("log scale", timeout=KERNEL_WAIT_MS)
    _run_cell(page, 2)
    assert _output_of(page, 2).split()[0] == "linear"
    _shot(curve, "course_loss_curve_linear.png")

    # The tape cell run again: its first widget is superseded, and the file keeps one tape.
    _run_cell(page, 3)
    _wait_for(page, ".eagerkit-tape svg g.ek-node")
    page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    page.wait_for_function(
        "() => !window.jupyterapp.shell.currentWidget.context.model.dirty",
        timeout=KERNEL_WAIT_MS,
    )
    saved = json.loads((lab[2] / NOTEBOOK).read_text())
    state = saved["metadata"]["widgets"][STATE]["state"]
    shown = [
        output["data"][VIEW]["model_id"]
        for cell in saved["cells"]
        for output in cell["outputs"]
        if VIEW in output.get("data", {})
    ]
    names = sorted(state[model]["model_name"] for model in shown)
    assert names == ["AnyModel", "AnyModel"], names  # the curve and the tape on display
    # Their own models and the layouts they refer to, nothing of the first tape.
    assert len(state) == 4, sorted(m["model_name"] for m in state.values())
    assert not any(text in page.content() for text in WIDGET_ERRORS)
    assert page.problems == []


def _hex(rgb):
    r, g, b = (int(v) for v in re.findall(r"\d+", rgb)[:3])
    return f"#{r:02x}{g:02x}{b:02x}"


def _wait_idle(page):
    page.wait_for_function(
        "() => document.querySelector('.jp-Notebook-ExecutionIndicator')"
        "?.getAttribute('data-status') === 'idle'",
        timeout=KERNEL_WAIT_MS,
    )


def _run_cell(page, index):
    """Run cell ``index`` and wait until it has finished (the command's promise)."""
    page.evaluate(
        """(i) => {
            const panel = window.jupyterapp.shell.currentWidget;
            panel.content.activeCellIndex = i;
            return window.jupyterapp.commands.execute('notebook:run-cell');
        }""",
        index,
    )
    settle(page)


def _output_of(page, index):
    return page.evaluate(
        """(i) => {
            const cell = window.jupyterapp.shell.currentWidget.content.widgets[i];
            return cell.outputArea.node.innerText.trim();
        }""",
        index,
    )

"""TapeView in a real JupyterLab, in Debian's chromium, with no network beyond 127.0.0.1.

One test runs tape_demo.ipynb (lesson 02's tapes, f = c*c + c, a CNN step, a NaN, an
exercise highlight), then checks what a student sees: the drawing's invariants measured
in the rendered DOM (boxes against edge paths and labels, text inside its box), stepping
through the folded CNN step and into the model and its conv layer unfolded in place, the
notebook saved and reopened in a JupyterLab that has no kernel, and the save_html page
opened on its own. Screenshots go to test-artifacts/ for a human to look at.
"""

import json
import sys
import urllib.request
from pathlib import Path

import pytest
from pages import KERNEL_WAIT_MS, SEVERAL_WAITS_S, recorded_page
from test_widgets_browser import (
    ARTIFACTS,
    WIDGET_ERRORS,
    _assert_offline,
    _run_all_cells,
    _shot,
    _wait_for,
)

sys.path.insert(0, str(Path(__file__).parents[1]))
from drawing_checks import problems  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.timeout(SEVERAL_WAITS_S)]
NOTEBOOK = "tape_demo.ipynb"
TAPES = [
    "lesson02_fan_out",
    "lesson02_nested",
    "c_times_c_plus_c",
    "cnn_folded",
    "nan",
    "highlight",
]

# The drawing as the browser rendered it (see the file), checked with drawing_checks.
MEASURE = (Path(__file__).parent / "measure_drawing.js").read_text()


def _page(browser, url, path, token):
    return recorded_page(
        browser, f"{url}/{path}?reset&token={token}" if "lab/" in path else f"{url}/{path}"
    )


def _run_notebook(page):
    _run_all_cells(page)
    _wait_for(page, ".eagerkit-tape", count=len(TAPES))
    page.wait_for_function(
        "() => document.querySelector('.jp-Notebook-ExecutionIndicator')"
        "?.getAttribute('data-status') === 'idle'",
        timeout=KERNEL_WAIT_MS,
    )


def check_drawing(tape, name):
    """The drawing's invariants, and every text inside its own box, as rendered."""
    seen = tape.evaluate(MEASURE)
    found = problems(seen["width"], seen["height"], seen["boxes"], seen["edges"], seen["labels"])
    assert found == [], f"{name}: {found}"
    for text, x, y, w, h, bx, by, bw, bh in seen["texts"]:
        inside = bx - 1 <= x and x + w <= bx + bw + 1 and by - 1 <= y and y + h <= by + bh + 1
        assert inside, f"{name}: text {text!r} overflows its box"
    return seen


def test_tape_views_draw_step_save_and_reopen(lab, lab_without_kernels, browser):
    url, token, root = lab
    page = _page(browser, url, f"lab/tree/{NOTEBOOK}", token)
    _run_notebook(page)
    text = page.inner_text(".jp-NotebookPanel")
    assert not any(message in text for message in WIDGET_ERRORS)
    tapes = page.locator(".eagerkit-tape")
    for i, name in enumerate(TAPES):
        check_drawing(tapes.nth(i), name)
        _shot(tapes.nth(i), f"tape_{name}.png")

    _check_nested_colours(tapes.nth(1))
    _check_fan_out_labels(tapes.nth(2))
    _step_through_the_folded_cnn(tapes.nth(3))
    _check_nan_origin(tapes.nth(4))
    _check_highlight(tapes.nth(5))
    _check_zoom_and_fit(tapes.nth(3))
    assert page.problems == []
    _assert_offline(page.requests)

    _save(page, root / NOTEBOOK)
    page.context.close()
    _reopen_with_a_new_kernel(lab, browser)
    _reopen_without_a_kernel(lab_without_kernels, browser)
    _open_the_saved_page(url, token, browser)


def _check_nested_colours(tape):
    # A view made before the inner tape opened sees both tapes record the inner forward.
    assert tape.locator("g.ek-value.ek-depth-2").count() == 2
    assert "op recorded by 2 tapes" in tape.locator(".ek-legend").text_content()
    # The inner tape's backward pass, recorded by the outer tape, folds into its line.
    assert "inner.gradient(y2, x2)" in tape.locator("g.ek-group").text_content()


def _check_fan_out_labels(tape):
    # c fans out three times: three edges leave c's box from three ports, all labelled.
    starts = tape.evaluate(
        """(root) => {
            const c = [...root.querySelectorAll("g.ek-node")]
                .find((g) => g.querySelector("text").textContent === "c");
            return [...root.querySelectorAll(`path.ek-edge[data-from='${c.dataset.id}']`)]
                .map((p) => p.getPointAtLength(0).x);
        }"""
    )
    assert len(set(starts)) == 3
    assert tape.locator("g.ek-label.ek-shown").count() == 4  # the overview shows them all


def _step_through_the_folded_cnn(tape):
    # It opens on the model folded into one box (the loss line unfolded: it fits).
    assert tape.get_attribute("data-state") == "g4"
    assert tape.locator(".ek-fold").get_attribute("data-group") == "g4"
    assert tape.get_attribute("data-steps") == str(1 + 3 + 3)  # the model + 2 loss ops, twice
    tape.locator(".ek-next").click()  # the whole model is one forward step
    assert tape.get_attribute("data-current") == "g0"
    assert "sequential (Sequential), 16 records folded into one step" in _info(tape)
    while tape.get_attribute("data-phase") != "backward":
        tape.locator(".ek-next").click()
    visited = [tape.get_attribute("data-current")]
    while tape.get_attribute("data-step") != str(int(tape.get_attribute("data-steps")) - 1):
        tape.locator(".ek-next").click()
        visited.append(tape.get_attribute("data-current"))
    assert visited == ["op17", "op16", "g0"]
    _shot(tape, "tape_cnn_backward_folded.png")
    # Unfold the model in place: its layers, each folded, are steps of their own.
    tape.locator("g.ek-group[data-id='g0']").click()
    assert tape.get_attribute("data-state") == "g0,g4"
    assert tape.get_attribute("data-steps") == str(1 + 7 + 7)  # 3 layers, 2 ops, 2 loss ops
    check_drawing(tape, "cnn_unfolded_model")
    tape.locator(".ek-next").click()
    assert tape.get_attribute("data-current") == "g1"
    # ... and the conv layer inside it: its records become steps, in the browser.
    tape.locator("g.ek-group[data-id='g1']").click()
    assert tape.get_attribute("data-state") == "g0,g1,g4"
    check_drawing(tape, "cnn_unfolded_conv")
    tape.locator(".ek-next").click()
    tape.locator(".ek-next").click()
    assert "t0 = conv2d(images, layers[0]/kernel)" in _info(tape)  # named as GradientFlow does
    _shot(tape, "tape_cnn_unfolded_conv.png")
    tape.locator(".ek-fold.ek-open").first.click()  # fold the model (and the conv) again
    assert tape.get_attribute("data-state") == "g4"


def _info(tape):
    return tape.locator(".ek-info").inner_text()


def _check_nan_origin(tape):
    info = tape.locator(".ek-info-nan").inner_text()
    assert info.startswith("first NaN/Inf of the forward pass: record 2, root = sqrt(doubled)")
    assert info.endswith("line 6: root = ek.sqrt(doubled)")
    assert tape.locator("g.ek-nonfinite").count() == 1
    tape.locator("g.ek-nonfinite").click()  # selecting a box names its line
    assert "made at cell In [" in tape.locator(".ek-selected").inner_text()


def _check_highlight(tape):
    assert tape.locator("g.ek-highlight").count() == 1
    note = tape.locator(".ek-note").inner_text()
    assert "record 1: sq = multiply(q, q)" in note and "your answer was 3.0" in note
    assert tape.get_attribute("data-phase") == "forward"  # it opens on the marked record


def _check_zoom_and_fit(tape):
    svg = tape.locator("svg.ek-graph")
    tape.locator(".ek-fit").click()
    fitted = float(svg.get_attribute("data-zoom"))
    box = svg.bounding_box()
    assert box["height"] <= 0.75 * 900 + 1 and fitted <= 1
    for _ in range(3):  # until the drawing is bigger than the view: then it pans
        tape.locator(".ek-zoom-in").click()
    assert float(svg.get_attribute("data-zoom")) > fitted
    view_box = svg.get_attribute("viewBox")
    svg.hover()
    tape.page.mouse.down()
    tape.page.mouse.move(box["x"] + 10, box["y"] + 10)
    tape.page.mouse.up()
    assert svg.get_attribute("viewBox") != view_box  # dragged: panned


def _save(page, path):
    page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    page.wait_for_function(
        "() => !window.jupyterapp.shell.currentWidget.context.model.dirty", timeout=KERNEL_WAIT_MS
    )
    saved = json.loads(path.read_text())
    state = saved["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    shown = [
        output["data"]["application/vnd.jupyter.widget-view+json"]["model_id"]
        for cell in saved["cells"]
        for output in cell.get("outputs", [])
        if "application/vnd.jupyter.widget-view+json" in output.get("data", {})
    ]
    assert len(shown) == len(TAPES) and all(model in state for model in shown)


def _api(lab, method, path):
    url, token, _ = lab
    request = urllib.request.Request(
        f"{url}/api/{path}", method=method, headers={"Authorization": f"token {token}"}
    )
    with urllib.request.urlopen(request) as response:
        body = response.read()
    return json.loads(body) if body else None


def _reopen_with_a_new_kernel(lab, browser):
    """The student's case: the kernel that made the widgets is gone, a new one starts."""
    for session in _api(lab, "GET", "sessions"):
        _api(lab, "DELETE", f"sessions/{session['id']}")
    url, token, _ = lab
    page = _page(browser, url, f"lab/tree/{NOTEBOOK}", token)
    _wait_for(page, ".eagerkit-tape", count=len(TAPES))  # live, from the saved state
    assert not any(message in page.inner_text(".jp-NotebookPanel") for message in WIDGET_ERRORS)
    tape = page.locator(".eagerkit-tape").nth(3)
    check_drawing(tape, "cnn_reopened")
    tape.locator(".ek-next").click()  # it still steps: the front end needs no kernel
    assert tape.get_attribute("data-current") == "g0"
    tape.locator("g.ek-group[data-id='g0']").click()  # and unfolds what was prepared
    assert tape.get_attribute("data-state") == "g0,g4"
    _shot(tape, "tape_reopened_new_kernel.png")
    assert page.problems == []
    page.context.close()


def _reopen_without_a_kernel(lab, browser):
    """A JupyterLab that cannot run code at all shows every widget's saved picture."""
    assert _api(lab, "GET", "kernelspecs")["kernelspecs"] == {}
    url, token, _ = lab
    page = _page(browser, url, f"lab/tree/{NOTEBOOK}", token)
    page.wait_for_selector(".jp-NotebookPanel", timeout=KERNEL_WAIT_MS)
    shown = ".jp-OutputArea-output .eagerkit-tape, .jp-OutputArea-output img"
    _wait_for(page, shown, count=len(TAPES))
    page.locator(".jp-NotebookPanel").screenshot(
        path=str(ARTIFACTS / "tape_reopened_without_kernel.png")
    )
    assert not any(message in page.inner_text(".jp-NotebookPanel") for message in WIDGET_ERRORS)
    assert page.problems == []
    _assert_offline(page.requests)
    page.context.close()


def _open_the_saved_page(url, token, browser):
    page = _page(browser, url, f"files/cnn_tape.html?token={token}", token)
    page.wait_for_selector("body[data-ready='true']")
    tape = page.locator(".eagerkit-tape")
    check_drawing(tape, "save_html")
    tape.locator(".ek-next").click()
    assert tape.get_attribute("data-current") == "g0"
    tape.locator("g.ek-group[data-id='g0']").click()  # a prepared folding: no kernel needed
    assert tape.get_attribute("data-state") == "g0,g4"
    tape.locator(".ek-fold").first.click()
    assert tape.get_attribute("data-state") == "g4"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "tape_save_html.png"), full_page=True)
    assert page.problems == []
    _assert_offline(page.requests)
    page.context.close()

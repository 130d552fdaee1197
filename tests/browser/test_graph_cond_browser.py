"""Stepping through a traced cond in GraphPassView, in a real JupyterLab in Debian's chromium,
at 1280x720 (a laptop) and 1920x1080.

graph_cond_demo.ipynb shows lesson 10's `absolute` (a tensor `if`) for the call
absolute(-2.0), and a while_loop with a cond in its body. For each window size, as the
browser drew it: the cond opens in place when clicked, onto its two branches, the false
branch (what absolute(-2.0) runs) marked taken and the true branch greyed; it stays open,
with the same marks, at every pass; a click on its title closes it. All text is 9 px or
more, every text inside its box, every panel inside its cond, and nothing is cut off (the
graph needs no scrolling, the view fits the notebook). Screenshots go to test-artifacts/.
"""

import pytest
from pages import recorded_page
from test_widgets_browser import (
    ARTIFACTS,
    WIDGET_ERRORS,
    _assert_offline,
    _run_all_cells,
    _shot,
    _wait_for,
)

pytestmark = pytest.mark.browser
NOTEBOOK = "graph_cond_demo.ipynb"
WINDOWS = [(1280, 720), (1920, 1080)]
STAGES = 5  # four passes and the optimized graph

# What the reader sees: each text's size and its box, each text's holder (its box, or its
# panel's frame), each panel and the cond box around it, the graph's scrolling, the widget's
# place in the notebook's area.
SEEN = """(root) => {
  const rect = (e) => { const r = e.getBoundingClientRect();
                        return [r.left, r.top, r.right, r.bottom]; };
  const texts = [...root.querySelectorAll("svg.ek-graph text")].filter((t) => t.textContent);
  const html = [...root.querySelectorAll(".ek-side *, .ek-legend-item, .ek-stage-title")]
    .filter((e) => e.childNodes.length && [...e.childNodes].some((n) => n.nodeType === 3));
  const px = (e) => parseFloat(getComputedStyle(e).fontSize);
  const holder = (t) => t.parentElement.querySelector(":scope > rect");
  const panels = [...root.querySelectorAll("g.ek-panel")].map((g) => ({
    role: g.dataset.role, state: g.getAttribute("class"),
    title: g.querySelector(".ek-panel-title").textContent,
    frame: rect(g.querySelector(":scope > rect")),
    cond: rect(g.parentElement.querySelector(":scope > rect")),
  }));
  const box = root.querySelector(".ek-graph-box");
  let area = document.body;  // the notebook's scrolling area: the nearest that scrolls
  for (let n = root.parentElement; n; n = n.parentElement) {
    const o = getComputedStyle(n).overflowY;
    if ((o === "auto" || o === "scroll") && n.clientHeight > 0) { area = n; break; }
  }
  return {
    sizes: [...texts, ...html].map((e) => [e.textContent, px(e)]),
    texts: texts.map((t) => [t.textContent, rect(t), rect(holder(t))]),
    panels,
    scroll: [box.scrollWidth, box.clientWidth, box.scrollHeight, box.clientHeight],
    widget: rect(root), area: rect(area),
    open: root.dataset.open, stage: Number(root.dataset.stage),
    title: root.querySelector(".ek-stage-title").textContent,
  };
}"""


@pytest.fixture(params=WINDOWS, ids=lambda s: f"{s[0]}x{s[1]}")
def page(request, lab, browser):
    url, token, _ = lab
    address = f"{url}/lab/tree/{NOTEBOOK}?reset&token={token}"
    page = recorded_page(browser, address, request.param)
    page.size = request.param
    yield page
    page.context.close()


def _inside(inner, outer, slack=0.5):
    return (
        inner[0] >= outer[0] - slack
        and inner[1] >= outer[1] - slack
        and inner[2] <= outer[2] + slack
        and inner[3] <= outer[3] + slack
    )


def _check_readable(seen, fits_area):
    small = [(text, size) for text, size in seen["sizes"] if size < 9]
    assert small == [], small
    outside = [text for text, where, holder in seen["texts"] if not _inside(where, holder)]
    assert outside == [], outside  # every text inside its box or panel
    for panel in seen["panels"]:
        assert _inside(panel["frame"], panel["cond"]), panel
    width, client_width, height, client_height = seen["scroll"]
    assert width <= client_width and height <= client_height, seen["scroll"]  # no scrolling
    assert seen["widget"][2] <= seen["area"][2] + 0.5, seen  # not cut off on the right
    if fits_area:
        assert seen["widget"][3] - seen["widget"][1] <= seen["area"][3] - seen["area"][1]


def test_a_student_opens_a_traced_cond_and_steps_through_the_passes(page):
    _run_all_cells(page)
    _wait_for(page, ".eagerkit-passes g.ek-control", count=2)
    assert not any(text in page.inner_text(".jp-NotebookPanel") for text in WIDGET_ERRORS)
    size = f"{page.size[0]}x{page.size[1]}"
    view = page.locator(".eagerkit-passes").first
    view.scroll_into_view_if_needed()
    cond = view.locator("g.ek-control")
    assert cond.text_content() == "%3 cond ▸took the false branch"
    hint = view.locator(".ek-control-hint").inner_text()
    assert hint.startswith("Click a purple cond or while_loop box to open it") and "green" in hint
    _check_readable(view.evaluate(SEEN), fits_area=True)
    _shot(view, f"graph_cond_closed_{size}.png")

    cond.click()  # opens in place onto its branches
    view.locator("g.ek-panel").nth(1).wait_for()
    for stage in range(STAGES):
        seen = view.evaluate(SEEN)
        assert seen["stage"] == stage and seen["open"] == "%3", seen  # open at every pass
        titles = {panel["role"]: panel["title"] for panel in seen["panels"]}
        states = {panel["role"]: panel["state"] for panel in seen["panels"]}
        assert titles == {
            "true branch": "true branch: not taken",
            "false branch": "false branch: taken",
        }
        assert states == {
            "true branch": "ek-panel ek-not-taken",
            "false branch": "ek-panel ek-taken",
        }
        _check_readable(seen, fits_area=True)
        if stage in (0, STAGES - 1):
            _shot(view, f"graph_cond_open_stage{stage}_{size}.png")
        if stage < STAGES - 1:
            view.locator(".ek-next").click()
    assert seen["title"].startswith("the optimized graph")
    view.locator("text.ek-header-line").click()  # its title line closes it again
    view.locator("g.ek-panel").first.wait_for(state="detached")
    assert view.evaluate("(root) => root.dataset.open") == ""

    loop = page.locator(".eagerkit-passes").nth(1)
    loop.scroll_into_view_if_needed()
    loop.locator("g.ek-control").click()
    loop.locator("g.ek-panel").nth(3).wait_for()  # test, body, and the body's two branches
    seen = loop.evaluate(SEEN)
    assert [panel["title"] for panel in seen["panels"]] == [
        "test: ran 6×",
        "body: 5 iterations",
        "true branch: taken 3 of 5",
        "false branch: taken 2 of 5",
    ]
    _check_readable(seen, fits_area=page.size[1] >= 1080)
    _shot(loop, f"graph_while_open_{size}.png")
    loop.locator("g.ek-panel").nth(3).scroll_into_view_if_needed()  # the loop's bottom half
    page.screenshot(path=str(ARTIFACTS / f"graph_while_open_scrolled_{size}.png"))
    assert page.problems == []
    _assert_offline(page.requests)

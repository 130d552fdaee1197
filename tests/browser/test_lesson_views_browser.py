"""Every lesson's views as the lesson itself makes them, in a real JupyterLab in Debian's
chromium, at 1280x720 (a laptop) and at 1920x1080.

The lessons are found, not listed: every notebook in notebooks/ whose committed outputs
show an eagerkit view (a TapeView, LossCurve, GradientFlow, GraphPassView or %%tape; the
outputs are nbval-checked, so they are what the lesson shows today). Each is opened in the
test JupyterLab, run whole (Run All), and then every view on the page must read: all text
at 9 px or more on screen, nothing cut off (every text, svg box and canvas inside the view,
or reachable by the view's own scrolling or panning), no two texts overlapping, the view no
wider than its cell nor taller than the notebook's visible area, counts that read right (no
"1 records"), no widget error, no error output, no console error, nothing fetched from the
network. Tapes also keep the drawing's invariants (check_drawing). Screenshots of each view
at each size go to test-artifacts/lesson-views/ for a human to look at.
"""

import json
import re
import shutil
from pathlib import Path

import eagerkit.widgets as views
import pytest
from eagerkit.widgets.common.live import SnapshotWidget
from pages import KERNEL_WAIT_MS, SEVERAL_WAITS_S, recorded_page, settle
from test_tape_view_browser import check_drawing
from test_widgets_browser import (
    ARTIFACTS,
    WIDGET_ERRORS,
    _assert_offline,
    _run_all_cells,
    _shot,
    _wait_until_all_ran,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(SEVERAL_WAITS_S)]
LESSONS = Path(__file__).parents[2] / "notebooks"
WINDOWS = [(1280, 720), (1920, 1080)]
MEASURE = (Path(__file__).parent / "measure_view.js").read_text()
# Every eagerkit view class; a displayed one's text/plain is its repr, "TapeView(...)".
VIEW_NAMES = sorted(
    name
    for name in views.__all__
    if isinstance(getattr(views, name), type) and issubclass(getattr(views, name), SnapshotWidget)
)
SHOWN = re.compile(rf"({'|'.join(VIEW_NAMES)})\(")
# A view's front end puts its root, div.eagerkit-<kind>, in the widget's own element (an
# exercise's check, div.eagerkit-check, sits right in an HTML output: not a view).
ROOTS = ".jp-OutputArea-output > .lm-Widget > [class^='eagerkit-']"
# The tallest blank strip a view may have across it: a gap between two lines of controls
# or text, not an empty band (the tape view had one of 36 px above its legend).
BLANK_PX = 16
# A count of one with a plural noun ("1 records", "1 steps"): the views' counts read right.
ONE_PLURAL = re.compile(r"(?<![\d.])1 (record|step|pass|layer|run|node|op)s\b")


def views_shown(path):
    """The names of the views a lesson displays, in order, read from its saved outputs."""
    notebook = json.loads(path.read_text())
    shown = []
    for cell in notebook["cells"]:
        for output in cell.get("outputs", []):
            match = SHOWN.match("".join(output.get("data", {}).get("text/plain", "")))
            if match:
                shown.append(match.group(1))
    return shown


VIEWING = {path.stem: views_shown(path) for path in sorted(LESSONS.glob("*.ipynb"))}
VIEWING = {lesson: shown for lesson, shown in VIEWING.items() if shown}


def test_the_lessons_with_views_are_found():
    # The course shows every kind of view somewhere: the enumeration sees them all.
    assert {name for shown in VIEWING.values() for name in shown} == set(VIEW_NAMES)


@pytest.mark.parametrize("lesson", sorted(VIEWING))
def test_every_view_of_the_lesson_reads_at_both_sizes(lesson, lab, browser):
    url, token, root = lab
    (ARTIFACTS / "lesson-views").mkdir(parents=True, exist_ok=True)
    shutil.copy(LESSONS / f"{lesson}.ipynb", root / f"{lesson}.ipynb")
    page = recorded_page(browser, f"{url}/lab/tree/{lesson}.ipynb?reset&token={token}", WINDOWS[0])
    try:
        _run_all_cells(page)
        _wait_until_all_ran(page)
        count = len(VIEWING[lesson])
        page.wait_for_function(  # every view there, and drawn (its svg or canvas made)
            """([sel, n]) => {
                const roots = [...document.querySelectorAll(sel)];
                return roots.length >= n && roots.every((r) => r.querySelector("svg, canvas"));
            }""",
            arg=[ROOTS, count],
            timeout=KERNEL_WAIT_MS,
        )
        notebook = page.locator(".jp-NotebookPanel")
        assert not any(message in notebook.inner_text() for message in WIDGET_ERRORS)
        assert notebook.locator(".jp-OutputArea-output[data-mime-type*='stderr']").count() == 0
        smallest = {}
        for size in WINDOWS:
            page.set_viewport_size({"width": size[0], "height": size[1]})
            settle(page, frames=10)  # the views fit themselves to their cells' new width
            roots = page.locator(ROOTS)
            assert roots.count() == count, (lesson, VIEWING[lesson])
            for i, name in enumerate(VIEWING[lesson]):
                view = roots.nth(i)
                view.scroll_into_view_if_needed()
                settle(page)
                seen = view.evaluate(MEASURE)
                where = f"{lesson} view {i} ({name}, {seen['kind']}) at {size[0]}x{size[1]}"
                smallest[f"{i} {name} {size[0]}x{size[1]}"] = round(seen["smallest"], 2)
                _shot(view, f"lesson-views/{lesson}_{i}_{name}_{size[0]}x{size[1]}.png")
                assert seen["small"] == [], (where, seen["small"])  # never under 9 px
                assert seen["cut"] == [], (where, seen["cut"])
                assert seen["overlaps"] == [], (where, seen["overlaps"])
                assert seen["width"] <= seen["room"] + 1, (where, seen)  # fits its cell
                assert seen["height"] <= seen["area"], (where, seen)  # and the notebook's height
                assert seen["frame"], where  # a border all round, as every view has
                assert seen["blank"]["height"] <= BLANK_PX, (where, seen["blank"])
                assert not ONE_PLURAL.search(view.text_content()), where  # "1 steps"
                if seen["kind"] == "eagerkit-tape":
                    check_drawing(view, where)
        print(f"{lesson} smallest text (px): {smallest}")  # for the report
        assert page.problems == []
        _assert_offline(page.requests)
    finally:
        page.context.close()


# Views made to break each rule measure_view.js checks (and one made to keep them all):
# what it finds, each in a div.eagerkit-case of its own, 300x120 px and framed unless
# STYLES says otherwise, no lab needed.
CASES = {
    "fine": '<svg width="200" height="60" style="display: block"><text x="4" y="20"'
    ' font-size="10">fine</text></svg>'
    '<div style="overflow: auto; width: 100px; height: 30px"><div style="width: 400px">'
    "a long line one scrolls to</div></div>",
    "small": '<svg width="200" height="60" viewBox="0 0 400 120">'
    '<text x="4" y="20" font-size="10">shrunk to 5 px</text></svg>',
    "cut": '<svg width="100" height="60"><text x="70" y="20" font-size="10">off the edge'
    '</text><rect x="20" y="50" width="20" height="20"></rect></svg>',
    "overlap": '<svg width="200" height="60"><text x="4" y="20" font-size="12">one</text>'
    '<text x="8" y="22" font-size="12">two</text></svg>',
    "panned": '<svg width="100" height="60" viewBox="0 0 100 60" data-zoom="1" data-width="300"'
    ' data-height="60"><text x="150" y="20" font-size="10">pan to me</text>'
    '<text x="290" y="40" font-size="10">beyond the drawing</text></svg>',
    "strip": '<div>above</div><div style="height: 50px"></div><div>below</div>',
    "unframed": "<div>no border</div>",
}
STYLES = {"fine": "height: auto", "strip": "height: auto", "unframed": "border: none"}


def test_the_measure_finds_small_cut_overlapping_text_frames_and_strips(browser):
    page = browser.new_page()
    try:
        cells = "".join(
            f'<div class="eagerkit-case" id="{name}" style="width: 300px; height: 120px;'
            f' overflow: hidden; border: 1px solid; {STYLES.get(name, "")}">{html}</div>'
            for name, html in CASES.items()
        )
        page.set_content(f'<body style="font-family: DejaVu Sans">{cells}</body>')
        seen = {name: page.locator(f"#{name}").evaluate(MEASURE) for name in CASES}
    finally:
        page.close()
    assert [seen["fine"][k] for k in ("small", "cut", "overlaps")] == [[], [], []]
    assert seen["fine"]["smallest"] == 10
    assert seen["fine"]["frame"] and not seen["unframed"]["frame"]
    assert seen["fine"]["blank"]["height"] < BLANK_PX  # the rest of its 30 px scroll box
    assert 49 <= seen["strip"]["blank"]["height"] <= 51  # the 50 px between its two lines
    assert seen["small"]["small"] == ['"shrunk to 5 px" at 5.00 px']
    assert [c.split(" at ")[0] for c in seen["cut"]["cut"]] == ['text "off the edge"', "rect."]
    assert len(seen["overlap"]["overlaps"]) == 1 and seen["overlap"]["cut"] == []
    # The tape's camera pans over its whole drawing (data-width x data-height), no further.
    assert [c.split(" at ")[0] for c in seen["panned"]["cut"]] == ['text "beyond the drawing"']

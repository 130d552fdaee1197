"""Exercise checks as a student sees them, in a real JupyterLab in Debian's chromium.

exercises_demo.ipynb answers nothing, then right, then wrong (a forward slip and a wrong
custom VJP), and asks for a hint. The checks read what the student reads: the verdict
boxes, the reasons, and the TapeView below a wrong answer, opened on the highlighted op
with the note saying why. Screenshots go to test-artifacts/.
"""

import pytest
from pages import recorded_page
from test_widgets_browser import (
    WIDGET_ERRORS,
    _assert_offline,
    _run_all_cells,
    _shot,
    _wait_for,
    _wait_until_all_ran,
)

pytestmark = pytest.mark.browser


@pytest.fixture
def page(lab, browser):
    url, token, _ = lab
    page = recorded_page(browser, f"{url}/lab/tree/exercises_demo.ipynb?reset&token={token}")
    yield page
    page.context.close()


def test_checks_say_why_and_point_at_the_op(page):
    _run_all_cells(page)
    _wait_for(page, ".eagerkit-check-wrong", count=2)
    _wait_for(page, ".eagerkit-tape g.ek-node.ek-highlight", count=2)
    _wait_until_all_ran(page)
    assert not any(text in page.content() for text in WIDGET_ERRORS)

    unanswered = page.locator(".eagerkit-check-unanswered").first
    assert "Exercise 1.1 · Your first tensor: not answered yet" in unanswered.inner_text()
    right = page.locator(".eagerkit-check-right").first
    assert right.inner_text().strip() == "Exercise 1.1 · Your first tensor: right ✓"

    forward, vjp = page.locator(".eagerkit-check-wrong").all()
    assert "differs at element [0]: its value there is 0.0, too large" in forward.inner_text()
    assert "-0.75" not in forward.inner_text()  # never the value asked for
    assert "record 3: softsign = add(t1, t2)" in forward.inner_text()
    assert "with respect to x differs at element [0]" in vjp.inner_text()
    assert "the op whose VJP sends the first wrong gradient" in vjp.inner_text()

    tapes = page.locator(".eagerkit-tape")
    softsign_tape, sigmoid_tape = tapes.nth(0), tapes.nth(1)
    # The view opens on the marked record, and its note says why the op is marked.
    assert (
        "the first op whose value no correct computation makes"
        in softsign_tape.locator(".ek-info").inner_text()
    )
    assert "softsign = add(t1, t2)" in softsign_tape.locator(".ek-info").inner_text()
    assert "VJP" in sigmoid_tape.locator(".ek-info").inner_text()
    hint = page.locator(".eagerkit-hint").first
    assert hint.inner_text().startswith("Hint 1 of 2 for exercise 1.3:")

    for name, locator in [
        ("exercise_unanswered.png", unanswered),
        ("exercise_wrong_forward.png", page.locator(".jp-Cell").nth(3)),
        ("exercise_wrong_vjp.png", page.locator(".jp-Cell").nth(5)),
        ("exercise_hint.png", hint),
    ]:
        _shot(locator, name)
    assert page.problems == []
    _assert_offline(page.requests)

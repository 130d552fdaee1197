"""`make lab`, then a student's work in it, then `make test`: working in the lab changes no
file git tracks (issue 17: autosave wrote outputs and widget state into the lessons, and
`make test` then failed).

The lab is the Makefile's own (`make -o install lab`, as test_lab.py starts it), in Debian's
chromium: the student runs their copy of lesson 02 whole and saves it, then opens the
instructor's tracked lesson 02, runs it and presses ctrl+s. Afterwards git sees exactly what
it saw before (no tracked file changed, no new file it does not ignore), the saved copy
holds its outputs and only the state of the widgets it shows, and the tracked lesson is
byte for byte what it was.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from eagerkit.widgets.notebook_views import STATE, VIEW
from pages import KERNEL_WAIT_MS, SEVERAL_WAITS_S, recorded_page, settle
from test_widgets_browser import ARTIFACTS, _run_all_cells, _wait_until_all_ran

sys.path.insert(0, str(Path(__file__).parents[1]))
from test_lab import TOKEN, _lab_server  # noqa: E402  (the Makefile's lab, started as there)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(SEVERAL_WAITS_S)]
ROOT = Path(__file__).parents[2]
COPY, TRACKED = "student/02_tape.ipynb", "notebooks/02_tape.ipynb"


def _what_git_sees():
    """Every file git reports (changed, or new and not ignored), and each tracked file's
    bytes."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
    names = [name for name in listed.stdout.decode().split("\0") if name]
    tracked = {name: _bytes(ROOT / name) for name in names}
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return status.stdout, tracked


def _bytes(path):
    return path.read_bytes() if path.exists() else None  # a tracked file deleted: None


def _save(page):
    page.keyboard.press("Control+s")
    settle(page, frames=10)


def test_working_in_the_lab_changes_nothing_git_tracks(browser, tmp_path):
    ARTIFACTS.mkdir(exist_ok=True)
    status_before, tracked_before = _what_git_sees()
    copy = ROOT / COPY
    students_own = copy.read_bytes() if copy.exists() else None  # a student's work: kept
    try:
        with _lab_server(tmp_path / "lab.log", "--LabApp.expose_app_in_browser=True") as port:
            url = f"http://127.0.0.1:{port}"
            page = recorded_page(browser, f"{url}/lab/tree/{COPY}?reset&token={TOKEN}", (1280, 720))
            _run_all_cells(page)
            _wait_until_all_ran(page)
            shown = page.locator(".jp-OutputArea-output .eagerkit-tape").count()
            assert shown >= 3  # the lesson's tapes, drawn
            _save(page)
            page.wait_for_function(
                "() => !window.jupyterapp.shell.currentWidget.context.model.dirty",
                timeout=KERNEL_WAIT_MS,
            )
            page.screenshot(path=ARTIFACTS / "lab_student_copy_saved.png")
            page.goto(f"{url}/lab/tree/{TRACKED}?reset&token={TOKEN}")
            _run_all_cells(page)
            _wait_until_all_ran(page)
            _save(page)  # refused: the instructor's lesson is read-only in the lab
            page.get_by_text(f"{TRACKED} is read-only", exact=False).wait_for(
                timeout=KERNEL_WAIT_MS
            )
            page.screenshot(path=ARTIFACTS / "lab_tracked_lesson_refused.png")
            page.context.close()
        saved, size = json.loads(copy.read_text()), copy.stat().st_size
    finally:
        if students_own is not None:
            copy.write_bytes(students_own)
    status_after, tracked_after = _what_git_sees()
    assert status_after == status_before
    changed = [name for name, data in tracked_before.items() if tracked_after.get(name) != data]
    assert changed == []
    # The student's copy: its outputs, and the state of the views it shows, no other.
    outputs = [o for cell in saved["cells"] for o in cell.get("outputs", [])]
    shown_outputs = [o["data"][VIEW]["model_id"] for o in outputs if VIEW in o.get("data", {})]
    assert len(shown_outputs) == shown  # (a view shown twice is one model)
    views = set(shown_outputs)
    states = saved["metadata"]["widgets"][STATE]["state"]
    assert views <= set(states)
    assert all(model in views or _layout_of_a_view(model, states, views) for model in states)
    assert size < 2_000_000  # a few tapes: not the megabytes of stale widget states


def _layout_of_a_view(model, states, views):
    """Is ``model`` a model a shown view refers to (its layout)?"""
    return any(f"IPY_MODEL_{model}" in json.dumps(states[view]["state"]) for view in views)

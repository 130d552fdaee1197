"""`make lab` on this checkout: JupyterLab at the repository root, on the first student copy
of the lessons, with Binder's settings (no news, no update checks), as root too (Jupyter
refuses root unless told); working in it never changes a file git tracks.

The test runs the Makefile's own command (`make -o install lab`: the install step is what
.ci/run already does) on a free port, then asks the running server what a student would see
and what it saves.
"""

import contextlib
import json
import os
import pathlib
import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request

import pytest
from eagerkit.widgets.notebook_views import STATE, VIEW

ROOT = pathlib.Path(__file__).resolve().parents[1]
FIRST_LESSON = "student/01_hello_eager.ipynb"
TRACKED_LESSON = "notebooks/01_hello_eager.ipynb"
TOKEN = "eagerkit-test"


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(port, path, method="GET", body=None):
    url = f"http://127.0.0.1:{port}/{path}"
    data = None if body is None else json.dumps(body).encode()
    headers = {"Authorization": f"token {TOKEN}", "Content-Type": "application/json"}
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, response.read()


@contextlib.contextmanager
def _lab_server(log_path, args):
    """Run `make lab` with LAB_ARGS=``args`` until the block ends; yield its port.

    When no server answers, fail with what `make lab` printed (its real reason), whether
    make is still running or has already exited.
    """
    port = _free_port()
    args = f"--no-browser --port={port} --IdentityProvider.token={TOKEN} {args}"
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(log_path.parent / "runtime")}
    with open(log_path, "w") as log:
        process = subprocess.Popen(
            ["make", "-o", "install", "lab", f"LAB_ARGS={args}"],
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,  # so the whole group (make, jupyter) can be stopped
        )
    try:
        deadline = time.monotonic() + 300  # minutes on a loaded machine; a failed start ends it
        while True:
            try:
                _get(port, "api/status")
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"make lab did not start a server:\n{log_path.read_text()}")
                time.sleep(0.5)
        yield port
    finally:
        try:
            os.killpg(process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass  # make and jupyter have exited already (a failed start): nothing to stop
        process.wait(timeout=30)


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """The server `make lab` starts, and what it printed."""
    log_path = tmp_path_factory.mktemp("lab") / "lab.log"
    with _lab_server(log_path, "") as port:
        yield port, log_path


def test_a_lab_that_cannot_start_says_why(tmp_path):
    # An option jupyter refuses: make exits at once, and the failure shows jupyter's words.
    with pytest.raises(pytest.fail.Exception) as failure:
        with _lab_server(tmp_path / "lab.log", "--ServerApp.port_retries=not-a-number"):
            pass
    message = str(failure.value)
    assert message.startswith("make lab did not start a server:")
    assert "port_retries" in message and "not-a-number" in message


def test_serves_the_repository_root_so_students_can_browse_readme_and_source(lab):
    port, _ = lab
    _, body = _get(port, "api/contents")
    names = {item["name"] for item in json.loads(body)["content"]}
    assert {"README.md", "notebooks", "student", "eagerkit", "widgets"} <= names


def test_it_opens_on_the_first_student_copy_with_the_file_browser_beside_it(lab):
    port, log_path = lab
    printed = re.findall(r"http://127\.0\.0\.1:\d+(/\S*)\?token=", log_path.read_text())
    assert printed and printed[0] == "/lab"  # the default workspace, below
    _, body = _get(port, "lab/api/workspaces/default")
    workspace = json.loads(body)["data"]
    assert workspace["layout-restorer:data"]["main"]["current"] == f"notebook:{FIRST_LESSON}"
    assert workspace[f"notebook:{FIRST_LESSON}"]["data"]["path"] == FIRST_LESSON
    assert workspace["file-browser-filebrowser:cwd"] == {"path": "student"}


def test_every_lesson_has_a_student_copy_without_its_solutions(lab):
    port, _ = lab
    _, body = _get(port, "api/contents/student")
    copies = {item["name"] for item in json.loads(body)["content"]}
    assert copies >= {path.name for path in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")}
    for name in sorted(copies):
        _, body = _get(port, f"api/contents/student/{name}")
        model = json.loads(body)
        assert model["writable"], f"student/{name} is the student's to save"
        sources = ["".join(cell["source"]) for cell in model["content"]["cells"]]
        assert not any("SOLUTION" in source for source in sources), name
    assert not _tracked_by_git("student"), "the student copies are the student's, not git's"


def test_the_lessons_git_tracks_open_read_only_and_are_never_saved_over(lab):
    port, _ = lab
    before = (ROOT / TRACKED_LESSON).read_bytes()
    _, body = _get(port, f"api/contents/{TRACKED_LESSON}")
    model = json.loads(body)
    assert model["writable"] is False  # JupyterLab: a read-only mark, no autosave
    model["content"]["cells"][0]["source"] = "changed in the lab"
    with pytest.raises(urllib.error.HTTPError) as refused:
        _get(port, f"api/contents/{TRACKED_LESSON}", "PUT", {"type": "notebook", **model})
    assert refused.value.code == 403
    assert "Save Notebook As" in json.loads(refused.value.read())["message"]
    assert (ROOT / TRACKED_LESSON).read_bytes() == before


def test_a_saved_notebook_keeps_only_the_state_of_the_widgets_it_shows(lab):
    port, _ = lab
    shown = {"model_id": "shown", "version_major": 2, "version_minor": 1}
    output = {"output_type": "display_data", "metadata": {}, "data": {VIEW: shown}}
    cell = {"cell_type": "code", "execution_count": 1, "id": "c1", "metadata": {}}
    state = {  # the shown widget and its layout, then an earlier run's widget and its layout
        model_id: {
            "model_name": "LayoutModel",
            "model_module": "@jupyter-widgets/base",
            "model_module_version": "2.0.0",
            "state": state,
        }
        for model_id, state in [
            ("shown", {"layout": "IPY_MODEL_shown-layout", "graph": "x" * 1000}),
            ("shown-layout", {}),
            ("stale", {"layout": "IPY_MODEL_stale-layout", "graph": "x" * 100_000}),
            ("stale-layout", {}),
        ]
    }
    notebook = {
        "cells": [{**cell, "outputs": [output], "source": "view"}],
        "metadata": {"widgets": {STATE: {"state": state, "version_major": 2, "version_minor": 0}}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    folder = ROOT / "build" / "test-lab"
    folder.mkdir(parents=True, exist_ok=True)
    path = "build/test-lab/saved.ipynb"
    _get(port, f"api/contents/{path}", "PUT", {"type": "notebook", "content": notebook})
    saved = json.loads((ROOT / path).read_text())["metadata"]["widgets"][STATE]["state"]
    assert sorted(saved) == ["shown", "shown-layout"]


def _tracked_by_git(path):
    listed = subprocess.run(
        ["git", "ls-files", "--", path], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return listed.stdout.split()


def test_news_and_update_checks_are_off_as_on_binder(lab):
    port, _ = lab
    _, body = _get(port, "lab/api/settings/@jupyterlab/apputils-extension:notification")
    defaults = json.loads(body)["schema"]["properties"]
    assert defaults["fetchNews"]["default"] == "false"
    assert defaults["checkForUpdates"]["default"] is False


def test_runs_as_root_only_with_allow_root():
    command = subprocess.run(
        ["make", "-n", "-o", "install", "lab"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert ("--allow-root" in command) == (os.geteuid() == 0)


def test_instructors_get_their_own_copies_with_the_solutions():
    command = subprocess.run(
        ["make", "-n", "-o", "install", "instructor"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "binder/lessons.py instructor" in command
    assert "workspaces import build/lab/instructor-workspace.json" in command

"""`make lab` on this checkout: JupyterLab at the repository root, on lesson 01, with
Binder's settings (no news, no update checks), as root too (Jupyter refuses root unless told).

The test runs the Makefile's own command (`make -o install lab`: the install step is what
.ci/run already does) on a free port, then asks the running server what a student would see.
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
import urllib.request

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
FIRST_LESSON = "notebooks/01_hello_eager.ipynb"
TOKEN = "eagerkit-test"


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(port, path):
    url = f"http://127.0.0.1:{port}/{path}"
    request = urllib.request.Request(url, headers={"Authorization": f"token {TOKEN}"})
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
        deadline = time.monotonic() + 90
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
    assert {"README.md", "notebooks", "eagerkit", "widgets"} <= names


def test_it_opens_on_the_first_lesson_with_the_file_browser_at_the_root(lab):
    port, log_path = lab
    printed = re.findall(r"http://127\.0\.0\.1:\d+(/\S*)\?token=", log_path.read_text())
    assert printed and printed[0] == "/lab"  # the default workspace, below
    _, body = _get(port, "lab/api/workspaces/default")
    workspace = json.loads(body)["data"]
    assert workspace["layout-restorer:data"]["main"]["current"] == f"notebook:{FIRST_LESSON}"
    assert workspace[f"notebook:{FIRST_LESSON}"]["data"]["path"] == FIRST_LESSON
    assert workspace["file-browser-filebrowser:cwd"] == {"path": ""}  # the repository root
    _, body = _get(port, f"api/contents/{FIRST_LESSON}?content=0")
    assert json.loads(body)["type"] == "notebook"


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

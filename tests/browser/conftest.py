"""A throwaway, offline JupyterLab for the browser tests, and Debian's chromium to drive it.

The server runs from this venv on 127.0.0.1 with a random token, a temporary root dir
holding a copy of the test notebook, and its own config, data, runtime, settings and
workspace dirs, so nothing is read from or written to the user's Jupyter setup or the repo.
News, update checks and the PyPI extension manager are off: the page must make no request
that leaves 127.0.0.1.
"""

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

HERE = Path(__file__).parent
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
LAB_SETTINGS = {  # plugin id -> settings: no news toast, no kernel dialog, no autosave
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/notebook-extension/tracker": {"autoStartDefaultKernel": True},
    "@jupyterlab/docmanager-extension/plugin": {"autosave": False},
    "@jupyterlab/fileeditor-extension/plugin": {"editorConfig": {"cursorBlinkRate": 0}},
}


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _write_settings(settings_dir):
    for plugin, values in LAB_SETTINGS.items():
        package, name = plugin.rsplit("/", 1)
        path = settings_dir / package / f"{name}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """``(base_url, token, root_dir)`` of a JupyterLab serving copies of the test notebooks."""
    base = tmp_path_factory.mktemp("lab")
    root = base / "root"
    root.mkdir()
    for notebook in HERE.glob("*.ipynb"):  # each browser test file has its demo notebook
        shutil.copy(notebook, root / notebook.name)
    yield from _serve(base, root)


@pytest.fixture(scope="module")
def lab_without_kernels(lab, tmp_path_factory):
    """A second JupyterLab on the first one's files that has no kernel at all: a saved
    notebook opened there shows only what was saved in it."""
    base = tmp_path_factory.mktemp("lab-no-kernel")
    no_kernels = ["--KernelSpecManager.ensure_native_kernel=False"]
    no_kernels.append("--KernelSpecManager.allowed_kernelspecs=no-such-kernel")
    yield from _serve(base, lab[2], no_kernels)


def _serve(base, root, extra=()):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    for var, sub in [
        ("JUPYTER_CONFIG_DIR", "config"),
        ("JUPYTER_DATA_DIR", "data"),
        ("JUPYTER_RUNTIME_DIR", "runtime"),
        ("JUPYTERLAB_SETTINGS_DIR", "settings"),
        ("JUPYTERLAB_WORKSPACES_DIR", "workspaces"),
        ("IPYTHONDIR", "ipython"),
    ]:
        (base / sub).mkdir()
        env[var] = str(base / sub)
    _write_settings(base / "settings")
    token, port = secrets.token_hex(16), _free_port()
    command = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
        f"--FileCheckpoints.checkpoint_dir={base / 'checkpoints'}",
        "--LabApp.news_url=None",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--LabApp.extension_manager=readonly",
        "--LabApp.expose_app_in_browser=True",
    ]
    command += extra
    if os.geteuid() == 0:
        command.append("--ServerApp.allow_root=True")
    log = open(base / "server.log", "w")  # noqa: SIM115 - closed in teardown
    server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(url, token, server, base / "server.log")
        yield url, token, root
    finally:
        server.send_signal(signal.SIGTERM)  # it shuts its kernels down
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


# How long a server may take to answer: seconds when the machine is idle, minutes when other
# jobs load it (a start that fails ends the wait at once, with the server's log).
STARTUP_LIMIT = 300


def _wait_until_up(url, token, server, log_path):
    deadline = time.monotonic() + STARTUP_LIMIT
    request = urllib.request.Request(
        f"{url}/api/status", headers={"Authorization": f"token {token}"}
    )
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"jupyter lab exited early:\n{log_path.read_text()}")
        try:
            with urllib.request.urlopen(request, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(
        f"jupyter lab did not answer within {STARTUP_LIMIT} s:\n{log_path.read_text()}"
    )


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium under Playwright; a missing browser is a failure, never a skip."""
    from playwright.sync_api import sync_playwright

    executable = shutil.which("chromium")
    if executable is None:
        pytest.fail(
            "Debian's chromium is not installed: run `apt-get install -y chromium "
            "fonts-dejavu-core` (the widget browser tests need it)"
        )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()

"""binder/ is the one environment for Binder and JupyterHub: check it matches pyproject."""

import json
import os
import pathlib
import re
import stat
import subprocess
from importlib import metadata

from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

ROOT = pathlib.Path(__file__).resolve().parents[1]
BINDER = ROOT / "binder"


def _requirement_lines():
    lines = (BINDER / "requirements.txt").read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def test_requirements_install_this_checkout_with_the_lab_extra():
    assert _requirement_lines() == ["-e .[lab]"]
    # The installed metadata is pyproject's, as pip read it.
    requirements = [Requirement(spec) for spec in metadata.requires("eagerkit")]
    lab = {r.name for r in requirements if r.marker and r.marker.evaluate({"extra": "lab"})}
    # What Binder's kernel needs to run the lessons and show the widgets.
    assert {"jupyterlab", "ipywidgets", "anywidget", "matplotlib"} <= lab
    assert not any(name.startswith("cupy") for name in lab), "Binder has no GPU"


def test_no_config_that_repo2docker_would_ignore_or_reject():
    # With binder/ present, repo2docker ignores these in the root; .binder/ beside it is an error.
    for name in ["requirements.txt", "environment.yml", "apt.txt", "postBuild", "runtime.txt"]:
        assert not (ROOT / name).exists(), f"{name} in the repo root would be ignored"
    assert not (ROOT / ".binder").exists()
    assert not (ROOT / "Dockerfile").exists(), "a Dockerfile would override binder/"


def test_postbuild_is_executable_and_writes_offline_lab_settings(tmp_path):
    post_build = BINDER / "postBuild"
    assert post_build.stat().st_mode & stat.S_IXUSR
    assert post_build.read_text().splitlines()[0] == "#!/bin/bash"
    env = {**os.environ, "NB_PYTHON_PREFIX": str(tmp_path)}
    subprocess.run([str(post_build)], env=env, check=True, cwd=ROOT)
    overrides = tmp_path / "share/jupyter/lab/settings/overrides.json"
    settings = json.loads(overrides.read_text())
    assert settings["@jupyterlab/apputils-extension:notification"] == {
        "checkForUpdates": False,
        "fetchNews": "false",
    }


def test_postbuild_fails_when_its_prefix_is_missing():
    env = {k: v for k, v in os.environ.items() if k != "NB_PYTHON_PREFIX"}
    result = subprocess.run(
        [str(BINDER / "postBuild")], env=env, cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode != 0
    assert "NB_PYTHON_PREFIX" in result.stderr


def test_runtime_pins_a_python_that_pyproject_accepts():
    (pin,) = (BINDER / "runtime.txt").read_text().split()
    name, version = pin.split("-")
    assert name == "python" and re.fullmatch(r"3\.\d+", version), "repo2docker's form: python-3.X"
    requires = metadata.metadata("eagerkit")["Requires-Python"]
    assert SpecifierSet(requires).contains(f"{version}.0"), f"{pin} outside {requires}"


def test_dockerignore_keeps_every_local_artifact_out_of_the_image():
    def entries(name):
        lines = (ROOT / name).read_text().splitlines()
        return {line.strip() for line in lines if line.strip() and not line.startswith("#")}

    # Whatever git ignores (the venv, build/, test artifacts, caches) is this machine's.
    assert entries(".gitignore") <= entries(".dockerignore")
    assert {".venv/", "build/", "test-artifacts/"} <= entries(".dockerignore")

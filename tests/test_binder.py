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


def _links_module():
    import importlib.util

    spec = importlib.util.spec_from_file_location("links", BINDER / "links.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_binder_and_hub_link_names_the_repository_of_pyproject():
    links = _links_module()
    owner, name = links.repository()
    for document in links.DOCUMENTS:
        text = (ROOT / document).read_text()
        assert f"mybinder.org/v2/gh/{owner}/{name}/HEAD" in text, document
    assert links.main(["--check"]) == 0, "run `make links`"


def test_a_fork_changes_one_line_and_make_links_follows(tmp_path, capsys):
    links = _links_module()
    for name in ["pyproject.toml", *links.DOCUMENTS]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text((ROOT / name).read_text())
    pyproject = tmp_path / "pyproject.toml"
    owner, name = links.repository()
    pyproject.write_text(
        pyproject.read_text().replace(f"github.com/{owner}/{name}", "github.com/a-school/ml-course")
    )
    assert links.main(["--check"], root=tmp_path) == 1
    assert "README.md" in capsys.readouterr().out
    assert links.main([], root=tmp_path) == 0
    guide = (tmp_path / "notebooks/README.md").read_text()
    assert "mybinder.org/v2/gh/a-school/ml-course/HEAD?labpath=notebooks" in guide
    assert "repo=https%3A%2F%2Fgithub.com%2Fa-school%2Fml-course&" in guide
    assert "urlpath=lab%2Ftree%2Fml-course%2Fnotebooks" in guide
    assert f"/{owner}/{name}/" not in guide
    assert links.main(["--check"], root=tmp_path) == 0

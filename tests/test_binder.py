"""binder/ is the one environment for Binder and JupyterHub: check it matches pyproject."""

import importlib.util
import json
import os
import pathlib
import re
import stat
import subprocess
import sys
from importlib import metadata

import nbformat
import pytest
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


def _prefix(tmp_path):
    """An environment prefix for postBuild whose python is this one."""
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "python").symlink_to(sys.executable)
    return tmp_path


def test_postbuild_is_executable_and_writes_offline_lab_settings(tmp_path):
    post_build = BINDER / "postBuild"
    assert post_build.stat().st_mode & stat.S_IXUSR
    assert post_build.read_text().splitlines()[0] == "#!/bin/bash"
    env = {**os.environ, "NB_PYTHON_PREFIX": str(_prefix(tmp_path))}
    subprocess.run([str(post_build)], env=env, check=True, cwd=ROOT, capture_output=True)
    overrides = tmp_path / "share/jupyter/lab/settings/overrides.json"
    settings = json.loads(overrides.read_text())
    assert settings["@jupyterlab/apputils-extension:notification"] == {
        "checkForUpdates": False,
        "fetchNews": "false",
    }


def test_postbuild_serves_tracked_lessons_read_only_and_keeps_other_server_settings(tmp_path):
    prefix = _prefix(tmp_path)
    config = prefix / "etc/jupyter/jupyter_server_config.json"
    config.parent.mkdir(parents=True)
    config.write_text(json.dumps({"ServerApp": {"ip": "0.0.0.0"}, "Other": {"a": 1}}))
    env = {**os.environ, "NB_PYTHON_PREFIX": str(prefix)}
    subprocess.run([str(BINDER / "postBuild")], env=env, check=True, cwd=ROOT, capture_output=True)
    assert json.loads(config.read_text()) == {
        "ServerApp": {
            "ip": "0.0.0.0",
            "contents_manager_class": "eagerkit.widgets.lab_contents.LessonContentsManager",
        },
        "Other": {"a": 1},
    }


def test_postbuild_gives_binders_students_their_copies():
    # postBuild runs `binder/lessons.py student` (tested below): Binder's image has student/.
    lines = (BINDER / "postBuild").read_text().splitlines()
    assert '"${NB_PYTHON_PREFIX}/bin/python" binder/lessons.py student' in lines


def _lessons_module():
    spec = importlib.util.spec_from_file_location("lessons", BINDER / "lessons.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _course(tmp_path, count=3):
    """A course folder with ``count`` lessons, each with one solution."""
    (tmp_path / "notebooks").mkdir()
    for number in range(1, count + 1):
        solution = nbformat.v4.new_code_cell(
            "def f(x):\n    ### BEGIN SOLUTION\n    return x\n    ### END SOLUTION",
            metadata={"tags": ["solution"]},
        )
        notebook = nbformat.v4.new_notebook(cells=[solution])
        nbformat.write(notebook, tmp_path / "notebooks" / f"{number:02d}_lesson.ipynb")
    (tmp_path / "notebooks" / "README.md").write_text("not a lesson")
    return tmp_path


@pytest.mark.parametrize("role", ["student", "instructor"])
def test_lessons_are_copied_for_each_role_and_a_copy_with_work_in_it_is_kept(tmp_path, role):
    lessons = _lessons_module()
    root = _course(tmp_path)
    assert lessons.main([role], root=root) == 0
    copies = sorted(p.name for p in (root / role).iterdir())
    assert copies == ["01_lesson.ipynb", "02_lesson.ipynb", "03_lesson.ipynb"]
    first = root / role / "01_lesson.ipynb"
    source = nbformat.read(first, as_version=4).cells[0].source
    if role == "student":
        assert "SOLUTION" not in source and "# your code here" in source
    else:
        assert first.read_bytes() == (root / "notebooks" / "01_lesson.ipynb").read_bytes()
    first.write_text("the user's work")
    (root / role / "02_lesson.ipynb").unlink()  # deleted for a fresh copy
    assert [p.name for p in lessons.copy_lessons(role, root)] == ["02_lesson.ipynb"]
    assert first.read_text() == "the user's work"
    workspace = json.loads((root / "build/lab" / f"{role}-workspace.json").read_text())["data"]
    assert (
        workspace["layout-restorer:data"]["main"]["current"] == f"notebook:{role}/01_lesson.ipynb"
    )
    assert workspace["file-browser-filebrowser:cwd"] == {"path": role}


def test_an_unknown_role_is_refused_and_copies_nothing(tmp_path):
    lessons = _lessons_module()
    root = _course(tmp_path)
    with pytest.raises(SystemExit, match="the role is one of student, instructor, not 'teacher'"):
        lessons.main(["teacher"], root=root)
    assert sorted(p.name for p in root.iterdir()) == ["notebooks"]


def test_the_copies_are_never_tracked_nor_sent_to_binder():
    ignored = (ROOT / ".gitignore").read_text().split()
    assert {"student/", "instructor/", "handout/"} <= set(ignored)


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
    spec = importlib.util.spec_from_file_location("links", BINDER / "links.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_binder_link_names_the_repository_of_pyproject_and_opens_a_student_copy():
    links = _links_module()
    owner, name = links.repository()
    for document in links.DOCUMENTS:
        text = (ROOT / document).read_text()
        assert f"mybinder.org/v2/gh/{owner}/{name}/HEAD" in text, document
        # Binder's students open their copies (postBuild makes them), never notebooks/.
        opened = re.findall(r"mybinder\.org/v2/gh/[^)\s]*labpath=([^)\s&]+)", text)
        assert opened and set(opened) == {"student%2F01_hello_eager.ipynb"}, document
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
    assert "mybinder.org/v2/gh/a-school/ml-course/HEAD?labpath=student" in guide
    assert f"/{owner}/{name}/" not in guide
    assert links.main(["--check"], root=tmp_path) == 0

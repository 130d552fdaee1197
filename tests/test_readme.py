"""The README is a promise: its example runs, its commands exist, its lesson index is true."""

import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def _fenced_blocks(language):
    return re.findall(rf"^```{language}\n(.*?)^```$", README, flags=re.DOTALL | re.MULTILINE)


def test_the_example_prints_what_the_readme_shows(tmp_path):
    (code,) = _fenced_blocks("python")
    (shown,) = _fenced_blocks("text")
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout == shown
    assert len(code.strip().splitlines()) <= 14  # a short example, not a tutorial


def test_exactly_two_setup_commands_and_they_are_make_targets():
    (commands,) = _fenced_blocks("sh")
    invoked = [line.split("#")[0].strip() for line in commands.strip().splitlines()]
    assert invoked == ["make lab", "make test"]
    makefile = (ROOT / "Makefile").read_text()
    targets = set(re.findall(r"^([a-z]+):", makefile, flags=re.MULTILINE))
    assert {"install", "lab", "test"} <= targets
    # `make lab` is the install step plus JupyterLab, and `make test` installs chromium.
    assert re.search(r"^lab: install$", makefile, flags=re.MULTILINE)
    assert "apt-get install -y -q chromium" in makefile


def test_ci_runs_the_readme_commands_and_nothing_else():
    script = (ROOT / ".ci" / "run").read_text()
    commands = [
        line.strip()
        for line in script.splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    assert commands == ["set -euo pipefail", 'cd "$(dirname "$0")/.."', "make install", "make test"]
    assert (ROOT / ".ci" / "run").stat().st_mode & 0o111


def test_the_lesson_index_lists_every_notebook_once():
    listed = re.findall(r"^\| \[(\d\d_[a-z0-9_]+)\]\(notebooks/\1\.ipynb\) \|", README, re.M)
    on_disk = sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb"))
    assert listed == on_disk


def test_the_source_map_names_files_that_exist():
    section = README.split("## For students reading the source")[1]
    paths = re.findall(r"`((?:eagerkit|widgets)/[\w/.]*)`", section)
    assert len(paths) >= 10
    missing = [p for p in paths if not (ROOT / p).exists()]
    assert not missing, f"README names files that do not exist: {missing}"


def test_the_source_map_names_every_keras_layer():
    """Each layer class of ek.keras.layers, by its Keras name (an alias such as MaxPool2D for
    MaxPooling2D is the same class: its longest name is the one listed)."""
    import eagerkit as ek

    layers = ek.keras.layers
    classes = {}
    for name in layers.__all__:
        value = getattr(layers, name)
        if isinstance(value, type) and issubclass(value, layers.Layer):
            classes[value] = max(classes.get(value, ""), name, key=len)
    row = next(line for line in README.splitlines() if line.startswith("| `eagerkit/keras/` |"))
    unnamed = sorted(name for name in classes.values() if f"`{name}`" not in row)
    assert len(classes) >= 35 and not unnamed, f"README's eagerkit/keras/ row lacks {unnamed}"

"""The lessons are stored the way nbval, GitHub and students need them.

nbval (run by `make test` over notebooks/) checks that each lesson still prints what it
shows; these tests check how the files are stored: numbered in teaching order, run top to
bottom in one kernel, outputs kept, widget state and run metadata stripped, and nothing in
an output that differs between machines or runs.
"""

import json
import pathlib
import re

import pytest

NOTEBOOKS = pathlib.Path(__file__).resolve().parents[1] / "notebooks"
LESSONS = sorted(NOTEBOOKS.glob("*.ipynb"))
# What must never appear in a stored output: memory addresses, local paths, timings.
UNSTABLE = re.compile(r"0x[0-9a-fA-F]{6,}|/work/|/tmp/|/home/|/root/|\d+(\.\d+)? ?(ms|µs|it/s)\b")


def _load(path):
    return json.loads(path.read_text())


def _code_cells(notebook):
    return [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]


def _output_texts(cell):
    for output in cell["outputs"]:
        if output["output_type"] == "stream":
            yield "".join(output["text"])
        for mime, value in output.get("data", {}).items():
            if mime.startswith("text/"):
                yield "".join(value)


def test_lessons_are_numbered_in_teaching_order():
    names = [p.name for p in LESSONS]
    assert names, "no lessons in notebooks/"
    assert all(re.fullmatch(r"\d\d_[a-z0-9_]+\.ipynb", name) for name in names), names
    numbers = [int(name[:2]) for name in names]
    assert numbers == list(range(1, len(names) + 1)), f"numbered 01, 02, ... in order: {names}"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_lesson_was_run_top_to_bottom_in_one_kernel(path):
    counts = [cell["execution_count"] for cell in _code_cells(_load(path))]
    # nbval compares only cells with a count, so every code cell needs one, in order.
    assert counts == list(range(1, len(counts) + 1))


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_lesson_starts_with_its_title_and_uses_python3(path):
    notebook = _load(path)
    first = notebook["cells"][0]
    assert first["cell_type"] == "markdown"
    number = path.name[:2]
    assert "".join(first["source"]).startswith(f"# {number} · ")
    assert notebook["metadata"]["kernelspec"]["name"] == "python3"
    assert any("import eagerkit as ek" in "".join(c["source"]) for c in _code_cells(notebook))


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_lesson_is_stored_without_widget_state_or_run_metadata(path):
    notebook = _load(path)
    assert "widgets" not in notebook["metadata"]
    for cell in notebook["cells"]:
        assert "execution" not in cell.get("metadata", {})
        for output in cell.get("outputs", []):
            assert "application/vnd.jupyter.widget-state+json" not in output.get("data", {})


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_lesson_outputs_are_clean_and_stable(path):
    for cell in _code_cells(_load(path)):
        for output in cell["outputs"]:
            assert output["output_type"] != "error", "a lesson must run without errors"
            assert output.get("name") != "stderr", f"stderr output: {output.get('text')}"
        for text in _output_texts(cell):
            found = UNSTABLE.search(text)
            assert not found, f"unstable output {found.group()!r} in {text[:200]!r}"

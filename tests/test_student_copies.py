"""Student and instructor copies of the lessons.

The instructor's lessons (notebooks/) hold the solutions, in cells tagged ``solution``;
every check cell (tagged ``check``) there must say "right" (nbval re-runs them and compares).
The student copies made from them must hold no solution, run top to bottom without an
error or a line on stderr, and have every check say "not answered yet".
"""

import json
import pathlib
import re

import nbformat
import pytest
from eagerkit.widgets.exercises.student import strip_solution, student_copy
from nbclient import NotebookClient

NOTEBOOKS = pathlib.Path(__file__).resolve().parents[1] / "notebooks"
CORPUS = pathlib.Path(__file__).resolve().parent / "exercise_corpus"
LESSONS = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


def _load(path):
    return json.loads(path.read_text())


def _tagged(notebook, tag):
    return [c for c in notebook["cells"] if tag in c.get("metadata", {}).get("tags", [])]


def _text(cell):
    texts = []
    for output in cell.get("outputs", []):
        texts.append("".join(output.get("text", "")))
        texts.append("".join(output.get("data", {}).get("text/plain", "")))
    return "".join(texts)


WITH_EXERCISES = [p for p in LESSONS if _tagged(_load(p), "check")]


def _solution_lines(notebook):
    """The lines between the markers of every solution cell."""
    lines = []
    for cell in _tagged(notebook, "solution"):
        inside = False
        for line in "".join(cell["source"]).split("\n"):
            if "### BEGIN SOLUTION" in line or "### END SOLUTION" in line:
                inside = "BEGIN" in line
            elif inside and line.strip():
                lines.append(line.strip())
    return lines


@pytest.mark.parametrize("path", WITH_EXERCISES, ids=lambda p: p.stem)
def test_every_check_passes_in_the_instructors_lesson(path):
    notebook = _load(path)
    checks = _tagged(notebook, "check")
    assert 2 <= len(checks) <= 4, f"{path.name}: {len(checks)} exercises"
    assert len(_tagged(notebook, "solution")) == len(checks)
    for cell in checks:
        assert re.fullmatch(r'exercise\("\d+\.\d+"\)\.check\(.+\)', "".join(cell["source"]))
        assert ": right ✓" in _text(cell), _text(cell)


@pytest.mark.parametrize("path", WITH_EXERCISES, ids=lambda p: p.stem)
def test_the_student_copy_holds_no_solution(path):
    notebook = _load(path)
    copy = student_copy(notebook, path.name)
    code = "\n".join("".join(c["source"]) for c in copy["cells"] if c["cell_type"] == "code")
    other = "\n".join(
        "".join(c["source"])
        for c in notebook["cells"]
        if "solution" not in c.get("metadata", {}).get("tags", [])
    )
    assert "SOLUTION" not in code and "# your code here" in code
    for line in _solution_lines(notebook):
        if line not in other:  # a line the lesson shows elsewhere gives nothing away
            assert line not in code, f"{path.name}: the student copy shows {line!r}"
    assert all(not c.get("outputs") for c in copy["cells"] if c["cell_type"] == "code")


def _with_answers(copy, answers):
    """The student copy with, after each check cell, one wrong then one right answer from
    the corpus, each followed by the check cell again (seeded as the cheap path seeds it)."""
    cells = []
    for cell in copy["cells"]:
        cells.append(cell)
        if "check" not in cell.get("metadata", {}).get("tags", []):
            continue
        key = "".join(cell["source"]).split('"')[1]
        for answer in answers.get(key, []):
            for source in [*answer.get("extra_cells", []), answer["cell"]]:
                cells.append(nbformat.v4.new_code_cell(source, metadata={"corpus": True}))
            check = "".join(cell["source"]).rstrip()[:-1] + ", seed=1)"
            tags = {"tags": [answer["id"]], "corpus": True}
            cells.append(nbformat.v4.new_code_cell(check, metadata=tags))
    copy["cells"] = cells
    return copy


def _sample_answers(number):
    """One wrong and one right corpus answer per exercise of lesson ``number``."""
    chosen = {}
    for answer in json.loads((CORPUS / f"lesson{number:02d}.json").read_text()):
        if answer.get("answer_cell_error"):  # an answer whose own cell raises stops the run
            continue
        picked = chosen.setdefault(answer["exercise"], {})
        picked.setdefault(answer["verdict"], answer)
    return {key: [p[v] for v in ("wrong", "right") if v in p] for key, p in chosen.items()}


@pytest.mark.parametrize("path", WITH_EXERCISES, ids=lambda p: p.stem)
def test_the_student_copy_runs_and_every_check_says_not_answered(path, tmp_path):
    """And the corpus answers run in the real kernel get the verdict that the cheap path of
    tests/exercise_lessons.py gives them: that path is faithful."""
    from exercise_lessons import run_answers

    number = int(path.name[:2])
    answers = _sample_answers(number)
    copy = nbformat.from_dict(_with_answers(student_copy(_load(path), path.name), answers))
    client = NotebookClient(
        copy, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}
    )
    client.execute()  # raises CellExecutionError on the first error
    for cell in copy.cells:
        if cell.metadata.get("corpus"):  # an answer may warn: the lesson itself must not
            continue
        for output in cell.get("outputs", []):
            assert output.get("name") != "stderr", output.get("text")
    checks = _tagged(copy, "check")
    assert checks
    for cell in checks:
        assert ": not answered yet" in _text(cell), _text(cell)
    sample = [a for group in answers.values() for a in group]
    cheap = run_answers(number, sample)
    for answer in sample:
        (cell,) = _tagged(copy, answer["id"])
        headline = _text(cell).splitlines()[0]
        assert headline.endswith(_HEADLINE_END[cheap[answer["id"]]["status"]]), (
            answer["id"],
            _text(cell),
            cheap[answer["id"]],
        )


_HEADLINE_END = {"right": "right ✓", "wrong": "not right yet ✗", "unanswered": "not answered yet"}


def test_unbalanced_or_untagged_markers_are_refused():
    with pytest.raises(ValueError, match="without ### END SOLUTION"):
        strip_solution("x = 1\n### BEGIN SOLUTION\nx = 2")
    with pytest.raises(ValueError, match="has no ### BEGIN SOLUTION marker"):
        strip_solution("x = 1", "lesson, cell 3")
    cell = {"cell_type": "code", "metadata": {}, "source": "### BEGIN SOLUTION\n### END SOLUTION"}
    with pytest.raises(ValueError, match="cell 0: solution markers in a cell not tagged"):
        student_copy({"cells": [dict(cell, outputs=[], execution_count=1)]})

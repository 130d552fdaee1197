"""Run answers to the exercises in the context their lesson gives them, cheaply.

A student answers an exercise after running the lesson's cells above it. Running the whole
lesson in a kernel for each answer is too slow for the test suite, so ``run_answers`` runs
the lesson's student copy once, in a forked child process with an in-process IPython shell
(magics and ``display`` work as in Jupyter), and at each exercise forks again for every
answer: the grandchild runs the answer's cells and the lesson's check cell, and reports the
verdict. Each answer so starts from exactly the lesson's state at that point, and no answer
sees another's. tests/test_student_copies.py runs a few of the same answers in a real kernel
and compares, which proves this path faithful.
"""

import contextlib
import io
import json
import os
import pathlib
import signal
import traceback

from eagerkit.widgets.exercises.student import student_copy

NOTEBOOKS = pathlib.Path(__file__).resolve().parents[1] / "notebooks"
ANSWER_SECONDS = 120  # one answer, its cells and its check (a hung answer is a failure)


def lesson_path(number):
    (path,) = NOTEBOOKS.glob(f"{number:02d}_*.ipynb")
    return path


def exercise_cells(notebook):
    """``{key: (index of its solution cell, source of its check cell)}``."""
    cells, found = notebook["cells"], {}
    for index, cell in enumerate(cells):
        if "check" in cell.get("metadata", {}).get("tags", []):
            source = "".join(cell["source"])
            key = source.split('"')[1]
            solution = max(
                i
                for i in range(index)
                if "solution" in cells[i].get("metadata", {}).get("tags", [])
            )
            found[key] = (solution, source)
    return found


def run_answers(number, answers, seed=1):
    """``{id: {"status", "text", "cell_error"}}`` for each answer (dicts with ``id``,
    ``exercise``, ``cell``, ``extra_cells``), each run in lesson ``number``'s state at its
    exercise, its check called with ``seed``."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the lesson's process
        os.close(read)
        code = 0
        try:
            results = _run_lesson(number, answers, seed)
        except BaseException:
            results, code = {"__error__": traceback.format_exc()}, 1
        with os.fdopen(write, "w") as out:
            json.dump(results, out)
        os._exit(code)
    os.close(write)
    with os.fdopen(read) as incoming:
        text = incoming.read()
    os.waitpid(pid, 0)
    results = json.loads(text)
    if "__error__" in results:
        raise RuntimeError(f"lesson {number} did not run:\n{results['__error__']}")
    return results


def _run_lesson(number, answers, seed):
    from IPython.core.interactiveshell import InteractiveShell

    path = lesson_path(number)
    notebook = student_copy(json.loads(path.read_text()), path.name)
    os.chdir(NOTEBOOKS)  # where a lesson's relative paths start, as in Jupyter
    shell = InteractiveShell.instance()
    exercises = exercise_cells(notebook)
    by_cell = {}
    for key, (solution, check) in exercises.items():
        by_cell.setdefault(solution, []).append((key, check))
    results = {}
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "code":
            continue
        _run_cell(shell, "".join(cell["source"]))
        for key, check in by_cell.get(index, []):
            for answer in (a for a in answers if a["exercise"] == key):
                results[answer["id"]] = _in_a_child(shell, answer, check, seed)
    return results


def _run_cell(shell, source):
    """Run one cell as Jupyter would; the error it raised (as text), or None."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        outcome = shell.run_cell(source, store_history=False, silent=False)
    error = outcome.error_in_exec or outcome.error_before_exec
    return None if error is None else f"{type(error).__name__}: {error}"


def _in_a_child(shell, answer, check, seed):
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        signal.alarm(ANSWER_SECONDS)
        try:
            result = _answer(shell, answer, check, seed)
        except BaseException:
            result = {"status": "error", "text": traceback.format_exc(), "cell_error": None}
        with os.fdopen(write, "w") as out:
            json.dump(result, out)
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as incoming:
        text = incoming.read()
    os.waitpid(pid, 0)
    if not text:
        return {"status": "error", "text": "the answer's process died", "cell_error": None}
    return json.loads(text)


def _answer(shell, answer, check, seed):
    for cell in answer.get("extra_cells", []):
        _run_cell(shell, cell)
    cell_error = _run_cell(shell, answer["cell"])
    call = check.rstrip()
    assert call.endswith(")"), call
    call = call[:-1] + f", seed={seed})"  # the same inputs every run of the tests
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            result = eval(call, shell.user_ns)  # noqa: S307 - the lesson's own check cell
        except NameError as error:  # the answer's cell failed before defining its name
            return {"status": "check raised", "text": str(error), "cell_error": cell_error}
    return {"status": result.status, "text": repr(result), "cell_error": cell_error}

"""Run answers to the exercises in the context their lesson gives them, cheaply.

A student answers an exercise after running the lesson's cells above it. Running the whole
lesson in a kernel for each answer is too slow for the test suite, so ``run_answers`` runs
the lesson's student copy once, in a forked child process with an in-process IPython shell
(magics and ``display`` work as in Jupyter), and at each exercise forks again for every
answer: the grandchild runs the answer's cells and the lesson's check cell, and reports the
verdict. Each answer so starts from exactly the lesson's state at that point, and no answer
sees another's. tests/test_student_copies.py runs a few of the same answers in a real kernel
and compares, which proves this path faithful.

A GPU cannot be used across a fork: once a process has initialised CUDA (or used ``/sim:0``
standing in for a GPU under ``EAGERKIT_SIMULATED_GPU=1``, which refuses as CUDA does), a
forked child gets ``cudaErrorInitializationError``. So the lesson's process starts fresh
(multiprocessing's "forkserver": a clean process that forks children) when this one has
used a GPU, and once the lesson's process has used one, each later answer runs in a fresh
process that replays the lesson's cells up to its exercise (slower, the same state). Where
no GPU is used, forks keep the suite fast.
"""

import concurrent.futures
import contextlib
import io
import json
import multiprocessing
import os
import pathlib
import signal
import traceback

from eagerkit.widgets.exercises.student import student_copy

import eagerkit as ek
from eagerkit.backends import sim_context
from eagerkit.backends.cupy_backend import cuda_initialised

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
    """``{id: {"status", "text", "cell_error", "process"}}`` for each answer (dicts with
    ``id``, ``exercise``, ``cell``, ``extra_cells``), each run in lesson ``number``'s state at
    its exercise, its check called with ``seed``; ``process`` says how: "forked" from the
    lesson's process, or "replayed" in a fresh one (after the lesson used a GPU)."""
    if gpu_initialised():  # a forked lesson could not use the GPU
        with _fresh_processes(1) as pool:
            results, replays = pool.submit(_run_lesson, number, answers, seed).result()
    else:
        results, replays = _forked(_run_lesson, number, answers, seed)
    if "__error__" in results:
        raise RuntimeError(f"lesson {number} did not run:\n{results['__error__']}")
    workers = max(1, min(4, (os.cpu_count() or 1) // 4))  # a share of the machine
    with _fresh_processes(workers) as pool:
        replayed = {
            answer["id"]: pool.submit(_replayed, number, index, answer, check, seed)
            for index, answer, check in replays
        }
        results.update((key, future.result()) for key, future in replayed.items())
    return results


def gpu_initialised():
    """True when this process used a GPU (CUDA, or ``/sim:0`` standing in for one under
    ``EAGERKIT_SIMULATED_GPU=1``): a forked child could not use it."""
    stand_in = ek.devices.simulated_gpu_requested() and sim_context.initialised()
    return cuda_initialised() or stand_in


def _fresh_processes(workers):
    """A pool whose every task runs in a new process forked from a clean server process
    (which never used a GPU), with the lesson machinery already imported."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["exercise_lessons", "IPython.core.interactiveshell"])
    return concurrent.futures.ProcessPoolExecutor(
        workers, mp_context=context, max_tasks_per_child=1
    )


def _forked(function, *args):
    """``function(*args)``, run in a forked child; its result (JSON) back through a pipe."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        code = 0
        try:
            result = function(*args)
        except BaseException:
            result, code = ({"__error__": traceback.format_exc()}, []), 1
        with os.fdopen(write, "w") as out:
            json.dump(result, out)
        os._exit(code)
    os.close(write)
    with os.fdopen(read) as incoming:
        text = incoming.read()
    os.waitpid(pid, 0)
    return json.loads(text)


def _lesson_shell(number):
    """The student copy of lesson ``number`` and a fresh IPython shell in its folder."""
    from IPython.core.interactiveshell import InteractiveShell

    path = lesson_path(number)
    notebook = student_copy(json.loads(path.read_text()), path.name)
    os.chdir(NOTEBOOKS)  # where a lesson's relative paths start, as in Jupyter
    return notebook, InteractiveShell.instance()


def _run_lesson(number, answers, seed):
    """The results of the answers forked from the lesson's process, and the answers left to
    replay (``(cell index, answer, check)``) once the lesson used a GPU."""
    try:
        notebook, shell = _lesson_shell(number)
    except BaseException:
        return {"__error__": traceback.format_exc()}, []
    by_cell = {}
    for key, (solution, check) in exercise_cells(notebook).items():
        by_cell.setdefault(solution, []).append((key, check))
    results, replays = {}, []
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "code":
            continue
        _run_cell(shell, "".join(cell["source"]))
        for key, check in by_cell.get(index, []):
            for answer in (a for a in answers if a["exercise"] == key):
                if gpu_initialised():
                    replays.append((index, answer, check))
                else:
                    results[answer["id"]] = _in_a_child(shell, answer, check, seed)
    return results, replays


def _replayed(number, index, answer, check, seed):
    """One answer in a fresh process: the lesson's code cells up to ``index``, then the
    answer and its check, as ``_in_a_child`` runs them in a fork."""
    signal.signal(signal.SIGALRM, _too_slow)  # a hung answer fails, the pool lives on
    signal.alarm(ANSWER_SECONDS)
    try:
        notebook, shell = _lesson_shell(number)
        for cell in notebook["cells"][: index + 1]:
            if cell["cell_type"] == "code":
                _run_cell(shell, "".join(cell["source"]))
        result = _answer(shell, answer, check, seed)
    except BaseException:
        result = {"status": "error", "text": traceback.format_exc(), "cell_error": None}
    finally:
        signal.alarm(0)
    return dict(result, process="replayed")


def _too_slow(signum, frame):
    raise TimeoutError(f"the answer took longer than {ANSWER_SECONDS} s")


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
    return dict(json.loads(text), process="forked")


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

"""The lessons are stored the way nbval, GitHub and students need them.

nbval (run by `make test` over notebooks/) checks that each lesson still prints what it
shows; these tests check how the files are stored: numbered in teaching order, run top to
bottom in one kernel, outputs kept, widget state and run metadata stripped, and nothing in
an output that differs between machines or runs. A cell whose output depends on a clock
(a timing, or anything computed from one) is not compared by nbval and is stored empty, so a
busy machine can never turn `make test` red.
"""

import ast
import json
import pathlib
import re

import pytest
from IPython.core.inputtransformer2 import TransformerManager

NOTEBOOKS = pathlib.Path(__file__).resolve().parents[1] / "notebooks"
LESSONS = sorted(NOTEBOOKS.glob("*.ipynb"))
# What must never appear in a stored output: memory addresses, local paths, timings.
UNSTABLE = re.compile(r"0x[0-9a-fA-F]{6,}|/work/|/tmp/|/home/|/root/|\d+(\.\d+)? ?(ms|µs|it/s)\b")
# Words that give a timing away in an output nbval compares.
TIMING_WORDS = re.compile(
    r"\b(faster|slower|took|within a factor|speed-?up)\b|\d\s*(s|secs?|seconds?)\b", re.I
)
# What reads a clock: the time module's clocks, timeit, and IPython's %time / %timeit.
CLOCK = re.compile(
    r"\btime\.(time|perf_counter|monotonic|process_time)(_ns)?\b|\btimeit\b|\bperf_counter\b"
    r"|\bdefault_timer\b|run_(line|cell)_magic\(['\"]time"
)
# How a cell tells nbval not to compare its output (a tag, or a marker on its first line).
IGNORED_TAGS = {"nbval-ignore-output", "nbval-skip"}
IGNORED_MARKERS = ("# NBVAL_IGNORE_OUTPUT", "# NBVAL_SKIP")


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


def _bound_names(statement):
    """The names a top-level statement binds (a subscript or attribute target binds its base)."""
    names = set()
    if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        names.add(statement.name)
    for node in ast.walk(statement):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Subscript | ast.Attribute) and isinstance(node.ctx, ast.Store):
            base = node.value
            while isinstance(base, ast.Subscript | ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name):
                names.add(base.id)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
    return names


def timing_cells(notebook):
    """Indices of the code cells whose output can depend on a clock.

    A top-level statement depends on a clock when it reads one, or reads a name that an
    earlier such statement bound (a timing, or a function that takes one); the names it
    binds then depend on the clock too, until a statement that reads no clock binds them.
    """
    tainted, found = set(), []
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "code":
            continue
        python = TransformerManager().transform_cell("".join(cell["source"]))  # %magics too
        cell_reads_a_clock = False
        for statement in ast.parse(python).body:
            read = {
                n.id
                for n in ast.walk(statement)
                if isinstance(n, ast.Name)
                and (isinstance(n.ctx, ast.Load) or isinstance(statement, ast.AugAssign))
            }
            if isinstance(statement, ast.Import | ast.ImportFrom):
                reads_a_clock = False  # importing time is not reading it
            else:
                reads_a_clock = bool(CLOCK.search(ast.unparse(statement)) or read & tainted)
            bound = _bound_names(statement)
            tainted = tainted | bound if reads_a_clock else tainted - bound
            cell_reads_a_clock |= reads_a_clock
        if cell_reads_a_clock:
            found.append(index)
    return found


def nbval_compares(cell):
    tags = set(cell.get("metadata", {}).get("tags", []))
    return not (tags & IGNORED_TAGS or "".join(cell["source"]).startswith(IGNORED_MARKERS))


def test_timing_cells_are_found_through_the_names_they_bind():
    cells = [
        "import time\nimport timeit\nx = 3",
        "start = time.perf_counter()\ny = x * 2",  # reads the clock
        "print(y)",  # computed before the clock: stable
        "elapsed = time.perf_counter() - start",  # reads it again
        "print(f'{elapsed:.1f}')",  # prints a timing
        "def compare(f):\n    return min(timeit.repeat(f))",  # a function that times
        "ratio = compare(len)",  # calls it
        "ratio = 2.0\nprint(ratio)",  # bound again without a clock: stable
        "%timeit x + 1",  # IPython's magic
        "%%time\nz = x + 1",
    ]
    notebook = {"cells": [{"cell_type": "code", "source": source} for source in cells]}
    assert timing_cells(notebook) == [1, 3, 4, 5, 6, 8, 9]


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_cells_that_time_something_are_not_compared_and_stored_empty(path):
    notebook = _load(path)
    timing = timing_cells(notebook)
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "code":
            continue
        where = f"{path.name}, cell {index}: {''.join(cell['source'])[:80]!r}"
        if index in timing:
            # Its output is the machine's: nbval must not compare it, and git must not store it.
            assert not nbval_compares(cell), f"{where} times something: tag it nbval-ignore-output"
            assert cell["metadata"].get("keep_output") is False and not cell["outputs"], where
        else:
            # Only a timing is reason enough to leave an output unchecked.
            assert nbval_compares(cell), f"{where} reads no clock, so nbval should compare it"
            for text in _output_texts(cell):
                found = TIMING_WORDS.search(text)
                assert not found, f"{where} prints {found.group()!r}: is it a timing?"


def adaptive_flows(notebook):
    """Names bound to a GradientFlow made without ``every``: such a flow measures one step
    in k, with k chosen from how long measuring takes, so its history depends on load."""
    names = set()
    for cell in notebook["cells"]:
        if cell["cell_type"] != "code":
            continue
        python = TransformerManager().transform_cell("".join(cell["source"]))
        for node in ast.walk(ast.parse(python)):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                call = node.value
                made = getattr(call.func, "id", getattr(call.func, "attr", None))
                if made == "GradientFlow" and "every" not in {k.arg for k in call.keywords}:
                    names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_no_checked_output_reads_a_flow_that_measures_as_load_allows(path):
    notebook = _load(path)
    flows = adaptive_flows(notebook)
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "code" or not nbval_compares(cell):
            continue
        source = "".join(cell["source"])
        for name in flows:
            assert not re.search(rf"\b{name}\.history\b", source), (
                f"{path.name}, cell {index} prints from {name}.history, but {name} measures one "
                "step in k as the machine's load allows: give it every=1"
            )


def test_flows_that_adapt_to_load_are_found():
    cells = [
        "flow = GradientFlow(model)\nfixed = ek.widgets.GradientFlow(model, every=1)",
        "other = widgets.GradientFlow(model, vanishing=1e-4)",
    ]
    notebook = {"cells": [{"cell_type": "code", "source": source} for source in cells]}
    assert adaptive_flows(notebook) == {"flow", "other"}


def test_every_widget_the_kit_exports_is_named_in_the_readme_and_shown_in_a_lesson():
    import eagerkit.widgets as widgets

    views = [name for name in widgets.__all__ if isinstance(getattr(widgets, name), type)]
    assert len(views) >= 4
    readme = (NOTEBOOKS.parent / "README.md").read_text()
    listed = readme.split("- **widgets**", 1)[1].split("\n- **", 1)[0]  # the README's list
    code = "\n".join(
        "".join(cell["source"]) for path in LESSONS for cell in _code_cells(_load(path))
    )
    for name in views:
        assert f"`{name}`" in listed, f"README's widget list does not name {name}"
        assert re.search(rf"\b{name}(\.\w+)?\(", code), f"no lesson shows a {name}"


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

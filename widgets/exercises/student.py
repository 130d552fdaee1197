"""Make the student copies of the lessons: the same notebooks with the solutions taken out.

Solutions live only in the instructor's lessons (``notebooks/``). A code cell tagged
``solution`` holds its answer between two marker lines::

    def huber(residual):
        ### BEGIN SOLUTION
        return ...the instructor's code...
        ### END SOLUTION

and the student copy keeps the rest of the cell, with ``...  # your code here`` (at the
marker's indentation) in place of the answer; the check cell after it then says "not
answered yet". ``### BEGIN SOLUTION: t = ...`` puts ``t = ...`` there instead, so a name
the check reads is still defined. Outputs and counts are cleared (``make student`` runs
the copies again).

    python -m eagerkit.widgets.exercises.student notebooks/ student/
"""

import json
import pathlib
import re
import sys

PLACEHOLDER = "# your code here"  # a comment only: checks never read it (placeholder.py)
BEGIN = re.compile(r"^(\s*)### BEGIN SOLUTION(?::\s*(.*\S))?\s*$")
END = re.compile(r"^\s*### END SOLUTION\s*$")


def strip_solution(source, where="a solution cell"):
    """The cell's source with each marked solution replaced by the placeholder.

    Examples
    --------
    >>> cell = "def f(x):\\n    ### BEGIN SOLUTION\\n    return x\\n    ### END SOLUTION"
    >>> print(strip_solution(cell))
    def f(x):
        ...  # your code here
    >>> print(strip_solution("### BEGIN SOLUTION: t = ...\\nt = 1.0\\n### END SOLUTION"))
    t = ...  # your code here
    """
    lines, out, inside = source.split("\n"), [], False
    for line in lines:
        begin = BEGIN.match(line)
        if begin and not inside:
            inside = True
            student = begin.group(2) or "..."  # "### BEGIN SOLUTION: t = ..." keeps the name
            out.append(f"{begin.group(1)}{student}  {PLACEHOLDER}")
        elif END.match(line) and inside:
            inside = False
        elif begin or END.match(line):
            raise ValueError(f"{where}: unbalanced ### BEGIN/END SOLUTION markers")
        elif not inside:
            out.append(line)
    if inside:
        raise ValueError(f"{where}: ### BEGIN SOLUTION without ### END SOLUTION")
    if len(out) == len(lines):
        raise ValueError(f"{where} is tagged 'solution' but has no ### BEGIN SOLUTION marker")
    return "\n".join(out)


def student_copy(notebook, name="notebook"):
    """A student copy of ``notebook`` (a dict in nbformat 4), outputs cleared."""
    copy = json.loads(json.dumps(notebook))
    for number, cell in enumerate(copy["cells"]):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        if "solution" in cell.get("metadata", {}).get("tags", []):
            source = strip_solution(source, f"{name}, cell {number}")
        elif "### BEGIN SOLUTION" in source:
            raise ValueError(
                f"{name}, cell {number}: solution markers in a cell not tagged 'solution'"
            )
        cell["source"] = source
        cell["outputs"], cell["execution_count"] = [], None
    return copy


def write_student_copies(source_dir, target_dir):
    """Write a student copy of every lesson in ``source_dir`` into ``target_dir``."""
    source_dir, target_dir = pathlib.Path(source_dir), pathlib.Path(target_dir)
    target_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for path in sorted(source_dir.glob("[0-9][0-9]_*.ipynb")):
        copy = student_copy(json.loads(path.read_text()), path.name)
        target = target_dir / path.name
        target.write_text(json.dumps(copy, indent=1, ensure_ascii=False) + "\n")
        written.append(target)
    return written


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python -m eagerkit.widgets.exercises.student NOTEBOOKS_DIR STUDENT_DIR")
    for path in write_student_copies(sys.argv[1], sys.argv[2]):
        print(path)

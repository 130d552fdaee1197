"""The lessons a lab opens, copied into a folder git does not track.

Working in a lesson (running it, JupyterLab's autosave) writes outputs and widget state
into the file. The lessons in notebooks/ are the course's source, which `make test`
compares, so a lab never opens them; it opens a copy:

    python binder/lessons.py student      student copies (solutions taken out) in student/
    python binder/lessons.py instructor   the instructor's lessons as they are, in instructor/

A copy made before is kept as it is: it holds the user's work (delete it for a fresh one).
Then it writes the JupyterLab workspace that opens the folder's first lesson, with the file
browser in that folder, to build/lab/ROLE-workspace.json for `jupyter lab workspaces import`.
`make lab` and `make instructor` run it; so does binder/postBuild, for Binder's students.
"""

import json
import pathlib
import shutil
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
ROLES = ("student", "instructor")  # each role's folder has the role's name
LESSONS = "[0-9][0-9]_*.ipynb"


def copy_lessons(role, root=ROOT):
    """Copy into ``root/role/`` every lesson of ``root/notebooks/`` that is not there yet.

    Returns the paths written (an existing copy is never overwritten).
    """
    if role not in ROLES:
        raise SystemExit(f"binder/lessons.py: the role is one of {', '.join(ROLES)}, not {role!r}")
    folder = root / role
    folder.mkdir(exist_ok=True)
    written = []
    for lesson in sorted((root / "notebooks").glob(LESSONS)):
        target = folder / lesson.name
        if target.exists():
            continue
        if role == "instructor":
            shutil.copyfile(lesson, target)
        else:
            # Imported here: Binder's postBuild runs this once eagerkit is installed.
            from eagerkit.widgets.exercises.student import student_copy

            copy = student_copy(json.loads(lesson.read_text()), lesson.name)
            target.write_text(json.dumps(copy, indent=1, ensure_ascii=False) + "\n")
        written.append(target)
    return written


def first_lesson(role, root=ROOT):
    """The path, from ``root``, of the lesson a lab for ``role`` opens on."""
    return f"{role}/{sorted((root / 'notebooks').glob(LESSONS))[0].name}"


def workspace(role, root=ROOT):
    """JupyterLab's default workspace: the first lesson open, the file browser in its folder."""
    lesson = first_lesson(role, root)
    return {
        "data": {
            "layout-restorer:data": {
                "main": {
                    "dock": {
                        "type": "tab-area",
                        "currentIndex": 0,
                        "widgets": [f"notebook:{lesson}"],
                    },
                    "current": f"notebook:{lesson}",
                },
                "left": {
                    "collapsed": False,
                    "visible": True,
                    "current": "filebrowser",
                    "widgets": ["filebrowser"],
                },
            },
            f"notebook:{lesson}": {"data": {"path": lesson, "factory": "Notebook"}},
            "file-browser-filebrowser:cwd": {"path": role},
        },
        "metadata": {"id": "default"},
    }


def main(argv, root=ROOT):
    if len(argv) != 1:
        raise SystemExit("usage: python binder/lessons.py student|instructor")
    (role,) = argv
    written = copy_lessons(role, root)
    path = root / "build" / "lab" / f"{role}-workspace.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(workspace(role, root), indent=1) + "\n")
    total = len(list((root / role).glob(LESSONS)))
    opens = first_lesson(role, root)
    print(f"{role}/: {total} lessons, {len(written)} copied now; the lab opens {opens}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

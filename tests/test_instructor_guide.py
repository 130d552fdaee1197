"""notebooks/README.md, the instructor's guide: every lesson listed, every reference real.

The guide maps each example of the source articles and each step of CS20 lecture 4 to a
lesson and a section, written ``[NN](NN_topic.ipynb) · Section heading``. A lesson renamed,
or a section retitled, must not leave the map pointing at nothing.
"""

import json
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
GUIDE = (NOTEBOOKS / "README.md").read_text()
REFERENCE = re.compile(r"\[(\d\d)\]\((\d\d_\w+\.ipynb)\) · ([^;|]+?)\s*(?=;|\|)")


def _headings(notebook):
    cells = json.loads((NOTEBOOKS / notebook).read_text())["cells"]
    return {
        line.lstrip("#").strip()
        for cell in cells
        if cell["cell_type"] == "markdown"
        for line in "".join(cell["source"]).splitlines()
        if line.startswith("#")
    }


def test_every_lesson_is_in_the_guide_and_nothing_else():
    lessons = {path.name for path in NOTEBOOKS.glob("*.ipynb")}
    listed = set(re.findall(r"^\| \[\d\d · [^]]+\]\((\d\d_\w+\.ipynb)\)", GUIDE, re.M))
    assert listed == lessons
    assert len(lessons) >= 14


def test_every_reference_names_a_section_of_that_lesson():
    references = REFERENCE.findall(GUIDE)
    assert len(references) > 80, "the map has a row per example and per lecture step"
    missing = []
    for number, notebook, section in references:
        assert notebook.startswith(number)
        if section not in _headings(notebook):
            missing.append(f"{notebook}: {section!r}")
    assert not missing, "sections the guide names but the lessons lack:\n" + "\n".join(missing)


def test_every_new_lesson_is_used_by_the_map():
    used = {notebook for _, notebook, _ in REFERENCE.findall(GUIDE)}
    for number in ["12", "13", "14", "15"]:
        assert any(name.startswith(number) for name in used), f"lesson {number} maps nothing"


def test_class_times_are_the_ones_the_lessons_state():
    listed = dict(
        re.findall(r"^\| \[\d\d · [^]]+\]\((\d\d_\w+\.ipynb)\) \| (\d+) min", GUIDE, re.M)
    )
    stated = {}
    for notebook in listed:
        opening = "".join(json.loads((NOTEBOOKS / notebook).read_text())["cells"][0]["source"])
        found = re.search(r"\*\*Class time:\*\* about (\d+) minutes", opening)
        if found:  # lessons 02-11 get their openings with their exercises
            stated[notebook] = found.group(1)
    assert {"01_hello_eager.ipynb", "12_write_your_own_op.ipynb"} <= set(stated)
    assert {n: listed[n] for n in stated} == stated, (
        "the class times in notebooks/README.md's lesson table must be the ones the openings state"
    )

"""Fill the repository into every Binder link, from one place.

The one place is ``Repository`` under ``[project.urls]`` in pyproject.toml. A fork changes
that line and runs ``make links``; the Binder badges of the README and the instructor's
guide then point at the fork. (A JupyterHub's nbgitpuller link names the repository of the
hand-out copies, which each course makes itself: the guide shows its form.)

    python binder/links.py           rewrite the links in place
    python binder/links.py --check   exit 1, naming each link, if one points elsewhere
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOCUMENTS = ["README.md", "notebooks/README.md"]
# Binder badges and launch links.
PATTERNS = [
    (re.compile(r"mybinder\.org/v2/gh/[\w.-]+/[\w.-]+/"), "mybinder.org/v2/gh/{owner}/{name}/"),
]


def repository(root=ROOT):
    """``(owner, name)`` from pyproject.toml's ``Repository = "https://github.com/owner/name"``."""
    text = (root / "pyproject.toml").read_text()
    found = re.search(r'^Repository = "https://github\.com/([\w.-]+)/([\w.-]+)"$', text, re.M)
    if not found:
        sys.exit(
            'pyproject.toml: [project.urls] needs Repository = "https://github.com/OWNER/NAME"'
        )
    return found.groups()


def fill(text, owner, name):
    for pattern, template in PATTERNS:
        text = pattern.sub(template.format(owner=owner, name=name), text)
    return text


def main(argv, root=ROOT):
    owner, name = repository(root)
    stale = []
    for document in DOCUMENTS:
        path = root / document
        text = path.read_text()
        filled = fill(text, owner, name)
        if filled != text:
            stale.append(document)
            if "--check" not in argv:
                path.write_text(filled)
    if stale and "--check" in argv:
        print(f"links in {', '.join(stale)} do not point at {owner}/{name}: run `make links`")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

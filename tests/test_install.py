"""A regular and an editable install both provide `eagerkit` and `eagerkit.widgets`.

pyproject maps the top-level widgets/ folder to the import `eagerkit.widgets`; these tests
install the checkout twice, into throw-away locations, and import from there in a fresh
interpreter started with `-S` so that the development install in .venv cannot answer instead.
"""

import json
import pathlib
import subprocess
import sys
import sysconfig
import zipfile
from importlib import metadata

from packaging.requirements import Requirement

ROOT = pathlib.Path(__file__).resolve().parents[1]
SITE_PACKAGES = sysconfig.get_paths()["purelib"]  # numpy & co. for the fresh interpreter

REPORT = """
import json, pathlib, sys
import eagerkit, eagerkit.widgets
widgets_dir = pathlib.Path(eagerkit.widgets.__file__).parent
print(json.dumps({
    "eagerkit": eagerkit.__file__,
    "widgets": eagerkit.widgets.__file__,
    "assets": sorted(
        str(p.relative_to(widgets_dir))
        for p in widgets_dir.rglob("*")
        if p.suffix in (".js", ".css")
    ),
}))
"""


def _import_report(setup, cwd):
    """Import eagerkit in `python -S` after `setup` (code that puts the install on sys.path)."""
    code = f"import site, sys\n{setup}\nsys.path.append({SITE_PACKAGES!r})\n{REPORT}"
    result = subprocess.run(
        [sys.executable, "-S", "-c", code], cwd=cwd, capture_output=True, text=True, check=True
    )
    return json.loads(result.stdout)


def _source_assets():
    folder = ROOT / "widgets"
    assets = sorted(
        str(p.relative_to(folder)) for p in folder.rglob("*") if p.suffix in (".js", ".css")
    )
    assert assets, "the widgets' front ends are plain .js/.css files in widgets/"
    return assets


def test_regular_install_ships_engine_widgets_and_their_front_end_files(tmp_path):
    target = tmp_path / "target"
    # --target never touches the environment's own install of eagerkit.
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation"]
    subprocess.run(pip + ["--target", str(target), "."], cwd=ROOT, check=True, capture_output=True)
    report = _import_report(f"sys.path.insert(0, {str(target)!r})", cwd=tmp_path)
    assert pathlib.Path(report["eagerkit"]).is_relative_to(target)
    assert pathlib.Path(report["widgets"]) == target / "eagerkit" / "widgets" / "__init__.py"
    assert report["assets"] == _source_assets()


def test_editable_install_maps_widgets_folder_to_eagerkit_widgets(tmp_path):
    # Build the editable wheel with setuptools' PEP 660 hook and unpack it, which is what pip
    # does; pip itself would first uninstall the development install from .venv.
    build = (
        "import sys; from setuptools import build_meta; "
        "print(build_meta.build_editable(sys.argv[1]))"
    )
    wheel_dir, site_dir = tmp_path / "wheel", tmp_path / "site"
    result = subprocess.run(
        [sys.executable, "-c", build, str(wheel_dir)],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    wheel_name = result.stdout.strip().splitlines()[-1]
    zipfile.ZipFile(wheel_dir / wheel_name).extractall(site_dir)
    # addsitedir runs the editable install's .pth hook, as Python's startup would.
    report = _import_report(f"site.addsitedir({str(site_dir)!r})", cwd=tmp_path)
    assert report["eagerkit"] == str(ROOT / "eagerkit" / "__init__.py")
    assert report["widgets"] == str(ROOT / "widgets" / "__init__.py")
    assert report["assets"] == _source_assets()


def test_every_dev_and_lab_requirement_is_installed():
    # A missing test dependency must fail the run here, not turn into skipped tests.
    problems = []
    for spec in metadata.requires("eagerkit"):
        requirement = Requirement(spec)
        marker = requirement.marker
        wanted = marker and any(marker.evaluate({"extra": e}) for e in ("dev", "lab"))
        if not wanted or requirement.name == "eagerkit":
            continue
        try:
            version = metadata.version(requirement.name)
        except metadata.PackageNotFoundError:
            problems.append(f"{requirement} is not installed")
            continue
        if not requirement.specifier.contains(version, prereleases=True):
            problems.append(f"{requirement} wanted, {version} installed")
    assert not problems, f"{problems}; `make test` installs them (pip install -e '.[dev]')"

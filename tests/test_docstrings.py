"""Run the ``Examples`` in every docstring of the eagerkit package as doctests.

The modules are found by walking the package (``eagerkit.widgets`` included), so a new module
is tested without being listed here, and a module that fails to import fails its test.
"""

import doctest
import importlib
import pkgutil

import numpy as np
import pytest

PACKAGES = ["eagerkit", "eagerkit.widgets"]  # widgets/ is installed as eagerkit.widgets


def _module_names():
    names = list(PACKAGES)
    failures = []
    for package in map(importlib.import_module, PACKAGES):
        for info in pkgutil.walk_packages(
            package.__path__, package.__name__ + ".", onerror=failures.append
        ):
            names.append(info.name)
    # A package that fails to import while walking is still listed, so its test fails.
    return sorted(set(names) | set(failures))


MODULES = _module_names()


def test_the_walk_finds_the_engine_modules():
    for name in ["eagerkit.tensor", "eagerkit.tape", "eagerkit.ops.math", "eagerkit.testing"]:
        assert name in MODULES


# What the examples' outputs are written under: numpy's own print options (the defaults
# np.set_printoptions documents), whatever an earlier test in this process left (a lesson's
# np.set_printoptions(precision=4) run by a test).
NUMPY_PRINT_DEFAULTS = dict(
    edgeitems=3,
    threshold=1000,
    floatmode="maxprec",
    precision=8,
    suppress=False,
    linewidth=75,
    nanstr="nan",
    infstr="inf",
    sign="-",
    formatter=None,
    legacy=False,
)


def run_examples(name):
    """``(failed, report)``: how many examples in module ``name``'s docstrings failed, and
    the doctest runner's report of them."""
    module = importlib.import_module(name)  # an import error fails the test
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    with np.printoptions(**NUMPY_PRINT_DEFAULTS):
        for test in finder.find(module, name):  # each example sees the module's globals, as testmod
            runner.run(test, out=_Collector.write)
    return runner.summarize(verbose=False).failed, _Collector.flush()


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    failed, report = run_examples(name)
    assert failed == 0, f"{failed} doctest example(s) failed in {name}:\n{report}"


def test_the_examples_pass_whatever_print_options_were_set_before():
    with np.printoptions(precision=4, suppress=True):  # as lessons 04, 07, 09 and 13 set them
        failed, report = run_examples("eagerkit.ops.math")  # prints float64 values
        assert np.get_printoptions()["precision"] == 4  # and the caller's are back afterwards
    assert failed == 0, report


class _Collector:
    """Gathers the doctest runner's failure reports for the assertion message."""

    parts = []

    @classmethod
    def write(cls, text):
        cls.parts.append(text)

    @classmethod
    def flush(cls):
        text, cls.parts = "".join(cls.parts), []
        return text

"""Run the ``Examples`` in every docstring of the eagerkit package as doctests.

The modules are found by walking the package (``eagerkit.widgets`` included), so a new module
is tested without being listed here, and a module that fails to import fails its test.
"""

import doctest
import importlib
import pkgutil

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


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)  # an import error fails the test
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in finder.find(module, name):  # each example sees the module's globals, as testmod
        runner.run(test, out=_Collector.write)
    results = runner.summarize(verbose=False)
    assert results.failed == 0, f"{results.failed} doctest example(s) failed in {name}:\n" + (
        _Collector.flush()
    )
    _Collector.flush()


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

"""The engine's core does not import the Keras-style pieces built on top of it.

Keras layers and the functional API import the engine; the engine reaches them only through
hooks they install (``boundary.install_symbolic_fallback``). An import the other way, even
one deferred into a function, would tie every engine file into one circle with Keras.
"""

import ast
import pathlib

import pytest

ENGINE = pathlib.Path(__file__).resolve().parent.parent / "eagerkit"
CORE = [
    "backprop.py",
    "boundary.py",
    "device_class.py",
    "device_scope.py",
    "devices.py",
    "dispatch.py",
    "fast_dispatch.py",
    "fast_sweep.py",
    "op_errors.py",
    "operands.py",
    "placement.py",
    "recording.py",
    "registry.py",
    "tape.py",
    "tensor.py",
    "variables.py",
]


def imported_modules(path):
    """Every module ``path`` imports, at the top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


@pytest.mark.parametrize("name", CORE)
def test_core_file_does_not_import_keras(name):
    keras = sorted(m for m in imported_modules(ENGINE / name) if m.startswith("eagerkit.keras"))
    assert keras == [], f"{name} imports {keras}"


@pytest.mark.parametrize("name", ["dispatch.py", "fast_dispatch.py"])
def test_dispatch_does_not_import_variables(name):
    # variables.py imports both; they tell a Variable by x._is_variable or the class it sets
    assert "eagerkit.variables" not in imported_modules(ENGINE / name)


def test_the_check_sees_deferred_imports(tmp_path):
    source = tmp_path / "sample.py"
    source.write_text("def f():\n    from eagerkit.keras import symbolic\n")
    assert "eagerkit.keras.symbolic" in imported_modules(source)

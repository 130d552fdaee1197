"""TF names eagerkit lacks say so (eagerkit/missing_names.py): every entry of the table,
every public namespace names itself as the user wrote it, and what must not change: hasattr,
Python's "Did you mean" for typos, dunder lookups, ek.print."""

import functools
import subprocess
import sys

import pytest

import eagerkit as ek
from eagerkit.missing_names import MISSING

ENTRIES = [(module, name) for module, names in MISSING.items() for name in names]
# Every public namespace, by the path users write: ek and each of ek.PUBLIC_NAMESPACES.
NAMESPACES = {"eagerkit": ek} | {
    f"eagerkit.{dotted}": functools.reduce(getattr, dotted.split("."), ek)
    for dotted in ek.PUBLIC_NAMESPACES
}


def _error_of(module, name):
    with pytest.raises(AttributeError) as caught:
        getattr(module, name)
    return caught.value


@pytest.mark.parametrize("module_name, name", ENTRIES)
def test_each_missing_tf_name_says_eagerkit_lacks_it_and_what_to_use(module_name, name):
    module = NAMESPACES[module_name]
    assert name not in vars(module) and not hasattr(module, name)
    message = str(_error_of(module, name))
    tf_name = "tf" + module_name.removeprefix("eagerkit") + f".{name}"
    assert message.startswith(f"module '{module_name}' has no attribute '{name}': ")
    assert f"eagerkit, a teaching subset of TensorFlow, has no {tf_name}." in message
    instead = MISSING[module_name][name]
    assert message.endswith(f"Instead: {instead}" if instead else f"has no {tf_name}.")


def test_every_module_in_the_table_answers_through_its_getattr():
    assert set(MISSING) <= set(NAMESPACES)
    for module_name in NAMESPACES:
        assert "__getattr__" in vars(NAMESPACES[module_name]), module_name


@pytest.mark.parametrize("path", sorted(NAMESPACES))
def test_each_public_namespace_names_itself_as_the_user_wrote_it(path):
    # ek.losses is eagerkit.keras.tf1_losses and ek.layers holds Keras' layers, yet a missing
    # name is reported under the namespace the user typed, never a module they did not.
    module = NAMESPACES[path]
    error = _error_of(module, "no_such_name_here")
    assert str(error) == f"module '{path}' has no attribute 'no_such_name_here'"
    assert error.name == "no_such_name_here" and error.obj is module
    assert not hasattr(module, "no_such_name_here")


def test_the_tf1_names_of_keras_namespaces_hold_the_same_members():
    for tf1, keras in ((ek.layers, ek.keras.layers), (ek.initializers, ek.keras.initializers)):
        assert tf1 is not keras and tf1.__all__ == keras.__all__
        assert all(getattr(tf1, name) is getattr(keras, name) for name in keras.__all__)
    assert ek.layers.MaxPool2D is ek.keras.layers.MaxPooling2D
    import eagerkit.layers  # noqa: F401 - the second name is importable too

    assert sys.modules["eagerkit.layers"] is ek.layers


TYPOS = {"ek": ("matmull", "matmul"), "ek.keras": ("Sequentail", "Sequential")}
TYPOS["ek.keras.layers"] = ("Dens", "Dense")
TYPOS["ek.losses"] = ("huber_los", "huber_loss")
TYPOS["ek.nn"] = ("sofmax", "softmax")
# Python shows the suggestion itself when it prints the error (3.11: in C, from .name/.obj).
SHOW_EACH = """
import sys, eagerkit as ek
for module, typo in {typos}:
    try:
        getattr(eval(module), typo)
    except AttributeError:
        sys.excepthook(*sys.exc_info())
"""


def test_a_typo_still_gets_pythons_did_you_mean():
    typos = [(module, typo) for module, (typo, _) in TYPOS.items()]
    script = SHOW_EACH.format(typos=typos)
    shown = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    ).stderr
    for typo, meant in TYPOS.values():
        assert f"has no attribute '{typo}'. Did you mean: '{meant}'?" in shown, shown


@pytest.mark.parametrize("path", sorted(NAMESPACES))
@pytest.mark.parametrize(
    "probe", ["__wrapped__", "__file__x", "_ipython_canary_method_should_not_exist_", "__test__"]
)
def test_dunders_and_tool_probes_get_pythons_plain_error(path, probe):
    module = NAMESPACES[path]
    error = _error_of(module, probe)
    assert str(error) == f"module '{path}' has no attribute '{probe}'"
    assert error.name == probe and error.obj is module
    assert not hasattr(module, probe)
    assert module.__name__ and module.__doc__  # real dunders are untouched


def test_ek_print_is_still_found_and_star_import_keeps_pythons_print():
    from eagerkit.printing import print_tensors

    assert ek.print is print_tensors
    names = {}
    exec("from eagerkit import *", names)  # noqa: S102 - what a notebook's first cell does
    assert "print" not in names and "matmul" in names


@pytest.mark.parametrize("name", ["map_fn", "vectorized_map"])
def test_a_map_over_rows_is_told_the_whole_batch_way_first(name):
    """Lesson 14 asks for one op over the whole batch (exercise 14.1: no loop); the advice
    must not send a student who reaches for tf.map_fn to a Python loop first, nor give
    14.1's answer away."""
    error = _error_of(ek, name)
    instead = str(error).split("Instead: ", 1)[1]
    assert instead.startswith("write the function for the whole batch at once")
    assert "sqrt" not in instead and "x * x" not in instead

"""TF names eagerkit lacks say so (eagerkit/missing_names.py): every entry of the table, and
what must not change: hasattr, Python's "Did you mean" for typos, dunder lookups, ek.print."""

import subprocess
import sys

import pytest

import eagerkit as ek
from eagerkit.missing_names import MISSING, TF_PREFIX

ENTRIES = [(module, name) for module, names in MISSING.items() for name in names]


def _error_of(module, name):
    with pytest.raises(AttributeError) as caught:
        getattr(module, name)
    return caught.value


@pytest.mark.parametrize("module_name, name", ENTRIES)
def test_each_missing_tf_name_says_eagerkit_lacks_it_and_what_to_use(module_name, name):
    module = sys.modules[module_name]
    assert name not in vars(module) and not hasattr(module, name)
    message = str(_error_of(module, name))
    tf_name = f"{TF_PREFIX[module_name]}.{name}"
    assert message.startswith(f"module '{module_name}' has no attribute '{name}': ")
    assert f"eagerkit, a teaching subset of TensorFlow, has no {tf_name}." in message
    instead = MISSING[module_name][name]
    assert message.endswith(f"Instead: {instead}" if instead else f"has no {tf_name}.")


def test_every_module_in_the_table_answers_through_its_getattr():
    assert set(MISSING) == set(TF_PREFIX) == {"eagerkit", "eagerkit.keras", "eagerkit.keras.layers"}
    for module_name in MISSING:
        assert "__getattr__" in vars(sys.modules[module_name]), module_name


TYPOS = {"ek": ("matmull", "matmul"), "ek.keras": ("Sequentail", "Sequential")}
TYPOS["ek.keras.layers"] = ("Dens", "Dense")
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
    for module in (ek, ek.keras, ek.keras.layers):
        error = _error_of(module, "typo_here")
        assert str(error) == f"module '{module.__name__}' has no attribute 'typo_here'"
        assert error.name == "typo_here" and error.obj is module
    typos = [(module, typo) for module, (typo, _) in TYPOS.items()]
    script = SHOW_EACH.format(typos=typos)
    shown = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    ).stderr
    for typo, meant in TYPOS.values():
        assert f"has no attribute '{typo}'. Did you mean: '{meant}'?" in shown, shown


@pytest.mark.parametrize("module", [ek, ek.keras, ek.keras.layers])
@pytest.mark.parametrize(
    "probe", ["__wrapped__", "__file__x", "_ipython_canary_method_should_not_exist_", "__test__"]
)
def test_dunders_and_tool_probes_get_pythons_plain_error(module, probe):
    error = _error_of(module, probe)
    assert str(error) == f"module '{module.__name__}' has no attribute '{probe}'"
    assert error.name == probe and error.obj is module
    assert not hasattr(module, probe)
    assert module.__name__ and module.__spec__ is not None  # real dunders are untouched


def test_ek_print_is_still_found_and_star_import_keeps_pythons_print():
    from eagerkit.printing import print_tensors

    assert ek.print is print_tensors
    names = {}
    exec("from eagerkit import *", names)  # noqa: S102 - what a notebook's first cell does
    assert "print" not in names and "matmul" in names

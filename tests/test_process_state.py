"""A test leaves the process as it found it: the ops it registered, the print options it
set and the layer names it used up are gone for the next test (tests/process_state.py,
kept around every test by tests/conftest.py). Without that, lesson 12's ops (run by
test_widgets_tape_sources.py) failed test_ops_grad.py's census of primitives, lesson 07's
``precision=4`` the doctests, and the Keras guide's layers the default names
test_functional.py reads (``ek.std`` became ``ek.std_1``), whenever those ran later in the
same process."""

import numpy as np
import process_state

import eagerkit as ek
from eagerkit.registry import REGISTRY, all_ops, defop


def lesson_cells():
    """What lessons 12 and 07 do to the process: register an op, print 4 decimals."""

    @defop("my_sqrt")
    def my_sqrt(xp, x):
        return xp.sqrt(x)

    my_sqrt.defvjp(lambda ops, g, ans, x: g / (2.0 * ans))
    np.set_printoptions(precision=4, suppress=True)
    return ek.keras.layers.Dense(1).name  # the default name it used up ("dense_1", ...)


def test_kept_puts_back_the_ops_the_print_options_and_the_layer_names_a_lesson_changed():
    ops, printing = dict(REGISTRY), np.get_printoptions()
    with process_state.kept():
        used = lesson_cells()
        assert "my_sqrt" in REGISTRY and np.get_printoptions()["precision"] == 4
    assert REGISTRY == ops and np.get_printoptions() == printing
    assert ek.keras.layers.Dense(1).name == used  # the name the lesson used up is free again


def test_a_test_may_change_them():
    lesson_cells()  # the next test, run after this one in the same process, must not see it


def test_the_next_test_finds_only_the_kits_ops_and_numpys_print_options():
    strangers = [op.name for op in all_ops() if not op.forward.__module__.startswith("eagerkit.")]
    assert strangers == [], f"ops registered by an earlier test: {strangers}"
    assert np.get_printoptions()["precision"] == 8 and not np.get_printoptions()["suppress"]
    assert ek.keras.layers.Dense(1).name == "dense"  # no earlier test's Dense took it

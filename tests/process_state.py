"""What a test can change for every later test in its process, and putting it back.

A lesson's cells run inside a test (tests/test_widgets_tape_sources.py runs every lesson
that draws a tape) register ops with ``defop`` (lesson 12) and set numpy's print options
(``np.set_printoptions(precision=4)``, lessons 04, 07, 09, 13), and every Keras layer made
counts towards the next default name (``dense_3``). All three are the process's: left
behind, they fail unrelated tests that happen to run later in the same process (the
differentiable-primitive census of test_ops_grad.py, the doctests, a test that reads a
layer's default name). tests/conftest.py keeps them around every test with ``kept()``.
"""

import contextlib

import numpy as np

from eagerkit.keras.layers import base as layer_base
from eagerkit.registry import REGISTRY


@contextlib.contextmanager
def kept():
    """Run the block, then put back the op registry, numpy's print options and the layer
    name counts as they were."""
    ops = dict(REGISTRY)
    printing = np.get_printoptions()
    names = dict(layer_base._name_counts)
    try:
        yield
    finally:
        REGISTRY.clear()  # in place: dispatch and the widgets hold this dict itself
        REGISTRY.update(ops)
        np.set_printoptions(**printing)
        layer_base._name_counts.clear()  # in place: base.py's functions hold this dict
        layer_base._name_counts.update(names)

"""What the property test of the public API calls, and with what (tests/test_public_api.py).

The callables are found, not listed: every public function and class of TF's namespaces
(``ek.PUBLIC_NAMESPACES``, the same walk the error boundary wraps), then every public method
of an instance of each class that can be built from a simple argument. A name added to a
namespace tomorrow is fuzzed tomorrow.
"""

import inspect
import math
import os
import tempfile

import numpy as np

import eagerkit as ek
from eagerkit import namespaces

# Parameters that count things or pick axes: a fractional value there must be refused,
# never truncated (1.5 units is not 1 unit).
INTEGER_PARAMETERS = frozenset(
    """axis axes depth num units size k n count multiples repeats shift filters kernel_size
    strides pool_size batch_size buffer_size num_or_size_splits dim rank max_iterations
    history_size max_to_keep steps epochs output_dim input_dim num_classes seed maxlen
    num_parallel_calls num_epochs dims perm block_size num_rows num_columns""".split()
)
# Deliberate truncation, named as such by TF: cast(1.5, int32) is 1 by definition.
TRUNCATES_BY_DESIGN = frozenset({"cast", "saturate_cast", "floor", "floordiv", "round"})
CONSTRUCTOR_ARGUMENTS = [(), (0.1,), (3,), (ek.ones([2, 3]),), ([1.0, 2.0],), ("x",)]
FRACTIONS = (1.5, -2.5, 0.5)


# The one public name whose construction stays outside the error boundary, and why.
NOT_FUZZED = {
    "ek.Tensor": "made by ops, never by users (use ek.constant, as with tf.Tensor); its "
    "constructor runs on every op, so it carries no boundary",
    "ek.UnconnectedGradients": "an Enum: calling it looks a value up inside the standard "
    "library's EnumType (an unknown value is refused with its ValueError)",
}


def public_namespaces():
    return namespaces.module_namespaces(ek, ek.PUBLIC_NAMESPACES)


def public_callables():
    """``{name: callable}`` for every distinct public function and class, by first name."""
    found, seen = {}, set()
    for module, attribute, value in namespaces.public_members(public_namespaces()):
        if id(value) not in seen:
            seen.add(id(value))
            found[f"{module.__name__.replace('eagerkit', 'ek', 1)}.{attribute}"] = value
    return found


def fuzzed_callables():
    """The public callables, less the documented exceptions in NOT_FUZZED."""
    return {k: v for k, v in public_callables().items() if k not in NOT_FUZZED}


def public_methods(classes):
    """``{name: (factory, method name)}`` for the public methods of buildable classes."""
    found = {}
    for class_name, cls in classes.items():
        arguments = _buildable_with(cls)
        if arguments is None:
            continue
        for method in _method_names(cls):
            found[f"{class_name}.{method}"] = (cls, arguments, method)
    return found


def _buildable_with(cls):
    """The first of CONSTRUCTOR_ARGUMENTS that builds ``cls`` (tried in a scratch directory:
    a summary writer built from ``"x"`` makes a folder ``x``), or None."""
    here = os.getcwd()
    os.chdir(tempfile.mkdtemp(prefix="ek-public-api-"))
    try:
        return _first_that_builds(cls)
    finally:
        os.chdir(here)


def _first_that_builds(cls):
    for arguments in CONSTRUCTOR_ARGUMENTS:
        try:
            cls(*arguments)
        except Exception:  # noqa: BLE001 - looking for arguments that work
            continue
        return arguments
    return None


def _method_names(cls):
    names = []
    for name in dir(cls):
        if name.startswith("_") and name != "__call__":
            continue
        member = inspect.getattr_static(cls, name)
        if isinstance(member, (staticmethod, classmethod)):
            member = member.__func__
        if inspect.isfunction(member) and namespaces.ours(member):
            names.append(name)
    return names


def value_pool():
    """Good and bad arguments alike: tensors of every kind, and what students get wrong."""
    ragged = [[1.0, 2.0], [3.0]]
    return [
        ek.constant(1.5),
        ek.constant([1.0, -2.0, 3.0]),
        ek.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
        ek.constant([[1, 2], [3, 4]]),
        ek.constant(np.array([0.5, 2.0])),  # float64
        ek.constant([True, False]),
        ek.constant([math.nan, math.inf, -math.inf]),
        ek.zeros([0]),
        ek.zeros([2, 0]),
        ek.ones([1, 4, 4, 3]),  # an image batch
        ek.Variable([[1.0, 2.0], [3.0, 4.0]], name="pool_var"),
        ek.Variable(7, dtype=ek.int64, trainable=False, name="pool_step"),
        None,
        "abc",
        b"bytes",
        0,
        1,
        2,
        -1,
        3,
        *FRACTIONS,
        1e30,
        2**40,
        -(2**63),
        math.nan,
        math.inf,
        True,
        [],
        ragged,
        [1.0, 2.0],
        [[1.0, 2.0], [3.0, 4.0]],
        (2, 3),
        np.array([1.0, 2.0, 3.0]),
        np.array(4.0),
        np.array([object(), 1], dtype=object),
        1j,
        {},
        {"a": 1.0},
        ek.float32,
        ek.int32,
        "float32",
        lambda: ek.constant(1.0),
        object(),
        ek.keras.Input(shape=[3], name="pool_input"),  # a symbolic tensor (functional API)
    ]


def is_fraction(value):
    return type(value) is float and math.isfinite(value) and value != int(value)

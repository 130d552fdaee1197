"""TF's ordering helpers, which eager execution makes trivial: ``control_dependencies``,
``no_op`` and ``group``.

Eagerly every op has run by the time the next line starts, and inside ``ek.function``
effects (assignments, prints, assertions) run in the order the code asked for them, so
there is nothing left to order: as in TF 2, these do nothing and let ported code run.

Examples
--------
>>> import eagerkit as ek
>>> v = ek.Variable(1.0)
>>> with ek.control_dependencies([v.assign_add(1.0)]):
...     doubled = v * 2
>>> float(doubled)
4.0
"""

import contextlib


@contextlib.contextmanager
def control_dependencies(control_inputs):
    """Run what is inside after ``control_inputs``: always so in eagerkit (TF 2's eager
    ``control_dependencies`` does nothing either)."""
    yield


def no_op(name=None):
    """Does nothing (TF's op of that name); returns None, as TF 2 eagerly."""


def group(*inputs, name=None):
    """Waits for ``inputs``, which have run already; returns None, as TF 2 eagerly."""

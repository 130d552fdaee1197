"""Valid calls of graph's control flow and tracing API (issue 19, ek/graph): ``ek.cond``,
``ek.while_loop``, ``ek.py_function``, ``ek.TensorArray``, ``ek.init_scope``,
``ek.config.run_functions_eagerly`` and what ``ek.function`` returns that prints itself.

Declared only where that API is there: ek/graph and ek/surface land in either order, and
the walk (test_every_public_callable_has_a_declared_valid_call) holds on each side.
"""

import numpy as np

import eagerkit as ek

from .declare import call, fresh


def _array():
    """A TensorArray holding 1.0 and 2.0."""
    return ek.TensorArray(ek.float32, size=2).write(0, 1.0).write(1, 2.0)


def _values(expected):
    return lambda result: result.numpy().tolist() == expected


CALLS = {}
if hasattr(ek, "while_loop"):
    CALLS = {
        "ek.cond": call(ek.constant(True), lambda: 1.0, lambda: 2.0, check=lambda r: r == 1.0),
        # A bad body or start that never brings cond to False (np.float32 as the body keeps
        # i at 0; loop_vars=-inf stays -inf; -(2**63) needs 2**63 steps) loops forever in
        # TF too: the user's loop, no hang of eagerkit's. maximum_iterations bounds the
        # fuzzed calls so the walk ends (test_bounded_work shows such loops end there).
        "ek.while_loop": call(
            lambda i: i < 3,
            lambda i: i + 1,
            [0],
            maximum_iterations=1000,
            check=lambda r: int(r[0]) == 3,
        ),
        "ek.py_function": call(
            lambda x: x * 2, [ek.constant(1.0)], ek.float32, check=lambda r: float(r) == 2.0
        ),
        "ek.numpy_function": call(
            np.cumsum,
            [ek.constant([1, 2, 3])],
            ek.int64,
            check=lambda r: r.numpy().tolist() == [1, 3, 6],
        ),
        "ek.init_scope": call(),
        "ek.config.run_functions_eagerly": call(False, check=lambda r: r is None),
        "ek.config.functions_run_eagerly": call(check=lambda r: r is False),
        "ek.TensorArray": call(ek.float32, size=2, check=lambda r: int(r.size()) == 2),
        "ek.TensorArray.__repr__": call(on=_array, check=lambda r: "TensorArray" in r),
        "ek.TensorArray.read": call(1, on=_array, check=_values(2.0)),
        "ek.TensorArray.write": call(0, 5.0, on=_array, check=lambda r: float(r.read(0)) == 5.0),
        "ek.TensorArray.stack": call(on=_array, check=_values([1.0, 2.0])),
        "ek.TensorArray.unstack": call(
            fresh(lambda: ek.constant([3.0, 4.0])), on=_array, check=lambda r: int(r.size()) == 2
        ),
        "ek.TensorArray.gather": call([1], on=_array, check=_values([2.0])),
        "ek.TensorArray.concat": call(
            on=lambda: ek.TensorArray(ek.float32, size=1).write(0, [1.0, 2.0]),
            check=_values([1.0, 2.0]),
        ),
        "ek.TensorArray.size": call(on=_array, check=_values(2)),
        "ek.TensorArray.close": call(on=_array),
        "ek.TensorArray.identity": call(on=_array, check=lambda r: int(r.size()) == 2),
        "ek.function().pretty_printed_concrete_signatures": call(
            check=lambda r: isinstance(r, str)
        ),
        "ek.function().get_concrete_function().__str__": call(
            check=lambda r: "Input Parameters" in r
        ),
        "ek.function().get_concrete_function().signature_text": call(
            check=lambda r: "TensorSpec" in r
        ),
    }

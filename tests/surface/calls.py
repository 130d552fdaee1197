"""Every declared valid call (the ``calls_*`` tables), and how answers are compared."""

import numpy as np

import eagerkit as ek

from . import (
    calls_constraints,
    calls_core,
    calls_data,
    calls_graph,
    calls_keras,
    calls_layers,
    calls_math,
    calls_misc,
    calls_nn,
    calls_symbolic,
    calls_tensor,
    calls_tf2,
    calls_train,
    calls_training,
)

TABLES = (
    calls_core,
    calls_nn,
    calls_layers,
    calls_keras,
    calls_constraints,
    calls_train,
    calls_data,
    calls_tensor,
    calls_tf2,
    calls_symbolic,
    calls_misc,
    calls_math,
    calls_graph,
    calls_training,
)


def table():
    """``{entry name: Call}`` from every table; a name declared twice is an error."""
    merged = {}
    for module in TABLES:
        for name, declared in module.CALLS.items():
            assert name not in merged, f"{name} is declared twice"
            merged[name] = declared
    return merged


def assert_same(result, expected, what):
    """``result`` holds the values of ``expected`` (a tensor, array, number or a list,
    tuple or dict of them), with its shape, and its dtype when both are tensors."""
    if isinstance(expected, dict):
        assert isinstance(result, dict) and set(result) == set(expected), what
        for key in expected:
            assert_same(result[key], expected[key], f"{what}[{key!r}]")
    elif isinstance(expected, (list, tuple)) and isinstance(result, (list, tuple)):
        assert isinstance(result, (list, tuple)) and len(result) == len(expected), what
        for i, (r, e) in enumerate(zip(result, expected, strict=True)):
            assert_same(r, e, f"{what}[{i}]")
    elif isinstance(expected, (str, bytes)):
        assert result == expected, f"{what}: {result!r} != {expected!r}"
    elif expected is None or not _is_array_like(expected) and not isinstance(expected, list):
        assert type(result) is type(expected), f"{what}: {type(result)} != {type(expected)}"
    else:
        if isinstance(result, ek.Tensor) and isinstance(expected, ek.Tensor):
            assert result.dtype == expected.dtype, f"{what}: {result.dtype} != {expected.dtype}"
        got, want = np.asarray(result), np.asarray(expected)
        assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
        if want.dtype.kind in "biufc" and got.dtype.kind in "biufc":
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=what)
        else:
            np.testing.assert_array_equal(got, want, err_msg=what)


def _is_array_like(value):
    return isinstance(value, (ek.Tensor, np.ndarray, np.generic, int, float, bool, complex, tuple))

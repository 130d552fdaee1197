"""Every differentiable op passes a numerical gradient check to second order.

The cases live in tests/op_cases.py (one or more per op, each with inputs from the op's
domain). ``test_every_differentiable_primitive_has_a_case`` reads the registry, so a new
primitive without a case fails here instead of going untested.
"""

import numpy as np
import pytest
from op_cases import cases

import eagerkit as ek
from eagerkit.registry import REGISTRY, all_ops, defop
from eagerkit.testing import check_grads

CASES = cases()


@pytest.mark.parametrize(("name", "fn", "args"), CASES, ids=[name for name, _, _ in CASES])
def test_gradients_match_finite_differences_to_second_order(name, fn, args):
    check_grads(fn, *args, order=2)


def _primitives_reached(fn, args):
    """Names of the primitives ``fn`` runs on the tape when called on ``args``."""
    tensors = [ek.constant(a) for a in args]
    with ek.GradientTape() as tape:
        tape.watch(tensors)
        fn(*tensors)
    return {record.op.name for record in tape.records}


def _uncovered():
    """Differentiable primitives that no case reaches."""
    reached = set()
    for _, fn, args in CASES:
        reached |= _primitives_reached(fn, args)
    return [op.name for op in all_ops() if op.differentiable and op.name not in reached]


def test_every_differentiable_primitive_has_a_case():
    missing = _uncovered()
    assert not missing, (
        f"differentiable primitives with no gradient-check case: {missing}. Add a "
        "(name, fn, args) entry for each to the table in tests/op_cases.py (fn takes float "
        "inputs from the op's domain, away from kinks and ties)."
    )


def test_every_differentiable_primitive_has_a_vjp():
    """A differentiable op without VJPs would silently pass no gradient at all."""
    lacking = [
        op.name
        for op in all_ops()
        if op.differentiable and op.nin is not None and all(v is None for v in op.vjps)
    ]
    assert not lacking, f"differentiable primitives without a VJP (call .defvjp): {lacking}"


@pytest.fixture
def untested_op():
    """A differentiable primitive registered for one test and removed afterwards."""
    name = "untested_double"

    @defop(name, dtypes=ek.dtypes.FLOATING)
    def double(xp, x):
        return x * 2

    double.defvjp(lambda ops, g, ans, x: g * 2)
    yield name
    del REGISTRY[name]


def test_a_new_primitive_without_a_case_is_reported(untested_op):
    missing = _uncovered()
    assert untested_op in missing and "add" not in missing


def test_case_names_are_unique_and_inputs_are_float64():
    names = [name for name, _, _ in CASES]
    assert len(names) == len(set(names))
    for name, _, args in CASES:
        for a in args:
            assert np.asarray(a).dtype == np.float64, name


def test_cast_passes_float32_gradients_back_as_float32():
    x = ek.constant([1.5, -2.0])
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = ek.cast(x, ek.float64) * 2.0
    grad = tape.gradient(y, x)
    assert grad.dtype == ek.float32
    np.testing.assert_array_equal(grad.numpy(), [2.0, 2.0])


def test_non_differentiable_primitives_pass_no_gradient():
    x = ek.constant([1.4, -2.6])
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = ek.round(x) + ek.floor(x) + ek.ceil(x) + ek.sign(x) + ek.stop_gradient(x)
        y = y + x // 1.0
    assert tape.records == []  # nothing differentiable ran on x
    assert tape.gradient(y, x) is None

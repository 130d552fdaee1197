"""The two ``ops`` a VJP can get agree: raw arrays (fast) and Tensors (the reference).

Every case of the op-case table is differentiated twice, once with the VJPs on raw arrays
(``ArrayOps``, what runs when no outer tape records) and once forced onto Tensors
(``TensorOps``, with ``backprop.tensor_vjps()``); the gradients must be identical.
"""

import inspect

import numpy as np
import pytest
from op_cases import cases

import eagerkit as ek
from eagerkit import backprop, registry

CASES = cases()


def _gradients(fn, args):
    tensors = [ek.constant(a) for a in args]
    with ek.GradientTape() as tape:
        tape.watch(tensors)
        y = fn(*tensors)
    return tape.gradient(y, tensors)


@pytest.mark.parametrize(("name", "fn", "args"), CASES, ids=[name for name, _, _ in CASES])
def test_array_ops_and_tensor_ops_give_the_same_gradients(name, fn, args):
    fast = _gradients(fn, args)
    with backprop.tensor_vjps():
        reference = _gradients(fn, args)
    for g_fast, g_reference in zip(fast, reference, strict=True):
        assert (g_fast is None) == (g_reference is None), name
        if g_fast is not None:
            assert g_fast.dtype == g_reference.dtype, name
            np.testing.assert_array_equal(g_fast.numpy(), g_reference.numpy(), err_msg=name)


def test_the_mode_decides_which_ops_a_vjp_gets():
    seen = []

    @registry.defop("spy_double", dtypes=ek.dtypes.FLOATING)
    def spy_double(xp, x):
        return x * 2

    spy_double.defvjp(lambda ops, g, ans, x: seen.append(type(ops).__name__) or g * 2)
    try:
        x = ek.constant(1.0)
        for force in (False, True):
            with ek.GradientTape() as tape:
                tape.watch(x)
                y = spy_double(x)
            if force:
                with backprop.tensor_vjps():
                    assert float(tape.gradient(y, x)) == 2.0
            else:
                assert float(tape.gradient(y, x)) == 2.0
    finally:
        del registry.REGISTRY["spy_double"]
    assert seen == ["ArrayOps", "TensorOps"]


def test_tensor_vjps_restores_the_fast_mode_after_an_error():
    with pytest.raises(ZeroDivisionError), backprop.tensor_vjps():
        1 / 0  # noqa: B018
    assert backprop._vjps_on_tensors() is False


@pytest.mark.parametrize(
    ("op", "shown"),
    [
        (ek.exp, "(x, name=None)"),
        (ek.multiply, "(x, y, name=None)"),
        (ek.reduce_sum, "(input_tensor, axis=None, keepdims=False, name=None)"),
    ],
)
def test_public_ops_show_their_public_signature(op, shown):
    assert str(inspect.signature(op)) == shown


def test_reductions_take_axis_and_keepdims_by_position_as_in_tf():
    x = ek.constant([[1.0, 2.0], [3.0, 4.0]])
    assert ek.reduce_sum(x, 0, True).shape == (1, 2)
    assert ek.reduce_max(x, 1).numpy().tolist() == [2.0, 4.0]
    assert float(ek.reduce_mean(x, name="mean")) == 2.5
    assert float(ek.exp(0.0, "named")) == 1.0  # TF's name, by position, is accepted


def test_one_way_to_declare_an_op_leaves_no_stray_names():
    from eagerkit.ops import concat_split, shape

    assert callable(shape._tile_vjp) and callable(concat_split._concat_vjp)
    for op in registry.all_ops():
        assert callable(op.call) and registry.REGISTRY[op.name] is op
        assert isinstance(op.vjps, tuple), op.name


def test_a_vjp_may_call_a_primitive_by_its_tf_name():
    # ops.divide in a VJP of one's own (lesson 12) is the primitive truediv, as ek.divide is
    for alias, name in registry.ALIASES.items():
        assert name in registry.REGISTRY and getattr(ek, alias).op is registry.REGISTRY[name]
    array_ops = registry.ArrayOps(ek.devices.CPU)
    np.testing.assert_array_equal(array_ops.divide(np.array([1.0]), np.array([4.0])), [0.25])
    x = ek.constant(2.0)
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = registry.TENSOR_OPS.divide(x, 4.0)  # recorded, as a higher-order VJP needs
    assert float(y) == 0.5 and float(tape.gradient(y, x)) == 0.25

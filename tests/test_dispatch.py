"""The fast common case of dispatch gives what the reference path gives: values and errors.

Every primitive call that the op-case table makes (tests/op_cases.py) is replayed twice:
through ``dispatch.fast_function(op)`` and through ``dispatch.call``, the reference. Then
the same call is spoiled in the ways users spoil calls (another dtype, a wrong shape, a
Python list, an int tensor, a Python number) and both paths must fail with the same error,
or succeed with the same answer.
"""

import numpy as np
import pytest
from op_cases import cases

import eagerkit as ek
from eagerkit import dispatch
from eagerkit.registry import OpDef


def _primitive_calls():
    """``(case name, op, inputs, params)`` for every primitive call the cases make."""
    calls = []
    for name, fn, args in cases():
        tensors = [ek.constant(a) for a in args]
        with ek.GradientTape() as tape:
            tape.watch(tensors)
            fn(*tensors)
        for record in tape.records:
            if isinstance(record.op, OpDef):
                calls.append((f"{name}:{record.op.name}", record.op, record.inputs, record.params))
    return calls


CALLS = _primitive_calls()


def _outcome(function):
    """What a call gives: its answer (dtype, shape, device, values) or its error."""
    try:
        result = function()
    except Exception as error:  # noqa: BLE001 - the error itself is what is compared
        return ("error", type(error).__name__, str(error))
    return ("value", result.dtype, result.shape, result.device, result.numpy().tobytes())


def _both(op, inputs, params):
    fast = _outcome(lambda: dispatch.fast_function(op)(*inputs, **params))
    reference = _outcome(lambda: dispatch.call(op, tuple(inputs), dict(params)))
    return fast, reference


def _spoiled(inputs):
    """The first input replaced by what a user might pass instead."""
    first = inputs[0]
    other_float = ek.float32 if first.dtype == ek.float64 else ek.float64
    return {
        "another dtype": ek.cast(first, other_float),
        "a wrong shape": ek.ones([7, 5], dtype=first.dtype),
        "a Python list": first.numpy().tolist(),
        "an int tensor": ek.constant(np.round(first.numpy()).astype(np.int32)),
        "a Python float": 1.5,
        "a Python int": 2,
    }


def test_every_primitive_is_reached_by_some_call():
    assert len({op.name for _, op, _, _ in CALLS}) >= 40


@pytest.mark.parametrize(
    ("name", "op", "inputs", "params"), CALLS, ids=[name for name, _, _, _ in CALLS]
)
def test_fast_and_reference_paths_agree(name, op, inputs, params):
    fast, reference = _both(op, inputs, params)
    assert fast[0] == "value", fast
    assert fast == reference
    for how, spoiled in _spoiled(inputs).items():
        fast, reference = _both(op, (spoiled, *inputs[1:]), params)
        assert fast == reference, f"{name} with {how}"


def test_a_spoiled_call_gives_an_eagerkit_error_naming_the_op():
    x = ek.constant([1.0, 2.0])
    fast, reference = _both(ek.add.op, (x, ek.ones([3])), {})
    assert fast == reference
    assert fast[:2] == ("error", "InvalidArgumentError")
    assert fast[2].startswith("add: ") and "float32(2,)" in fast[2] and "(3,)" in fast[2]


def test_the_reference_path_records_what_the_fast_path_records():
    x = ek.constant([1.0, 2.0])
    w = ek.Variable([3.0, 4.0])
    recorded = []
    for run in (
        lambda: dispatch.fast_function(ek.multiply.op)(x, w),
        lambda: dispatch.call(ek.multiply.op, (x, w), {}),
    ):
        with ek.GradientTape() as tape:
            run()
        recorded.append([(r.op.name, [i.numpy().tolist() for i in r.inputs]) for r in tape.records])
    assert (
        recorded[0]
        == recorded[1]
        == [
            ("read_variable", [[3.0, 4.0]]),
            ("multiply", [[1.0, 2.0], [3.0, 4.0]]),
        ]
    )


def test_nobody_recording_means_no_tape_work():
    assert not dispatch.anyone_recording()
    with ek.GradientTape():
        assert dispatch.anyone_recording()
    assert not dispatch.anyone_recording()
    np.testing.assert_array_equal(ek.multiply(2.0, 3.0).numpy(), 6.0)

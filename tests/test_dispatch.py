"""The fast common cases of dispatch give what the reference path gives: values and errors.

Every primitive call that the op-case table makes (tests/op_cases.py) is replayed three
times: through the op's public function (``unary_function``/``binary_function`` where the
op fits them), through ``fast_dispatch.fast_function(op)`` and through ``dispatch.call``, the
reference. Then the same call is spoiled in the ways users spoil calls (another dtype, a
wrong shape, a Python list, an int tensor, a Python number, a Variable) and every path must
fail with the same error, or succeed with the same answer.
"""

import inspect

import numpy as np
import pytest
from op_cases import cases

import eagerkit as ek
from eagerkit import dispatch, fast_dispatch, registry
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


def _outcomes(op, inputs, params):
    """The outcome of the public function, of ``fast_function`` and of ``call``."""
    public = _outcome(lambda: op.call(*inputs, **params))
    fast = _outcome(lambda: fast_dispatch.fast_function(op)(*inputs, **params))
    reference = _outcome(lambda: dispatch.call(op, tuple(inputs), dict(params)))
    return public, fast, reference


def _both(op, inputs, params):
    public, fast, reference = _outcomes(op, inputs, params)
    assert public == fast, "the public function and fast_function disagree"
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
        "a Variable": ek.Variable(first),
        "a float64 Variable": ek.Variable(ek.cast(first, ek.float64)),
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
        lambda: fast_dispatch.fast_function(ek.multiply.op)(x, w),
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


def test_ops_on_x_or_x_y_alone_get_the_functions_that_take_them_by_name():
    unary = fast_dispatch.unary_function(ek.tanh.op)
    binary = fast_dispatch.binary_function(ek.add.op)
    assert ek.tanh.__code__ is unary.__code__
    assert ek.multiply.__code__ is binary.__code__
    assert ek.Tensor.__mul__ is ek.multiply  # the operator is the public function itself
    assert ek.reduce_sum.__code__ is fast_dispatch.fast_function(ek.reduce_sum.op).__code__
    for op in registry.all_ops():  # only ops without params, not even keyword-only ones,
        parameters = list(inspect.signature(op.forward).parameters.values())  # but matmul's
        arguments = [p.name for p in parameters]
        if op.call.__code__ is unary.__code__:
            assert arguments == ["xp", "x"], op.name
        if op.call.__code__ is binary.__code__:  # (x, y), or two inputs then options
            options = parameters[3:]  # transpose_a=False: a @ b is the call without them
            assert arguments == ["xp", "x", "y"] or op.nin == 2, op.name
            assert all(p.kind is p.KEYWORD_ONLY and p.default is not p.empty for p in options)
    assert registry.REGISTRY["matmul"].call.__code__ is binary.__code__
    assert ek.Tensor.__matmul__ is registry.REGISTRY["matmul"].call  # a @ b: no flags to sort
    assert registry.REGISTRY["reshape"].call.__code__ is not unary.__code__  # (x, *, shape)
    several_dtypes = [op for op in registry.all_ops() if op.dtype_args is not None]
    assert several_dtypes  # indices beside values: these take mixed_function
    for op in several_dtypes:
        assert op.call.__code__ is fast_dispatch.mixed_function(op).__code__


_LABELS = ek.constant([2, 0, 1])  # int32 labels beside float logits


@pytest.mark.parametrize(
    "labels",
    [_LABELS, ek.cast(_LABELS, ek.int64), [2, 0, 1], ek.Variable(_LABELS), ek.constant([2, 0, 3])],
    ids=["int32", "int64", "a list", "a Variable", "out of range"],
)
@pytest.mark.parametrize(
    "logits", [np.arange(12.0).reshape(3, 4), [[1.0, 2.0]] * 3], ids=["float64", "a list"]
)
@pytest.mark.parametrize("recording", [False, True], ids=["no tape", "a tape"])
def test_an_op_on_several_dtypes_answers_and_records_as_the_reference(labels, logits, recording):
    op = registry.REGISTRY["sparse_softmax_cross_entropy_with_logits"]
    if isinstance(logits, np.ndarray):
        logits = ek.constant(logits)
    results = []
    for run in (  # the public function, by keyword as TF users call it, and the reference
        lambda: op.call(labels=labels, logits=logits),
        lambda: dispatch.call(op, (logits, labels), {}),
    ):
        with ek.GradientTape() as tape:
            if recording and isinstance(logits, ek.Tensor):
                tape.watch(logits)
            outcome = _outcome(run)
        records = [(r.op.name, [i.numpy().tolist() for i in r.inputs]) for r in tape.records]
        results.append((outcome, records))
    assert results[0] == results[1]
    assert bool(results[0][1]) == (recording and isinstance(logits, ek.Tensor))


_ODD_CALLS = {  # calls that the by-name functions hand on: the answer or error of the reference
    "a missing input": lambda f, x: f(x),
    "no input at all": lambda f, x: f(),
    "inputs by keyword": lambda f, x: f(x=x, y=x + 1.0),
    "only the second input by keyword": lambda f, x: f(y=x),
    "TF's name by position": lambda f, x: f(x, x, "product"),
    "too many positional arguments": lambda f, x: f(x, x, "product", 4),
    "an unknown keyword": lambda f, x: f(x, x, scale=2.0),
    "a Python number first": lambda f, x: f(2.0, x),
    "a list first": lambda f, x: f([1.0, 2.0], x),
    "a Variable second": lambda f, x: f(x, ek.Variable([3.0, 4.0])),
}


@pytest.mark.parametrize("how", list(_ODD_CALLS))
@pytest.mark.parametrize("recording", [False, True], ids=["no tape", "a tape"])
def test_odd_calls_of_a_binary_op_match_the_reference_function(how, recording):
    x = ek.constant([1.0, 2.0])
    outcomes = []
    for function in (ek.multiply, dispatch.reference_function(ek.multiply.op)):
        with ek.GradientTape() as tape:
            if not recording:
                tape._pop()  # the tape exists but does not record
            tape.watch(x)
            outcomes.append(_outcome(lambda f=function: _ODD_CALLS[how](f, x)))
            records = [(r.op.name, len(r.inputs)) for r in tape.records]
        outcomes.append(records)
    assert outcomes[:2] == outcomes[2:]


@pytest.mark.parametrize("recording", [False, True], ids=["no tape", "a tape"])
def test_odd_calls_of_a_unary_op_match_the_reference_function(recording):
    x = ek.constant([1.0, 2.0])
    calls = [lambda f: f(), lambda f: f(x=x), lambda f: f(x, "t"), lambda f: f(x, "t", 3)]
    calls += [lambda f: f(x, axis=0), lambda f: f([0.5]), lambda f: f(ek.Variable([0.5]))]
    for call in calls:
        outcomes = []
        for function in (ek.tanh, dispatch.reference_function(ek.tanh.op)):
            with ek.GradientTape(persistent=True) as tape:
                if not recording:
                    tape._pop()
                tape.watch(x)
                outcomes.append(_outcome(lambda f=function, c=call: c(f)))
        assert outcomes[0] == outcomes[1]


def test_a_failed_call_on_a_variable_records_nothing():
    w = ek.Variable([1.0, 2.0])
    with ek.GradientTape() as tape:
        with pytest.raises(ek.errors.InvalidArgumentError, match="multiply"):
            ek.multiply(w, ek.ones([3]))
    assert tape.records == []


_BINARY_OPS = sorted(
    op.name
    for op in registry.all_ops()
    if op.call.__code__ is fast_dispatch.binary_function(ek.add.op).__code__
)


def _beside_numbers_and_variables():
    """The operands of issue 20's idiomatic forms, and their near misses (the general path)."""
    x = ek.constant([0.5, 2.0])
    v, w = ek.Variable([1.5, 3.0]), ek.Variable([0.25, -2.0])
    return {
        "x, y": (x, ek.constant([1.5, -1.0])),  # two Tensors: the first branch
        "x, float64 y": (x, ek.constant([1.5, -1.0], dtype=ek.float64)),
        "x, 0.5": (x, 0.5),
        "0.5, x": (0.5, x),
        "v, w": (v, w),
        "x, v": (x, v),
        "v, 1.5": (v, 1.5),
        "-2.0, v": (-2.0, v),
        "float64 x, 0.5": (ek.constant([0.5, 2.0], dtype=ek.float64), 0.5),
        "float16 x, 1e6": (ek.constant([0.5, 2.0], dtype=ek.float16), 1e6),
        "complex x, 0.5": (ek.complex(x, x), 0.5),
        "int x, 0.5": (ek.constant([1, 2]), 0.5),
        "int v, 2.0": (ek.Variable([1, 2]), 2.0),
        "x, float64 v": (x, ek.Variable([1.0, 2.0], dtype=ek.float64)),
        "frozen v, x": (ek.Variable([1.0, 3.0], trainable=False), x),
        "x, wrong shape v": (x, ek.Variable([1.0, 2.0, 3.0])),
        "x, nan": (x, float("nan")),
        "x, True": (x, True),
    }


@pytest.mark.filterwarnings("ignore:overflow encountered in cast")  # float16(1e6): inf, both
@pytest.mark.parametrize("recording", [False, True], ids=["no tape", "a tape"])
@pytest.mark.parametrize("name", _BINARY_OPS)
def test_a_binary_op_beside_python_floats_and_variables_matches_the_reference(name, recording):
    op = registry.REGISTRY[name]
    for how, inputs in _beside_numbers_and_variables().items():
        outcomes = []
        for function in (op.call, dispatch.reference_function(op)):
            with ek.GradientTape(persistent=True) as tape:
                if not recording:
                    tape._pop()
                floats = [x for x in inputs if isinstance(x, ek.Tensor) and x.dtype.is_floating]
                tape.watch([x for x in floats if not x._is_variable])
                outcomes.append(_outcome(lambda f=function, i=inputs: f(*i)))
            described = [(r.op.name, [i.numpy().tobytes() for i in r.inputs]) for r in tape.records]
            outcomes.append(described)
            sources = [x for x in inputs if isinstance(x, ek.Tensor)]
            grads = tape.gradient(tape.records[-1].output, sources) if tape.records else []
            outcomes.append([None if g is None else g.numpy().tobytes() for g in grads])
        assert outcomes[:3] == outcomes[3:], f"{name}({how})"


def test_inside_ek_function_variables_and_floats_answer_as_the_reference():
    w, wrong = ek.Variable([1.0, 2.0]), ek.Variable([1.0, 2.0, 3.0])
    outcomes = []
    for function in (ek.multiply, dispatch.reference_function(ek.multiply.op)):
        traced = ek.function(lambda x, f=function: f(f(x, w), 0.5) + f(2.0, w))
        outcomes.append(_outcome(lambda t=traced: t(ek.constant([3.0, 4.0]))))
        failing = ek.function(lambda x, f=function: f(x, 1.0) * f(w, wrong))
        outcomes.append(_outcome(lambda t=failing: t(ek.constant([3.0, 4.0]))))
    assert outcomes[:2] == outcomes[2:]
    assert outcomes[0][0] == "value" and outcomes[1][0] == "error"

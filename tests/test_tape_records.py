"""The small records (OneInputRecord, TwoInputRecord) answer what a TapeRecord answers.

A two-input record keeps no params (an op on two inputs with params is a TapeRecord).

tape_records.py keeps the inputs of one- and two-input ops in slots instead of a tuple, so
a tape is smaller. Each record of every op case (tests/op_cases.py) is rebuilt as a plain
``TapeRecord`` of the same op, inputs, output and params: both tapes must give the same
gradients bit for bit through both sweeps (the fast one reads the slots, the reference one
``record.inputs``), and every record the same answers.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from op_cases import cases

import eagerkit as ek
from eagerkit import backprop
from eagerkit.tape_records import (
    READ_VARIABLE,
    OneInputRecord,
    TapeRecord,
    TwoInputRecord,
    make_record,
)

CASES = cases()


def _smallest(count, params):
    """The class a record of ``count`` inputs and these ``params`` is kept in."""
    if count == 1:
        return OneInputRecord
    return TwoInputRecord if count == 2 and not params else TapeRecord


def _as_plain(record):
    return TapeRecord(record.op, tuple(record.inputs), record.output, record.params)


def _gradients(tape, y, sources, reference):
    if reference:
        with backprop.reference_sweep():
            grads = tape.gradient(y, sources)
    else:
        grads = tape.gradient(y, sources)
    return [None if g is None else g.numpy().tobytes() for g in grads]


@pytest.mark.parametrize(("name", "fn", "args"), CASES, ids=[name for name, _, _ in CASES])
def test_every_op_case_differentiates_alike_with_small_or_plain_records(name, fn, args):
    xs = [ek.constant(a) for a in args]
    with ek.GradientTape(persistent=True) as tape:
        tape.watch(xs)
        y = ek.reduce_sum(fn(*xs) * 1.5)
    small = tape.records
    for r in small:  # the smallest class that holds it
        assert type(r) is _smallest(len(r.inputs), r.params), (r, type(r))
    results = []
    for records in (small, [_as_plain(r) for r in small]):
        tape.records = records
        results.append([_gradients(tape, y, xs, reference) for reference in (False, True)])
    assert results[0][0] == results[0][1] == results[1][0] == results[1][1]


def test_a_variable_read_and_a_model_step_differentiate_alike_with_plain_records():
    w = ek.Variable(np.linspace(-1.0, 1.0, 6).reshape(2, 3))
    b = ek.Variable([0.5, -0.5, 0.25], dtype=ek.float64)
    x = ek.constant([[1.0, 2.0], [3.0, 4.0]], dtype=ek.float64)
    with ek.GradientTape(persistent=True) as tape:
        y = ek.reduce_sum(ek.tanh(x @ w + b) * b)
    assert [r.op for r in tape.records].count(READ_VARIABLE) == 2
    small = _gradients(tape, y, [w, b], reference=False)
    tape.records = [_as_plain(r) for r in tape.records]
    assert small == _gradients(tape, y, [w, b], reference=False)
    assert small == _gradients(tape, y, [w, b], reference=True)


_ARITIES = st.integers(0, 4)


@settings(max_examples=30, deadline=None)
@given(count=_ARITIES, with_params=st.booleans())
def test_make_record_answers_what_a_tape_record_answers(count, with_params):
    inputs = tuple(ek.constant(float(k)) for k in range(count))
    output, params = ek.constant(-1.0), ({"axis": 0} if with_params else {})
    made = make_record(READ_VARIABLE, list(inputs), output, params)
    plain = TapeRecord(READ_VARIABLE, inputs, output, params)
    assert type(made) is _smallest(count, params)
    assert type(made.inputs) is tuple and len(made.inputs) == count
    assert all(a is b for a, b in zip(made.inputs, plain.inputs, strict=True))
    assert (made.op, made.output, made.params) == (plain.op, plain.output, plain.params)
    assert repr(made) == repr(plain)

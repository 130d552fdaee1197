"""Point at the op: turn a diagnosis (diagnose.py) into sentences and a highlighted TapeView."""

import inspect

from .diagnose import Trace, first_wrong_value, nan_source, reference_values, users_op
from .overflow import first_overflow, overflow_sentence

WRONG_VALUE = "the first op whose value no correct computation makes"
WRONG_GRADIENT = "the op whose VJP sends the first wrong gradient"
MAKES_NAN = "the first op whose VJP turns a finite gradient into nan or inf"
OVERFLOWS = "the first op that gives inf from finite inputs"


def point_at_value(fn, reference, inputs, names, finite_form=None):
    """``(lines, where)`` for a wrong value: the op to blame, or a sentence saying that no
    single op is to blame. An op that overflowed (inf from finite inputs) is blamed first:
    the nan it leads to is its doing, whatever the formula (``where["overflow"]``)."""
    student = Trace(fn, inputs)
    overflowed = point_at_overflow(fn, inputs, names, finite_form, reference, student)
    if overflowed is not None:
        return overflowed
    index = first_wrong_value(fn, student, Trace(reference, inputs), reference(*inputs))
    if index is None:
        return [
            "no single op on your tape is to blame: fixing any one of them alone would not "
            "give the right result (compare your formula with the exercise's, step by step)"
        ], {}
    return _pointed(fn, student, inputs, names, index, WRONG_VALUE, "")


def point_at_overflow(fn, inputs, names, finite_form=None, reference=None, student=None):
    """``(lines, where)`` naming the first op of ``fn(*inputs)`` that gave inf from finite
    inputs, values a right computation makes too (``reference``'s: else a wrong value before
    it is to blame, not the overflow), or None when none did."""
    student = student or Trace(fn, inputs)
    pool = reference_values(Trace(reference, inputs)) if reference else None
    overflowed = first_overflow(student.ran, pool)
    if overflowed is None:
        return None
    op, output = overflowed
    sentence, index = overflow_sentence(op, finite_form), student.record_of(output)
    if index is None:  # not recorded (no watched input reaches it): no picture
        return [f"on your tape {OVERFLOWS} is {op.name}: {sentence}"], {"overflow": True}
    lines, where = _pointed(fn, student, inputs, names, index, OVERFLOWS, ": " + sentence)
    return lines, {**where, "overflow": True}


def tape_values(fn, inputs):
    """Every value the student's computation makes: its inputs and each op's output (ops
    without a gradient too, such as argmax)."""
    import numpy as np

    student = Trace(fn, inputs)
    values = [x.numpy() for x in inputs if hasattr(x, "numpy")]
    values += [output.numpy() for output in student.dispatched if hasattr(output, "numpy")]
    return [np.asarray(v) for v in values]


def point_at_gradient(
    fn, inputs, names, upstream, *, order, upstream_effect=None, advice=None, finite_form=None
):
    """``(lines, where)`` for a wrong gradient whose value was right."""
    student = Trace(fn, inputs, upstream)
    found = nan_source(student)
    if found is not None:
        index, step = found
        extra = ". " + _why_nan(student, step.record.op, finite_form)
        return _pointed(fn, student, inputs, names, index, MAKES_NAN, extra)
    index = users_op(student)
    if index is None:
        return [
            "no single op is to blame: some path from the input to the result carries no "
            "gradient (an op without one, such as ek.round, ek.sign or a cast to an integer, "
            "or a value taken out of the tape with .numpy() or float())"
        ], {}
    op = student.tape.records[index].op
    if upstream_effect == "ignores":
        extra = (
            f". {op.name}'s VJP gives the same gradient whatever gradient arrives: it ignores "
            f"its incoming gradient {_incoming_name(op)}, which it must multiply in (chain rule)"
        )
    elif upstream_effect == "not linear":
        extra = (
            f". {op.name}'s VJP is not proportional to its incoming gradient "
            f"{_incoming_name(op)}: twice the gradient arriving must send twice as much back "
            "(the chain rule multiplies by it; adding it or applying a function to it does not)"
        )
    elif order >= 2:
        extra = (
            f". Its first derivative is right, so the tape cannot differentiate {op.name}'s "
            "VJP again: is it made of ek ops on tensors (not numpy, .numpy() or Python floats)?"
        )
    else:
        extra = ""
    lines, where = _pointed(fn, student, inputs, names, index, WRONG_GRADIENT, extra)
    return lines + ([advice] if advice else []), where


def _why_nan(student, op, finite_form):
    """Why a VJP made nan or inf: an overflow inside it, an ek.where over an infinite
    derivative (only when a where is on the tape), or an infinite derivative times 0."""
    overflowed = first_overflow(student.ran_backward)
    if overflowed is not None:
        op = overflowed[0]
        return f"Inside its VJP, {op.name} gives inf from finite inputs: " + overflow_sentence(
            op, finite_form
        )
    edge = (
        f"Where {op.name}'s derivative is infinite (at the edge of its domain: sqrt at 0, a "
        "division by 0), the gradient becomes inf there"
    )
    if "where" in student.op_names():
        return (
            f"{edge}, and an ek.where that discards that branch still multiplies it by 0, "
            "which gives nan: keep the input of that op inside its domain everywhere"
        )
    return (
        f"{edge}, and an op before it whose own derivative is 0 there multiplies that inf "
        f"by 0, which gives nan: keep the input of {op.name} away from that edge (write the "
        "formula without it there)"
    )


def _incoming_name(op):
    """The name the student gave the incoming gradient: ``dy`` of ``grad(dy)``, ``g`` of a
    defop VJP ``(ops, g, ans, x)``."""
    grad_fn = getattr(op, "_grad_fn", None)
    try:
        if grad_fn is not None:
            return f"`{next(iter(inspect.signature(grad_fn).parameters))}`"
        vjp = next(v for v in op.vjps if v is not None)
        return f"`{list(inspect.signature(vjp).parameters)[1]}`"
    except (StopIteration, TypeError, ValueError, IndexError):
        return "(g, dy)"


def _pointed(fn, student, inputs, names, index, why, extra):
    view = _view(fn, inputs, names)
    forward = view.graph["forward"]
    if index >= len(forward):  # the view records differently: say it without the picture
        op = student.tape.records[index].op.name
        return [f"on your tape {why} is {op}{extra}"], {}
    step = forward[index]["text"]
    op = student.tape.records[index].op.name
    view.set_highlight(index, note=why)
    # Numbered from 1, as the view numbers its steps ("forward, record 3 of 3").
    line = f"on your tape (highlighted below) {why} is record {index + 1}: {step}{extra}"
    return [line], {"record": index, "op": op, "view": view}


def _view(fn, inputs, names):
    from ..tape_view.view import TapeView
    from .diagnose import quiet

    def named(*args):  # TapeView.record names the arguments after the function's parameters
        return fn(*args)

    named.__signature__ = _signature(names)
    named.__name__ = getattr(fn, "__name__", "out")
    with quiet():
        return TapeView.record(named, *inputs)


def _signature(names):
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    return inspect.Signature([inspect.Parameter(n, kind) for n in names])

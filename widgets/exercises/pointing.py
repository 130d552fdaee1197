"""Point at the op: turn a diagnosis (diagnose.py) into sentences and a highlighted TapeView."""

from .diagnose import Trace, first_wrong_gradient, first_wrong_value, is_users_op


def point_at(fn, reference, inputs, names, *, forward):
    """``(lines, where)``: what to tell the student about where ``fn`` goes wrong, and
    ``where = {"record", "op", "view"}`` for the Result (empty if no single op is to blame).
    """
    student = Trace(fn, inputs)
    if forward:
        index = first_wrong_value(student, Trace(reference, inputs))
        why = "the first op whose value the correct computation never makes"
    else:
        found = first_wrong_gradient(student, Trace(reference, inputs))
        index = found[0] if found else _users_op(student)
        why = "the op whose VJP sends the first wrong gradient"
    if index is None:
        if forward:
            return [
                "every op on your tape computes a value that the correct computation computes "
                "too: your function returns the wrong one of them"
            ], {}
        return [], {}
    view = _view(fn, inputs, names)
    step = view.graph["forward"][index]["text"]
    op = student.tape.records[index].op.name
    view.set_highlight(index, note=why)
    # Numbered from 1, as the view numbers its steps ("forward, record 3 of 3").
    line = f"on your tape (highlighted below) {why} is record {index + 1}: {step}"
    if not forward and found is None:
        line += (
            f". Its first derivative is right, but the tape cannot differentiate {op}'s "
            "VJP again: write it with ek ops on tensors (not numpy or Python floats)"
        )
    return [line], {"record": index, "op": op, "view": view}


def _users_op(trace):
    for index, record in enumerate(trace.tape.records):
        if is_users_op(record.op):
            return index
    return None


def _view(fn, inputs, names):
    from ..tape_view.view import TapeView

    def named(*args):  # TapeView.record names the arguments after the function's parameters
        return fn(*args)

    named.__signature__ = _signature(names)
    named.__name__ = getattr(fn, "__name__", "out")
    return TapeView.record(named, *inputs)


def _signature(names):
    import inspect

    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    return inspect.Signature([inspect.Parameter(n, kind) for n in names])

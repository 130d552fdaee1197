"""Facts about one call of a student's function, and the sentences a function exercise says
about them (what is None, what froze in a trace, which derivative is compared)."""

import re

import numpy as np

from eagerkit.tensor import Tensor, convert_to_tensor

from .compare import same_values
from .exercise import student_code
from .form import as_array

# Every op error quotes its inputs' shapes: that alone does not make an error about shapes.
_INPUT_SHAPES = re.compile(r"\(input shapes: (?:\([^)]*\)(?:, )?)*\)")


def about_shapes(error):
    """Whether the answer's ``error`` is about shapes (a matmul's inner sizes, a broadcast, a
    reshape, an axis the tensor does not have), where an exercise's words about its axes
    fit; a dtype, a misspelt keyword or a missing return say enough themselves. The one
    check the exercises share (lessons 07, 11 and 13).

    Examples
    --------
    >>> about_shapes(ValueError("matmul: inner dimensions do not match: a is (3, 2) ..."))
    True
    >>> about_shapes(ValueError("argmax: axis 2 is out of range for a tensor of rank 2"))
    True
    >>> about_shapes(ValueError("matmul: expected float32, got int32 (input shapes: (3, 2))"))
    False
    """
    said = _INPUT_SHAPES.sub("", str(error))
    words = ("dimension", "broadcast", "shape", "axis", "rank")
    return isinstance(error, ValueError) and any(word in said for word in words)


def as_input(value):
    """A numpy array or nested list becomes an ek tensor (float32, int32...); a Python number
    stays one (the function gets what a student's own call would give it)."""
    if isinstance(value, (np.ndarray, np.generic, list)):
        return convert_to_tensor(value)
    return value


def integer_mean(seen):
    """A line for a mean of integers (an integer itself, rounded toward zero: the mean of
    [0, 1, 1] is 0), else none."""
    if not any(
        run.name == "reduce_mean" and run.dtype.startswith(("int", "uint")) for run in seen.ops
    ):
        return []
    return [
        "your reduce_mean averages integers, and a mean of integers is an integer (rounded "
        "toward zero): cast to a float before the mean"
    ]


def floor_division(seen):
    """A line for a floor division of floats (``1 // t``: a whole number), else none."""
    if not any(run.name == "floordiv" and run.dtype.startswith("float") for run in seen.ops):
        return []
    return ["// is floor division: it rounds down to a whole number; / divides"]


def not_finite(value):
    """Whether ``value`` holds numbers and one of them is nan or inf."""
    try:
        array = np.asarray(as_array(value), np.float64)
    except (TypeError, ValueError):
        return False
    return not np.all(np.isfinite(array))


def float_dtype(args):
    """The dtype of the float tensors among ``args`` when they share one, else None."""
    dtypes = {a.dtype.name for a in args if isinstance(a, Tensor) and a.dtype.is_floating}
    return dtypes.pop() if len(dtypes) == 1 else None


def one_number(value):
    """A Python number or a one-element real tensor (not a list, not a string)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.number, Tensor)):
        return False
    if isinstance(value, Tensor) and not (value.dtype.is_floating or value.dtype.is_integer):
        return False
    return np.size(as_array(value)) == 1


def no_gradient(what, name, silent_op):
    """Why no gradient reached ``name``: the student's gradient function returned None, or
    an op on the way has no gradient."""
    if silent_op is not None:
        return (
            f"{what} is None: the gradient function of your {silent_op.name} returned None "
            "(is its return missing?)"
        )
    return (
        f"{what} is None: no gradient reaches {name} (an op on the way has no gradient, such "
        "as ek.round or a cast to an integer, or the value left the tape through numpy)"
    )


def returned_none(call):
    return (
        f"{call} returned None: is a return missing, or is it a gradient that came out None "
        "(was the source watched?)"
    )


def right_eagerly(fn, args, want):
    """Whether the Python function inside the ek.function ``fn`` gives ``want`` when run
    eagerly on ``args``: then the trace is to blame, not the code (which is wrong at these
    inputs whether traced or not, when this is False)."""
    try:
        eager = fn.python_function(*[as_input(a) for a in args])
    except Exception:  # the code itself fails here: no trace to blame
        return False
    return same_values(eager, want)


def frozen(right_call):
    return (
        f"{right_call} was right: an ek.function traced then, and calls with the same shapes "
        "and dtypes reuse that trace, with every choice Python made while tracing frozen in"
    )


def derivative_text(order, name, call):
    upstream = " (times a random upstream gradient)"
    if order == 1:
        return f"the gradient of {call}{upstream} with respect to {name}"
    return (
        f"the order-{order} derivative (the second derivative, gradient of the gradient) of "
        f"{call}{upstream} with respect to {name}"
    )


def factor_on_every_input(fn, reference, cases, got):
    """A one-number result cannot show a factor (compare.py sees one across elements):
    across the inputs it can. The line says so without the value asked for."""
    if not one_number(got) or len(cases) < 2:
        return []
    ratios = []
    for case in cases:
        args = [as_input(a) for a in case]
        try:
            with student_code():
                mine = fn(*args)
        except Exception:  # the first input's message says enough
            return []
        theirs = reference(*args)
        if not (one_number(mine) and one_number(theirs)):
            return []
        mine, theirs = (float(as_array(v).reshape(-1)[0]) for v in (mine, theirs))
        if not np.isfinite(mine) or abs(theirs) < 1e-6:
            return []
        ratios.append(mine / theirs)
    c = ratios[0]
    if c == 0 or abs(abs(c) - 1) < 1e-3 or not np.allclose(ratios, c, rtol=1e-3):
        return []
    return [
        f"on each of the {len(ratios)} inputs your result is the right one times the same "
        "number: a constant factor is missing or extra"
    ]

"""Is the answer the right kind of thing, of the right shape and dtype, on the right device?

Asked before its values (compare.py): a student can act on these first. A tensor, a numpy
array and a Python number are the same answer where the prompt is silent, but a list holding
the tensor is not. The shape must be exactly the expected one (an axis of size 1 left in
broadcasts silently later: ``(batch, 1)`` against ``(batch,)`` is a ``(batch, batch)``
matrix), and a float result keeps the dtype of its float inputs (a float64 result breaks the
next float32 op). What the prompt states (``Expect``: an ek.Tensor, a dtype, a device) is
enforced, and the message quotes the prompt.
"""

import numpy as np

from eagerkit.tensor import Tensor


class Expect:
    """What the prompt states about the answer; each is enforced only when given.

    kind : ``"tensor"`` (an ek.Tensor), ``"int"`` or ``"float"`` (a Python number of that
        type), else any number-like.
    dtype : a dtype name such as ``"float32"``.
    device : a device name such as ``"/sim:0"``.
    exact_shape : False to accept size-1 axes the expected shape lacks (a prompt that leaves
        the shape open); by default the shape must be exactly the expected one.
    quote : the prompt's words, shown when one of these is not met.
    shape_quote : the prompt's words about the shape, shown for a wrong shape (default: quote).
    """

    def __init__(
        self, kind=None, dtype=None, device=None, exact_shape=True, quote="", shape_quote=None
    ):
        self.kind, self.dtype, self.device = kind, dtype, device
        self.exact_shape, self.quote = exact_shape, quote
        self.shape_quote = quote if shape_quote is None else shape_quote

    def said(self, quote=None):
        quote = self.quote if quote is None else quote
        return f' (the exercise says: "{quote}")' if quote else ""


ANY = Expect()


def describe(value):
    """A short description of a value's kind: ``ek.Tensor of shape (3,) ...``, ``Python float``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> describe(2.5), describe([ek.constant(1.0)]), describe((ek.ones([2]), ek.ones([2])))
    ('Python float', 'list of one ek.Tensor', 'tuple of 2 ek.Tensors')
    """
    if isinstance(value, Tensor):
        return f"ek.Tensor of shape {tuple(value.shape)} and dtype {value.dtype.name}"
    if isinstance(value, np.ndarray):
        return f"numpy array of shape {value.shape} and dtype {value.dtype}"
    if isinstance(value, (bool, int, float)):
        return f"Python {type(value).__name__}"
    if isinstance(value, np.generic):
        return f"numpy {type(value).__name__} (a number, not a tensor)"
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, Tensor) for v in value):
        count = "one ek.Tensor" if len(value) == 1 else f"{len(value)} ek.Tensors"
        return f"{type(value).__name__} of {count}"
    return type(value).__name__


def form_problem(answer, expected, *, what="your answer", expect=ANY, inputs_dtype=None):
    """The sentence saying what is wrong with ``answer`` before its values: its kind, shape,
    dtype or device (as ``differences``), or None."""
    kind = _kind_problem(answer, expected, what, expect)
    if kind:
        return kind
    got, want = as_array(answer), as_array(expected)
    if not _same_shape(got.shape, want.shape, expect.exact_shape):
        wanted = f"shape {want.shape}" if want.shape else "a scalar (shape ())"
        return (
            f"{what} has shape {got.shape} but {wanted} is expected"
            f"{expect.said(expect.shape_quote)}: "
            + _shape_reason(got.shape, want.shape, squeezes_right(answer, expected))
        )
    dtype = _dtype_problem(answer, expected, got, want, what, expect, inputs_dtype)
    if dtype:
        return dtype
    if expect.device and isinstance(answer, Tensor) and answer._device.name != expect.device:
        return (
            f"{what} is on {answer._device.name} but is expected on {expect.device}{expect.said()}"
        )
    return None


def says_it_all(answer, expected, *, expect=ANY, inputs_dtype=None):
    """True when what is wrong is the answer's kind, dtype or device, or axes of size 1 it
    has too many: no op of the answer is to blame then (a wrong shape otherwise may be)."""
    if _kind_problem(answer, expected, "", expect):
        return True
    got, want = as_array(answer), as_array(expected)
    if not _same_shape(got.shape, want.shape, expect.exact_shape):
        return squeezes_right(answer, expected)
    return form_problem(answer, expected, expect=expect, inputs_dtype=inputs_dtype) is not None


def squeezes_right(answer, expected):
    """Whether ``answer`` is right once its extra axes of size 1 are dropped: then those axes
    are the whole mistake (else an axis of size 1 here is a bigger one elsewhere, as a
    batch of one)."""
    if not isinstance(answer, (Tensor, np.ndarray)) or isinstance(expected, (list, tuple)):
        return False
    got, want = as_array(answer), as_array(expected)
    return bool(_extra_axes(got.shape, want.shape)) and _same_numbers(got, want)


def _same_numbers(got, want):
    """Whether the numbers agree, element by element, whatever the dtype and the size-1 axes."""
    if got.size != want.size:
        return False
    try:
        mine, theirs = got.astype(np.float64).reshape(want.shape), want.astype(np.float64)
    except (TypeError, ValueError):
        return False
    return bool(np.all(np.isclose(mine, theirs, rtol=1e-4, atol=1e-5, equal_nan=True)))


def _kind_problem(answer, expected, what, expect):
    it = with_article(describe(answer))
    if isinstance(expected, str):
        return None if isinstance(answer, str) else f"{what} is {it}; a string is expected"
    if answer is None:
        return none_problem(what)
    numberlike = (Tensor, np.ndarray, np.number, int, float, bool, np.bool_)
    if not isinstance(answer, numberlike) and not _nested_numbers(answer):
        return f"{what} is {it}; a number or a tensor is expected"
    held = isinstance(answer, (list, tuple)) and any(isinstance(v, Tensor) for v in answer)
    if expect.kind == "tensor" or (isinstance(expected, Tensor) and held):
        if not isinstance(answer, Tensor):
            return f"{what} is {it}; " + _tensor_expected(answer, expect)
    if expect.kind == "int" and (isinstance(answer, bool) or not isinstance(answer, int)):
        return f"{what} is {it}; a Python int is expected{expect.said()}"
    if expect.kind == "float" and (isinstance(answer, bool) or not isinstance(answer, float)):
        return f"{what} is {it}; a Python float is expected{expect.said()}"
    return None


def with_article(text):
    """``text`` with its article: "an ek.Tensor ...", "a list ...", "an int"."""
    return f"an {text}" if text.startswith(("ek.", "int", "a", "e", "i", "o", "u")) else f"a {text}"


def _tensor_expected(answer, expect):
    """Why a tensor is asked for, and how to get one from what the student returned."""
    if isinstance(answer, (list, tuple)) and any(isinstance(v, Tensor) for v in answer):
        if len(answer) == 1:
            return (
                f"one tensor is expected{expect.said()}, not a {type(answer).__name__} holding "
                "it: return its only element"
            )
        return (
            f"one ek.Tensor is expected{expect.said()}, not {len(answer)}: return only the "
            "one asked for"
        )
    return (
        f"an ek.Tensor is expected{expect.said()}: compute it with ek ops and return the "
        "tensor (float(), .numpy() and numpy's functions take the value off the tape)"
    )


def none_problem(what, plural=False):
    """None where a value belongs: most often a gradient with no path back to its source."""
    they = "are they gradients" if plural else "is it a gradient"
    return (
        f"{what} {'are' if plural else 'is'} None: is a return missing, or {they} that came "
        "out None (was the source watched, and did every op on the way run inside the tape's "
        "with block, with ek ops?)"
    )


def _nested_numbers(value):
    """A (nested) list of numbers, as ``[[1.0, 2.0]]``: a tensor written in Python."""
    try:
        array = np.asarray(value)
    except (ValueError, TypeError):
        return False
    return isinstance(value, (list, tuple)) and array.dtype.kind in "biuf"


def _dtype_problem(answer, expected, got, want, what, expect, inputs_dtype=None):
    name = answer.dtype.name if isinstance(answer, Tensor) else str(got.dtype)
    if expect.dtype:
        if name != expect.dtype:
            return f"{what} has dtype {name} but {expect.dtype} is expected{expect.said()}"
        return None
    if want.dtype.kind == "f" and got.dtype.kind not in "biuf":
        return f"{what} has dtype {name}; numbers are expected"
    kept = isinstance(expected, Tensor) and expected.dtype.name == inputs_dtype
    if kept and isinstance(answer, (Tensor, np.ndarray)) and name != inputs_dtype:
        numpy, same = isinstance(answer, np.ndarray), _same_numbers(got, want)
        return _other_dtype(what, name, inputs_dtype, numpy, same)
    return None


def _other_dtype(what, name, wanted, numpy=False, same_values=False):
    """A float result in another dtype than its inputs': the next op with a float32 tensor
    refuses it (eagerkit, as TF, never mixes dtypes silently)."""
    said = f"{what} has dtype {name} but {wanted} is expected (the dtype of its inputs)"
    if numpy:
        return (
            f"{what} is a numpy array of dtype {name}, but {wanted} is expected (the dtype "
            "of its inputs): numpy's functions compute off the tape (no gradient comes "
            "back) and in float64; compute it with ek ops"
        )
    if name.startswith(("int", "uint", "bool")) and same_values:
        return (
            f"{said}: the values are right, but as integers (constants written 1, not 1.0?): "
            f"write float constants, or cast with ek.cast(..., ek.{wanted})"
        )
    if name.startswith(("int", "uint", "bool")):
        return (
            f"{said}: an integer result has lost its fractions (a cast to an integer type "
            "truncates toward zero; it does not round)"
        )
    return (
        f"{said}: a result keeps its inputs' dtype, so that the next op can use it; compute "
        f"in {wanted}, or cast the result back with ek.cast(..., ek.{wanted})"
    )


def _shape_reason(got, want, squeezable=True):
    """What a wrong shape usually means, in words a student can act on (``squeezable``:
    the values are right once the extra axes of size 1 are dropped)."""
    extra = _extra_axes(got, want)
    if extra and not squeezable:
        return _LEFT_OVER
    if extra:
        which = f"{_axes(extra)}, of size 1, {'is' if len(extra) == 1 else 'are'} extra"
        why = "(kept by a keepdims=True, or made by a matrix product with a vector)"
        if not want:
            index = "[" + ", ".join(["0"] * len(extra)) + "]"
            return (
                f"{which} {why}: drop the keepdims, or take the one value out with "
                f"ek.squeeze(...) or {index}"
            )
        axis = extra[0] if len(extra) == 1 else tuple(extra)
        return f"{which} {why}: drop the keepdims, or remove it with ek.squeeze(..., axis={axis})"
    if got and not want:
        return (
            "several values where one number is expected: a sum or a mean missing, or one "
            "over too few axes?"
        )
    if want and not got:
        return (
            "one value per element or row is expected, not one number for all (a mean or a "
            "sum over every axis?)"
        )
    if np.prod(got) == np.prod(want) and sorted(got) != sorted(want):
        return (  # nothing was reduced: the same values, laid out otherwise
            f"the same {int(np.prod(got))} values in another layout: {_layout(want)} (a nested "
            f"list [[...], [...]] writes rows; ek.reshape(..., {list(want)}) lays out values)"
        )
    if len(got) < len(want):
        return (
            "an axis that must stay was reduced or squeezed away: check the axis of each reduction"
        )
    if want and tuple(got) == tuple(want) * 2:
        return (
            "one value for each pair of elements (a full Jacobian, or a column broadcast "
            "against a row?) where one value per element is expected"
        )
    if len(got) > len(want):
        return _LEFT_OVER
    if sorted(got) == sorted(want):
        return "the same sizes in another order: the axes are swapped (a transpose?)"
    return "check the axis each reduction or product runs over"


_LEFT_OVER = "an axis is left over: check the axis each reduction or product runs over"


def _layout(shape):
    """``(2, 3)``: "2 rows of 3"."""
    if len(shape) == 2:
        return f"{shape[0]} rows of {shape[1]} are expected"
    return f"{len(shape)} axes of sizes {', '.join(map(str, shape))} are expected"


def _extra_axes(got, want):
    """The axes of size 1 in ``got`` that ``want`` lacks, when removing them gives ``want``
    (``(2, 1)`` for ``(2,)``: ``[1]``), else ``[]``."""
    extra, j = [], 0
    for i, n in enumerate(got):
        if j < len(want) and n == want[j] and len(got) - i >= len(want) - j:
            j += 1
        elif n == 1:
            extra.append(i)
        else:
            return []
    return extra if j == len(want) else []


def _axes(axes):
    return f"axis {axes[0]}" if len(axes) == 1 else "axes " + " and ".join(map(str, axes))


def _same_shape(got, want, exact):
    if got == want:
        return True
    if exact or len(got) < len(want):  # an axis squeezed away is a mistake; one kept is not
        return False
    return tuple(n for n in got if n != 1) == tuple(n for n in want if n != 1)


def as_array(value):
    return np.asarray(value.numpy() if isinstance(value, Tensor) else value)

"""``ek.debugging.assert_*``: check a condition on tensor values, raise if it fails.

As in TensorFlow 2 eager mode, each assertion runs at once: it returns ``None`` when the
condition holds and raises ``InvalidArgumentError`` (listing the first values that break it)
when it does not. Shapes count as tensors, so ``assert_equal(x.shape, (32, 10))`` works.
``summarize`` is how many values a message lists: 3 by default, every one when negative.
Inside ``ek.function`` an assertion on the function's tensors is a graph node that checks
each call's values (as TF's Assert op), not only the values the trace saw.
"""

import functools

import numpy as np

from eagerkit import nest, recording
from eagerkit.arguments import describe, whole_number
from eagerkit.errors import InvalidArgumentError
from eagerkit.graph.effects import traced_python_call
from eagerkit.tensor import Tensor, convert_to_tensor

_SHOWN = 3  # how many offending values a message lists unless summarize says otherwise


def _shown(summarize, op):
    """TF's rule: None lists 3 values, a negative number lists them all."""
    if summarize is None:
        return _SHOWN
    if isinstance(summarize, bool) or not isinstance(summarize, (int, np.integer)):
        raise InvalidArgumentError(
            f"{op}: summarize must be an int (how many values to list), got {summarize!r}",
            op=op,
        )
    return int(summarize) if summarize >= 0 else None  # None slices to the end


def _values(value, what, op):
    """``value`` (a Tensor, shape, list or number) as a numpy array."""
    if hasattr(value, "numpy"):
        return np.asarray(value.numpy())
    if hasattr(value, "as_list"):  # a TensorShape: its sizes
        return np.asarray(tuple(value))
    return np.asarray(convert_to_tensor(value).numpy())  # TF's rules: 1.5 is a float32


def _tolerance(value, what):
    """A tolerance of assert_near: one number, not negative."""
    values = _values(value, what, "assert_near")
    if values.size != 1 or values.dtype.kind not in "biuf" or not values.reshape(()) >= 0:
        raise InvalidArgumentError(
            f"assert_near: {what} must be one number >= 0, got {describe(value)}", op="assert_near"
        )
    return float(values.reshape(()))


def _kind(values):
    return (
        f"text {values.shape}" if values.dtype.kind in "OSU" else f"{values.dtype} {values.shape}"
    )


def at_every_call(check):
    """Decorator for an assertion: inside ``ek.function``, given the function's tensors, it
    becomes a graph node that runs the check on each call's values (at the trace it only
    records it: a trace's values may be stand-ins). Variables are read when it runs."""

    @functools.wraps(check)
    def wrapper(*args, **kwargs):
        tracer = recording.graph_tracers[-1] if recording.graph_tracers else None
        leaves = nest.flatten((args, kwargs))
        positions = [
            i
            for i, x in enumerate(leaves)
            if tracer is not None
            and isinstance(x, Tensor)
            and not x._is_variable
            and tracer.knows(x)
        ]
        reads_variable = any(isinstance(x, Tensor) and x._is_variable for x in leaves)
        if tracer is None or not (positions or reads_variable):  # eagerly, or constants
            return check(*args, **kwargs)

        def run(*tensors, raw):
            now = list(leaves)
            for position, tensor in zip(positions, tensors, strict=True):
                now[position] = tensor
            run_args, run_kwargs = nest.pack_sequence_as((args, kwargs), now)
            check(*run_args, **run_kwargs)

        tensors = [leaves[i] for i in positions]
        traced_python_call(tracer, check.__name__, run, tensors, lambda: None)

    return wrapper


def _compare(x, y, holds, sign, message, summarize, op):
    shown = _shown(summarize, op)
    xs, ys = _values(x, "x", op), _values(y, "y", op)
    if (xs.dtype.kind in "OSU") != (ys.dtype.kind in "OSU"):  # text beside numbers
        raise InvalidArgumentError(
            f"{op}: x is {_kind(xs)} and y is {_kind(ys)}; compare numbers with numbers and "
            "text with text",
            op=op,
        )
    try:
        ok = np.broadcast_to(holds(xs, ys), np.broadcast_shapes(xs.shape, ys.shape))
    except ValueError:
        raise InvalidArgumentError(
            f"{op}: x of shape {xs.shape} and y of shape {ys.shape} do not broadcast together; "
            "compare tensors of the same (or broadcastable) shapes",
            op=op,
        ) from None
    if ok.all():
        return
    lines = [message] if message else []
    lines.append(f"Condition x {sign} y did not hold.")
    if shown != 0:  # summarize=0: the condition alone, as in TF
        bad = np.argwhere(~ok)[:shown]
        xb, yb = np.broadcast_to(xs, ok.shape), np.broadcast_to(ys, ok.shape)
        first_x, first_y = xs.reshape(-1)[:shown], ys.reshape(-1)[:shown]
        lines += [
            f"Indices of first {len(bad)} different values:",
            str(bad.tolist()),
            "Corresponding x values:",
            str([xb[tuple(i)].item() for i in bad]),
            "Corresponding y values:",
            str([yb[tuple(i)].item() for i in bad]),
            f"First {first_x.size} elements of x:",
            str(first_x.tolist()),
            f"First {first_y.size} elements of y:",
            str(first_y.tolist()),
        ]
    raise InvalidArgumentError("\n".join(lines), op=op)


@at_every_call
def assert_equal(x, y, message=None, summarize=None, name=None):
    """Raise ``InvalidArgumentError`` unless ``x == y`` everywhere (broadcasting).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.debugging.assert_equal(ek.zeros([32, 10]).shape, (32, 10))
    >>> ek.debugging.assert_equal(ek.constant([1, 2]), ek.constant([1, 3]))
    Traceback (most recent call last):
    ...
    eagerkit.errors.InvalidArgumentError: Condition x == y did not hold.
    Indices of first 1 different values:
    [[1]]
    Corresponding x values:
    [2]
    Corresponding y values:
    [3]
    First 2 elements of x:
    [1, 2]
    First 2 elements of y:
    [1, 3]
    """
    _compare(x, y, np.equal, "==", message, summarize, "assert_equal")


@at_every_call
def assert_less(x, y, message=None, summarize=None, name=None):
    """Raise ``InvalidArgumentError`` unless ``x < y`` everywhere.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.debugging.assert_less(ek.constant([1.0, 2.0]), 3.0)
    """
    _compare(x, y, np.less, "<", message, summarize, "assert_less")


@at_every_call
def assert_greater(x, y, message=None, summarize=None, name=None):
    """Raise ``InvalidArgumentError`` unless ``x > y`` everywhere.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.debugging.assert_greater(ek.constant([1.0, 2.0]), 0.0)
    """
    _compare(x, y, np.greater, ">", message, summarize, "assert_greater")


@at_every_call
def assert_less_equal(x, y, message=None, summarize=None, name=None):
    """Raise ``InvalidArgumentError`` unless ``x <= y`` everywhere.

    >>> import eagerkit as ek
    >>> ek.debugging.assert_less_equal(ek.constant([1.0, 3.0]), 3.0)
    """
    _compare(x, y, np.less_equal, "<=", message, summarize, "assert_less_equal")


@at_every_call
def assert_greater_equal(x, y, message=None, summarize=None, name=None):
    """Raise ``InvalidArgumentError`` unless ``x >= y`` everywhere.

    >>> import eagerkit as ek
    >>> ek.debugging.assert_greater_equal(ek.constant([0.0, 2.0]), 0.0)
    """
    _compare(x, y, np.greater_equal, ">=", message, summarize, "assert_greater_equal")


@at_every_call
def assert_none_equal(x, y, message=None, summarize=None, name=None):
    """Raise ``InvalidArgumentError`` unless ``x != y`` everywhere.

    >>> import eagerkit as ek
    >>> ek.debugging.assert_none_equal(ek.constant([1, 2]), 0)
    """
    _compare(x, y, np.not_equal, "!=", message, summarize, "assert_none_equal")


def _against_zero(name, holds, sign):
    """``assert_positive`` & co.: ``x <sign> 0`` everywhere, 0 in x's own dtype."""

    def check(x, message=None, summarize=None, name=None):
        xs = _values(x, "x", op)
        if xs.dtype.kind not in "biuf":
            raise InvalidArgumentError(
                f"{op}: x must be numbers, got {_kind(xs)}; pass a numeric tensor", op=op
            )
        _compare(xs, np.zeros((), xs.dtype), holds, sign, message, summarize, op)

    op = check.__name__ = check.__qualname__ = name
    check.__doc__ = f"""Raise ``InvalidArgumentError`` unless ``x {sign} 0`` everywhere.

    >>> import eagerkit as ek
    >>> ek.debugging.{name}(ek.constant([1.0, 0.0, -1.0]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    eagerkit.errors.InvalidArgumentError: Condition x {sign} y did not hold...
    """
    return at_every_call(check)


assert_positive = _against_zero("assert_positive", np.greater, ">")
assert_negative = _against_zero("assert_negative", np.less, "<")
assert_non_negative = _against_zero("assert_non_negative", np.greater_equal, ">=")
assert_non_positive = _against_zero("assert_non_positive", np.less_equal, "<=")


@at_every_call
def assert_near(x, y, rtol=None, atol=None, message=None, summarize=None, name=None):
    """Raise unless ``|x - y| <= atol + rtol * |y|`` everywhere (default tolerances 10 * eps).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.debugging.assert_near(ek.constant([1.0]), ek.constant([1.0000001]))
    >>> ek.debugging.assert_near(ek.constant([1.0]), ek.constant([1.1]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    eagerkit.errors.InvalidArgumentError: x and y not equal to tolerance rtol = ..., atol = ...
    """
    xs = _values(x, "x", "assert_near")
    eps = np.finfo(xs.dtype if xs.dtype.kind == "f" else np.float32).eps
    rtol = 10 * eps if rtol is None else _tolerance(rtol, "rtol")
    atol = 10 * eps if atol is None else _tolerance(atol, "atol")
    header = f"x and y not equal to tolerance rtol = {rtol:g}, atol = {atol:g}"
    _compare(
        xs,
        y,
        _near(atol, rtol),
        "~=",
        f"{message}\n{header}" if message else header,
        summarize,
        "assert_near",
    )


def assert_rank(x, rank, message=None, name=None):
    """Raise ``InvalidArgumentError`` unless ``x`` has ``rank`` dimensions.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.debugging.assert_rank(ek.zeros([2, 3]), 2)
    >>> ek.debugging.assert_rank(ek.zeros([3]), 2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    eagerkit.errors.InvalidArgumentError: assert_rank: x must have rank 2. Received rank 1, ...
    """
    xs = _values(x, "x", "assert_rank")
    rank = whole_number(rank, "rank", "assert_rank")  # rank=0.5 is refused, not truncated
    if xs.ndim != rank:
        prefix = f"{message}\n" if message else ""
        raise InvalidArgumentError(
            f"{prefix}assert_rank: x must have rank {rank}. "
            f"Received rank {xs.ndim}, shape {xs.shape}",
            op="assert_rank",
        )


def _near(atol, rtol):
    """|a - b| <= atol + rtol |b|, elementwise: inf - inf is nan, which is not near (as in TF)."""

    def near(a, b):
        with np.errstate(invalid="ignore"):
            return np.abs(a - b) <= atol + rtol * np.abs(b)

    return near

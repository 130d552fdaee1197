"""What converted code calls (as ``ag__.if_stmt``, ``ag__.while_stmt``, ...) at run time.

Each operator looks at what it was given and picks, as TF's AutoGraph does: a condition
(or an iterable) that is a tensor *inside a trace* becomes graph control flow
(``ek.cond``'s and ``ek.while_loop``'s machinery); anything else runs as the Python
statement it came from, so Python conditions stay Python and eager code runs eagerly.

The branches and the loop body arrive as functions of the *state*: the names the statement
may change, passed in and handed back as a tuple (``state(locals(), "x", "y")`` reads
them, ``Undefined`` for a name without a value yet).
"""

import numbers

import numpy as np

from eagerkit import dtypes, nest
from eagerkit.autograph.loop_variables import LoopVariables
from eagerkit.autograph.undefined import Undefined, undefined_in_one_branch
from eagerkit.errors import InvalidArgumentError
from eagerkit.graph.cond import is_scalar_bool, traced_cond
from eagerkit.graph.trace import current_tracer
from eagerkit.graph.while_loop import traced_while
from eagerkit.tensor import Tensor, convert_to_tensor
from eagerkit.tensor_array import TensorArray

__all__ = ["and_", "for_stmt", "if_stmt", "not_", "or_", "state", "while_stmt"]


def state(scope, *names):
    """The values of ``names`` in ``scope`` (``locals()``), ``Undefined`` where there is none."""
    return tuple(scope.get(name, Undefined(name)) for name in names)


def _graph_condition(value):
    """Whether ``value`` makes graph control flow: a tensor, while a trace is in progress."""
    return isinstance(value, Tensor) and current_tracer() is not None


# --- if ------------------------------------------------------------------------------------------
def if_stmt(cond, if_true, if_false, values=(), names=()):
    """``if cond:`` over the state ``values`` (named ``names``); the branches' result.

    The branches take the state and return the new state (or, when both end in ``return``,
    the return value).
    """
    if not _graph_condition(cond):
        return if_true(*values) if cond else if_false(*values)
    if not is_scalar_bool(cond):
        raise InvalidArgumentError(
            f"if: a condition over a tensor must be one bool, got shape {cond.shape} and dtype "
            f"{cond.dtype.name}; reduce it (ek.reduce_any, ek.reduce_all) or compare it",
            op="if",
        )
    labels = list(names) or None
    arrays = {}  # leaf index -> a TensorArray of the true branch: its stacked tensor is merged

    def merge(a, b, where):
        if isinstance(a, TensorArray) or isinstance(b, TensorArray):
            arrays[where] = a
            a, b = _stacked(a, where, labels), _stacked(b, where, labels)
        return _merge(a, b, labels[where] if labels and where < len(labels) else None)

    result = traced_cond(
        current_tracer(), cond, lambda: if_true(*values), lambda: if_false(*values), merge, "cond"
    )
    if not arrays:
        return result
    leaves = nest.flatten(result)
    for where, array in arrays.items():
        leaves[where] = array._with_stacked(leaves[where])
    return nest.pack_sequence_as(result, leaves)


def _stacked(value, where, labels):
    """A TensorArray in an if over a tensor: its elements as one tensor (or TF's error)."""
    if isinstance(value, TensorArray) and value._stacked is not None:
        return value._stacked
    name = labels[where] if labels and where < len(labels) else "a TensorArray"
    raise ValueError(
        f"{name!r}: a TensorArray written in one branch of an if over a tensor must be written "
        "(or given element_shape) before the if, so both branches hold elements of one shape"
    )


def _merge(a, b, name):
    """One name after an if over a tensor (see graph/cond.py's ``merge``)."""
    if isinstance(a, Undefined) or isinstance(b, Undefined):
        if isinstance(a, Undefined) and isinstance(b, Undefined):
            return ("python", a)
        if name is None:  # a return value: TF's rule
            raise ValueError("A value must also be returned from the else branch.")
        return ("python", undefined_in_one_branch(name))
    if name is None and (a is None) != (b is None):  # one branch returns, one falls through
        raise ValueError("A value must also be returned from the else branch.")
    if isinstance(a, Tensor) or isinstance(b, Tensor) or (_number(a) and _number(b) and a != b):
        a, b = _tensors_alike(a, b, name)
        return ("tensor", a, b)
    if a is b or (_number(a) and _number(b) and type(a) is type(b)):
        return ("python", a)  # the same Python value whichever branch runs
    what = "the return value" if name is None else repr(name)
    raise ValueError(
        f"{what} is {a!r} in the true branch and {b!r} in the false branch of an if over a "
        "tensor: it must be a tensor (or a number) in both, to be chosen while the graph runs"
    )


def _tensors_alike(a, b, name):
    """Both sides as tensors of one dtype (a Python number takes the tensor's dtype)."""
    if not isinstance(a, Tensor) and not isinstance(b, Tensor):
        dtype = dtypes.as_dtype(dtypes.default_numpy_dtype([a, b]))
        return convert_to_tensor(a, dtype=dtype), convert_to_tensor(b, dtype=dtype)
    dtype = a.dtype if isinstance(a, Tensor) else b.dtype
    try:
        a = a if isinstance(a, Tensor) else convert_to_tensor(a, dtype=dtype)
        b = b if isinstance(b, Tensor) else convert_to_tensor(b, dtype=dtype)
    except (TypeError, ValueError, InvalidArgumentError):
        a = b = None
    if a is None or a.dtype != b.dtype:
        what = "the return value" if name is None else repr(name)
        raise TypeError(
            f"{what} has a different type in each branch of an if over a tensor; make both "
            "branches give tensors of one dtype (ek.cast)"
        )
    return a, b


def _number(value):
    return isinstance(value, (numbers.Number, np.number)) and not isinstance(value, Tensor)


# --- loops ---------------------------------------------------------------------------------------
def while_stmt(test, body, values=(), names=()):
    """``while test:`` over the state ``values``; the state after the loop."""
    keep = test(*values)
    if not _graph_condition(keep):
        return _python_loop(iter(int, 1), lambda _, *v: body(*v), test, values, keep)
    return _graph_loop(keep, lambda *v: test(*v), lambda *v: body(*v), values, names)


def for_stmt(iterable, body, values=(), names=(), extra_test=None):
    """``for target in iterable:`` over the state ``values`` (the body takes the element
    first); ``extra_test(*values)``, from ``break``, can stop it early."""
    if isinstance(iterable, Tensor) and current_tracer() is not None:
        return _graph_for(iterable, body, values, names, extra_test)
    return _python_loop(iter(iterable), body, extra_test, values, None)


def _python_loop(items, body, test, values, keep):
    """The loop as Python runs it; a test that turns into a tensor is TF's error."""
    for item in items:
        if test is not None:
            keep = test(*values) if keep is None else keep
            if _graph_condition(keep):
                raise InvalidArgumentError(
                    "a loop whose condition was a Python value became a loop over a tensor "
                    "after an iteration (a variable of its condition became a tensor); make "
                    "the condition a tensor from the start (e.g. with ek.constant)",
                    op="while",
                )
            if not keep:
                break
            keep = None
        values = body(item, *values)
    return values


def _graph_loop(keep, test, body, values, names):
    """A loop over tensors: ``traced_while`` over the names that become loop variables
    (loop_variables.py)."""
    loop = LoopVariables(values, names, body)
    results = traced_while(
        current_tracer(),
        lambda *flat: test(*loop.full(flat)),
        lambda *flat: body(*loop.full(flat)),
        loop.start,
        loop.checked,
        None,
        "while",
        shapes_vary=loop.shapes_vary,
    )
    return loop.final(results)


def _graph_for(iterable, body, values, names, extra_test):
    """``for`` over a tensor in a graph: a counter loop over its first axis (or, for the
    result of ``ek.range``, over the range's own numbers, never materialized)."""
    from eagerkit.graph.dynamic_ops import leading_size, range_bounds

    bounds = range_bounds(iterable)
    if bounds is not None:
        start, limit, delta = bounds
        element = lambda i: i  # noqa: E731 - the counter is the element
    else:
        start, limit, delta = convert_to_tensor(0), leading_size(iterable), convert_to_tensor(1)
        element = lambda i: _row(iterable, i)  # noqa: E731

    def test(i, *v):
        more = (i < limit) if delta._data > 0 else (i > limit)
        return more if extra_test is None else and_(lambda: more, lambda: extra_test(*v))

    def step(i, *v):
        return (i + delta, *body(element(i), *v))

    keep = test(start, *values)
    result = _graph_loop(keep, test, step, (start, *values), ("<iteration>", *names))
    return result[1:]


def _row(tensor, i):
    from eagerkit.ops.indexing import gather

    return gather(tensor, i)


def _name(names, i):
    return names[i] if i < len(names) else f"loop variable {i}"


# --- and, or, not ------------------------------------------------------------------------------
def and_(left, right):
    """``a and b`` with ``left``/``right`` as functions: ``logical_and`` for a graph tensor."""
    a = left()
    if _graph_condition(a):
        from eagerkit.ops.compare import logical_and

        return logical_and(a, right())
    return a and right()


def or_(left, right):
    """``a or b``: ``logical_or`` for a graph tensor, else Python's (short-circuit) ``or``."""
    a = left()
    if _graph_condition(a):
        from eagerkit.ops.compare import logical_or

        return logical_or(a, right())
    return a or right()


def not_(value):
    """``not a``: ``logical_not`` for a graph tensor, else Python's ``not``."""
    if _graph_condition(value):
        from eagerkit.ops.compare import logical_not

        return logical_not(value)
    return not value


def _flat(structure):
    return nest.flatten(structure)

"""``ek.cond`` and ``ek.while_loop``: control flow that works eagerly and inside graphs.

Eagerly they are plain Python: ``cond`` calls the branch the predicate picks, ``while_loop``
loops. Inside ``ek.function`` they record graph control flow (graph/cond.py,
graph/while_loop.py), so the graph decides at every run, as TF's ``tf.cond`` and
``tf.while_loop`` do. AutoGraph (autograph/) writes these calls for you from Python's
``if``, ``while`` and ``for``.
"""

import inspect
import numbers

import numpy as np

from eagerkit import dtypes, nest
from eagerkit.errors import InvalidArgumentError
from eagerkit.graph.cond import is_scalar_bool, traced_cond
from eagerkit.graph.trace import current_tracer
from eagerkit.graph.while_loop import traced_while
from eagerkit.tensor import Tensor, convert_to_tensor


def cond(pred, true_fn=None, false_fn=None, name=None):
    """``true_fn()`` if ``pred`` else ``false_fn()``; in a graph, decided at every run.

    Parameters
    ----------
    pred : a scalar bool tensor (or a Python bool: then only that branch runs, or traces).
    true_fn, false_fn : callables without arguments, returning the same structure of
        tensors (Python numbers become tensors of the other branch's dtype).
    name : unused (TF's op name).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.cond(ek.constant(2.0) > 0, lambda: ek.constant(1.0), lambda: ek.constant(-1.0))
    <ek.Tensor: shape=(), dtype=float32, numpy=1.0>
    >>> relu = ek.function(lambda x: ek.cond(x > 0, lambda: x, lambda: 0.0))
    >>> print(relu(ek.constant(3.0)), relu(ek.constant(-3.0)))  # one trace, both branches
    ek.Tensor(3.0, shape=(), dtype=float32) ek.Tensor(0.0, shape=(), dtype=float32)
    """
    for label, function in (("true_fn", true_fn), ("false_fn", false_fn)):
        if not callable(function):
            raise TypeError(f"cond: {label} must be callable, got {function!r}")
    tracer = current_tracer()
    if isinstance(pred, Tensor) and not is_scalar_bool(pred):
        raise InvalidArgumentError(
            f"cond: pred must be a scalar bool tensor, got shape {pred.shape} and dtype "
            f"{pred.dtype.name}; reduce it (ek.reduce_all, ek.reduce_any) or compare it",
            op="cond",
        )
    if tracer is None or not isinstance(pred, Tensor):
        return true_fn() if pred else false_fn()
    return traced_cond(tracer, pred, true_fn, false_fn, _merge_strict, name or "cond")


def while_loop(
    cond,
    body,
    loop_vars,
    shape_invariants=None,
    parallel_iterations=10,
    back_prop=True,
    swap_memory=False,
    maximum_iterations=None,
    name=None,
):
    """Repeat ``loop_vars = body(*loop_vars)`` while ``cond(*loop_vars)``; in a graph, the
    number of iterations is decided at every run.

    Parameters
    ----------
    cond : callable taking the loop variables, returning a scalar bool.
    body : callable taking the loop variables, returning new ones of the same structure.
    loop_vars : a list (or tuple, or any nested structure) of tensors.
    shape_invariants : the same structure of shapes, ``None`` for a size that may change.
    maximum_iterations : stop after this many iterations at most.
    parallel_iterations, back_prop, swap_memory, name : accepted for TF's signature.

    Returns
    -------
    The loop variables after the last iteration, in the structure of ``loop_vars``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.while_loop(lambda i, s: i < 4, lambda i, s: (i + 1, s + i), [0, 0])
    [<ek.Tensor: shape=(), dtype=int32, numpy=4>, <ek.Tensor: shape=(), dtype=int32, numpy=6>]
    """
    if not callable(cond) or not callable(body):
        raise TypeError(f"while_loop: cond and body must be callable, got {cond!r}, {body!r}")
    limit = _iterations(maximum_iterations)
    leaves = [convert_to_tensor(leaf) for leaf in nest.flatten(loop_vars)]
    structure = nest.pack_sequence_as(loop_vars, leaves)
    if not isinstance(structure, (list, tuple)):
        structure = [structure]
    for role, function in (("cond", cond), ("body", body)):
        _check_takes(function, len(structure), role)
    invariants = _invariants(shape_invariants, structure, leaves)

    def unpack(flat):
        return nest.pack_sequence_as(structure, list(flat))

    def check(result):
        if not isinstance(result, (list, tuple)) and len(structure) == 1:
            result = [result]  # a body of one variable may return it bare
        return _checked_body(result, structure, leaves, invariants)

    tracer = current_tracer()
    if tracer is not None:
        flat = traced_while(
            tracer,
            lambda *flat: cond(*unpack(flat)),
            lambda *flat: body(*unpack(flat)),
            leaves,
            check,
            maximum_iterations if isinstance(maximum_iterations, Tensor) else limit,
            name or "while",
            shapes_vary=shape_invariants is not None,
        )
        return unpack(flat)
    # A body that never brings cond to False (i stays 0, -inf + 1 is -inf) loops forever,
    # as TF's does: only maximum_iterations bounds it.
    steps, flat = 0, leaves
    while (limit is None or steps < limit) and _truth(cond(*unpack(flat)), flat):
        flat = check(body(*unpack(flat)))
        steps += 1
    return unpack(flat)


def _truth(value, flat):
    """cond's answer as a Python bool; anything but a (scalar) bool is refused, as TF's graph
    loop refuses it (a string or a number would be true forever)."""
    if isinstance(value, (bool, np.bool_)) or is_scalar_bool(value):
        return bool(value)
    got = (
        f"shape {value.shape} and dtype {value.dtype.name}"
        if isinstance(value, Tensor)
        else f"{type(value).__name__} {value!r:.60}"
    )
    shapes = ", ".join(f"{leaf.dtype.name}{list(leaf.shape)}" for leaf in flat)
    raise InvalidArgumentError(
        f"while_loop: cond must return a scalar bool, got {got} for loop_vars {shapes}; "
        "return a comparison (e.g. lambda i: i < 10), or reduce it with ek.reduce_all / "
        "ek.reduce_any",
        op="while_loop",
    )


def _iterations(maximum_iterations):
    if maximum_iterations is None:
        return None
    value = maximum_iterations
    if isinstance(value, Tensor):
        if value.ndim or not value.dtype.is_integer:
            raise InvalidArgumentError(
                f"while_loop: maximum_iterations must be a scalar integer, got {value!r}",
                op="while_loop",
            )
        value = int(value._data)  # eagerly; a traced limit is read by the graph at every run
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
        raise InvalidArgumentError(
            f"while_loop: maximum_iterations must be a whole number >= 0, got {value!r}",
            op="while_loop",
        )
    return int(value)


def _check_takes(function, count, role):
    """TF's contract, checked before tracing: ``cond`` and ``body`` take one argument per
    loop variable."""
    try:
        inspect.signature(function).bind(*([None] * count))
    except TypeError:
        raise TypeError(
            f"while_loop: {role} must take one argument per loop variable ({count}: loop_vars "
            f"has {count} entries); {role} {_described(function)} does not. Give it {count} "
            "parameters, or pass loop_vars with one entry per parameter."
        ) from None
    except ValueError:  # a builtin without a signature: let the call decide
        pass


def _described(function):
    try:
        return f"{getattr(function, '__name__', 'function')}{inspect.signature(function)}"
    except (TypeError, ValueError):
        return repr(function)


def _invariants(shape_invariants, structure, leaves):
    """One shape per loop variable (a tuple of sizes, None where they may change), or None."""
    if shape_invariants is None:
        return [None] * len(leaves)
    try:
        shapes = _flatten_like(structure, shape_invariants)
    except (TypeError, KeyError, IndexError):
        shapes = None
    if shapes is None or len(shapes) != len(leaves):
        raise ValueError(
            f"while_loop: shape_invariants must give one shape per loop variable, in the "
            f"structure of loop_vars; got {shape_invariants!r} for {len(leaves)} variables"
        )
    return [_ANY_SHAPE if s is None else tuple(s) for s in shapes]


def _flatten_like(structure, value):
    """``value`` flattened only as deep as ``structure`` goes (its leaves may be lists)."""
    if isinstance(structure, dict):
        return [
            leaf for key in sorted(structure) for leaf in _flatten_like(structure[key], value[key])
        ]
    if isinstance(structure, (list, tuple)):
        if len(structure) != len(value):
            raise IndexError
        return [leaf for s, v in zip(structure, value, strict=True) for leaf in _flatten_like(s, v)]
    return [value]


def _checked_body(result, structure, leaves, invariants):
    """The body's result as tensors like the loop variables, or TF's error."""
    from eagerkit.graph.subgraph import structure_text

    flat = nest.flatten(result)
    if len(flat) != len(leaves):
        raise ValueError(
            "while_loop: body must return the same structure as loop_vars: it got "
            f"{structure_text(structure)} and returned {structure_text(result)}"
        )
    checked = []
    for i, (old, new, invariant) in enumerate(zip(leaves, flat, invariants, strict=True)):
        if not isinstance(new, Tensor):
            new = convert_to_tensor(new, dtype=old.dtype)
        if new.dtype != old.dtype:
            raise TypeError(
                f"while_loop: loop variable {i} enters the loop as {old.dtype.name} but the "
                f"body returns {new.dtype.name}; cast it with ek.cast(..., ek.{old.dtype.name})"
            )
        if not _fits(new.shape, old.shape if invariant is None else invariant):
            raise ValueError(
                f"Input tensor {i} enters the loop with shape {old.shape}, but has shape "
                f"{new.shape} after one iteration. To allow the shape to vary across "
                "iterations, use the `shape_invariants` argument of tf.while_loop to "
                "specify a less-specific shape."
            )
        checked.append(new)
    return checked


_ANY_SHAPE = "any shape"  # the invariant None: the rank may change too


def _fits(shape, wanted):
    if wanted is _ANY_SHAPE:
        return True
    return len(shape) == len(wanted) and all(
        w is None or w == s for s, w in zip(shape, wanted, strict=True)
    )


def _merge_strict(a, b, where):
    """tf.cond's rule for one pair of results: both become tensors of one dtype."""
    if isinstance(a, Tensor) and not isinstance(b, Tensor) and _is_number(b):
        b = convert_to_tensor(b, dtype=a.dtype)
    elif isinstance(b, Tensor) and not isinstance(a, Tensor) and _is_number(a):
        a = convert_to_tensor(a, dtype=b.dtype)
    elif _is_number(a) and _is_number(b):
        dtype = dtypes.as_dtype(dtypes.default_numpy_dtype([a, b]))
        a, b = convert_to_tensor(a, dtype=dtype), convert_to_tensor(b, dtype=dtype)
    if isinstance(a, Tensor) and isinstance(b, Tensor):
        if a.dtype != b.dtype:
            raise TypeError(
                f"cond: output {where} is {a.dtype.name} in true_fn but {b.dtype.name} in "
                "false_fn; the branches must return the same dtypes (cast one with ek.cast)"
            )
        return ("tensor", a, b)
    if a is b or (a is None and b is None):
        return ("python", a)
    raise TypeError(
        f"cond: output {where} is {a!r} in true_fn and {b!r} in false_fn; branch results "
        "must be tensors (or numbers) so the graph can choose between them"
    )


def _is_number(value):
    return isinstance(value, (numbers.Number, bool)) and not isinstance(value, Tensor)

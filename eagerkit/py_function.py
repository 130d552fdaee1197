"""``ek.py_function``: Python code that a graph runs at every call (TF's ``tf.py_function``),
and ``ek.numpy_function``, the same for a function on numpy arrays.

Inside ``ek.function`` Python code runs once, while tracing. ``ek.py_function(func, inp,
Tout)`` is the way out: the graph gets a node that calls ``func`` eagerly, on that call's
tensors, every time it runs; ``Tout`` says the dtypes of what it returns, so the graph can
go on. Eagerly it just calls ``func``. Tapes see the ops ``func`` runs, so gradients flow
through it, as in TF.

The trace has to go on with ``func``'s results, so it calls ``func`` once while tracing (on
the call's values) and hands that result to the run that immediately follows the trace
(the same values: ``func`` then runs once for that call, as in TF).
"""

import functools
import inspect

from eagerkit import dtypes, recording
from eagerkit.graph.effects import traced_python_call
from eagerkit.graph.trace import current_tracer, outside_traces
from eagerkit.tensor import Tensor, convert_to_tensor

__all__ = ["numpy_function", "py_function"]


def py_function(func=None, inp=None, Tout=None, name=None):  # noqa: N803 - TF's names
    """Call ``func(*inp)`` eagerly, in a graph at every run; results as tensors of ``Tout``.

    Parameters
    ----------
    func : a Python callable taking tensors.
    inp : the list of its arguments (tensors, or values that convert).
    Tout : a dtype (one result) or a list of dtypes (a list of results).
    name : unused (TF's op name).

    With ``func`` left out, a decorator: ``@ek.py_function(Tout=ek.float32)``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> @ek.py_function(Tout=ek.float32)
    ... def py_plus(x, y):
    ...     print("Executing eagerly.")
    ...     return x + y
    >>> @ek.function
    ... def wrapper(x, y):
    ...     print("Tracing.")
    ...     return py_plus(x, y)
    >>> float(wrapper(ek.constant(1.0), ek.constant(2.0)))
    Tracing.
    Executing eagerly.
    3.0
    >>> float(wrapper(ek.constant(1.0), ek.constant(2.0)))  # no trace; func runs again
    Executing eagerly.
    3.0
    """
    if func is None:
        return functools.partial(_decorated, Tout=Tout, api=py_function)
    return _python_call(func, inp, Tout, "py_function")


def numpy_function(func=None, inp=None, Tout=None, stateful=True, name=None):  # noqa: N803
    """``py_function`` for a function on numpy arrays: ``func`` gets each value of ``inp``
    as a numpy array (a copy) and returns arrays (or numbers), which become tensors of
    ``Tout``. As in TF, nothing flows back through it: its results have no gradient (the
    tape never sees numpy's operations). ``stateful`` and ``name`` are TF's hints, unused.

    Examples
    --------
    >>> import numpy as np
    >>> import eagerkit as ek
    >>> ek.numpy_function(np.cumsum, [ek.constant([1, 2, 3])], Tout=ek.int64)
    <ek.Tensor: shape=(3,), dtype=int64, numpy=array([1, 3, 6])>
    >>> x = ek.constant([1.0, 4.0])
    >>> with ek.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = ek.numpy_function(np.sqrt, [x], Tout=ek.float32)
    >>> print(tape.gradient(y, x))  # numpy ran it: no gradient, as in TF
    None
    """
    if func is None:
        return functools.partial(_decorated, Tout=Tout, api=numpy_function)
    if not callable(func):
        raise TypeError(f"numpy_function: func must be callable, got {func!r}")

    @functools.wraps(func)  # its signature is func's (checked against inp)
    def on_arrays(*tensors):
        return func(*[t.numpy() for t in tensors])

    return _python_call(on_arrays, inp, Tout, "numpy_function")


def _python_call(func, inp, Tout, api):  # noqa: N803
    """``api(func, inp, Tout)``: ``func`` called now, or at every run of a traced graph."""
    if not callable(func):
        raise TypeError(f"{api}: func must be callable, got {func!r}")
    if Tout is None:
        raise TypeError(f"{api}: give Tout, the dtype (or list of dtypes) func returns")
    many = isinstance(Tout, (list, tuple))
    kinds = [dtypes.as_dtype(t) for t in (Tout if many else [Tout])]
    if not isinstance(inp, (list, tuple)):
        raise TypeError(
            f"{api}: inp must be the list of func's arguments, got {type(inp).__name__}; "
            f"pass a list, e.g. ek.{api}(f, [x, y], Tout=ek.float32) ([] for none)"
        )
    _check_takes(func, len(inp), api)
    tensors = [convert_to_tensor(x) for x in inp]
    tracer = current_tracer()
    if tracer is None:
        return _converted(func(*tensors), kinds, many, func, api)
    memo = {}

    def run(*given, raw):
        remembered = memo.pop("result", None)
        # A tape watching needs func's ops on its tensors: then func runs again.
        if remembered is not None and not recording.on and _same(remembered[0], given):
            # The run right after the trace: func ran already. Fresh tensors, since the
            # trace's own (these) turn symbolic when it ends.
            outputs = _plain(remembered[1] if many else [remembered[1]])
        else:
            outputs = _converted(func(*_plain(given)), kinds, many, func, api)
            outputs = outputs if many else [outputs]
        values = [t._data for t in outputs] if raw else outputs
        return tuple(values) if many else values[0]

    def example():
        with outside_traces():
            result = _converted(func(*_plain(tensors)), kinds, many, func, api)
        memo["result"] = ([t._data for t in tensors], result)
        return result

    return traced_python_call(tracer, api, run, tensors, example)


def _check_takes(func, count, api):
    try:
        inspect.signature(func).bind(*([None] * count))
    except TypeError:
        raise TypeError(
            f"{api}: func {getattr(func, '__name__', func)}{inspect.signature(func)} "
            f"cannot take the {count} values of inp; give inp one value per parameter"
        ) from None
    except ValueError:  # no signature (a builtin): the call itself decides
        pass


def _decorated(func, Tout, api):  # noqa: N803
    @functools.wraps(func)
    def call(*args):
        return api(func, list(args), Tout)

    return call


def _plain(tensors):
    """The values as ordinary tensors (not the trace's): what ``func`` sees. A run's own
    tensors stay as they are, so a tape watching them sees ``func``'s ops."""
    return [Tensor(t._data, t._device) if _of_a_trace(t) else t for t in tensors]


def _of_a_trace(value):
    return isinstance(value, Tensor) and type(value) is not Tensor and not value._is_variable


def _same(arrays, tensors):
    values = [t._data if isinstance(t, Tensor) else t for t in tensors]
    if len(arrays) != len(values):
        return False
    pairs = zip(arrays, values, strict=True)
    return all(a is b or (a.shape == b.shape and bool((a == b).all())) for a, b in pairs)


def _converted(result, kinds, many, func, api):
    """``func``'s result as tensors of the dtypes ``Tout`` promised, or a clear error."""
    results = list(result) if many and isinstance(result, (list, tuple)) else [result]
    if len(results) != len(kinds):
        raise ValueError(
            f"{api}: {getattr(func, '__name__', func)} returned {len(results)} values "
            f"but Tout lists {len(kinds)}; give Tout one dtype per value func returns (a "
            "list of dtypes for a list of values, one dtype for one value)"
        )
    converted = []
    for value, kind in zip(results, kinds, strict=True):
        tensor = convert_to_tensor(value)
        if tensor.dtype != kind:
            tensor = convert_to_tensor(value, dtype=kind)
        converted.append(tensor)
    return converted if many else converted[0]

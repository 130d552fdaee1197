"""Graph mode: ``ek.function`` (alias ``ek.defun``) traces a Python function into a graph.

Eager execution pays Python's price at every op: convert the arguments, check dtypes,
make a Tensor, look for tapes. ``ek.function`` pays it once. The first call with a new
input signature (tensor shapes and dtypes, values of the other arguments) *traces*: it runs
the Python function while the registry reports every op to a tracer (graph/trace.py),
after AutoGraph (autograph/) has turned its ``if``, ``while`` and ``for`` over tensors into
graph control flow. The graph is then optimized (constant folding, common-subexpression and
dead-code elimination, graph/optimize.py) and compiled into one plain Python function over
raw arrays, which writes into dead temporaries instead of allocating where it can (buffer
reuse, graph/replay.py). Later calls with that signature just run the compiled function.

As in TF, a call that traces runs in two stages: the trace (Python runs, its ops are
written down, nothing else happens), then the graph runs. So Python side effects such as
``print`` happen only while tracing, while ``ek.print``, ``Variable.assign*`` and
``optimizer.apply_gradients`` run at every call; results are tensors; tensors that leak out
of a trace are symbolic; variables may be created on the first trace only. Unlike TF,
eagerkit traces on the call's values, so Python code that reads a tensor's *value*
(``x.numpy()``, a ``for`` over ``range(int(n))``) freezes it into the graph: use ops, or
the loops AutoGraph makes.

Gradients. A call made while a tape records (or a callback watches ops, or an outer
function traces) runs the graph's nodes through the public ops instead, so each op is
recorded as in eager mode and gradients of any order flow through with no gradient code
here, the optimizations still applied; a ``cond`` or ``while_loop`` node then runs the
branch or the iterations it takes, op by op. The price is that only calls without a tape
get the compiled speed.
"""

import contextlib
import functools

from eagerkit import recording
from eagerkit.graph.polymorphic_function import Function
from eagerkit.graph.trace import outside_traces


def function(
    func=None,
    input_signature=None,
    autograph=True,
    reduce_retracing=False,
    buffer_reuse=True,
    jit_compile=None,
    experimental_relax_shapes=None,
):
    """Trace ``func`` into a graph per input signature, optimize it, replay it fast.

    Use it as ``@ek.function`` or ``@ek.function(input_signature=[ek.TensorSpec(...)])``.

    Parameters
    ----------
    func : the Python function (made of eagerkit ops).
    input_signature : a list of ``TensorSpec``, one per argument: trace once, for all of them.
    autograph : convert ``if``/``while``/``for`` over tensors into graph control flow.
    reduce_retracing : after a second shape, trace once for sizes left open (None).
    buffer_reuse : let elementwise ops write into dead temporaries (``False`` to compare).
    jit_compile, experimental_relax_shapes : TF's options (the second is reduce_retracing).

    Examples
    --------
    >>> import eagerkit as ek
    >>> @ek.function
    ... def square(x):
    ...     print("tracing")
    ...     return x * x
    >>> square(ek.constant(2.0))
    tracing
    <ek.Tensor: shape=(), dtype=float32, numpy=4.0>
    >>> square(ek.constant(3.0))  # same shape and dtype: no trace, no print
    <ek.Tensor: shape=(), dtype=float32, numpy=9.0>
    >>> square.trace_count
    1
    """
    options = {
        "input_signature": input_signature,
        "autograph": autograph,
        "reduce_retracing": bool(reduce_retracing or experimental_relax_shapes),
        "buffer_reuse": buffer_reuse,
    }
    if func is None:
        return functools.partial(_make, **options)
    return _make(func, **options)


@contextlib.contextmanager
def init_scope():
    """Run the block eagerly, outside any trace in progress, with tapes paused (TF's
    ``tf.init_scope``): its ops run now, once, and are not part of the graph.

    Examples
    --------
    >>> import eagerkit as ek
    >>> v = ek.Variable(0)
    >>> @ek.function
    ... def f():
    ...     with ek.init_scope():
    ...         v.assign_add(1)  # once, while tracing: not in the graph
    ...     return v + 0
    >>> int(f()), int(f()), int(v)
    (1, 1, 1)
    """
    with outside_traces(), recording.paused():
        yield


def _make(func, **options):
    if isinstance(func, Function):  # ek.function(ek.function(f)): the same thing again
        func = func.python_function
    if not callable(func):
        raise TypeError(f"ek.function: expected a callable (a Python function), got {func!r}")
    return Function(func, **options)


defun = function  # the TF 1.x contrib name (tfe.defun)

"""Ops whose result depends on a tensor's *value* or *size*, kept dynamic in graphs.

Eagerly, ``ek.range(n)`` reads ``n`` and makes the numbers, and ``ek.ones_like(x)`` reads
``x``'s shape. In a trace that would freeze the first call's ``n`` or shape into a constant
(wrong as soon as a call brings another length), so inside ``ek.function`` these are nodes
that read their inputs at every run, as TF's ops do:

- ``follows_inputs``: a decorator for such functions (``ones_like``, ``shape``, ``zeros``
  of a shape tensor...): in a trace, its result becomes a node that calls it again on the
  run's tensors; with ``draws=True`` (random numbers) the node draws again at every run,
  from a stream of its own (its site: draw_sites.py);
- ``range``: a range over tensors; a ``for`` over it (autograph/) loops over its bounds
  without making the numbers at all;
- ``leading_size``: the size of a tensor's first axis, for a ``for`` over any other tensor.
"""

import functools

import numpy as np

from eagerkit import nest, recording
from eagerkit.graph import draw_sites
from eagerkit.graph.graph_ops import GraphOp
from eagerkit.graph.trace import current_tracer
from eagerkit.tensor import Tensor, convert_to_tensor


def _range_forward(xp, start, limit, delta, dtype):
    return xp.arange(start, limit, delta, dtype=dtype)


def _range_call(start, limit, delta, dtype):
    from eagerkit.ops.creation import range as eager_range

    return eager_range(start, limit, delta, dtype=dtype)


RANGE = GraphOp("range", _range_forward, _range_call)


def traced_range(start, limit, delta, value):
    """Record ``value = ek.range(start, limit, delta)`` (computed already) as a range node."""
    tracer = current_tracer()
    bounds = [x if isinstance(x, Tensor) else convert_to_tensor(x) for x in (start, limit, delta)]
    result = Tensor(value._data, value._device)
    tracer.record_graph_op(RANGE, bounds, {"dtype": value._data.dtype}, result)
    tracer.range_bounds[id(result)] = bounds
    return result


def range_bounds(tensor):
    """``(start, limit, delta)`` when ``tensor`` is a range made in the current trace."""
    tracer = current_tracer()
    while tracer is not None:
        bounds = tracer.range_bounds.get(id(tensor))
        if bounds is not None:
            return tuple(bounds)
        tracer = tracer.parent
    return None


def _size_forward(xp, x):
    return xp.asarray(x.shape[0], dtype=np.int32)


def _size_call(x):
    return convert_to_tensor(np.int32(x.shape[0]))


LEADING_SIZE = GraphOp("leading_size", _size_forward, _size_call)


def leading_size(tensor):
    """The size of ``tensor``'s first axis, as an int32 tensor read at every run."""
    if tensor.ndim == 0:
        raise TypeError("Cannot iterate over a scalar tensor.")
    size = convert_to_tensor(np.int32(tensor._data.shape[0]))
    tracer = current_tracer()
    return tracer.record_graph_op(LEADING_SIZE, [tensor], {}, Tensor(size._data, size._device))


def _recompute_forward(xp, *arrays, function, skeleton, positions, devices, site=None):
    tensors = [Tensor(a, d) for a, d in zip(arrays, devices, strict=True)]
    return _rebuilt_call(function, skeleton, positions, tensors, site)._data


def _recompute_call(*tensors, function, skeleton, positions, devices, site=None):
    return _rebuilt_call(function, skeleton, positions, tensors, site)


def _rebuilt_call(function, skeleton, positions, tensors, site):
    leaves = nest.flatten(skeleton)
    for position, tensor in zip(positions, tensors, strict=True):
        leaves[position] = tensor
    args, kwargs = nest.pack_sequence_as(skeleton, leaves)
    if site is None:
        return function(*args, **kwargs)
    with draw_sites.drawing_at(site):  # a draw: from its own stream (draw_sites.py)
        return function(*args, **kwargs)


def follows_inputs(function=None, draws=False, effects=False):
    """Decorator for an eager function whose result is computed from its tensor arguments'
    shapes or values (not by ops): inside ``ek.function`` the result becomes a graph node
    that calls the function again, on each run's tensors. ``effects=True``: the node always
    runs, whether or not anything reads its result (a Generator's draw moves its state, as
    TF's stateful ops run even when unused).

    Examples
    --------
    >>> import eagerkit as ek
    >>> @ek.function(input_signature=[ek.TensorSpec([None])])
    ... def plus_one(x):
    ...     return x + ek.ones_like(x)  # ones_like follows x's length at every call
    >>> plus_one(ek.zeros([2])).shape, plus_one(ek.zeros([3])).shape
    (TensorShape([2]), TensorShape([3]))
    """
    if function is None:
        return functools.partial(follows_inputs, draws=draws, effects=effects)
    # A draw is stateful: never folded or merged, drawn again at every run (TF's random ops).
    op = GraphOp(
        function.__name__, _recompute_forward, _recompute_call, stateful=draws, effects=effects
    )

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        if draws and recording.graph_tracers:  # a draw traced: its site's first numbers
            site = draw_sites.new_site(recording.graph_tracers[-1])
            with draw_sites.drawing_at(site, tracing=True):
                result = function(*args, **kwargs)
        else:
            site = None
            result = function(*args, **kwargs)
        if not recording.graph_tracers or not isinstance(result, Tensor):
            return result
        tracer = recording.graph_tracers[-1]
        leaves = nest.flatten((args, kwargs))
        positions = [
            i
            for i, x in enumerate(leaves)
            if isinstance(x, Tensor) and not x._is_variable and tracer.knows(x)
        ]
        if (not positions and not draws) or tracer.knows(result):
            return result  # a constant, or already an op's result
        inputs = [leaves[i] for i in positions]
        skeleton = nest.pack_sequence_as(
            (args, kwargs), [None if i in positions else x for i, x in enumerate(leaves)]
        )
        params = {
            "function": wrapper,
            "skeleton": skeleton,
            "positions": positions,
            "devices": tuple(x._device for x in inputs),
        }
        if site is not None:
            params["site"] = site
        return tracer.record_graph_op(op, inputs, params, Tensor(result._data, result._device))

    return wrapper

"""The reverse sweep for the common case, written for speed (the reference is backprop.sweep).

``backprop.sweep`` is the loop a student reads: one record at a time, through named helpers.
``sweep_arrays`` does the same work in the same order with the same VJPs and the same sums as
``backprop._accumulate`` (and at most a gradient more, that reaches no source: see
``_depends_on_a_source``), so it returns identical gradients and raises identical errors
(tests/test_fast_sweep.py checks it, against ``backprop.reference_sweep()``). It is taken
only in the common case (``backprop.gradients`` decides):

- the VJPs run on raw arrays (``ArrayOps``): no outer tape, no ``ek.function`` trace and
  no forced reference mode;
- no listener is attached to the tape (nobody is told about each backward step).

What makes it faster, measured on a chain of small ops (benchmarks/overhead.py):

- a variable's read (``READ_VARIABLE``, one per variable and tape) hands its gradient on to
  the variable as ``_ReadVariable.input_gradients`` does, without the call;
- a unary or binary primitive without parameters (most records: ``x * y``, ``tanh(x)``)
  has its VJPs called directly, ``vjp(ops, g, ans, x, y)``: no ``op.input_gradients``
  call, no ``wanted`` list, no ``*inputs`` or ``**params`` to unpack; so has a unary one
  with parameters (``reduce_sum(x, axis=1)``), with its ``**params``; their inputs are
  read from the record's slots (``OneInputRecord.x``, ``TwoInputRecord.y``): no tuple;
- the loop reads attributes into locals once, and builds no list or comprehension for
  these records (in Python 3.11 each comprehension is a function call of its own);
- when every tensor the tape watched is a source, the tape's own marks tell which tensors
  depend on a source (``_depends_on_a_source``): no first walk over the whole tape;
- a gradient passed to a one-input VJP that nothing but the sweep (and the host pool) holds
  is lent to it (``host_pool.lendable``): relu's gradient writes into it, as numpy by hand
  writes ``(d @ w.T) * mask`` into the product's memory (tests/test_lent_gradients.py);
- a gradient that broadcasting made bigger than its input (``x @ w + b``: b's gradient has
  the batch axis) is summed back by ``unbroadcast_array``, the array methods that
  ``backprop.unbroadcast``'s ``ops.reduce_sum`` and ``ops.reshape`` end in, without their
  axis checks (tests/test_fast_sweep.py checks the same bits).

Every other record (a variable read, a custom gradient, concat, a binary op with parameters
such as ``matmul(a, b, transpose_b=True)``) answers ``op.input_gradients`` as in the reference.
"""

from eagerkit.backends import host_pool
from eagerkit.backends.host_pool import lendable
from eagerkit.backends.sums import sum_over
from eagerkit.backprop import (
    _needing_gradients,
    _result,
    _seed_gradients,
    broadcast_axes,
    vjp_ops,
)
from eagerkit.registry import OpDef
from eagerkit.tape_records import READ_VARIABLE, OneInputRecord, TwoInputRecord


def sweep_arrays(tape, targets, seeds, sources):
    """``backprop.sweep`` for the common case (raw arrays, no listeners): the same answers."""
    keep = {id(s) for s in sources}
    depends = _depends_on_a_source(tape, sources, keep)
    # Gradients flow through floats and complex numbers ("fc": numpy's kinds), nothing else.
    wanted = {id(x) for x in targets if depends(x) and x._data.dtype.kind in "fc"}
    grads = _seed_gradients(targets, seeds, wanted, on_tensors=False)
    owned = set()  # ids of sums made here, held nowhere else: _accumulate adds into them
    pop = grads.pop
    device = ops = None
    for record in reversed(tape.records):
        output = record.output
        key = id(output)
        g = pop(key, None)  # all its consumers are done: free it once passed on
        if g is None:
            continue
        if owned:
            owned.discard(id(g))  # handed to the VJPs now, which may pass it on as it is
        if key in keep:
            grads[key] = g  # a source that is also an op's output keeps its own
        if output._device is not device:  # ops follow the device (a copy moves it)
            device = output._device
            ops = vjp_ops(device, on_tensors=False)
        op, params, kind = record.op, record.params, type(record)
        ans = output._data
        # The inputs, read from the record's own slots (tape_records.py): no tuple made.
        if kind is TwoInputRecord:
            x, y, count = record.x, record.y, 2
        elif kind is OneInputRecord:
            x, count = record.x, 1
        else:  # any other number of inputs: the op answers as in the reference
            count = 0
        if op is READ_VARIABLE and count == 1:  # a read: its gradient goes on to the variable
            if depends(x) and x._data.dtype.kind in "fc":
                _accumulate(grads, owned, x, g)
        elif not count or type(op) is not OpDef or len(op.vjps) != count or (params and count > 1):
            inputs = record.inputs
            values = [x._data for x in inputs]
            wanted = [depends(x) and x._data.dtype.kind in "fc" for x in inputs]
            input_grads = op.input_gradients(ops, g, ans, values, params, wanted)
            for x, gx in zip(inputs, input_grads, strict=True):
                if gx is not None:
                    _accumulate(grads, owned, x, gx)
        elif count == 1:  # a unary primitive (reduce_sum(x, axis=1) too): its VJP, directly
            vjp = op.vjps[0]
            if vjp is not None and depends(x) and x._data.dtype.kind in "fc":
                # g is read by this VJP alone: lent to it when nobody else holds it (host_pool);
                # the names of earlier records' gradients let go of them first
                gx = gy = input_grads = None
                host_pool.lent = g if lendable(g) else None
                a = x._data
                try:
                    gx = vjp(ops, g, ans, a, **params) if params else vjp(ops, g, ans, a)
                finally:
                    host_pool.lent = None  # lent for this one call
                if gx is not None:
                    _accumulate(grads, owned, x, gx)
        else:  # a binary primitive: both VJPs, then both sums (the reference's order)
            vjp_x, vjp_y = op.vjps
            gx = gy = None
            if vjp_x is not None and depends(x) and x._data.dtype.kind in "fc":
                gx = vjp_x(ops, g, ans, x._data, y._data)
            if vjp_y is not None and depends(y) and y._data.dtype.kind in "fc":
                gy = vjp_y(ops, g, ans, x._data, y._data)
            if gx is not None:
                _accumulate(grads, owned, x, gx)
            if gy is not None:
                _accumulate(grads, owned, y, gy)
    return [_result(grads.get(id(s)), s, on_tensors=False) for s in sources]


def _depends_on_a_source(tape, sources, keep):
    """The test "does tensor ``x`` depend on a source?": a float that does needs a gradient.

    The reference (``backprop._needing_gradients``) walks the whole tape first to find out.
    When every tensor watched by hand (or variable read) is a source, the common case, the
    tape already knows: it recorded an op only because an input was watched, and marked the
    output (``tape._watches``). One difference, harmless: a float made from a source only
    through integers (``cast(cast(h, int32), float32)``) counts here, not in the reference,
    so it gets a gradient the reference does not compute; that gradient stops at the
    integers, and every other gradient is the same. Otherwise the reference's walk decides.
    """
    if tape._watched_by_id.keys() <= keep:
        return tape._watches
    needed = _needing_gradients(tape, sources)
    return lambda x: id(x) in needed


def _accumulate(grads, owned, x, gx):
    """``backprop._accumulate`` on raw arrays, summing back with ``unbroadcast_array``."""
    shape = x._data.shape
    if gx.shape != shape:
        gx = unbroadcast_array(gx, shape)
    key = id(x)
    previous = grads.get(key)
    if previous is None:
        grads[key] = gx
    elif id(previous) in owned:
        previous += gx  # a sum made here and held nowhere else: no new array
        grads[key] = previous
    else:
        total = previous + gx
        grads[key] = total
        owned.add(id(total))


def unbroadcast_array(g, shape):
    """``backprop.unbroadcast(ops, g, shape)`` for a raw array ``g``: the same sum (reduce_sum's
    kernel, ``sum_over``, over axes already known to be valid) and reshape."""
    axes = broadcast_axes(g.shape, shape)
    if axes:
        g = sum_over(g, axes)
    return g.reshape(shape)

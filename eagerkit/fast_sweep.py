"""The reverse sweep for the common case, written for speed (the reference is backprop.sweep).

``backprop.sweep`` is the loop a student reads: one record at a time, through named helpers.
``sweep_arrays`` does the same work in the same order with the same VJPs and the same
``backprop._accumulate``, so it returns identical gradients and raises identical errors
(tests/test_fast_sweep.py checks it, against ``backprop.reference_sweep()``). It is taken
only in the common case (``backprop.gradients`` decides):

- the VJPs run on raw arrays (``ArrayOps``): no outer tape, no ``ek.function`` trace and
  no forced reference mode;
- no listener is attached to the tape (nobody is told about each backward step).

What makes it faster, measured on a chain of small ops (benchmarks/overhead.py):

- a unary or binary primitive without parameters (most records: ``x * y``, ``tanh(x)``)
  has its VJPs called directly, ``vjp(ops, g, ans, x, y)``: no ``op.input_gradients``
  call, no ``wanted`` list, no ``*inputs`` or ``**params`` to unpack;
- the loop reads attributes into locals once, and builds no list or comprehension for
  these records (in Python 3.11 each comprehension is a function call of its own).

Every other record (a variable read, a custom gradient, concat, an op with parameters such
as ``reduce_sum(x, axis=0)``) answers ``op.input_gradients`` as in the reference.
"""

from eagerkit.backprop import _accumulate, _needing_gradients, _result, _seed_gradients, vjp_ops
from eagerkit.registry import OpDef


def sweep_arrays(tape, targets, seeds, sources):
    """``backprop.sweep`` for the common case (raw arrays, no listeners): the same answers."""
    records = tape.records
    needed = _needing_gradients(tape, sources)
    grads = _seed_gradients(targets, seeds, needed, on_tensors=False)
    owned = set()  # ids of sums made here, held nowhere else: _accumulate adds into them
    keep = {id(s) for s in sources}
    pop = grads.pop
    device = ops = None
    for record in reversed(records):
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
        op, inputs, params = record.op, record.inputs, record.params
        ans, count = output._data, len(inputs)
        if type(op) is not OpDef or params or count > 2 or len(op.vjps) != count:
            wanted = [id(x) in needed for x in inputs]
            values = [x._data for x in inputs]
            input_grads = op.input_gradients(ops, g, ans, values, params, wanted)
            for x, gx in zip(inputs, input_grads, strict=True):
                if gx is not None:
                    _accumulate(grads, owned, x, gx, ops, False)
        elif count == 1:  # a unary primitive: its VJP, called directly
            x = inputs[0]
            vjp = op.vjps[0]
            if vjp is not None and id(x) in needed:
                gx = vjp(ops, g, ans, x._data)
                if gx is not None:
                    _accumulate(grads, owned, x, gx, ops, False)
        else:  # a binary primitive: both VJPs, then both sums (the reference's order)
            x, y = inputs
            vjp_x, vjp_y = op.vjps
            gx = gy = None
            if vjp_x is not None and id(x) in needed:
                gx = vjp_x(ops, g, ans, x._data, y._data)
            if vjp_y is not None and id(y) in needed:
                gy = vjp_y(ops, g, ans, x._data, y._data)
            if gx is not None:
                _accumulate(grads, owned, x, gx, ops, False)
            if gy is not None:
                _accumulate(grads, owned, y, gy, ops, False)
    return [_result(grads.get(id(s)), s, on_tensors=False) for s in sources]

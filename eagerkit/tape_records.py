"""What a tape keeps of one op: a record, ``output = op(*inputs, **params)``.

Every record answers the same four attributes: ``op``, ``inputs`` (a tuple of Tensors),
``output`` and ``params``. Three classes hold them, so that a tape of many small ops stays
small (issue 20: a tape holds at most 400 bytes per op):

- ``TapeRecord`` holds ``inputs`` as the tuple it is given: any number of inputs;
- ``OneInputRecord`` (``tanh(x)``, a variable read) and ``TwoInputRecord`` (``x * y``), the
  commonest, hold their inputs in slots of their own (``x``, ``y``) and make the tuple only
  when ``inputs`` is read: no tuple kept per record (48 bytes less, and one object fewer to
  make while recording). The reverse sweep for speed (fast_sweep.py) reads ``x`` and ``y``.
  A ``TwoInputRecord`` has no params slot either (8 bytes, and a 16-byte block of memory,
  less per record): an op on two inputs with params is rare, and kept in a ``TapeRecord``.

``make_record`` picks the class; tests/test_tape_records.py proves the three give the same
answers, and that a tape records and differentiates alike.
"""

NO_PARAMS = {}  # the params of every op called without any: one dict, never written to


class TapeRecord:
    """One recorded op: ``output = op(*inputs, **params)``.

    op : what ran: a primitive (registry.OpDef), a variable read (``READ_VARIABLE``) or a
        custom gradient; each gives its input gradients the same way (backprop.py).
    inputs : a tuple of Tensors, one per input the op took, as it took them: a Variable
        appears as its read (a Tensor holding the value read), a Python number as a constant.
    output : the Tensor the op returned.
    params : the op's other arguments (``axis=0``, ``shape=(2, 3)``) in a dict never written to.
    """

    __slots__ = ("op", "inputs", "output", "params")

    def __init__(self, op, inputs, output, params):
        self.op = op
        self.inputs = inputs
        self.output = output
        self.params = params

    def __repr__(self):
        shapes = ", ".join(str(x.shape) for x in self.inputs)
        return f"<TapeRecord {self.op.name}({shapes}) -> {self.output.shape}>"


class OneInputRecord:
    """A ``TapeRecord`` of an op on one input ``x``: ``inputs`` is ``(x,)``, made when read."""

    __slots__ = ("op", "x", "output", "params")

    def __init__(self, op, x, output, params):
        self.op = op
        self.x = x
        self.output = output
        self.params = params

    @property
    def inputs(self):
        return (self.x,)

    __repr__ = TapeRecord.__repr__


class TwoInputRecord:
    """A ``TapeRecord`` of an op on two inputs and no params (``x * y``): ``inputs`` is
    ``(x, y)``, made when read; ``params`` is the one empty dict of every such record, no
    slot of its own (an op on two inputs with params, ``matmul(a, b, transpose_b=True)``,
    is a rare one: a ``TapeRecord``)."""

    __slots__ = ("op", "x", "y", "output")
    params = NO_PARAMS

    def __init__(self, op, x, y, output):
        self.op = op
        self.x = x
        self.y = y
        self.output = output

    @property
    def inputs(self):
        return (self.x, self.y)

    __repr__ = TapeRecord.__repr__


def make_record(op, inputs, output, params):
    """The record of ``output = op(*inputs, **params)``, in the smallest class that holds it."""
    if len(inputs) == 1:
        return OneInputRecord(op, inputs[0], output, params)
    if len(inputs) == 2 and not params:
        return TwoInputRecord(op, inputs[0], inputs[1], output)
    return TapeRecord(op, tuple(inputs), output, params)


class _ReadVariable:
    """The op recorded when a variable is read: its gradient passes straight on.

    The read holds the variable's array as it was, so an ``assign`` after the read does not
    change what the gradient is computed from.
    """

    name = "read_variable"
    differentiable = True

    def has_gradient(self, position):
        return True

    def input_gradients(self, ops, g, ans, inputs, params, wanted):
        return [g if wanted[0] else None]


READ_VARIABLE = _ReadVariable()

"""The one table of primitive ops, and how calling an op works (dispatch).

A primitive is written once, in one place (see ``ops/``)::

    @defop("multiply")
    def multiply(xp, x, y):          # forward: raw arrays through the namespace xp
        return x * y

    multiply.defvjp(                 # one VJP per input: g is the incoming gradient
        lambda xp, g, ans, x, y: g * y,
        lambda xp, g, ans, x, y: g * x,
    )

``defop`` turns the forward into the public function ``ek.multiply``. Calling it:

1. converts the inputs to arrays on one device with one dtype (TF's rules, clear errors),
2. runs the forward on the device's array namespace ``xp``,
3. wraps the result in a Tensor and, only when a tape is active, records it.

The VJPs are written with operators and ``xp`` calls, so they run on raw arrays when no
tape watches the backward pass (fast) and on Tensors, recorded, when one does (that is
what makes higher-order gradients work). See backprop.py.
"""

import functools
import itertools

from eagerkit import dtypes, op_errors, operands, tape
from eagerkit.errors import OpError
from eagerkit.tensor import Tensor

REGISTRY = {}  # name -> OpDef, in definition order
execution_callbacks = []  # f(op, inputs, output) after every op; see debugging.py
graph_tracers = []  # ek.function's tracers while it traces (graph/trace.py), innermost last

_active_tapes = tape.active_tapes  # the same list object: no lookup on the hot path
_ALL_NUMPY = frozenset(d.as_numpy_dtype for d in dtypes.ALL)


class OpDef:
    """One primitive: its name, forward kernel, VJPs and the dtypes it accepts.

    ``vjps[i](xp, g, ans, *inputs, **params)`` is the gradient for input ``i``;
    ``None`` there means input ``i`` gets no gradient (an index, a condition).
    """

    __slots__ = ("name", "forward", "vjps", "dtypes", "dtype_args", "differentiable", "call")

    def __init__(self, name, forward, dtypes_, dtype_args, differentiable):
        self.name = name
        self.forward = forward
        self.vjps = ()
        self.dtypes = dtypes_
        self.dtype_args = dtype_args
        self.differentiable = differentiable
        self.call = None

    def defvjp(self, *vjps):
        """Attach one VJP per input (``None`` for inputs without a gradient)."""
        self.vjps = vjps
        return vjps

    def defvjp_variadic(self, vjp):
        """For ops on a list of inputs (concat): ``vjp(i, xp, g, ans, *inputs, **params)``."""
        self.vjps = _EachInput(vjp)
        return vjp

    @property
    def nin(self):
        """How many tensor inputs the op takes (``None`` when it takes a list)."""
        return None if isinstance(self.vjps, _EachInput) else len(self.vjps)

    def __repr__(self):
        return f"<OpDef {self.name}>"


class _EachInput:
    """The VJPs of a variadic op: the same function, told which input it is for."""

    def __init__(self, vjp):
        self.vjp = vjp

    def __iter__(self):
        return (functools.partial(self.vjp, i) for i in itertools.count())


def defop(name, *, dtypes=None, dtype_args=None, differentiable=True):
    """Register a primitive: decorate its forward ``f(xp, *arrays, **params)``.

    Parameters
    ----------
    name : the op's public name (``ek.<name>``) and its label on the tape.
    dtypes : the dtypes its main inputs may have (default: all).
    dtype_args : positions of the inputs that must share one dtype (default: all);
        the others (indices, conditions) keep their own.
    differentiable : False for ops that never pass gradients (comparisons, argmax);
        they are not recorded.
    """
    allowed = _ALL_NUMPY if dtypes is None else frozenset(d.as_numpy_dtype for d in dtypes)

    def register(forward):
        op = OpDef(name, forward, allowed, dtype_args, differentiable)
        call = _fast_call(op) if dtype_args is None else _general_call(op)
        functools.update_wrapper(call, forward)
        call.op = op
        call.defvjp = op.defvjp
        call.defvjp_variadic = op.defvjp_variadic
        op.call = call
        REGISTRY[name] = op
        return call

    return register


def _general_call(op):
    def call(*inputs, **params):
        return apply(op, inputs, params)

    return call


def _fast_call(op):
    """The public function for an op whose inputs share one dtype (most of them).

    The common case (Tensors on one ordinary device with one supported dtype, perhaps
    with a Python number beside them) runs here: these few lines are the per-op cost of
    eager execution, so they do no more than check, compute, wrap, and look whether
    anyone is recording. Everything else goes through ``apply``.
    """
    forward, allowed = op.forward, op.dtypes
    new = object.__new__

    def call(*inputs, **params):
        # The commonest cases, spelled out: one Tensor, or two of one dtype on one device.
        first = inputs[0] if inputs else None
        if type(first) is Tensor and len(inputs) == 1:
            arrays, device = (first._data,), first._device
        elif (
            type(first) is Tensor
            and len(inputs) == 2
            and type(inputs[1]) is Tensor
            and inputs[1]._device is first._device
            and inputs[1]._data.dtype == first._data.dtype
        ):
            arrays, device = (first._data, inputs[1]._data), first._device
        else:  # a Variable, a Python number beside a tensor, or anything else
            fast = operands.fast_operands(inputs)
            if fast is None:
                return apply(op, inputs, params)
            arrays, device = fast
        if device.restricted or arrays[0].dtype not in allowed:
            return apply(op, inputs, params)  # the slow path checks and explains
        try:
            data = forward(device.xp, *arrays, **params)
        except OpError:
            raise  # the forward's own error already names the op
        except (ValueError, TypeError, IndexError, ArithmeticError) as error:
            raise op_errors.explain(op, arrays, error) from error
        output = new(Tensor)
        output._data, output._device = data, device
        if _active_tapes or execution_callbacks or graph_tracers:
            _after(op, inputs, arrays, output, params)
        return output

    return call


def apply(op, inputs, params):
    """Run ``op`` on ``inputs`` eagerly and record it on the active tapes."""
    # inputs may come back changed: a tensor copied from another device (silent policy).
    arrays, device, inputs = operands.to_arrays(op, inputs)
    try:
        data = op.forward(device.xp, *arrays, **params)
    except OpError:
        raise
    except (ValueError, TypeError, IndexError, ArithmeticError) as error:
        raise op_errors.explain(op, arrays, error) from error
    output = Tensor(data, device)
    if _active_tapes or execution_callbacks or graph_tracers:
        _after(op, inputs, arrays, output, params)
    return output


def _after(op, inputs, arrays, output, params):
    """Record the op on the active tapes and tell the execution callbacks (if any)."""
    if graph_tracers:  # ek.function is tracing: its graph gets the op as called
        graph_tracers[-1].record(op, inputs, arrays, output, params)
    if _active_tapes and op.differentiable:
        for x in inputs:
            if type(x) is not Tensor:  # a Variable or a Python value: record what was used
                device = output._device
                inputs = tuple(
                    tape.recorded_input(v, a, device) for v, a in zip(inputs, arrays, strict=True)
                )
                break
        tape.record(op, inputs, output, params)
    for callback in execution_callbacks:
        callback(op, inputs, output)


def all_ops():
    """Every registered primitive, in definition order (tests and widgets read this)."""
    return list(REGISTRY.values())


class KernelNamespace:
    """The registry's forwards bound to one array namespace: VJPs on raw arrays use it.

    ``ns.multiply(a, b)`` runs the ``multiply`` forward on arrays and returns an array,
    so a VJP written as ``xp.multiply(g, y)`` works here and on the Tensor namespace.
    """

    def __init__(self, array_namespace):
        self._xp = array_namespace

    def __getattr__(self, name):  # first use of a name only; then it is an attribute
        try:
            forward = REGISTRY[name].forward
        except KeyError:
            raise AttributeError(f"no primitive op named {name!r}") from None
        bound = functools.partial(forward, self._xp)
        setattr(self, name, bound)
        return bound


class TensorNamespace:
    """The public ops by name: VJPs run on Tensors through it when a tape records them."""

    def __getattr__(self, name):
        try:
            call = REGISTRY[name].call
        except KeyError:
            raise AttributeError(f"no primitive op named {name!r}") from None
        setattr(self, name, call)
        return call


TENSORS = TensorNamespace()

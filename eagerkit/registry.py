"""The one table of primitive ops, and how calling an op works (dispatch).

A primitive is written once, in one place (see ``ops/``), always in this one style::

    @defop("multiply")
    def multiply(xp, x, y):          # forward: raw arrays through the array namespace xp
        return x * y

    multiply.defvjp(                 # one VJP per input: g is the incoming gradient
        lambda ops, g, ans, x, y: g * y,
        lambda ops, g, ans, x, y: g * x,
    )

The forward's parameters after ``xp`` are the public signature: those without a default are
the tensor inputs, the rest are parameters (``def reduce_sum(xp, input_tensor, axis=None,
keepdims=False)`` gives ``ek.reduce_sum(input_tensor, axis=None, keepdims=False, name=None)``).
An op whose public signature differs (conversions, checks) keeps its primitive private
(``_reshape``) and wraps it in a plain public function. ``defvjp`` is a statement, never a
decorator; an op on a list of inputs (concat) declares ``defvjp_variadic(vjp)`` instead, with
``vjp(i, ops, g, ans, *inputs, **params)``.

``defop`` turns the forward into the public function ``ek.multiply``. Calling it:

1. converts the inputs to arrays on one device with one dtype (TF's rules, clear errors),
2. runs the forward on the device's array namespace ``xp``,
3. wraps the result in a Tensor and, only when a tape is active, records it.

A VJP computes with ``ops``, a namespace of eagerkit primitives (``ops.matmul``,
``ops.where``) plus Python operators. The reverse sweep (backprop.py) hands it ``ArrayOps``
(the forwards on raw arrays: fast) when no tape watches the backward pass, and ``TensorOps``
(the public ops on Tensors, recorded: higher-order gradients) when one does.
"""

import functools
import inspect

from eagerkit import boundary, dtypes, op_errors, operands, tape
from eagerkit.errors import OpError
from eagerkit.tensor import Tensor

REGISTRY = {}  # name -> OpDef, in definition order
execution_callbacks = []  # f(op, inputs, output) after every op; see debugging.py
graph_tracers = []  # ek.function's tracers while it traces (graph/trace.py), innermost last

_active_tapes = tape.active_tapes  # the same list object: no lookup on the hot path
# What a kernel raises on input it cannot take; dispatch turns each into an op error.
_NUMPY_ERRORS = (ValueError, TypeError, LookupError, AttributeError, ArithmeticError, MemoryError)
_ALL_NUMPY = frozenset(d.as_numpy_dtype for d in dtypes.ALL)


class OpDef:
    """One primitive: its name, forward kernel, VJPs and the dtypes it accepts.

    ``vjps[i](ops, g, ans, *inputs, **params)`` is the gradient for input ``i``;
    ``None`` there means input ``i`` gets no gradient (an index, a condition).
    ``nin`` is the number of tensor inputs (``None`` for an op on a list, like concat) and
    ``param_names`` the parameters that may also be passed by position (TF's ``axis``).
    """

    __slots__ = (
        "name",
        "forward",
        "vjps",
        "variadic_vjp",
        "dtypes",
        "dtype_args",
        "differentiable",
        "call",
        "nin",
        "param_names",
    )

    def __init__(self, name, forward, dtypes_, dtype_args, differentiable):
        self.name = name
        self.forward = forward
        self.vjps = ()
        self.variadic_vjp = None
        self.dtypes = dtypes_
        self.dtype_args = dtype_args
        self.differentiable = differentiable
        self.call = None
        self.nin, self.param_names = _inputs_and_params(forward)

    def defvjp(self, *vjps):
        """Attach one VJP per input (``None`` for inputs without a gradient)."""
        self.vjps = vjps

    def defvjp_variadic(self, vjp):
        """For ops on a list of inputs (concat): ``vjp(i, ops, g, ans, *inputs, **params)``."""
        self.variadic_vjp = vjp

    def vjps_for(self, count):
        """The VJPs of a call with ``count`` inputs, one per input."""
        if self.variadic_vjp is None:
            return self.vjps
        return tuple(functools.partial(self.variadic_vjp, i) for i in range(count))

    def __repr__(self):
        return f"<OpDef {self.name}>"


def _inputs_and_params(forward):
    """``(nin, param_names)`` from ``forward(xp, *inputs, **params)``'s signature.

    ``param_names`` are the parameters that may be given by position after the inputs,
    ending with TF's ``name`` (accepted and ignored: eager tensors have no names).
    """
    nin, names = 0, []
    for p in list(inspect.signature(forward).parameters.values())[1:]:
        if p.kind is p.VAR_POSITIONAL:
            return None, ()
        if p.kind is p.POSITIONAL_OR_KEYWORD:
            if p.default is p.empty and not names:
                nin += 1
            else:
                names.append(p.name)
    return nin, (*names, "name")


def _public_signature(forward):
    """The forward's signature without ``xp`` and with TF's ``name=None``: what Jupyter shows."""
    parameters = list(inspect.signature(forward).parameters.values())[1:]
    variadic = any(p.kind is p.VAR_POSITIONAL for p in parameters)
    kind = inspect.Parameter.KEYWORD_ONLY if variadic else inspect.Parameter.POSITIONAL_OR_KEYWORD
    name = inspect.Parameter("name", kind, default=None)
    before = [p for p in parameters if p.kind in (p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL)]
    after = [p for p in parameters if p.kind in (p.KEYWORD_ONLY, p.VAR_KEYWORD)]
    return inspect.Signature([*before, name, *after])


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
        call.__signature__ = _public_signature(forward)
        call.op = op
        call.defvjp = op.defvjp
        call.defvjp_variadic = op.defvjp_variadic
        op.call = call
        REGISTRY[name] = op
        return call

    return register


def _by_name(op, inputs, params):
    """Parameters passed by position (``reduce_sum(x, 0)``) moved into ``params``."""
    nin = op.nin
    params.update(zip(op.param_names, inputs[nin:], strict=False))
    params.pop("name", None)
    return inputs[:nin], params


def _inputs_by_keyword(op, inputs, params):
    """Inputs passed by keyword (``ek.ceil(x=3)``, as TF allows) moved into ``inputs``."""
    names = list(inspect.signature(op.forward).parameters)[1 : 1 + op.nin]
    given = list(inputs)
    for input_name in names[len(inputs) :]:
        if input_name not in params:
            break
        given.append(params.pop(input_name))
    return tuple(given), params


def _general_call(op):
    def call(*inputs, name=None, **params):
        if op.nin is not None and len(inputs) > op.nin:
            inputs, params = _by_name(op, inputs, params)
        elif params and op.nin is not None and len(inputs) < op.nin:
            inputs, params = _inputs_by_keyword(op, inputs, params)
        return apply(op, inputs, params)

    return call


def _fast_call(op):
    """The public function for an op whose inputs share one dtype (most of them).

    The common case (Tensors on one ordinary device with one supported dtype, perhaps
    with a Python number beside them) runs here: these few lines are the per-op cost of
    eager execution, so they do no more than check, compute, wrap, and look whether
    anyone is recording. Everything else goes through ``apply``.
    """
    forward, allowed, nin = op.forward, op.dtypes, op.nin
    new = object.__new__

    def call(*inputs, name=None, **params):
        if nin is not None and len(inputs) > nin:
            inputs, params = _by_name(op, inputs, params)
        elif params and nin is not None and len(inputs) < nin:
            inputs, params = _inputs_by_keyword(op, inputs, params)
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
        except OpError as error:  # the forward's own error already names the op
            raise boundary.user_error(error) from error.__cause__
        except (
            ValueError,
            TypeError,
            LookupError,
            AttributeError,
            ArithmeticError,
            MemoryError,
        ) as error:
            shown = boundary.user_error(op_errors.explain(op, arrays, error), cause=error)
            raise shown from shown.__cause__
        output = new(Tensor)
        output._data, output._device = data, device
        if _active_tapes or execution_callbacks or graph_tracers:
            _after(op, inputs, arrays, output, params)
        return output

    return call


def apply(op, inputs, params):
    """Run ``op`` on ``inputs`` eagerly and record it on the active tapes."""
    # inputs may come back changed: a tensor copied from another device (silent policy).
    try:
        arrays, device, inputs = operands.to_arrays(op, inputs)
        data = op.forward(device.xp, *arrays, **params)
    except OpError as error:
        raise boundary.user_error(error) from error.__cause__
    except (
        ValueError,
        TypeError,
        LookupError,
        AttributeError,
        ArithmeticError,
        MemoryError,
    ) as error:
        shown = boundary.user_error(op_errors.explain(op, inputs, error), cause=error)
        raise shown from shown.__cause__
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


class ArrayOps:
    """The ``ops`` a VJP gets on raw arrays: the registry's forwards bound to one device.

    ``ops.multiply(a, b)`` runs the ``multiply`` forward on the device's arrays and returns
    an array; nothing is converted, checked or recorded. Used when no tape records the
    backward pass (the common case), so a gradient costs what numpy by hand costs.
    """

    on_tensors = False

    def __init__(self, device):
        self.device = device
        self.xp = device.xp

    def __getattr__(self, name):  # first use of a name only; then it is an attribute
        try:
            forward = REGISTRY[name].forward
        except KeyError:
            raise AttributeError(f"no primitive op named {name!r}") from None
        bound = functools.partial(forward, self.xp)
        setattr(self, name, bound)
        return bound


class TensorOps:
    """The ``ops`` a VJP gets on Tensors: the public ops, so an outer tape records them.

    This is the reference mode: every step of the backward pass is an ordinary op, which is
    what makes gradients of gradients work.
    """

    on_tensors = True

    def __getattr__(self, name):
        try:
            call = REGISTRY[name].call
        except KeyError:
            raise AttributeError(f"no primitive op named {name!r}") from None
        setattr(self, name, call)
        return call


TENSOR_OPS = TensorOps()

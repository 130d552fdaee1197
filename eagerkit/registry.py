"""The one table of primitive ops: how a primitive is declared (calling one: fast_dispatch.py).

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

``defop`` turns the forward into the public function ``ek.multiply``, which converts the
inputs, runs the forward, wraps the result in a Tensor and records it when a tape is active
(fast_dispatch.py, and dispatch.py for the general case).

A VJP computes with ``ops``, a namespace of eagerkit primitives (``ops.matmul``,
``ops.where``) and fused elementwise kernels (``ops.tanh_grad``: backends/fusion.py) plus
Python operators. The reverse sweep (backprop.py) hands it ``ArrayOps``
(the forwards on raw arrays: fast) when no tape watches the backward pass, and ``TensorOps``
(the public ops on Tensors, recorded: higher-order gradients) when one does.
"""

import functools
import inspect

from eagerkit import dtypes, fast_dispatch
from eagerkit.backends import fusion
from eagerkit.errors import InvalidArgumentError, UnimplementedError

REGISTRY = {}  # name -> OpDef, in definition order
_ALL_NUMPY = frozenset(d.as_numpy_dtype for d in dtypes.ALL)


class OpDef:
    """One primitive: its name, forward kernel, VJPs and the dtypes it accepts.

    ``vjps[i](ops, g, ans, *inputs, **params)`` is the gradient for input ``i``;
    ``None`` there means input ``i`` gets no gradient (an index, a condition).
    ``nin`` is the number of tensor inputs (``None`` for an op on a list, like concat),
    ``input_names`` their names and ``param_names`` the parameters that may also be passed
    by position (TF's ``axis``).
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
        "input_names",
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
        names = list(inspect.signature(forward).parameters)[1:]
        self.input_names = tuple(names[: self.nin or 0])  # for inputs given by keyword

    def defvjp(self, *vjps):
        """Attach one VJP per input (``None`` for inputs without a gradient)."""
        if self.nin is not None and len(vjps) != self.nin:
            raise TypeError(
                f"{self.name}.defvjp: got {len(vjps)} VJPs but {self.name} has {self.nin} "
                f"inputs {self.input_names}; give one per input, None for an input without "
                "a gradient"
            )
        self.vjps = vjps

    def defvjp_variadic(self, vjp):
        """For ops on a list of inputs (concat): ``vjp(i, ops, g, ans, *inputs, **params)``."""
        self.variadic_vjp = vjp

    def by_name(self, inputs, params):
        """Parameters passed by position (``reduce_sum(x, 0)``) moved into ``params``."""
        extra = inputs[self.nin :]
        if len(extra) > len(self.param_names):
            most = self.nin + len(self.param_names)
            raise InvalidArgumentError(
                f"{self.name}: takes at most {most} positional arguments but {len(inputs)} "
                f"were given; its signature is {self.name}{inspect.signature(self.call)}",
                op=self.name,
            )
        params.update(zip(self.param_names[: len(extra)], extra, strict=True))
        params.pop("name", None)  # TF's op name: eager tensors have none
        return inputs[: self.nin], params

    def has_gradient(self, position):
        """Whether input ``position`` can get a gradient at all (widgets explain None)."""
        return self.variadic_vjp is not None or self.vjps[position] is not None

    def input_gradients(self, ops, g, ans, inputs, params, wanted):
        """One gradient per input (None where not ``wanted`` or where the op passes none)."""
        grads = []
        if self.variadic_vjp is not None:  # one function for all inputs, told which one
            for i, want in enumerate(wanted):
                grads.append(self.variadic_vjp(i, ops, g, ans, *inputs, **params) if want else None)
            return grads
        if len(self.vjps) != len(wanted):
            raise UnimplementedError(
                f"{self.name} has no gradient: its VJPs were never declared "
                f"({self.name}.defvjp(...)); declare them, or defop(..., differentiable=False)",
                op=self.name,
            )
        for vjp, want in zip(self.vjps, wanted, strict=True):
            grads.append(vjp(ops, g, ans, *inputs, **params) if want and vjp is not None else None)
        return grads

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
        call = fast_dispatch.public_function(op)
        functools.update_wrapper(call, forward)
        call.__signature__ = _public_signature(forward)
        call.op = op
        call.defvjp = op.defvjp
        call.defvjp_variadic = op.defvjp_variadic
        op.call = call
        REGISTRY[name] = op
        return call

    return register


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
        op = REGISTRY.get(name)
        if op is not None:
            bound = functools.partial(op.forward, self.xp)
        elif name in fusion.KERNELS:  # a fused elementwise chain (backends/fusion.py)
            bound = getattr(self.xp.kernels, name)
        else:
            raise AttributeError(f"no primitive op or fused kernel named {name!r}")
        setattr(self, name, bound)
        return bound


class TensorOps:
    """The ``ops`` a VJP gets on Tensors: the public ops, so an outer tape records them.

    This is the reference mode: every step of the backward pass is an ordinary op, which is
    what makes gradients of gradients work.
    """

    on_tensors = True

    def __getattr__(self, name):
        op = REGISTRY.get(name)
        if op is not None:
            call = op.call
        elif name in fusion.KERNELS:  # a fused chain, here as its steps, each one recorded
            call = fusion.KERNELS[name].on_tensors
        else:
            raise AttributeError(f"no primitive op or fused kernel named {name!r}")
        setattr(self, name, call)
        return call


TENSOR_OPS = TensorOps()

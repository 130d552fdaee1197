"""Graph mode: ``ek.function`` (alias ``ek.defun``) traces a Python function into a graph.

Eager execution pays Python's price at every op: convert the arguments, check dtypes,
make a Tensor, look for tapes. ``ek.function`` pays it once. The first call with a new
input signature (tensor shapes and dtypes, values of the other arguments) *traces*: it runs
the Python function while the registry reports every op to a tracer (graph/trace.py). The
graph is then optimized (constant folding, common-subexpression and dead-code elimination,
graph/optimize.py) and compiled into one plain Python function over raw arrays, which
writes into dead temporaries instead of allocating where it can (buffer reuse,
graph/replay.py). Later calls with that signature just run the compiled function.

Consequences, as in TF: Python side effects such as ``print`` happen only while tracing;
Python code that branches on Python values is fixed per trace (each new value traces
again); ``Variable``\\s are read at every call, never frozen. Unlike TF, tracing runs on the
first call's actual values, so Python code that looks at a *tensor's value* (``if x > 0``,
``x.numpy()``) or draws random numbers is frozen into the graph too: keep such code
outside, or make it an op (``ek.where``). A function that assigns to a variable raises an
error while tracing: these graphs read state but never write it.

Gradients. A call made while a tape records (or a callback watches ops, or an outer
function traces) runs the graph's nodes through the public ops instead, so each op is
recorded as in eager mode and gradients of any order flow through with no gradient code
here, the optimizations still applied. We chose this over recording the call as one op
whose VJP is another traced function because it reuses the one VJP every primitive
already has, so first, second and higher orders are correct by construction; the price
is that only calls without a tape get the compiled speed.
"""

import functools
import types

from eagerkit import dispatch, nest
from eagerkit.graph.optimize import optimize
from eagerkit.graph.replay import compile_graph, plan_buffer_reuse, run_with_ops
from eagerkit.graph.signature import TensorSpec, call_key, match_signature
from eagerkit.graph.trace import Tracer, tracing
from eagerkit.tensor import Tensor, convert_to_tensor

_RAW_ERRORS = (ValueError, TypeError, IndexError, ArithmeticError)


class ConcreteFunction:
    """One trace: its graph before and after optimization, and the code that replays it.

    Examples
    --------
    >>> import eagerkit as ek
    >>> f = ek.function(lambda x: x * x + 1.0)
    >>> concrete = f.get_concrete_function(ek.constant(2.0))
    >>> print(concrete.graph)
    graph <lambda>: 1 inputs, 0 variables, 1 constants, 2 ops
      %0 = input 0                               float32[]
      %1 = multiply(%0, %0)                      float32[]
      %2 = constant 1.0                          float32[]
      %3 = add(%1, %2)                           float32[]
      return %3
    >>> concrete(ek.constant(3.0))
    <ek.Tensor: shape=(), dtype=float32, numpy=10.0>
    """

    def __init__(self, tracer, result, leaves, positions, input_specs, buffer_reuse):
        out_leaves = nest.flatten(result)
        self._out_positions = [i for i, leaf in enumerate(out_leaves) if isinstance(leaf, Tensor)]
        traced_outputs = [out_leaves[i] for i in self._out_positions]
        # Keep the structure and the Python values of the result, not the traced tensors.
        self._out_leaves = [None if isinstance(leaf, Tensor) else leaf for leaf in out_leaves]
        self._template = nest.pack_sequence_as(result, self._out_leaves)
        self._single = isinstance(result, Tensor)
        self._positions = positions  # where the tensor arguments sit among the flat arguments
        self._python_args = [leaf for i, leaf in enumerate(leaves) if i not in positions]
        self.input_specs = input_specs
        self.traced_graph = tracer.graph(traced_outputs)
        self.graph, self.optimizations = optimize(self.traced_graph)
        self.optimizations["buffer_reuse"] = plan_buffer_reuse(self.graph) if buffer_reuse else 0
        self.source, self._run = compile_graph(self.graph)
        self._constants = {
            id(node): Tensor(node.value, node.device) for node in self.graph.constants
        }
        self._devices = [node.device for node in self.graph.outputs]

    def __call__(self, *args, **kwargs):
        """Run this trace on tensors of its input specs (no retracing, ever)."""
        leaves = [_as_tensor(leaf) for leaf in nest.flatten((args, kwargs))]
        tensors = [leaf for leaf in leaves if isinstance(leaf, Tensor)]
        python_args = [leaf for leaf in leaves if not isinstance(leaf, Tensor)]
        if python_args != self._python_args:
            raise ValueError(
                f"ConcreteFunction {self.graph.name!r} was traced for the Python arguments "
                f"{self._python_args} but got {python_args}; call the ek.function itself to "
                "trace for new values."
            )
        if len(tensors) != len(self.input_specs) or not all(
            spec.is_compatible_with(t) for spec, t in zip(self.input_specs, tensors, strict=True)
        ):
            got = ", ".join(f"{t.dtype.name}{list(t.shape)}" for t in tensors)
            raise ValueError(
                f"ConcreteFunction {self.graph.name!r} was traced for tensors "
                f"{list(self.input_specs)} but got {got or 'no tensors'}; call the ek.function "
                "itself to trace for new shapes."
            )
        return self._call_flat(leaves)

    def _call_flat(self, leaves):
        tensors = [leaves[i] for i in self._positions]
        if dispatch.anyone_recording():
            outputs = run_with_ops(self.graph, tensors, self._constants)
        else:
            try:
                arrays = self._run(*[t._data for t in tensors])
            except _RAW_ERRORS:
                # Raw kernels give numpy's terse error; the public ops name the op and shapes.
                outputs = run_with_ops(self.graph, tensors, self._constants)
            else:
                outputs = [
                    Tensor(a, device) for a, device in zip(arrays, self._devices, strict=True)
                ]
        if self._single:
            return outputs[0]
        leaves = list(self._out_leaves)
        for position, output in zip(self._out_positions, outputs, strict=True):
            leaves[position] = output
        return nest.pack_sequence_as(self._template, leaves)

    def __repr__(self):
        return f"<ConcreteFunction {self.graph.name}: {len(self.graph.ops)} ops>"


class Function:
    """A Python function that runs as a traced, optimized graph. Made by ``ek.function``.

    ``trace_count`` says how many times it traced; ``get_concrete_function(*args)`` gives
    the trace for those arguments (``.graph``, ``.traced_graph``, ``.optimizations``,
    ``.source``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> scale = ek.function(lambda x, k: x * k)
    >>> _ = scale(ek.constant(1.0), 2.0), scale(ek.constant(5.0), 2.0), scale(ek.constant(1.0), 3.0)
    >>> scale.trace_count  # a new Python value (3.0) is a new signature
    2
    """

    def __init__(self, python_function, input_signature=None, buffer_reuse=True):
        functools.update_wrapper(self, python_function)
        self.python_function = python_function
        self.input_signature = None if input_signature is None else tuple(input_signature)
        self.buffer_reuse = buffer_reuse
        self.trace_count = 0
        self._traces = {}  # call key -> ConcreteFunction
        self._by_tensor_shapes = {}  # all-tensor positional calls: a cheaper key, same traces
        self._name = getattr(python_function, "__name__", type(python_function).__name__)

    def __call__(self, *args, **kwargs):
        shapes_key = None if kwargs else _tensor_shapes_key(args)
        if shapes_key is not None:
            concrete = self._by_tensor_shapes.get(shapes_key)
            if concrete is not None:  # the common case: no flattening, no conversion
                return concrete._call_flat(args)
        concrete, leaves = self._concrete_for(args, kwargs)
        if shapes_key is not None:
            self._by_tensor_shapes[shapes_key] = concrete
        return concrete._call_flat(leaves)

    def get_concrete_function(self, *args, **kwargs):
        """The trace these arguments select (tracing now if there is none yet).

        With an ``input_signature`` no arguments are needed; a ``TensorSpec`` argument with
        known sizes stands for a tensor of ones of that shape.
        """
        if not args and not kwargs and self.input_signature:
            args = [_example(spec) for spec in self.input_signature]
        args, kwargs = nest.pack_sequence_as(
            (args, kwargs),
            [_spec_to_ones(leaf, self._name) for leaf in nest.flatten((args, kwargs))],
        )
        return self._concrete_for(args, kwargs)[0]

    def experimental_get_tracing_count(self):
        """TF's name for ``trace_count``."""
        return self.trace_count

    def _concrete_for(self, args, kwargs):
        if self.input_signature is not None:
            leaves = match_signature(self.input_signature, args, kwargs, self._name)
            structure, key, specs = (tuple(leaves), {}), "input_signature", self.input_signature
        else:
            structure = (args, kwargs)
            leaves = [_as_tensor(leaf) for leaf in nest.flatten(structure)]
            key, specs = call_key(structure, leaves, self._name), None
        concrete = self._traces.get(key)
        if concrete is None:
            concrete = self._trace(structure, leaves, specs)
            self._traces[key] = concrete
        return concrete, leaves

    def _trace(self, structure, leaves, specs):
        tracer = Tracer(self._name)
        positions = [i for i, leaf in enumerate(leaves) if isinstance(leaf, Tensor)]
        stand_ins = list(leaves)
        for number, i in enumerate(positions):
            stand_ins[i] = tracer.placeholder(leaves[i], number)
        args, kwargs = nest.pack_sequence_as(structure, stand_ins)
        with tracing(tracer):
            result = self.python_function(*args, **kwargs)
        self.trace_count += 1
        if specs is None:
            specs = tuple(TensorSpec.from_tensor(leaves[i]) for i in positions)
        # Sizes left open (None) may change between calls: writing in place is only safe
        # when every shape is the one traced.
        reuse = self.buffer_reuse and all(spec.fully_defined for spec in specs)
        return ConcreteFunction(tracer, result, leaves, positions, specs, reuse)

    def __get__(self, instance, owner=None):
        # As a method: bind like a plain function (``self`` selects the trace by identity).
        return self if instance is None else types.MethodType(self, instance)

    def __repr__(self):
        return f"<ek.function {self._name}: {self.trace_count} traces>"


def function(func=None, input_signature=None, buffer_reuse=True):
    """Trace ``func`` into a graph per input signature, optimize it, replay it fast.

    Use it as ``@ek.function`` or ``@ek.function(input_signature=[ek.TensorSpec(...)])``.

    Parameters
    ----------
    func : the Python function (made of eagerkit ops).
    input_signature : a list of ``TensorSpec``, one per argument: trace once, for all of them.
    buffer_reuse : let elementwise ops write into dead temporaries (``False`` to compare).

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
    if func is None:
        return functools.partial(
            function, input_signature=input_signature, buffer_reuse=buffer_reuse
        )
    return Function(func, input_signature, buffer_reuse)


defun = function  # the TF 1.x contrib name (tfe.defun)


def _tensor_shapes_key(args):
    """(shape, dtype, device) per argument when every argument is a plain Tensor, else None."""
    key = []
    for x in args:
        if type(x) is not Tensor:
            return None
        key.append((x._data.shape, x._data.dtype, x._device))
    return tuple(key)


def _as_tensor(leaf):
    """numpy arrays act as tensors (as in TF); other Python values stay as they are."""
    if isinstance(leaf, Tensor) or not hasattr(leaf, "__array_interface__"):
        return leaf
    return convert_to_tensor(leaf)


def _example(spec):
    """A TensorSpec with its open sizes set to 1, to trace an input_signature on."""
    shape = () if spec.shape is None else [1 if n is None else n for n in spec.shape]
    return TensorSpec(shape, spec.dtype, spec.name)


def _spec_to_ones(leaf, name):
    if not isinstance(leaf, TensorSpec):
        return leaf
    if not leaf.fully_defined:
        raise ValueError(
            f"ek.function {name!r}: get_concrete_function got {leaf!r} with unknown sizes; "
            "give a tensor (or a spec with every size) to trace for, or give the function "
            "an input_signature."
        )
    from eagerkit.ops.creation import ones

    return ones(leaf.shape, dtype=leaf.dtype)

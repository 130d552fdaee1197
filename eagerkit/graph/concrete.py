"""ConcreteFunction: one trace of an ``ek.function``, callable on its own.

It holds the graph as traced and as optimized, the compiled code that replays it, and what
it was traced for: the specs of its tensor arguments and the values of its Python ones. As
in TF, a concrete function takes only tensors that fit its specs, and its Python arguments
may be left out (or given again, with the value they had when traced).
"""

from eagerkit import dispatch, nest
from eagerkit.errors import InvalidArgumentError
from eagerkit.graph.optimize import optimize
from eagerkit.graph.replay import compile_graph, plan_buffer_reuse, run_with_ops
from eagerkit.graph.signature import TensorSpec, bind
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

    def __init__(self, tracer, result, call, buffer_reuse):
        out_leaves = nest.flatten(result)
        self._out_positions = [i for i, leaf in enumerate(out_leaves) if isinstance(leaf, Tensor)]
        traced_outputs = [out_leaves[i] for i in self._out_positions]
        # Keep the structure of the result (and its None leaves), not the traced tensors.
        self._out_leaves = [None if isinstance(leaf, Tensor) else leaf for leaf in out_leaves]
        self._template = nest.pack_sequence_as(result, self._out_leaves)
        self._single = isinstance(result, Tensor)
        self._call = call  # what it was traced for: TracedCall (graph/polymorphic_function.py)
        self._positions = call.positions  # where the tensor arguments sit among the leaves
        self.input_specs = call.specs
        self.guards = tracer.guards  # what a later call must find for a replay (trace.py)
        self.shape_bound = tracer.shape_bound  # its specs are the traced call's sizes
        self.output_specs = [TensorSpec.from_tensor(t) for t in traced_outputs]
        self.traced_graph = tracer.graph(traced_outputs)
        self.graph, self.optimizations = optimize(self.traced_graph)
        self.optimizations["buffer_reuse"] = plan_buffer_reuse(self.graph) if buffer_reuse else 0
        self._source = None  # compiled at the second call: a trace used once needs no code
        self._constants = {
            id(node): Tensor(node.value, node.device) for node in self.graph.constants
        }
        self._devices = [node.device for node in self.graph.outputs]

    # --- calling ---------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        """Run this trace on tensors that fit its specs (never traces again).

        Give the tensor arguments alone (by position or name), or all the arguments as the
        ek.function takes them; Python arguments must keep their traced values.
        """
        leaves = self._call.leaves_for(args, kwargs)
        tensors = [leaves[i] for i in self._positions]
        if len(tensors) != len(self.input_specs) or not all(
            isinstance(t, Tensor) and spec.is_compatible_with(t)
            for spec, t in zip(self.input_specs, tensors, strict=True)
        ):
            got = ", ".join(_describe(t) for t in tensors)
            why = (
                " (it takes a gradient inside, and a gradient's graph holds the sizes it was "
                "traced with, so its None sizes were fixed then)"
                if self.shape_bound
                else ""
            )
            raise InvalidArgumentError(
                f"ConcreteFunction {self.graph.name!r} was traced for tensors "
                f"{list(self.input_specs)}{why} but got {got or 'no tensors'}; call the "
                "ek.function itself to trace for new shapes or dtypes.",
                op=self.graph.name,
            )
        return self._call_flat(leaves)

    def _call_flat(self, leaves):
        return self._call_tensors([leaves[i] for i in self._positions])

    def _call_tensors(self, tensors):
        """Run on ``tensors`` (the tensor arguments, in order): the function's result."""
        if self._source is None or dispatch.anyone_recording():
            if self._source is None:
                self._source = ""  # a first run goes through the ops; the next one compiles
            outputs = [_read(x) for x in run_with_ops(self.graph, tensors, self._constants)]
        else:
            try:
                arrays = self._run(*[t._data for t in tensors])
            except _RAW_ERRORS:
                # Raw kernels give numpy's terse error; the public ops name the op and shapes.
                outputs = run_with_ops(self.graph, tensors, self._constants)
            else:
                if self._single:  # the common case, without a list
                    return Tensor(arrays[0], self._devices[0])
                outputs = [
                    Tensor(a, device) for a, device in zip(arrays, self._devices, strict=True)
                ]
        if self._single:
            return outputs[0]
        return self._pack_outputs(outputs)

    def _run(self, *arrays):
        """The compiled graph (compiled now, on first use: it then replaces this method)."""
        self._source, self._run = compile_graph(self.graph, len(self._positions))
        return self._run(*arrays)

    @property
    def source(self):
        """The Python source the graph compiles to (replay.py's ``compile_graph``)."""
        if not self._source:
            self._source, self._run = compile_graph(self.graph, len(self._positions))
        return self._source

    def _pack_outputs(self, outputs):
        """The function's result, with ``outputs`` (tensors) in its structure."""
        if self._single:
            return outputs[0]
        leaves = list(self._out_leaves)
        for position, output in zip(self._out_positions, outputs, strict=True):
            leaves[position] = output
        return nest.pack_sequence_as(self._template, leaves)

    @property
    def inference_fn(self):
        """The graph as a callable on its tensor arguments alone, in order (TF's
        ``AtomicFunction``, for forward use): ``concrete.inference_fn(x)``."""

        def run_graph(*tensors):
            return self(*tensors)  # the tensor arguments by position: checked as a call is

        return run_graph

    # --- what it takes and gives ---------------------------------------------------------------
    @property
    def structured_outputs(self):
        """The result's structure, with a TensorSpec for each tensor."""
        return self._pack_outputs(list(self.output_specs))

    @property
    def function_type(self):
        """``(a: TensorSpec(...)) -> TensorSpec(...)``, as TF prints it."""
        return FunctionType(self)

    def signature_text(self, title="Input Parameters:"):
        """TF's listing of the parameters, the output type and the captured variables."""
        lines = [title]
        lines += [f"  {name} ({kind}): {spec}" for name, kind, spec in self._call.parameters()]
        lines += ["Output Type:", f"  {_type_text(self.structured_outputs)}", "Captures:"]
        variables = [node.value for node in self.graph.variables]
        if not variables:
            lines.append("  None")
        lines += [f"  {v.name}: {TensorSpec.from_tensor(v)}" for v in variables]
        return "\n".join(lines)

    def __str__(self):
        return self.signature_text("ConcreteFunction Input Parameters:")

    def __repr__(self):
        return f"<ConcreteFunction {self.graph.name}: {len(self.graph.ops)} ops>"


class FunctionType:
    """The signature of a concrete function; prints as TF's ``function_type``."""

    def __init__(self, concrete):
        self.concrete = concrete

    def __str__(self):
        parameters = ", ".join(
            f"{name}: {spec}" for name, _, spec in self.concrete._call.parameters()
        )
        return f"({parameters}) -> {_type_text(self.concrete.structured_outputs)}"

    __repr__ = __str__


class TracedCall:
    """What a trace was made for: the arguments' structure with a TensorSpec for each tensor
    and the value of each Python argument, and the function's signature."""

    def __init__(self, signature, structure, leaves, positions, specs, name):
        self.signature = signature
        self.positions = positions  # where the tensor arguments sit among the flat leaves
        self.specs = specs
        self.name = name
        given = iter(specs)
        self.template = nest.pack_sequence_as(
            structure, [next(given) if i in positions else x for i, x in enumerate(leaves)]
        )
        self.python_leaves = [None if i in positions else x for i, x in enumerate(leaves)]

    def leaves_for(self, args, kwargs):
        """The flat leaves of a call to a concrete function, Python values filled in."""
        plain = [_as_tensor(x) for x in args]
        if not kwargs and len(plain) == len(self.positions):
            if all(isinstance(x, Tensor) for x in plain):  # just the tensors, in order
                leaves = list(self.python_leaves)
                for position, tensor in zip(self.positions, plain, strict=True):
                    leaves[position] = tensor
                return leaves
        if self.signature is None:
            raise TypeError(
                f"ConcreteFunction {self.name!r} takes its {len(self.positions)} tensor "
                "arguments by position"
            )
        traced = self.signature.bind(*self.template[0], **self.template[1]).arguments
        try:
            given = self.signature.bind_partial(*args, **kwargs).arguments
        except TypeError as error:
            raise TypeError(f"ConcreteFunction {self.name!r}: {error}") from None
        merged = bind(self.signature, (), {k: given.get(k, v) for k, v in traced.items()})
        leaves = [_as_tensor(x) for x in nest.flatten(merged)]
        if len(leaves) != len(self.python_leaves):  # another structure (a list for a tensor)
            raise TypeError(
                f"ConcreteFunction {self.name!r} was traced for {len(self.positions)} tensor "
                f"arguments {list(self.specs)} but got arguments of another structure "
                f"({', '.join(_describe(a) for a in args)}); pass tensors that fit, or call the "
                "ek.function itself to trace for these."
            )
        for i, (leaf, was) in enumerate(zip(leaves, self.python_leaves, strict=True)):
            if i not in self.positions and not _same_value(leaf, was):
                raise TypeError(
                    f"ConcreteFunction {self.name!r} was traced with the Python argument "
                    f"value {was!r} but got {leaf!r}; call the ek.function itself to trace "
                    "for new values."
                )
        return leaves

    def parameters(self):
        """``(name, kind, type)`` for each parameter as traced: TF's listing."""
        if self.signature is None:
            return [(f"args_{i}", "POSITIONAL_ONLY", spec) for i, spec in enumerate(self.specs)]
        traced = self.signature.bind(*self.template[0], **self.template[1]).arguments
        return [
            (name, self.signature.parameters[name].kind.name, _type_text(value))
            for name, value in traced.items()
        ]


def prepare_output(value, function_name):
    """A function result's leaf as TF returns it: a tensor (numbers and arrays converted),
    or None."""
    if value is None or isinstance(value, Tensor):
        return value
    try:
        return convert_to_tensor(value)
    except (TypeError, ValueError, InvalidArgumentError):
        raise TypeError(
            "To be compatible with tf.function, Python functions must return zero or more "
            f"Tensors or ExtensionTypes or None values; in compilation of {function_name}, "
            f"found return value of type {type(value)}, which is not a Tensor or "
            "ExtensionType."
        ) from None


def _read(value):
    """A variable returned by a graph run through ops is read, as a tensor."""
    if isinstance(value, Tensor) and value._is_variable:
        from eagerkit.ops.shape import identity

        return identity(value)
    return value


def _as_tensor(leaf):
    """numpy arrays act as tensors (as in TF); other Python values stay as they are."""
    if isinstance(leaf, Tensor) or not hasattr(leaf, "__array_interface__"):
        return leaf
    return convert_to_tensor(leaf)


def _same_value(a, b):
    if a is b:
        return True
    if isinstance(a, Tensor) or isinstance(b, Tensor):
        return False
    try:
        return bool(a == b) and type(a) is type(b)
    except Exception:  # noqa: BLE001 - a comparison that fails means "not the same"
        return False


def _describe(value):
    if isinstance(value, Tensor):
        return f"{value.dtype.name}{list(value.shape)}"
    return repr(value)


def _type_text(structure):
    """A structure of specs and Python values, written as TF writes types."""
    if isinstance(structure, dict):
        items = ", ".join(f"{k!r}: {_type_text(v)}" for k, v in structure.items())
        return f"Dict[{items}]"
    if isinstance(structure, (list, tuple)):
        kind = "List" if isinstance(structure, list) else "Tuple"
        return f"{kind}[{', '.join(_type_text(v) for v in structure)}]"
    if isinstance(structure, TensorSpec):
        return str(structure)
    if structure is None:
        return "NoneTensorSpec()"
    return f"Literal[{structure!r}]"

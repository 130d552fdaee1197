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
import types
import weakref

from eagerkit import dtypes, nest, recording
from eagerkit.config import RUN_FUNCTIONS_EAGERLY as _RUN_EAGERLY
from eagerkit.graph.cache import MAX_TRACES, RetracingDetector, TraceCache
from eagerkit.graph.concrete import ConcreteFunction, TracedCall, prepare_output
from eagerkit.graph.deferred import raise_needed_failure
from eagerkit.graph.signature import (
    TensorSpec,
    bind,
    call_key,
    general_key,
    match_signature,
    relaxed,
    signature_of,
)
from eagerkit.graph.trace import Tracer, outside_traces, tracing
from eagerkit.tensor import Tensor, convert_to_tensor


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

    def __init__(
        self,
        python_function,
        input_signature=None,
        buffer_reuse=True,
        autograph=True,
        reduce_retracing=False,
    ):
        functools.update_wrapper(self, python_function)
        self.python_function = python_function
        self.input_signature = None if input_signature is None else tuple(input_signature)
        self.buffer_reuse = buffer_reuse
        self.autograph = autograph
        self.reduce_retracing = reduce_retracing
        self.trace_count = 0
        self._name = getattr(python_function, "__name__", type(python_function).__name__)
        self._signature = signature_of(python_function)
        self._traces = TraceCache(MAX_TRACES)  # call key -> ConcreteFunction
        # All-tensor calls find their trace by a cheaper key: (shape, dtype, device) per
        # argument. Several keys may share a trace (an input_signature), so this one forgets
        # its oldest key first; a key forgotten costs one slower call, never a trace.
        self._by_tensor_shapes = {}
        self._calls = 0
        self._general = TraceCache(MAX_TRACES)  # traces for open sizes, by general key
        self._retracing = RetracingDetector(self._name)
        self._converted = None  # the AutoGraph version of python_function, made on first trace
        self._variables_allowed = True  # TF: only the first trace may create variables
        # As a method, each instance has its own first trace (TF: one Function per instance).
        self._is_method = False
        self._instances_traced = weakref.WeakSet()

    def __call__(self, *args, **kwargs):
        if _RUN_EAGERLY[0]:  # ek.config.run_functions_eagerly(True): debugging
            return self.python_function(*args, **kwargs)
        now = self._calls + 1
        shapes_key = None if kwargs else _tensor_shapes_key(args)
        if shapes_key is not None:
            concrete = self._by_tensor_shapes.get(shapes_key)
            if concrete is not None:  # the common case: no flattening, no conversion
                result = concrete._call_tensors(args)
                # TraceCache.get, inlined (keeps the LRU order), once the call succeeded.
                self._calls = concrete.last_used = now
                return result
        self._calls = now  # before tracing: a recursive call gets the next number
        try:
            call = self._prepare(args, kwargs)
            concrete = self._find(call)
            if concrete is None:
                concrete = self._trace(call)
                self._retracing.traced(now)  # this call's number (recursion calls in between)
        except BaseException:
            if self._calls == now:  # a call that found or made no trace changes nothing
                self._calls = now - 1
            raise
        if shapes_key is not None and concrete._call.positions == list(range(len(args))):
            _keep(self._by_tensor_shapes, shapes_key, concrete)  # next time: the fast path
        return concrete._call_flat(call.leaves)

    def get_concrete_function(self, *args, **kwargs):
        """The trace these arguments select, tracing now (without running) if there is none.

        A ``TensorSpec`` stands for any tensor that fits it (``TensorSpec(None, ek.float32)``:
        any shape); with an ``input_signature`` no arguments are needed.
        """
        if not args and not kwargs and self.input_signature:
            args = list(self.input_signature)
        call = self._prepare(args, kwargs, specs_allowed=True)
        concrete = self._find(call)
        if concrete is None:
            concrete = self._trace(call)
        return concrete

    def experimental_get_tracing_count(self):
        """TF's name for ``trace_count``."""
        return self.trace_count

    def pretty_printed_concrete_signatures(self, verbose=True):
        """Every trace kept, as TF lists them: parameters, output type, captures."""
        kept = [*self._traces.in_trace_order(), *self._general.in_trace_order()]
        concretes = list(dict.fromkeys(kept))
        return "\n\n".join(concrete.signature_text() for concrete in concretes)

    # --- finding or making a trace ------------------------------------------------------------
    def _prepare(self, args, kwargs, specs_allowed=False):
        """The call in canonical form: its leaves, key and specs (``_Call``)."""
        if self.input_signature is not None:
            if specs_allowed and all(isinstance(a, TensorSpec) for a in args) and not kwargs:
                args = [_example(spec) for spec in args]
            leaves = match_signature(self.input_signature, args, kwargs, self._name)
            return _Call((tuple(leaves), {}), leaves, "input_signature", self.input_signature)
        try:
            structure = bind(self._signature, args, kwargs)
        except TypeError as error:
            raise TypeError(f"ek.function {self._name!r}: {error}") from None
        leaves = nest.flatten(structure)
        given_specs = {}
        for i, leaf in enumerate(leaves):
            if isinstance(leaf, TensorSpec) and specs_allowed:
                if not leaf.fully_defined:  # else its example is any tensor it stands for
                    given_specs[i] = leaf
                leaves[i] = _example(leaf)
            else:
                leaves[i] = _as_tensor(leaf)
        key = call_key(structure, leaves, self._name)
        if given_specs:
            key = (key, tuple(sorted(given_specs.items(), key=lambda item: item[0])))
        call = _Call(structure, leaves, key, None, given_specs)
        if self.reduce_retracing or given_specs:
            call.general = general_key(structure, leaves, self._name)
        return call

    def _find(self, call):
        concrete = self._traces.get(call.key, self._calls)
        if concrete is not None or call.general is None:
            return concrete
        concrete = self._general.get(call.general, self._calls)
        if concrete is not None and _fits(concrete, call):
            return concrete
        return None

    def _trace(self, call):
        """Trace for ``call``: the new ConcreteFunction, kept for later calls."""
        specs = self._specs_for(call)
        concrete, created = self._trace_once(call, specs)
        if created:
            # TF traces once more: a function that creates variables at every call is refused.
            concrete, again = self._trace_once(call, specs)
            if again:
                raise _variable_creation_error()
        self._variables_allowed = False
        instance = self._instance(call)
        if instance is not None:
            self._instances_traced.add(instance)
        self.trace_count += 1
        self._traces.put(call.key, concrete, self._calls)
        if call.general is not None and not all(s.fully_defined for s in specs):
            self._general.put(call.general, concrete, self._calls)
        return concrete

    def _specs_for(self, call):
        if call.specs is not None:
            return call.specs
        specs = []
        for i in call.positions:
            spec = call.given_specs.get(i) or TensorSpec.from_tensor(call.leaves[i])
            specs.append(spec)
        if self.reduce_retracing and call.general is not None:
            previous = self._general.get(call.general, self._calls) or self._latest_like(call)
            if previous is not None:
                specs = [relaxed(a, b) for a, b in zip(specs, previous.input_specs, strict=True)]
        return tuple(specs)

    def _latest_like(self, call):
        """The latest trace of the same general kind (for reduce_retracing), or None."""
        for concrete in reversed(self._traces.values()):
            if getattr(concrete, "general_key", None) == call.general:
                return concrete
        return None

    def _trace_once(self, call, specs):
        tracer = Tracer(self._name, buffer_reuse=self.buffer_reuse)
        stand_ins = list(call.leaves)
        names = _argument_names(call.structure, self._signature)
        for number, i in enumerate(call.positions):
            stand_ins[i] = tracer.placeholder(call.leaves[i], number, names.get(i, "args"))
            tracer.static_shapes[id(stand_ins[i])] = specs[number].shape
        args, kwargs = nest.pack_sequence_as(call.structure, stand_ins)
        function = self._function_to_trace()
        try:
            with tracing(tracer):
                result = function(*args, **kwargs)
                result = _map(lambda x: prepare_output(x, self._name), result)
                outputs = [x for x in nest.flatten(result) if isinstance(x, Tensor)]
                raise_needed_failure(tracer, outputs)  # an op that failed, needed: its error
        except BaseException:
            tracer.retire()
            raise
        if tracer.created_variables and not self._creation_allowed(call):
            tracer.retire()
            raise _variable_creation_error()
        traced = TracedCall(
            self._signature, call.structure, call.leaves, call.positions, specs, self._name
        )
        reuse = self.buffer_reuse and all(spec.fully_defined for spec in specs)
        concrete = ConcreteFunction(tracer, result, traced, reuse)
        concrete.general_key = call.general
        tracer.retire()
        return concrete, bool(tracer.created_variables)

    def _creation_allowed(self, call):
        """Whether this trace may create variables: on the first trace only (TF), counted
        per instance for a method."""
        instance = self._instance(call)
        if instance is not None:
            return instance not in self._instances_traced
        return self._variables_allowed

    def _instance(self, call):
        """The instance a method was called on (if it can be weakly referenced), or None."""
        if not (self._is_method and call.structure[0]):
            return None
        instance = call.structure[0][0]
        try:
            weakref.ref(instance)
        except TypeError:  # e.g. a class with __slots__: counted per function instead
            return None
        return instance

    def _function_to_trace(self):
        if not self.autograph:
            return self.python_function
        if self._converted is None:
            from eagerkit import autograph

            self._converted = autograph.convert_or_keep(self.python_function)
        return self._converted

    def __get__(self, instance, owner=None):
        # As a method: bind like a plain function (``self`` selects the trace by identity).
        if instance is None:
            return self
        self._is_method = True
        return types.MethodType(self, instance)

    def __repr__(self):
        return f"<ek.function {self._name}: {self.trace_count} traces>"


class _Call:
    """One call, canonical: ``structure`` (args, kwargs), flat ``leaves`` (tensors where
    tensors go), where the tensors are, and the cache keys."""

    def __init__(self, structure, leaves, key, specs, given_specs=None):
        self.structure = structure
        self.leaves = leaves
        self.key = key
        self.specs = specs  # the input_signature, when there is one
        self.given_specs = given_specs or {}
        self.general = None  # the key shared by calls of other sizes (reduce_retracing)
        self.positions = [
            i for i, leaf in enumerate(leaves) if isinstance(leaf, Tensor) and not leaf._is_variable
        ]


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


def _variable_creation_error():
    return ValueError(
        "tf.function only supports singleton tf.Variables created on the first call. Make "
        "sure the tf.Variable is only created once or created outside tf.function. See "
        "https://www.tensorflow.org/guide/function#creating_tfvariables for more information."
    )


def _fits(concrete, call):
    tensors = [call.leaves[i] for i in call.positions]
    return len(tensors) == len(concrete.input_specs) and all(
        spec.is_compatible_with(t) for spec, t in zip(concrete.input_specs, tensors, strict=True)
    )


def _argument_names(structure, signature):
    """Flat leaf index -> the name its placeholder gets (``"x"``, ``"x_1"`` for nested)."""
    args, kwargs = structure
    names = []
    parameters = [] if signature is None else list(signature.parameters)
    for i, value in enumerate(args):
        base = parameters[i] if i < len(parameters) else f"args_{i}"
        count = len(nest.flatten(value))
        names += [base] if count == 1 else [f"{base}_{k}" for k in range(count)]
    for key in sorted(kwargs):
        count = len(nest.flatten(kwargs[key]))
        names += [key] if count == 1 else [f"{key}_{k}" for k in range(count)]
    return dict(enumerate(names))


def _keep(keys, key, concrete):
    """``keys[key] = concrete``, forgetting the oldest key beyond MAX_TRACES."""
    keys[key] = concrete
    if len(keys) > MAX_TRACES:
        del keys[next(iter(keys))]


def _map(function, structure):
    return nest.pack_sequence_as(structure, [function(x) for x in nest.flatten(structure)])


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
    """A tensor fitting ``spec`` to trace on: open sizes 1, an unknown shape a scalar; ones
    (no division by zero while tracing), empty strings for a string spec."""
    from eagerkit.ops.creation import ones, zeros

    shape = () if spec.shape is None else [1 if n is None else n for n in spec.shape]
    return (zeros if spec.dtype == dtypes.string else ones)(shape, dtype=spec.dtype)

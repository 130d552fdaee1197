"""``Function``: what ``ek.function(f)`` returns (TF's PolymorphicFunction).

One Python function, many graphs: each call is put in canonical form (graph/calls.py) and
looked up among the traces made so far; a new input signature traces again (graph/trace.py)
and the ConcreteFunction it makes (graph/concrete.py) is kept, the least recently used
forgotten beyond graph/cache.py's limit. eagerkit/function.py tells the whole story.
"""

import functools
import types
import weakref

from eagerkit import nest
from eagerkit.config import RUN_FUNCTIONS_EAGERLY as _RUN_EAGERLY
from eagerkit.errors import OpError
from eagerkit.graph.cache import MAX_TRACES, RetracingDetector, TraceCache
from eagerkit.graph.calls import (
    Call,
    argument_names,
    as_tensor,
    call_sizes,
    example,
    fits,
    guards_hold,
    keep,
    tensor_shapes_key,
)
from eagerkit.graph.concrete import ConcreteFunction, TracedCall, prepare_output
from eagerkit.graph.deferred import raise_needed_failure
from eagerkit.graph.located_errors import located
from eagerkit.graph.signature import (
    TensorSpec,
    bind,
    call_key,
    general_key,
    match_signature,
    relaxed,
    signature_of,
)
from eagerkit.graph.trace import Tracer, tracing
from eagerkit.tensor import Tensor


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
        try:  # (free when nothing is raised)
            now = self._calls + 1
            shapes_key = None if kwargs else tensor_shapes_key(args)
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
            fast = shapes_key is not None and concrete._call.positions == list(range(len(args)))
            if fast and not concrete.guards:  # (a guarded trace is checked at every call)
                keep(self._by_tensor_shapes, shapes_key, concrete)  # next time: the fast path
            return concrete._call_flat(call.leaves)
        except OpError as error:  # an op of the user's, inside: say which, and where
            shown = located(error, self._name, args, kwargs)
            raise shown from shown.__cause__

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
        """The call in canonical form: its leaves, key and specs (``Call``)."""
        if self.input_signature is not None:
            if specs_allowed and all(isinstance(a, TensorSpec) for a in args) and not kwargs:
                args = [example(spec) for spec in args]
            leaves = match_signature(self.input_signature, args, kwargs, self._name)
            return Call((tuple(leaves), {}), leaves, "input_signature", self.input_signature)
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
                leaves[i] = example(leaf)
            else:
                leaves[i] = as_tensor(leaf)
        key = call_key(structure, leaves, self._name)
        if given_specs:
            key = (key, tuple(sorted(given_specs.items(), key=lambda item: item[0])))
        call = Call(structure, leaves, key, None, given_specs)
        if self.reduce_retracing or given_specs:
            call.general = general_key(structure, leaves, self._name)
        return call

    def _find(self, call):
        concrete = self._traces.get(call.key, self._calls)
        if concrete is not None and concrete.shape_bound and not fits(concrete, call):
            # Traced for other sizes (an input_signature's key is one for all): the trace
            # for this call's sizes, if there is one (see Tracer.bind_shapes).
            concrete = self._traces.get((call.key, call_sizes(call)), self._calls)
        if concrete is not None or call.general is None:
            return concrete if concrete is None or guards_hold(concrete) else None
        concrete = self._general.get(call.general, self._calls)
        if concrete is not None and fits(concrete, call) and guards_hold(concrete):
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
        if concrete.shape_bound:
            self._traces.put((call.key, call_sizes(call)), concrete, self._calls)
        if call.general is not None and not all(s.fully_defined for s in concrete.input_specs):
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
        names = argument_names(call.structure, self._signature)
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
        if tracer.shape_bound:  # right for this call's sizes only (Tracer.bind_shapes)
            specs = tuple(TensorSpec.from_tensor(call.leaves[i]) for i in call.positions)
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


def _variable_creation_error():
    return ValueError(
        "tf.function only supports singleton tf.Variables created on the first call. Make "
        "sure the tf.Variable is only created once or created outside tf.function. See "
        "https://www.tensorflow.org/guide/function#creating_tfvariables for more information."
    )


def _map(function, structure):
    return nest.pack_sequence_as(structure, [function(x) for x in nest.flatten(structure)])

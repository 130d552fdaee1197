"""The tensors of a trace: what ``print(x)`` shows while ``ek.function`` traces, and what a
tensor that escaped a finished trace becomes.

eagerkit traces on the first call's values, so every tensor of a trace holds an array. To
the user it is still a node of a graph, as in TF: while tracing it prints as one
(``Tensor("add:0", shape=(), dtype=float32)``), and once the trace is over it is *symbolic*:
it stands for a value inside a graph that has finished, so it has no ``.numpy()`` and
another trace refuses it (TF's "out of scope" error). The function's results are fresh
tensors, never these.

The tracer turns each tensor it makes into one of these classes by assigning ``__class__``
(both add no slots, so the switch is free and every op still takes them as Tensors).
"""

from eagerkit import recording
from eagerkit.tensor import Tensor
from eagerkit.tensor_shape import TensorShape


def graph_name(tensor):
    """The name of ``tensor`` in the trace that made it (``"add:0"``), or ``"?"``."""
    for tracer in reversed(recording.graph_tracers):
        name = tracer.names.get(id(tensor))
        if name is not None:
            return name
    return tensor._recorded_by if type(tensor._recorded_by) is str else "?"


def static_shape(tensor):
    """The shape a trace is for: a placeholder's spec (None where sizes may vary), else the
    traced value's shape."""
    for tracer in reversed(recording.graph_tracers):
        shape = tracer.static_shapes.get(id(tensor))
        if shape is not None:
            return TensorShape(shape)
    return tensor.shape


def _graph_text(tensor):
    shape = static_shape(tensor)
    return f'Tensor("{graph_name(tensor)}", shape={shape}, dtype={tensor.dtype.name})'


class GraphTensor(Tensor):
    """A tensor inside a trace in progress: prints as a graph node, computes as a Tensor.

    Examples
    --------
    >>> import eagerkit as ek
    >>> @ek.function
    ... def double(a):
    ...     print("Tracing with", a)
    ...     return a + a
    >>> double(ek.constant(1))
    Tracing with Tensor("a:0", shape=(), dtype=int32)
    <ek.Tensor: shape=(), dtype=int32, numpy=2>
    """

    __slots__ = ()

    __str__ = _graph_text

    def __repr__(self):
        shape = static_shape(self)
        return f"<ek.Tensor '{graph_name(self)}' shape={shape} dtype={self.dtype.name}>"

    def __getattr__(self, attribute):
        # Only attributes a Tensor lacks get here: v[key]'s assign (variable_slices.py).
        methods = ("assign", "assign_add", "assign_sub")
        sliced = _variable_slice(self) if attribute in methods else None
        if sliced is None:
            raise AttributeError(f"'Tensor' object has no attribute '{attribute}'")
        from eagerkit.variable_slices import assign_part

        variable, key = sliced

        def assign(value, name=None):
            return assign_part(variable, key, value, attribute)

        return assign


def _variable_slice(tensor):
    """``(variable, key)`` when a trace in progress made ``tensor`` as ``variable[key]``."""
    for tracer in reversed(recording.graph_tracers):
        sliced = tracer.variable_slices.get(id(tensor))
        if sliced is not None:
            return sliced
    return None


class SymbolicTensor(Tensor):
    """A tensor of a finished trace that leaked out of it (into a global, an attribute).

    It stands for a value inside a graph, so it has no value here: ``.numpy()`` raises
    TF's AttributeError, and another trace refuses it (``out_of_scope_error``).
    """

    __slots__ = ()

    __str__ = _graph_text

    def __repr__(self):
        return f"<ek.Tensor '{graph_name(self)}' shape={self.shape} dtype={self.dtype.name}>"

    @property
    def numpy(self):
        raise AttributeError("'SymbolicTensor' object has no attribute 'numpy'")

    def _no_value(self, *args, **kwargs):
        raise TypeError(f"{self!r} is symbolic: it has no value outside its ek.function")

    __array__ = __bool__ = __float__ = __int__ = __index__ = _no_value


_GUIDE = "https://www.tensorflow.org/guide/function"


def out_of_scope_error(tensor):
    """TF's error for a tensor of a finished trace used in another one."""
    return TypeError(
        f"{tensor!r} is out of scope and cannot be used here. Use return values, explicit "
        "Python locals or TensorFlow collections to access it.\nPlease see "
        f"{_GUIDE}#all_outputs_of_a_tffunction_must_be_return_values for more information."
    )


def retire(tensors, names):
    """Make the tensors of a finished trace symbolic, keeping their names for printing."""
    for tensor in tensors:
        if type(tensor) is GraphTensor:
            tensor.__class__ = SymbolicTensor
            tensor._recorded_by = names.get(id(tensor), "?")  # no tape records them any more

"""How the names a loop over tensors changes become the loop's variables, and back.

A graph loop (``ek.while_loop``'s machinery) carries tensors of fixed dtypes and shapes.
The names a converted loop changes are more varied, and each becomes one loop variable:

- a tensor: itself, whose dtype and shape must stay the same (TF's rule and error);
- a Python number: a tensor of it (TF: "Python values modified in TensorFlow control flow
  become Tensors");
- an ``ek.TensorArray``: the tensor its elements are stacked in (the first axis may grow
  when it has ``dynamic_size``); one never written yet gets its element shape from a trace
  of the body made to find it;
- a name without a value yet (``Undefined``): not carried; the body assigns it before
  using it, and after the loop it stays undefined.
"""

from eagerkit.autograph.undefined import Undefined, undefined_after_loop
from eagerkit.errors import InvalidArgumentError
from eagerkit.graph.subgraph import trace_subgraph
from eagerkit.graph.trace import Captures, current_tracer
from eagerkit.tensor import Tensor, convert_to_tensor
from eagerkit.tensor_array import TensorArray


class LoopVariables:
    """The loop variables of one loop: which names are carried, and as what."""

    def __init__(self, values, names, body):
        self.values, self.names = list(values), names
        self.arrays = {i: v for i, v in enumerate(values) if isinstance(v, TensorArray)}
        if any(a._stacked is None for a in self.arrays.values()):
            _find_element_shapes(self.values, self.arrays, body)
        self.carried = [i for i, v in enumerate(values) if not isinstance(v, Undefined)]
        self.start = [self._tensor(self.values[i], i) for i in self.carried]
        self.shapes_vary = any(a.dynamic_size for a in self.arrays.values())

    def full(self, flat):
        """All the names' values, given the loop variables' (``flat``)."""
        values = list(self.values)
        for i, value in zip(self.carried, flat, strict=True):
            values[i] = self.arrays[i]._with_stacked(value) if i in self.arrays else value
        return values

    def checked(self, result):
        """The body's values of the names as loop variables, or TF's error."""
        flat = []
        for i, old in zip(self.carried, self.start, strict=True):
            new = self._tensor(result[i], i, like=old)
            name = self.name(i)
            if new.dtype != old.dtype:
                raise TypeError(
                    f"'{name}' has dtype {old.dtype.name} before the loop, but dtype "
                    f"{new.dtype.name} after one iteration. TensorFlow control flow requires "
                    "it stays the same."
                )
            grows = i in self.arrays and self.arrays[i].dynamic_size
            if new.shape != old.shape and not (grows and new.shape[1:] == old.shape[1:]):
                raise ValueError(
                    f"'{name}' has shape {old.shape} before the loop, but shape {new.shape} "
                    "after one iteration. Use tf.autograph.experimental.set_loop_options to "
                    "set shape invariants (in eagerkit: write the loop with ek.while_loop and "
                    "its shape_invariants)."
                )
            flat.append(new)
        return flat

    def final(self, results):
        """All the names' values after the loop, given the loop variables' (``results``)."""
        values = [undefined_after_loop(self.name(i)) for i in range(len(self.values))]
        done = self.full(results)
        for i in self.carried:
            values[i] = done[i]
        return tuple(values)

    def name(self, i):
        return self.names[i] if i < len(self.names) else f"loop variable {i}"

    def _tensor(self, value, i, like=None):
        if isinstance(value, TensorArray):
            if value._stacked is None:
                raise InvalidArgumentError(
                    f"'{self.name(i)}': a TensorArray that the loop never writes has no "
                    "element shape; give element_shape",
                    op="while",
                )
            return value._stacked
        if isinstance(value, Tensor):
            return value
        if isinstance(value, Undefined):
            raise NameError(
                f"{self.name(i)!r} has no value at the end of an iteration of a loop over "
                "tensors; assign it in every path through the loop body"
            )
        try:
            return convert_to_tensor(value, dtype=None if like is None else like.dtype)
        except (TypeError, ValueError, InvalidArgumentError):
            raise TypeError(
                f"{self.name(i)!r} is changed by a loop over tensors but is a "
                f"{type(value).__name__} ({value!r:.60}): the graph's loop can only carry "
                "tensors, numbers and TensorArrays"
            ) from None


def _find_element_shapes(values, arrays, body):
    """Give each TensorArray not written yet the element shape the body writes: trace the
    body once, on copies, in a graph that is then thrown away."""
    copies = list(values)
    for i, array in arrays.items():
        copies[i] = array._with_stacked(array._stacked)
    trace = trace_subgraph(current_tracer(), "find_shapes", lambda: body(*copies), [], Captures(0))
    trace.tracer.retire()
    for i, array in arrays.items():
        found = trace.result[i] if isinstance(trace.result[i], TensorArray) else None
        if array._stacked is None and found is not None and found._stacked is not None:
            array._allocate(tuple(found._stacked.shape[1:]))

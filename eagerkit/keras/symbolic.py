"""Calls on KerasTensors: each becomes a node of the graph a functional model replays.

A layer (or an op such as ``ek.concat``) called on a KerasTensor cannot compute: there is no
value. It records a ``Node`` (the layer, and the arguments as given, KerasTensors inside)
and returns KerasTensors for its outputs. Their shapes and dtypes come from running the
call for real on stand-in tensors (ones, or zeros for integers), twice: an unknown batch
size is 2, then 4; any other unknown size (a sequence's length) 8, then 16, large enough
for a convolution's window. An output size that changes with the stand-ins' is unknown
(``None``) too. The first run also builds the layer, as Keras does.

An op is recorded as TF records it: the op's public function fails to convert the
KerasTensor, and the error boundary (boundary.py), or dispatch for a primitive, hands the
call to ``fallback`` here, which wraps it in a ``TFOpLambda`` layer, so a model's graph
holds nothing but layer calls. Nothing of this runs on the eager path: only a call that
has already failed looks for KerasTensors.

Examples
--------
>>> import eagerkit as ek
>>> ek.keras.backend.clear_session()  # default names from the start
>>> x = ek.keras.Input(shape=[None, 4])
>>> y = ek.concat([x, x], axis=-1)
>>> y.shape, y.node.layer
(TensorShape([None, None, 8]), <TFOpLambda 'ek.concat'>)
"""

import itertools

import numpy as np

from eagerkit import boundary, dtypes, nest, recording
from eagerkit.boundary import NOT_SYMBOLIC
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.keras_tensor import KerasTensor
from eagerkit.keras.layers.added import taken_back
from eagerkit.keras.layers.masks import get_mask, set_mask
from eagerkit.ops.creation import fill, ones, zeros
from eagerkit.tensor import Tensor

# Two runs tell which output sizes follow an unknown input size: (batch axis, other axes).
_STAND_IN_SIZES = ((2, 8), (4, 16))
_serial = itertools.count()  # nodes in the order they were made: a topological order


class Node:
    """One call of ``layer`` on ``args``/``kwargs`` (KerasTensors inside) in a model's graph."""

    def __init__(self, layer, args, kwargs):
        self.layer, self.args, self.kwargs = layer, args, kwargs
        self.inputs = list(symbolic_leaves((args, kwargs)))
        self.serial = next(_serial)
        self.outputs = None  # the KerasTensors this call returned (same structure as eagerly)
        # The commonest call, a layer on one tensor, is replayed without walking the args.
        only = args[0] if len(args) == 1 and not kwargs else None
        self._only_input = only if is_symbolic(only) else None

    def run(self, values, training=None):
        """Call the layer again, each KerasTensor replaced by its value in ``values``."""
        if self._only_input is not None:
            args, kwargs = (values[id(self._only_input)],), {}
        else:
            args, kwargs = _substitute((list(self.args), self.kwargs), values)
        if training is not None and "training" not in kwargs:
            kwargs["training"] = training  # Layer.__call__ drops it where call() takes none
        return self.layer(*args, **kwargs)


def is_symbolic(value):
    return isinstance(value, KerasTensor)


def holds_symbolic(args, kwargs):
    """Whether any KerasTensor is among ``args`` and ``kwargs`` (nested lists/dicts too)."""
    return any(True for _ in symbolic_leaves((args, kwargs)))


def symbolic_leaves(structure):
    """The KerasTensors inside ``structure``, in order: lists, tuples and dict values are
    opened (any keys, each container once: a list that holds itself is no endless loop)."""
    pending, seen = [structure], set()
    while pending:
        value = pending.pop()
        if is_symbolic(value):
            yield value
        elif isinstance(value, (list, tuple, dict)) and id(value) not in seen:
            seen.add(id(value))
            pending.extend(reversed(list(value.values() if isinstance(value, dict) else value)))


class Calls:
    """The nodes a layer was called in (``layer.input`` reads the first); a checkpoint of
    the layer does not walk through them into the rest of the graph."""

    def __init__(self):
        self.nodes = []

    def _checkpoint_dependencies(self):
        return []


def record(layer, args, kwargs):
    """Add the call ``layer(*args, **kwargs)`` to the graph; return its KerasTensor(s)."""
    node = Node(layer, args, kwargs)
    runs = [_run_on_stand_ins(node, sizes) for sizes in _STAND_IN_SIZES]
    leaves = [nest.flatten(outputs) for outputs in runs]
    if not all(isinstance(x, Tensor) for x in leaves[0]):
        raise InvalidArgumentError(
            f"{layer.name}: called on a KerasTensor, it must return tensors (or lists or "
            f"dicts of them) to be part of a functional model, but it returned {runs[0]!r:.80}",
            op=layer.name,
        )
    tensors = [
        KerasTensor(
            [a if a == b else None for a, b in zip(first.shape, second.shape, strict=True)],
            first.dtype,
            layer.name if len(leaves[0]) == 1 else f"{layer.name}/{i}",
            node,
            i,
        )
        for i, (first, second) in enumerate(zip(*leaves, strict=True))
    ]
    for tensor, first, second in zip(tensors, *leaves, strict=True):
        if get_mask(first) is not None:  # the layer masks this output: so does the model
            set_mask(tensor, _mask_of(tensor, _known_sizes(get_mask(first), get_mask(second))))
    node.outputs = nest.pack_sequence_as(runs[0], tensors)
    vars(layer).setdefault("_calls", Calls()).nodes.append(node)  # for layer.input
    return node.outputs


def _known_sizes(first, second):
    """A shape from two stand-in runs: a size that changed with the stand-ins' is None."""
    return [a if a == b else None for a, b in zip(first.shape, second.shape, strict=True)]


def _mask_of(tensor, shape):
    """The KerasTensor ``tensor._keras_mask``: a node that reads the mask of ``tensor``'s
    value when the model runs, so a model may use it (``Model(inputs, x._keras_mask)``)."""
    from eagerkit.keras.layers.masking import KerasMask

    node = Node(KerasMask(), (tensor,), {})
    node.outputs = KerasTensor(shape, dtypes.bool, node.layer.name, node)
    vars(node.layer).setdefault("_calls", Calls()).nodes.append(node)
    return node.outputs


def record_op(function, label, args, kwargs):
    """Record a call of the op ``function`` (``ek.<label>``) as a ``TFOpLambda`` layer."""
    from eagerkit.keras.layers.op_lambda import TFOpLambda

    return record(TFOpLambda(function, label), args, kwargs)


def fallback(function, label, args, kwargs):
    """For a public call that failed: record it if it was given KerasTensors, else
    ``NOT_SYMBOLIC``. Inside another public function (``softmax`` calling ``reduce_max``)
    the outer call is the one recorded, as TF records the call the user made."""
    if not holds_symbolic(args, kwargs) or boundary.inside_a_public_call():
        return NOT_SYMBOLIC
    if getattr(getattr(function, "__wrapped__", None), "calls_a_layer", False):
        return NOT_SYMBOLIC  # it recorded its layer itself; its error is the real one
    return record_op(function, label, args, kwargs)


def _run_on_stand_ins(node, sizes):
    values = {id(t): _stand_in(t, sizes) for t in node.inputs}
    for t in node.inputs:
        if get_mask(t) is not None:  # a masked input's stand-in has a mask (all True) too
            set_mask(values[id(t)], _stand_in(get_mask(t), sizes))
    # No tape sees it, 1/0 is no news, and the losses it adds (an activity penalty) no one.
    with recording.paused(), np.errstate(all="ignore"), taken_back(node.layer):
        return node.run(values)


def _stand_in(tensor, sizes):
    batch, other = sizes
    dims = tensor.shape.as_list()
    shape = [d if d is not None else batch if axis == 0 else other for axis, d in enumerate(dims)]
    if tensor.dtype == dtypes.string:  # text of `other` words: split, rows of unknown length
        return fill(shape, b" ".join([b"a"] * other))
    # zeros: a valid index for any table; ones: a float, or a mask that keeps every step
    make = ones if tensor.dtype.is_floating or tensor.dtype == dtypes.bool else zeros
    return make(shape, dtype=tensor.dtype)


def _substitute(structure, values):
    """``structure`` with each KerasTensor replaced by ``values[id(tensor)]``."""
    if isinstance(structure, dict):
        return {key: _substitute(item, values) for key, item in structure.items()}
    if isinstance(structure, (list, tuple)):
        return type(structure)(_substitute(item, values) for item in structure)
    return values[id(structure)] if is_symbolic(structure) else structure


boundary.install_symbolic_fallback(fallback)  # failed public calls given KerasTensors come here

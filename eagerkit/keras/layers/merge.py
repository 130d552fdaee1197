"""Merge layers: several tensors in, one out (Keras' ``Concatenate``, ``Add``, ``Dot``, ...).

A model with two inputs joins its branches with one of them, as in TF's functional-API
guide: ``concatenate([title_features, body_features])``. Each takes a *list* of tensors
(eager Tensors or the KerasTensors of a model being built), checks their shapes as Keras
does, and computes with existing ops, so gradients come free. The lower-case functions
(``concatenate``, ``add``, ...) make the layer and call it at once. Masked inputs give a
masked output, as in Keras 3 (keras/layers/merge_masks.py).
"""

import functools

from eagerkit import arguments
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.keras_tensor import KerasTensor
from eagerkit.keras.layers import merge_masks
from eagerkit.keras.layers.base import Layer
from eagerkit.ops.arithmetic import add as _add
from eagerkit.ops.arithmetic import maximum as _maximum
from eagerkit.ops.arithmetic import minimum as _minimum
from eagerkit.ops.arithmetic import multiply as _multiply
from eagerkit.ops.arithmetic import subtract as _subtract
from eagerkit.ops.einsum import einsum
from eagerkit.ops.math import rsqrt
from eagerkit.ops.reduce import reduce_sum
from eagerkit.ops.shape import concat


class _Merge(Layer):
    """Shared by all: the inputs must be a list of at least ``_least`` tensors whose shapes
    ``_check_shapes`` accepts; ``_merge`` combines them."""

    _least, _most = 2, None
    supports_masking = True  # the output's mask is compute_mask's (Keras 3)

    def __call__(self, inputs, *args, **kwargs):
        return super().__call__(self._checked(inputs), *args, **kwargs)

    def call(self, inputs, mask=None):
        inputs = self._checked(inputs)  # checked again: call() may be called alone
        if mask is None:
            return self._merge(inputs)
        return self._merge_masked(inputs, merge_masks.checked_masks(self, inputs, mask))

    def compute_mask(self, inputs, mask=None):
        """The OR of the inputs' masks, or None when an input has none (Keras 3)."""
        return merge_masks.elementwise_mask(self, inputs, mask)

    def _checked(self, inputs):
        """``inputs`` as a list of tensors whose shapes fit, or the error that says why."""
        if not isinstance(inputs, (list, tuple)):
            raise self._error(
                f"takes a list of tensors, got {type(inputs).__name__}",
                "pass the tensors in a list, e.g. layer([a, b])",
            )
        if len(inputs) < self._least or (self._most and len(inputs) > self._most):
            count = self._most if self._least == self._most else f"at least {self._least}"
            raise self._error(
                f"takes {count} inputs, got {len(inputs)}", f"pass {count} tensors in the list"
            )
        if not any(isinstance(x, KerasTensor) for x in inputs):
            inputs = [self._convert(x) for x in inputs]  # each one tensor, whatever it is
        self._check_shapes([x.shape.as_list() for x in inputs])
        return list(inputs)

    def _error(self, problem, fix):
        return InvalidArgumentError(
            f"{type(self).__name__} layer '{self.name}' {problem}; {fix}", op=self.name
        )

    def _shapes_error(self, shapes, rule, fix):
        listed = ", ".join(str(tuple(shape)) for shape in shapes)
        return self._error(f"{rule}, got inputs of shapes {listed}", fix)

    def _check_shapes(self, shapes):
        """Elementwise merges: the shapes broadcast (``None``, still unknown, fits any size)."""
        rank = max(len(shape) for shape in shapes)
        for axis in range(1, rank + 1):
            sizes = {shape[-axis] for shape in shapes if len(shape) >= axis} - {None, 1}
            if len(sizes) > 1:
                raise self._shapes_error(
                    shapes,
                    "needs inputs of the same shape (or shapes that broadcast)",
                    "make the shapes match, e.g. with a Dense layer or ek.reshape",
                )

    def _merge(self, inputs):
        return functools.reduce(type(self)._pair, inputs)

    def _merge_masked(self, inputs, masks):
        """The merge of inputs that have ``masks``: most merges' values ignore them."""
        return self._merge(inputs)


class Add(_Merge):
    """The sum of the inputs, elementwise.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.layers.Add()([ek.constant([[1.0, 2.0]]), ek.constant([[10.0, 20.0]])])
    <ek.Tensor: shape=(1, 2), dtype=float32, numpy=array([[11., 22.]], dtype=float32)>
    """

    _pair = staticmethod(_add)


class Subtract(_Merge):
    """The first input minus the second (exactly two inputs).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.layers.Subtract()([ek.constant([5.0, 7.0]), ek.constant([1.0, 2.0])])
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([4., 5.], dtype=float32)>
    """

    _least = _most = 2
    _pair = staticmethod(_subtract)


class Multiply(_Merge):
    """The product of the inputs, elementwise.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.layers.Multiply()([ek.constant([2.0, 3.0]), ek.constant([4.0, 5.0])])
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([ 8., 15.], dtype=float32)>
    """

    _pair = staticmethod(_multiply)

    def _merge_masked(self, inputs, masks):
        return merge_masks.masked_product(inputs, masks)  # a masked entry counts as 1


class Average(_Merge):
    """The mean of the inputs, elementwise.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.layers.Average()([ek.constant([1.0, 2.0]), ek.constant([3.0, 6.0])])
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([2., 4.], dtype=float32)>
    """

    def _merge(self, inputs):
        return functools.reduce(_add, inputs) * (1.0 / len(inputs))


class Maximum(_Merge):
    """The largest of the inputs, elementwise.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.layers.Maximum()([ek.constant([1.0, 9.0]), ek.constant([3.0, 2.0])])
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([3., 9.], dtype=float32)>
    """

    _pair = staticmethod(_maximum)

    def _merge_masked(self, inputs, masks):
        return merge_masks.masked_choice(_maximum, inputs, masks)  # masked entries left out


class Minimum(_Merge):
    """The smallest of the inputs, elementwise.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.layers.Minimum()([ek.constant([1.0, 9.0]), ek.constant([3.0, 2.0])])
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>
    """

    _pair = staticmethod(_minimum)

    def _merge_masked(self, inputs, masks):
        return merge_masks.masked_choice(_minimum, inputs, masks)  # masked entries left out


class Concatenate(_Merge):
    """The inputs joined along ``axis``; all other sizes must match.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.layers.Concatenate()([ek.ones([2, 1]), ek.zeros([2, 3])]).shape
    TensorShape([2, 4])
    """

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = arguments.whole_number(axis, "axis", type(self).__name__)

    def _check_shapes(self, shapes):
        rank = len(shapes[0])
        if any(len(shape) != rank for shape in shapes) or not -rank <= self.axis < rank:
            raise self._shapes_error(
                shapes,
                f"needs inputs of one rank that have axis {self.axis}",
                "give every input the same number of axes (ek.expand_dims, ek.reshape)",
            )
        axis = self.axis % rank
        for i in set(range(rank)) - {axis}:
            if len({shape[i] for shape in shapes} - {None}) > 1:
                raise self._shapes_error(
                    shapes,
                    f"needs inputs whose sizes match on every axis but the concatenation "
                    f"axis {self.axis}",
                    "make the other sizes equal, or concatenate along the axis that differs",
                )

    def _merge(self, inputs):
        return concat(inputs, axis=self.axis)

    def compute_mask(self, inputs, mask=None):
        """The masks joined as the inputs are (an unmasked input: all True), Keras 3's."""
        return merge_masks.concatenated_mask(self, inputs, mask, self.axis)


class Dot(_Merge):
    """Dot products of two batches of tensors, summing over ``axes`` (one per input, or
    one for both); ``normalize=True`` first scales each to unit length: cosine similarity.

    Examples
    --------
    >>> import eagerkit as ek
    >>> a, b = ek.constant([[1.0, 2.0], [3.0, 4.0]]), ek.constant([[5.0, 6.0], [7.0, 8.0]])
    >>> ek.keras.layers.Dot(axes=1)([a, b])
    <ek.Tensor: shape=(2, 1), dtype=float32, numpy=
    array([[17.],
           [53.]], dtype=float32)>
    """

    _least = _most = 2

    def __init__(self, axes, normalize=False, **kwargs):
        super().__init__(**kwargs)
        pair = axes if isinstance(axes, (list, tuple)) else (axes, axes)
        if len(pair) != 2:
            raise self._error(f"axes must be one axis or two, got {axes!r}", "write e.g. axes=1")
        self.axes = [arguments.whole_number(a, "axes", type(self).__name__) for a in pair]
        self.normalize = bool(normalize)

    def _check_shapes(self, shapes):
        try:
            axes = [
                arguments.axis_index(a, len(s), self.name)
                for a, s in zip(self.axes, shapes, strict=True)
            ]
        except InvalidArgumentError:
            axes = [0]  # reported below
        sizes = [  # a scalar input has no axis to sum over: refused below
            shape[axis] if axis < len(shape) else None
            for shape, axis in zip(shapes, axes, strict=False)
        ]
        scalar = any(len(shape) < 2 for shape in shapes)  # only a batch axis, or not even that
        if scalar or 0 in axes or None not in sizes and sizes[0] != sizes[1]:
            raise self._shapes_error(
                shapes,
                f"sums over axes {self.axes}, which must exist, not be the batch axis 0, and "
                "have the same size in both inputs",
                "choose axes whose sizes match (e.g. the last axis of each: axes=-1)",
            )

    def _merge(self, inputs):
        x, y = inputs
        ax, ay = (a % t.ndim for a, t in zip(self.axes, inputs, strict=True))
        if self.normalize:  # as tf.math.l2_normalize: x / sqrt(max(sum(x**2), 1e-12))
            x, y = (
                t * rsqrt(_maximum(reduce_sum(t * t, axis=a, keepdims=True), 1e-12))
                for t, a in ((x, ax), (y, ay))
            )
        # One letter per axis: the batch axis b is shared, the summed axis is z.
        x_letters = ["b"] + [chr(ord("c") + i) for i in range(x.ndim - 1)]
        y_letters = ["b"] + [chr(ord("n") + i) for i in range(y.ndim - 1)]
        x_letters[ax], y_letters[ay] = "z", "z"
        kept = "".join(x_letters + y_letters[1:]).replace("z", "")
        out = einsum(f"{''.join(x_letters)},{''.join(y_letters)}->{kept}", x, y)
        return out if out.ndim > 1 else out[:, None]  # Keras keeps a (batch, 1) result

    def compute_mask(self, inputs, mask=None):
        """None: the products sum the steps away (Keras 3)."""
        return None


def _function_form(layer_class, extra=""):
    """``concatenate(inputs, axis=-1, **kwargs)``: make the layer, call it on ``inputs``."""

    def merge(inputs, *args, **kwargs):
        return layer_class(*args, **kwargs)(inputs)

    name = layer_class.__name__.lower()
    merge.__name__ = merge.__qualname__ = name
    merge.calls_a_layer = True  # on KerasTensors the layer records itself (keras/symbolic.py)
    merge.__doc__ = (
        f"``{layer_class.__name__}(...)(inputs)`` in one call: see "
        f"``ek.keras.layers.{layer_class.__name__}``.\n\n"
        "    Examples\n    --------\n    >>> import eagerkit as ek\n"
        f"    >>> ek.keras.layers.{name}([ek.ones([1, 2]), ek.ones([1, 2])]{extra}).shape\n"
        f"    TensorShape([1, {4 if name == 'concatenate' else 1 if name == 'dot' else 2}])\n"
    )
    return merge


concatenate = _function_form(Concatenate)
add = _function_form(Add)
subtract = _function_form(Subtract)
multiply = _function_form(Multiply)
average = _function_form(Average)
maximum = _function_form(Maximum)
minimum = _function_form(Minimum)
dot = _function_form(Dot, extra=", axes=1")

"""Messages the whole walk's census found unclear or in Python's words (issue 18): each names
the call, the offending argument (its value, dtype or shape) and the fix. One case per
cause; the walk (tests/test_public_api.py) fuzzes the same callables."""

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

X = ek.ones([2, 3])

CASES = {
    "concat of nothing": (
        lambda: ek.concat([], 0),
        r"^concat: values must be a non-empty list of tensors, got \[\]; pass e.g. \[a, b\]",
    ),
    "concat of scalars": (
        lambda: ek.concat([1.5, 2.5], 0),
        r"^concat: values\[0\] is a scalar \(float32\[\]\); .* use ek.stack",
    ),
    "split by a number that does not divide": (
        lambda: ek.split(ek.ones([2, 2]), 3, axis=1),
        r"axis 1 of value float32\[2, 2\] has size 2, which num_or_size_splits=3 does not",
    ),
    "split into sizes that do not add up": (
        lambda: ek.split(X, [1, 1], axis=1),
        r"num_or_size_splits \[1, 1\] add up to 2, not to the size 3 of axis 1 of value "
        r"float32\[2, 3\]; pass sizes that add up to 3",
    ),
    "split with a size that is no number": (
        lambda: ek.split(X, [None, 3], axis=1),
        r"each size in num_or_size_splits must be an integer, got NoneType None",
    ),
    "einsum with sizes that disagree": (
        lambda: ek.einsum("ij,jk->ik", X, ek.ones([2, 2])),
        r"letter 'j' has size 3 in one operand and 2 in another .*; pass operands whose axes "
        r"under 'j' have the same size",
    ),
    "TensorShape of a string": (
        lambda: ek.TensorShape("abc"),
        r"a dimension must be a whole number >= 0 or None, got 'a' in dims='abc'; pass e.g.",
    ),
    "Dot.call on numbers": (  # call() alone skipped __call__'s checks: "has no attribute 'ndim'"
        lambda: ek.keras.layers.Dot(axes=1).call([1.5, 2]),
        r"Dot layer 'dot.*' .*inputs of shapes \(\), \(\)",
    ),
    "range to infinity": (
        lambda: ek.range(1, float("inf"), 3),
        r"^range: start, limit and delta must be finite, got start=1, limit=inf, delta=3; pass",
    ),
    "range too long": (
        lambda: ek.range(1, 2**40, 3),
        r"^range: 366,503,875,925 numbers from start=1 to limit=1099511627776 by delta=3 would "
        r"hold about 2.7 TiB .*; ask for a smaller limit or a larger delta",
    ),
    "binary_accuracy with a string threshold": (
        lambda: ek.keras.metrics.binary_accuracy([1.0], [0.7], threshold="abc"),
        r"^binary_accuracy: cannot use 'abc' as metric values; pass numbers",
    ),
    "binary_accuracy of string labels": (
        lambda: ek.keras.metrics.binary_accuracy(ek.constant(["a", "b"]), [0.7, 0.2]),
        r"^binary_accuracy: cannot use string\[2\] as metric values",
    ),
    "BatchNormalization built for no axis": (
        lambda: ek.keras.layers.BatchNormalization().build([]),
        r"axis=-1 is not an axis of input_shape list of 0 \(rank 0\); build it with the shape",
    ),
    "broadcast_to a negative size": (
        lambda: ek.broadcast_to([1.0, 2.0, 3.0], [-1, 3]),
        r"^broadcast_to: each dimension of the shape must be >= 0, got \[-1, 3\]",
    ),
    "cast of Python text": (  # numpy said "invalid literal for int() with base 10"
        lambda: ek.cast(["a", "b"], ek.int32),
        r"^cast: cannot cast string to int32: .* ek.strings.to_number",
    ),
    "check_grads with a seed of None items": (
        lambda: ek.testing.check_grads(ek.square, [1.0], seed=[None, None]),
        r"^check_grads: seed must be a whole number \(or None\), got list of 2; pass e.g.",
    ),
    "batch_jacobian of different batches": (
        lambda: _batch_jacobian(ek.ones([3]), ek.ones([2, 2])),
        r"target has batch size 3 but source has 2; pass a target and a source with the same",
    ),
    "gradient with too many output_gradients": (
        lambda: _gradient([1.0, 2.0]),
        r"output_gradients has 2 entries but there are 1 targets; pass one output gradient",
    ),
    "argmax along a huge axis": (  # numpy said "integer won't fit into a C int"
        lambda: ek.argmax(X, axis=2**40),
        r"^argmax: axis 1099511627776 is out of range for a tensor of rank 2 \(valid: -2 to 1\)",
    ),
    "repeat too many times": (  # numpy said "Python int too large to convert to C long"
        lambda: ek.repeat(X, 2**63, axis=1),
        r"^repeat: a tensor of shape \(2, 27670116110564327424\) would hold .*; ask for",
    ),
    "TensorArray of infinite size": (  # int(inf) said "cannot convert float infinity"
        lambda: ek.TensorArray(ek.float32, size=float("inf")),
        r"^TensorArray: size must be a whole number >= 0, got inf",
    ),
    "TensorArray.write at a text index": (
        lambda: ek.TensorArray(ek.float32, size=2).write(np.array(["a", "b"]), 5.0),
        r"^TensorArray.write: index must be an integer, got ndarray",
    ),
    "categorical_accuracy of no classes": (  # numpy: "attempt to get argmax of an empty sequence"
        lambda: ek.keras.metrics.categorical_accuracy(np.zeros([2, 0]), np.zeros([2, 0])),
        r"y_true has shape \(2, 0\), with no class axis .*; pass one-hot labels",
    ),
    "from_tensor_slices of nothing": (  # "list index out of range"
        lambda: ek.data.Dataset.from_tensor_slices(()),
        r"cannot slice a scalar; .*got tensors=tuple of 0 .*; pass e.g.",
    ),
    "tile by a list of lists": (
        lambda: ek.tile(X, [[1, 2], [3, 4]]),
        r"^tile: each dimension of multiples must be an integer, got list of 2",
    ),
    "fill of None sizes": (
        lambda: ek.fill([None, None], 1.0),
        r"^fill: each dimension of dims must be an integer, got NoneType None",
    ),
    "Generator seeded with None items": (  # numpy: "object of type 'NoneType' has no len()"
        lambda: ek.random.Generator(seed=[None, None]),
        r"random.Generator: seed must be an integer, got NoneType None",
    ),
    "Adagrad from bytes": (  # float(b'x'): "could not convert string to float"
        lambda: ek.keras.optimizers.Adagrad(0.1, b"x"),
        r"initial_accumulator_value must be a number >= 0, got b'x'",
    ),
    "BatchNormalization's momentum from bytes": (
        lambda: ek.keras.layers.BatchNormalization(momentum=b"x"),
        r"^BatchNormalization: momentum must be a number >= 0, got b'x'",
    ),
    "linspace from text": (  # numpy: "The DType StrDType could not be promoted"
        lambda: ek.linspace("a", 1.0, 5),
        r"^linspace: start must be a number \(or numbers\), got 'a'; pass e.g.",
    ),
    "LSTM.step with a state that is no pair": (  # "not enough values to unpack"
        lambda: ek.keras.layers.LSTM(4).step(ek.ones([2, 16]), {"h": 1}),
        r"^LSTM: state must be a list of 2 tensors of shape \[batch, units\] = \[2, 4\]",
    ),
    "as_string with a precision of text": (  # "'>=' not supported between instances"
        lambda: ek.strings.as_string([1.5], precision=["a"]),
        r"as_string: precision must be an integer, got list of 1",
    ),
    "assign with an array as read_value": (  # "The truth value of an array ... is ambiguous"
        lambda: ek.Variable([1.0, 2.0]).assign([3.0, 4.0], read_value=np.array([1.0, 2.0])),
        r"^assign: read_value must be True or False, got ndarray float64\[2\]; the variable",
    ),
}


def _batch_jacobian(target, source):
    with ek.GradientTape() as tape:
        tape.watch(source)
    return tape.batch_jacobian(target, source)


def _gradient(output_gradients):
    x = ek.constant([1.0])
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = x * 2
    return tape.gradient(y, x, output_gradients=output_gradients)


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_message_names_the_argument_and_the_fix(case):
    call, message = CASES[case]
    with pytest.raises((InvalidArgumentError, ek.errors.OpError), match=message):
        call()


def test_a_huge_dataset_range_is_counted_without_len():  # len() overflowed a C ssize_t
    assert int(ek.data.Dataset.range(1, 10**30, 2).cardinality()) == 2**63 - 1
    assert int(ek.data.Dataset.range(10, 0, -3).cardinality()) == 4


def test_concat_of_one_tensor_is_that_tensor_as_in_tf():
    # It was concatenated row by row: concat(ones([2, 3]), 0) gave shape (6,).
    joined = ek.concat(X, 0)
    assert joined.shape == (2, 3)
    np.testing.assert_array_equal(joined.numpy(), X.numpy())

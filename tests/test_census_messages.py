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
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_message_names_the_argument_and_the_fix(case):
    call, message = CASES[case]
    with pytest.raises(InvalidArgumentError, match=message):
        call()


def test_concat_of_one_tensor_is_that_tensor_as_in_tf():
    # It was concatenated row by row: concat(ones([2, 3]), 0) gave shape (6,).
    joined = ek.concat(X, 0)
    assert joined.shape == (2, 3)
    np.testing.assert_array_equal(joined.numpy(), X.numpy())

"""ek.debugging.assert_*: pass silently, or raise InvalidArgumentError naming the values."""

import pytest

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError


def test_assert_equal_accepts_a_shape_and_a_tuple():
    assert ek.debugging.assert_equal(ek.zeros([32, 10]).shape, (32, 10)) is None


def test_assert_equal_lists_the_first_different_values():
    with pytest.raises(InvalidArgumentError) as info:
        ek.debugging.assert_equal(ek.constant([[1, 2], [3, 4]]), ek.constant([[1, 0], [3, 9]]))
    assert str(info.value).startswith(
        "Condition x == y did not hold.\nIndices of first 2 different values:\n"
        "[[0, 1], [1, 1]]\nCorresponding x values:\n[2, 4]\nCorresponding y values:\n[0, 9]"
    )


def test_assert_equal_shows_the_users_message_first():
    with pytest.raises(InvalidArgumentError, match=r"^logits have the wrong shape\nCondition"):
        ek.debugging.assert_equal((32, 9), (32, 10), message="logits have the wrong shape")


def test_assert_equal_refuses_shapes_that_do_not_broadcast():
    with pytest.raises(InvalidArgumentError, match=r"x of shape \(2,\) and y of shape \(3,\)"):
        ek.debugging.assert_equal([1, 2], [1, 2, 3])


def test_assert_less_and_greater_broadcast_a_scalar():
    ek.debugging.assert_less(ek.constant([1.0, 2.0]), 3.0)
    ek.debugging.assert_greater(ek.constant([1.0, 2.0]), 0.0)
    with pytest.raises(InvalidArgumentError, match=r"Condition x < y did not hold(.|\n)*\[\[1\]\]"):
        ek.debugging.assert_less(ek.constant([1.0, 3.0]), 3.0)
    with pytest.raises(InvalidArgumentError, match=r"Condition x > y did not hold"):
        ek.debugging.assert_greater(ek.constant([0.0]), 0.0)


def test_assert_near_uses_tolerances():
    ek.debugging.assert_near(ek.constant([1.0]), ek.constant([1.0000001]))
    ek.debugging.assert_near(ek.constant([1.0]), ek.constant([1.05]), atol=0.1)
    with pytest.raises(InvalidArgumentError, match=r"rtol = 0.01, atol = 0(.|\n)*\[1.5\]"):
        ek.debugging.assert_near(ek.constant([1.0]), ek.constant([1.5]), rtol=0.01, atol=0.0)


def test_assert_rank():
    ek.debugging.assert_rank(ek.zeros([2, 3]), 2)
    with pytest.raises(InvalidArgumentError, match=r"rank 2\. Received rank 1, shape \(3,\)"):
        ek.debugging.assert_rank(ek.zeros([3]), 2)


def _message(call, *args, **kwargs):
    with pytest.raises(InvalidArgumentError) as info:
        call(*args, **kwargs)
    return str(info.value)


def test_summarize_limits_how_many_values_are_listed():
    x, y = ek.range(6), ek.zeros([6], dtype=ek.int32)
    default = _message(ek.debugging.assert_equal, x, y)
    assert "Indices of first 3 different values:\n[[1], [2], [3]]" in default
    assert "First 3 elements of x:\n[0, 1, 2]" in default
    one = _message(ek.debugging.assert_equal, x, y, summarize=1)
    assert "Indices of first 1 different values:\n[[1]]\nCorresponding x values:\n[1]" in one
    assert one.endswith("First 1 elements of x:\n[0]\nFirst 1 elements of y:\n[0]")
    every = _message(ek.debugging.assert_less, x, 3, summarize=-1)  # negative: all of them
    assert "Indices of first 3 different values:\n[[3], [4], [5]]" in every
    assert "First 6 elements of x:\n[0, 1, 2, 3, 4, 5]\nFirst 1 elements of y:\n[3]" in every
    assert _message(ek.debugging.assert_greater, x, 9, summarize=0) == (
        "Condition x > y did not hold."
    )


def test_summarize_counts_for_assert_near_and_must_be_an_int():
    text = _message(
        ek.debugging.assert_near, [1.0, 2.0, 3.0], [1.5, 2.5, 3.5], atol=0.1, summarize=2
    )
    assert "Indices of first 2 different values:\n[[0], [1]]" in text
    with pytest.raises(InvalidArgumentError, match="summarize must be an int .* got 1.5"):
        ek.debugging.assert_equal([1], [2], summarize=1.5)


N_Q = (10, 3)


def test_assert_shapes_passes_shapes_that_fit_the_names():
    x, y = ek.zeros([10, 3]), ek.ones([10, 7])
    param, scalar = ek.Variable([1.0, 2.0, 3.0]), 1.0
    shapes = [(x, ("N", "Q")), (y, ("N", "D")), (param, ("Q",)), (scalar, ())]
    assert ek.debugging.assert_shapes(shapes) is None
    ek.debugging.assert_shapes([(x, "NQ"), (y, ["N", None]), (x, (".", 3)), (x, ("10", "Q"))])
    ek.debugging.assert_shapes([(ek.zeros([2, 5, 4]), ("*", 5, "C")), (ek.zeros([4]), (..., "C"))])
    ek.debugging.assert_shapes([(ek.zeros([2, 5]), ("*",)), (x, None), (x, ek.TensorShape(N_Q))])
    # A scalar is one dimension of size 1 (and a shape () is a size-1 vector), as in TF.
    ek.debugging.assert_shapes([(ek.constant(2.0), ("N",)), (ek.zeros([1]), ()), (x, ("*", "Q"))])


def test_assert_shapes_names_the_tensor_the_dimension_and_who_fixed_the_size():
    x, y = ek.zeros([10, 3]), ek.ones([10, 7])
    text = _message(ek.debugging.assert_shapes, [(x, ("N", "D")), (y, ("N", "D"))])
    assert text == (
        "Specified by tensor shape=(10, 3) dtype=float32 dimension 1.  Tensor shape=(10, 7) "
        "dtype=float32 dimension 1 must have size 3.  Received size 7, shape (10, 7) ('D' names "
        "one size that every tensor using it must have)"
    )
    text = _message(ek.debugging.assert_shapes, [(y, ("*", 3))], message="logits")
    assert text == (
        "logits.  Specified explicitly.  Tensor shape=(10, 7) dtype=float32 dimension -1 must "
        "have size 3.  Received size 7, shape (10, 7)"
    )
    text = _message(ek.debugging.assert_shapes, [(ek.zeros([3]), ())])
    assert (
        "Specified explicitly.  Tensor shape=(3,) dtype=float32 dimension 0 must have size 1"
        in text
    )


def test_assert_shapes_checks_ranks_first():
    x = ek.zeros([10, 3])
    assert _message(ek.debugging.assert_shapes, [(x, ("N", "Q", "R"))]) == (
        "Tensor shape=(10, 3) dtype=float32 must have rank 3.  Received rank 2, shape (10, 3)"
    )
    assert "must have rank at least 3.  Received rank 2" in _message(
        ek.debugging.assert_shapes, [(x, ("*", "A", "B", "C"))]
    )
    assert "must have rank in (0, 1).  Received rank 2" in _message(
        ek.debugging.assert_shapes, [(x, ("N",))]
    )


@pytest.mark.parametrize(
    ("shapes", "expected"),
    [
        (
            [(ek.zeros([2]), 3)],
            "Specified shape must be an iterable.  .* Received specified shape: 3",
        ),
        ([(ek.zeros([2]), ("N", "*"))], "specified shape index 1.  Symbol `...` or `\\*`"),
        ([(ek.zeros([2]), ([1],))], "a dimension must be an int, a name, None, '.' or '\\*'"),
        ([ek.zeros([2])], "shapes must be \\(tensor, shape\\) pairs"),
    ],
)
def test_assert_shapes_refuses_malformed_specifications(shapes, expected):
    with pytest.raises(InvalidArgumentError, match=expected):
        ek.debugging.assert_shapes(shapes)

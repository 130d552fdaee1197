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

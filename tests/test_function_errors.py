"""A bad call inside ``ek.function`` reads as it does eagerly: the op's own message (not
``Function(float32[2, 3]): add: matmul: ...``), then where: the function, the user's line
and what the function was called with."""

import pytest

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError, OutOfRangeError


def line_of(text):
    """The number of the first line of this file that holds ``text`` (the function's line:
    the assertions naming it come after)."""
    with open(__file__) as f:
        return next(n for n, line in enumerate(f, start=1) if text in line)


def eager_message(call):
    with pytest.raises(InvalidArgumentError) as caught:
        call()
    return str(caught.value)


def test_a_failed_op_that_a_later_op_uses_names_itself_and_the_line():
    a, b = ek.ones([2, 3]), ek.ones([2, 3])

    @ek.function
    def project(x, y):
        z = x * 2.0
        return ek.matmul(z, y) + 1.0  # the user's bad call

    with pytest.raises(InvalidArgumentError) as caught:
        project(a, b)
    message = str(caught.value)
    assert message.startswith(eager_message(lambda: ek.matmul(a, b)))  # as eagerly, first
    assert message.endswith(
        f"(inside ek.function 'project', line {line_of('# the user' + chr(39) + 's bad call')}: "
        "return ek.matmul(z, y) + 1.0  # the user's bad call; called with float32[2, 3], "
        "float32[2, 3])"
    )
    assert "Function(" not in message and "add:" not in message


def test_a_check_in_python_names_the_call_too():
    @ek.function
    def total(x):
        return ek.reduce_sum(x, axis=3)  # bad axis

    with pytest.raises(InvalidArgumentError) as caught:
        total(ek.ones([2, 3]))
    eager = eager_message(lambda: ek.reduce_sum(ek.ones([2, 3]), axis=3))
    assert str(caught.value) == (
        f"{eager} (inside ek.function 'total', line {line_of('axis=3)  # bad')}: return "
        "ek.reduce_sum(x, axis=3)  # bad axis; "
        "called with float32[2, 3])"
    )


def test_an_error_at_a_later_call_says_where_too():
    @ek.function
    def take(iterator):
        return next(iterator)

    iterator = iter(ek.data.Dataset.range(1))
    assert int(take(iterator)) == 0
    with pytest.raises(OutOfRangeError, match=r"^End of sequence.*inside ek.function 'take'"):
        take(iterator)


def test_a_function_inside_a_function_says_the_inner_one_once():
    @ek.function
    def inner(x):
        return ek.reshape(x, [5])  # inner

    @ek.function
    def outer(x):
        return inner(x) * 2.0

    with pytest.raises(InvalidArgumentError) as caught:
        outer(ek.ones([2, 3]))
    message = str(caught.value)
    assert message.startswith("reshape: cannot reshape a tensor of shape (2, 3)")
    assert message.count("inside ek.function") == 1
    assert f"'inner', line {line_of('[5])  # inner')}" in message


def test_a_call_that_does_not_fit_keeps_its_own_message():
    @ek.function(input_signature=[ek.TensorSpec([None], ek.float32)])
    def norm(v):
        return ek.reduce_sum(v * v)

    with pytest.raises(TypeError, match=r"^ek.function 'norm': argument 0 has shape \(2,\)"):
        norm(ek.constant([1, 2]))

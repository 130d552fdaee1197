"""Every error path of reference A4-A10: the exception type (TF's name and the Python built-in
it subclasses) and a message that names the op, the shapes or dtypes, and the fix."""

import builtins

import numpy as np
import pytest

import eagerkit as ek
from eagerkit import boundary, errors

TF_BUILTINS = {
    errors.InvalidArgumentError: ValueError,
    errors.NotFoundError: LookupError,
    errors.FailedPreconditionError: RuntimeError,
    errors.UnimplementedError: NotImplementedError,
    errors.OutOfRangeError: IndexError,
    errors.DataLossError: OSError,
    errors.UnavailableError: RuntimeError,
    errors.InternalError: RuntimeError,
}


@pytest.mark.parametrize("cls", TF_BUILTINS, ids=lambda c: c.__name__)
def test_tf_named_errors_subclass_the_python_builtin(cls):
    assert issubclass(cls, errors.OpError) and issubclass(cls, TF_BUILTINS[cls])
    error = cls("message", op="some_op")
    assert (str(error), error.message, error.op) == ("message", "message", "some_op")


def _spent_tape():
    x = ek.constant(3.0)
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)
    return tape, y, x


def _reuse_spent_tape():
    tape, y, x = _spent_tape()
    tape.gradient(y, x)


def _reenter_spent_tape():
    tape, _, _ = _spent_tape()
    with tape:
        pass


def _stop_recording_outside():
    with ek.GradientTape().stop_recording():
        pass


# (id, call, exception class, Python built-in it must also be, message fragments)
ERRORS = [
    (
        "mixing tensor dtypes",
        lambda: ek.constant(1.0) + ek.constant(np.float64(1.0)),
        errors.InvalidArgumentError,
        ValueError,
        [
            "cannot compute add as input #1(zero-based) was expected to be a float32 tensor "
            "but is a float64 tensor",
            "cast the other inputs, e.g. ek.cast(x, ek.float64)",  # never a lossy cast
        ],
    ),
    (
        "mixing dtypes in matmul",
        lambda: ek.matmul(ek.ones([2, 2]), ek.ones([2, 2], dtype=ek.float64)),
        errors.InvalidArgumentError,
        ValueError,
        ["cannot compute matmul", "(2, 2), (2, 2)", "float64", "ek.cast"],
    ),
    (
        "python float into an int tensor",
        lambda: ek.constant(1) + 1.5,
        # TF raises TypeError for a value that does not fit the dtype: eagerkit's error is
        # an InvalidArgumentError (a ValueError) and a TypeError at once
        boundary.converted_class(TypeError),
        TypeError,
        # 1.5 cast to an int would lose its half: the hint says write the value instead
        ["add: expected an int32 value but got a float64 one 1.5", "Write the value with"],
    ),
    (
        "python int that does not fit",
        lambda: ek.constant([1, 2]) * 2**40,
        errors.InvalidArgumentError,
        ValueError,
        ["multiply: the integer value 1099511627776 does not fit in int32", "ek.int64"],
    ),
    (
        "non-persistent tape used twice",
        _reuse_spent_tape,
        None,
        RuntimeError,
        [
            "A non-persistent GradientTape can only be used to compute one set of gradients "
            "(or jacobians)",
            "persistent=True",
        ],
    ),
    (
        "spent tape entered again",
        _reenter_spent_tape,
        errors.FailedPreconditionError,
        RuntimeError,
        ["already computed its gradients", "make a new tape", "persistent=True"],
    ),
    (
        "stop_recording on a tape that is not recording",
        _stop_recording_outside,
        None,
        RuntimeError,
        ["Trying to stop recording a tape which is not recording."],
    ),
    (
        "watching a non-tensor",
        lambda: ek.GradientTape().watch([ek.constant(1.0), 2.0]),
        None,
        ValueError,
        ["Passed in object of type float, not ek.Tensor", "ek.constant"],
    ),
    (
        "gradient of a function returning None",
        lambda: ek.gradients_function(lambda x: None)(3.0),
        None,
        ValueError,
        [
            "Cannot differentiate a function that returns None; "
            "did you forget to return a value from f?"
        ],
    ),
    (
        "implicit gradient of a function returning None",
        lambda: ek.implicit_gradients(lambda: None)(),
        None,
        ValueError,
        ["Cannot differentiate a function that returns None"],
    ),
    (
        "no trainable variables accessed",
        lambda: ek.implicit_gradients(lambda x: x * 2.0)(3.0),
        None,
        ValueError,
        ["No trainable variables were accessed while the function was being computed."],
    ),
    (
        "keyword arguments to a differentiated function",
        lambda: ek.gradients_function(lambda x, y=1.0: x * y)(3.0, y=2.0),
        None,
        ValueError,
        [
            "Functions to be differentiated cannot receive keyword arguments",
            "['y']",
            "lambda",
        ],
    ),
    (
        "gradient sources that are not tensors",
        lambda: ek.GradientTape().gradient(ek.constant(1.0), [1.0]),
        None,
        ValueError,
        ["gradient: sources must be tensors or variables, got float"],
    ),
    (
        "unknown unconnected_gradients",
        lambda: ek.GradientTape().gradient(ek.constant(1.0), ek.constant(1.0), None, "zeros"),
        None,
        ValueError,
        ["unconnected_gradients must be 'none' or 'zero', got 'zeros'"],
    ),
    (
        "iterating a scalar",
        lambda: list(ek.constant(1.0)),
        errors.InvalidArgumentError,
        TypeError,
        ["iter: cannot iterate over a scalar tensor (its value is 1.0)"],
    ),
    (
        "len of a scalar",
        lambda: len(ek.constant(1.0)),
        errors.InvalidArgumentError,
        TypeError,
        ["len: scalar tensor has no `len()`", "ek.size(x)"],
    ),
    (
        "non-scalar truth value",
        lambda: bool(ek.constant([1.0, 2.0])),
        errors.InvalidArgumentError,
        ValueError,
        ["bool: the truth value of a tensor with 2 elements (shape (2,), float32) is ambiguous"],
    ),
    (
        "non-scalar to float",
        lambda: float(ek.constant([1.0, 2.0])),
        errors.InvalidArgumentError,
        TypeError,
        ["float: only single-element tensors can be converted to Python floats", "(2,)", "x[0]"],
    ),
    (
        "float tensor as an index",
        lambda: [1, 2][ek.constant(1.0)],
        errors.InvalidArgumentError,
        TypeError,
        ["index: only integer tensors of one element can be used as an index", "float32[]"],
    ),
    ("hashing a tensor", lambda: {ek.constant(1.0)}, None, TypeError, ["unhashable"]),
    (
        "matmul inner dimensions",
        lambda: ek.matmul(ek.ones([2, 3]), ek.ones([2, 3])),
        errors.InvalidArgumentError,
        ValueError,
        ["matmul: inner dimensions do not match: a is (2, 3) and b is (2, 3)", "transpose_b"],
    ),
    (
        "matmul of vectors",
        lambda: ek.matmul(ek.ones([2]), ek.ones([2, 2])),
        errors.InvalidArgumentError,
        ValueError,
        ["matmul: both inputs need rank >= 2, got shapes (2,) and (2, 2)", "ek.tensordot"],
    ),
    (
        "broadcast mismatch",
        lambda: ek.ones([2, 3]) * ek.ones([4]),
        errors.InvalidArgumentError,
        ValueError,
        ["multiply:", "float32(2, 3), float32(4,)", "ek.expand_dims"],
    ),
    (
        "broadcast_to mismatch",
        lambda: ek.broadcast_to(ek.ones([3]), [2, 2]),
        errors.InvalidArgumentError,
        ValueError,
        ["broadcast_to: cannot broadcast a tensor of shape (3,) to shape (2, 2)"],
    ),
    (
        "integer to a negative integer power",
        lambda: ek.constant([2, 3]) ** ek.constant([-1, 2]),
        errors.InvalidArgumentError,
        ValueError,
        ["pow: Integers to negative integer powers are not allowed", "int32(2,)"],
    ),
    (
        "op without a kernel for the dtype",
        lambda: ek.sqrt(ek.constant(4)),
        errors.InvalidArgumentError,
        ValueError,
        [
            "sqrt: no kernel for dtype int32 (it accepts complex128, complex64, float16, "
            "float32, float64)",
            "ek.cast",
        ],
    ),
    (
        "logic on floats",
        lambda: ek.logical_and(ek.constant(1.0), ek.constant(0.0)),
        errors.InvalidArgumentError,
        ValueError,
        ["logical_and: no kernel for dtype float32 (it accepts bool)"],
    ),
    (
        "& on floats",
        lambda: ek.constant(1.0) & ek.constant(0.0),
        errors.InvalidArgumentError,
        TypeError,
        ["logical_and ('&') works on bool tensors only (this one is float32[])", "(x > 0) &"],
    ),
    (
        "where with a float condition",
        lambda: ek.where(ek.constant([1.0]), 1.0, 2.0),
        None,
        TypeError,
        ["where: the condition must be a bool tensor, got float32", "ek.where(x > 0"],
    ),
    (
        "fancy indexing",
        lambda: ek.constant([1.0, 2.0, 3.0])[[0, 2]],
        errors.InvalidArgumentError,
        ValueError,
        ["only basic indexing works on tensors", "list [0, 2]", "shape (3,)", "ek.gather"],
    ),
    (
        "index out of range",
        lambda: ek.ones([2, 2])[5],
        errors.InvalidArgumentError,
        ValueError,
        ["index 5 is out of range for axis 0 of size 2 (valid: -2 to 1)", "tensor shape (2, 2)"],
    ),
    (
        "gather out of range",
        lambda: ek.gather(ek.ones([2]), [3]),
        errors.InvalidArgumentError,
        ValueError,
        ["gather: indices must lie in [0, 2) for axis 0 of params with shape (2,)"],
    ),
    (
        "gather with float indices",
        lambda: ek.gather(ek.ones([2]), [0.5]),
        errors.InvalidArgumentError,
        ValueError,
        ["gather: indices must be integers, got float32"],
    ),
    (
        "one_hot with float indices",
        lambda: ek.one_hot([0.5], 3),
        errors.InvalidArgumentError,
        ValueError,
        ["one_hot: indices must be integers, got float32", "ek.cast(labels, ek.int32)"],
    ),
    (
        "reshape to the wrong size",
        lambda: ek.reshape(ek.ones([2, 3]), [4]),
        errors.InvalidArgumentError,
        ValueError,
        ["reshape: cannot reshape a tensor of shape (2, 3) (6 elements) to shape (4,)", "-1"],
    ),
    (
        "reduction axis out of range",
        lambda: ek.reduce_sum(ek.ones([2, 2]), axis=3),
        errors.InvalidArgumentError,
        ValueError,
        ["reduce_sum: axis 3 is out of range for a tensor of rank 2 (valid axes: -2 to 1)"],
    ),
    (
        "transpose with a bad perm",
        lambda: ek.transpose(ek.ones([2, 2]), [0, 0]),
        errors.InvalidArgumentError,
        ValueError,
        ["transpose: perm [0, 0] is not a permutation of the 2 axes", "(2, 2)"],
    ),
    (
        "concat of shapes that differ",
        lambda: ek.concat([ek.ones([2, 2]), ek.ones([3, 3])], 0),
        errors.InvalidArgumentError,
        ValueError,
        ["concat:", "float32(2, 2), float32(3, 3)"],
    ),
    (
        "split into uneven pieces",
        lambda: ek.split(ek.ones([5]), 2),
        errors.InvalidArgumentError,
        ValueError,
        [
            "split: axis 0 of value float32[5] has size 5, which num_or_size_splits=2 does not",
            "list of sizes",
        ],
    ),
    (
        "tile with the wrong number of multiples",
        lambda: ek.tile(ek.ones([2]), [2, 2]),
        errors.InvalidArgumentError,
        ValueError,
        ["tile: multiples [2, 2] must have one entry per axis", "(2,)"],
    ),
    (
        "squeeze of a long axis",
        lambda: ek.squeeze(ek.ones([2]), 0),
        errors.InvalidArgumentError,
        ValueError,
        ["squeeze: axis 0 has size 2, not 1 (shape (2,))"],
    ),
    (
        "tensordot of different lengths",
        lambda: ek.tensordot(ek.ones([2]), ek.ones([3]), 1),
        errors.InvalidArgumentError,
        ValueError,
        ["tensordot: contracted axes differ in size: a(2,) axes [0] vs b(3,) axes [0]"],
    ),
    (
        "text is not a number",
        lambda: ek.constant(1.0) + "a",
        errors.InvalidArgumentError,
        ValueError,
        ["add: cannot convert the string value 'a' to float32", "ek.strings.to_number"],
    ),
    (
        "unknown dtype",
        lambda: ek.cast(ek.ones([2]), "bfloat16"),
        None,
        TypeError,
        ["'bfloat16' is not a dtype eagerkit supports", "float32"],
    ),
    (
        "batch_jacobian with different batch sizes",
        lambda: ek.GradientTape().batch_jacobian(ek.ones([2]), ek.ones([3])),
        None,
        ValueError,
        ["batch_jacobian: target has batch size 2 but source has 3"],
    ),
    (
        "all gradients None",
        lambda: ek.train.GradientDescentOptimizer(0.1).apply_gradients(
            [(None, ek.Variable(1.0, name="w"))]
        ),
        None,
        ValueError,
        ["No gradients provided for any variable: ['w:0']"],
    ),
    (
        "minimize of a tensor",
        lambda: ek.train.GradientDescentOptimizer(0.1).minimize(ek.constant(1.0)),
        None,
        RuntimeError,
        ["should be a function when eager execution is enabled", "lambda"],
    ),
    (
        "assign of the wrong shape",
        lambda: ek.Variable(1.0, name="v").assign([1.0, 2.0]),
        errors.InvalidArgumentError,
        ValueError,
        ["assign on variable 'v:0': the value has shape (2,) but the variable has shape ()"],
    ),
    (
        "assign of the wrong dtype",
        lambda: ek.Variable(1.0, name="v").assign_add(ek.constant(1)),
        errors.InvalidArgumentError,
        ValueError,
        [
            "assign_add on variable 'v:0': the value is int32 but the variable is float32",
            "ek.cast(value, ek.float32)",
        ],
    ),
    (
        "Tensor.eval in eager mode",
        lambda: ek.constant(1.0).eval(),
        None,
        NotImplementedError,
        ["eval is not supported when eager execution is enabled"],
    ),
]


@pytest.mark.parametrize(
    ("call", "error", "builtin", "fragments"),
    [case[1:] for case in ERRORS],
    ids=[case[0] for case in ERRORS],
)
def test_error_type_and_message(call, error, builtin, fragments):
    with pytest.raises(builtin) as info:
        call()
    if error is not None:  # the class itself, or the one that is also the Python class
        assert isinstance(info.value, error) and type(info.value).__name__ == error.__name__
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"


def test_op_errors_name_the_op():
    with pytest.raises(errors.InvalidArgumentError) as info:
        ek.matmul(ek.ones([2, 3]), ek.ones([2, 3]))
    assert info.value.op == "matmul"
    assert str(info.value).count("matmul:") == 1  # named once, not wrapped twice


def test_failed_ops_change_no_state():
    w = ek.Variable([1.0, 2.0])
    with pytest.raises(errors.InvalidArgumentError):
        w.assign([1.0, 2.0, 3.0])
    with pytest.raises(errors.InvalidArgumentError):
        w.assign_sub(ek.constant([1, 1]))
    assert w.numpy().tolist() == [1.0, 2.0]


BUILTIN_EXCEPTIONS = [
    c for c in vars(builtins).values() if isinstance(c, type) and issubclass(c, Exception)
]


@pytest.mark.parametrize("python_class", BUILTIN_EXCEPTIONS, ids=lambda c: c.__name__)
def test_every_python_exception_converts_to_an_eagerkit_error_made_from_a_message(python_class):
    # A UnicodeDecodeError escaping from a CSV reader once crashed the boundary that converts
    # it: Python makes codec errors (and exception groups) from more than a message.
    error = boundary.converted_class(python_class)("fit(...): what went wrong", op="fit")
    assert isinstance(error, errors.OpError) and error.op == "fit"
    assert error.args == ("fit(...): what went wrong",) and error.message == error.args[0]
    if issubclass(python_class, UnicodeError):
        assert isinstance(error, UnicodeError) and isinstance(error, ValueError)
    elif python_class.__name__ == "ExceptionGroup":  # Python 3.11+
        assert type(error) is errors.InvalidArgumentError
    else:
        assert isinstance(error, python_class)

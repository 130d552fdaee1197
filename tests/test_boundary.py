"""The public API's error boundary: errors name the call the user made, tracebacks end at
the user's line (as TF 2.7+ shows them) unless filtering is switched off, leaked Python
errors become eagerkit errors, and the user's own exceptions pass through untouched."""

import json
import string
import traceback

import numpy as np
import pytest

import eagerkit as ek
from eagerkit import boundary, errors, namespaces

PACKAGE = ek.__file__.rsplit("/", 1)[0]


def eagerkit_frames(error):
    return [
        frame.filename
        for frame in traceback.extract_tb(error.__traceback__)
        if frame.filename.startswith(PACKAGE)
    ]


@pytest.fixture
def unfiltered():
    ek.debugging.disable_traceback_filtering()
    yield
    ek.debugging.enable_traceback_filtering()


def test_a_composite_names_the_users_call_and_its_inputs():
    with pytest.raises(errors.InvalidArgumentError) as caught:
        ek.nn.softmax(ek.constant([[1.0, 2.0]]), axis=5)
    assert str(caught.value).startswith("softmax(float32[1, 2], axis=5): reduce_max: axis 5")
    assert caught.value.op == "softmax"


def test_a_layer_names_its_class_and_the_input_it_got():
    layer = ek.keras.layers.Dense(3)
    with pytest.raises(errors.InvalidArgumentError) as caught:
        layer(ek.constant([["a", "b"]]))  # the matmul inside fails
    assert str(caught.value).startswith("Dense(string[1, 2]): cannot compute matmul")
    assert not layer.built and layer.variables == []  # the failed first call built nothing


def test_the_traceback_ends_at_the_users_line_with_one_boundary_frame():
    with pytest.raises(errors.InvalidArgumentError) as caught:
        ek.nn.softmax(ek.constant([[1.0, 2.0]]), axis=5)
    assert eagerkit_frames(caught.value) == [boundary.__file__]
    assert caught.value.__cause__ is None and caught.value.__suppress_context__
    text = "".join(traceback.format_exception(caught.value))
    assert "disable_traceback_filtering" in text  # the one frame shown says how to see more
    assert "direct cause" not in text and "During handling" not in text


def test_a_primitive_called_directly_shows_no_numpy_chain():
    with pytest.raises(errors.InvalidArgumentError) as caught:
        ek.add(ek.ones([2, 3]), ek.ones([4]))
    assert "Shapes broadcast when" in str(caught.value)
    assert len(eagerkit_frames(caught.value)) == 1
    assert caught.value.__cause__ is None


def test_switching_filtering_off_shows_every_frame_and_the_numpy_cause(unfiltered):
    assert not ek.debugging.is_traceback_filtering_enabled()
    with pytest.raises(errors.InvalidArgumentError) as caught:
        ek.nn.softmax(ek.constant([[1.0, 2.0]]), axis=5)
    assert any(f.endswith("ops/reduce.py") for f in eagerkit_frames(caught.value))
    with pytest.raises(errors.InvalidArgumentError) as caught:
        ek.add(ek.ones([2, 3]), ek.ones([4]))
    assert isinstance(caught.value.__cause__, ValueError)  # numpy's own error, chained


def test_a_leaked_python_error_becomes_an_eagerkit_error():
    @boundary.public
    def parse(text):
        return json.loads(text)  # raised inside a library (the stdlib): eagerkit's fault

    with pytest.raises(errors.InvalidArgumentError) as caught:
        parse("{")
    assert isinstance(caught.value, ValueError)  # ``except ValueError`` still works
    assert str(caught.value).startswith("parse('{'): Expecting property name")
    assert caught.value.converted_from == "JSONDecodeError"


def test_a_leaked_codec_error_blames_no_argument_that_is_right():
    @boundary.public
    def read_rows(data, verbose="auto", mode="text"):
        return json.loads(data), string.capwords(mode)  # both fail inside the stdlib

    # verbose=0 is right (a text default does not make it a text parameter): the bytes
    # are the trouble. This once blamed verbose, after crashing in the conversion.
    with pytest.raises(errors.InvalidArgumentError) as caught:
        read_rows(b"\x1f\x8b\x08", verbose=0)
    assert isinstance(caught.value, UnicodeError)
    assert caught.value.detail == (  # what went wrong, after the call's description
        "'utf-8' codec can't decode byte 0x8b in position 1: invalid start byte"
    )
    # Python's words name the int that took the text's place: that argument is blamed.
    with pytest.raises(
        errors.InvalidArgumentError, match="mode must be a string such as 'text', got"
    ):
        read_rows(b"[1, 2]", mode=1)


def test_a_converted_error_is_still_an_instance_of_the_python_class():
    with pytest.raises(TypeError) as caught:  # ``except TypeError`` keeps working
        ek.train.latest_checkpoint(None)
    assert isinstance(caught.value, errors.InvalidArgumentError)
    assert type(caught.value).__name__ == "InvalidArgumentError"
    assert str(caught.value).startswith("latest_checkpoint(None): ")


def test_the_users_own_exception_passes_through_unchanged():
    def loss():
        raise ZeroDivisionError("in my loss")

    with pytest.raises(ZeroDivisionError, match="^in my loss$") as caught:
        ek.train.GradientDescentOptimizer(0.1).minimize(loss)
    assert not isinstance(caught.value, errors.OpError)
    assert eagerkit_frames(caught.value) == [boundary.__file__]


def test_one_wrapper_per_function_across_namespaces():
    assert ek.nn.softmax.__wrapped__ is not None
    assert ek.math.reduce_mean is ek.reduce_mean
    assert ek.exp is ek.math.exp and not hasattr(ek.exp, "__boundary__")  # a primitive
    import inspect

    assert "axis" in inspect.signature(ek.nn.softmax).parameters


@pytest.mark.parametrize(
    "call, hint",
    [
        (lambda: ek.constant(1) + 1.5, "Write the value with the dtype you mean"),
        (
            lambda: ek.Variable(1.0).assign(ek.constant(np.float64(2.0))),
            "create the variable with dtype=ek.float64",
        ),
        (lambda: ek.one_hot([0.5, 1.0], 3), "exact only when every label is a whole number"),
    ],
)
def test_a_hint_never_suggests_a_lossy_cast(call, hint):
    with pytest.raises(errors.InvalidArgumentError) as caught:
        call()
    assert hint in str(caught.value)
    assert "ek.cast(x, ek.int" not in str(caught.value)
    assert "ek.cast(value, ek.float32)" not in str(caught.value)


def test_every_public_namespace_exists_once_eagerkit_is_imported():
    """A namespace imported later (``import eagerkit.testing``) would miss the boundary."""
    import functools
    import types

    for dotted in ek.PUBLIC_NAMESPACES:
        module = functools.reduce(getattr, dotted.split("."), ek)
        assert isinstance(module, types.ModuleType), dotted
        assert module in namespaces.module_namespaces(ek, ek.PUBLIC_NAMESPACES)
    assert ek.testing.check_grads.__boundary__

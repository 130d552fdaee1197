"""TF2's small edges (issue 19): soft device placement, ``convert_to_tensor`` of a Variable,
``+`` on strings, ``tf.io.decode_raw``, and the Python exception class TF documents for
each misuse (eagerkit's error is an instance of it, and keeps eagerkit's message)."""

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError, UnavailableError


@pytest.fixture
def no_gpu(monkeypatch):
    from eagerkit.backends import cupy_backend

    monkeypatch.setattr(cupy_backend, "gpu_status", lambda: (0, "No GPU: cupy is not installed."))
    monkeypatch.setattr(ek.devices, "_DEVICES", {"/cpu:0": ek.devices.CPU})
    yield
    ek.config.set_soft_device_placement(True)


def test_a_missing_gpu_means_the_cpu_under_soft_placement(no_gpu):
    assert ek.config.get_soft_device_placement() is True  # TF2's default
    with ek.device("GPU:0") as placed:
        x = ek.ones([2]) * 3
    assert placed is ek.devices.CPU and x.device.endswith("CPU:0")
    with ek.device("/job:localhost/replica:0/task:0/device:GPU:1"):
        assert ek.constant(1.0).device.endswith("CPU:0")


def test_soft_placement_off_restores_the_clear_error(no_gpu):
    ek.config.set_soft_device_placement(False)
    assert ek.config.get_soft_device_placement() is False
    with pytest.raises(UnavailableError, match="cannot use '/gpu:0'. No GPU"):
        with ek.device("GPU:0"):
            pass
    ek.config.set_soft_device_placement(True)
    with pytest.raises(InvalidArgumentError, match="expected True or False"):
        ek.config.set_soft_device_placement("no")
    assert ek.config.get_soft_device_placement() is True  # the failed call changed nothing


def test_soft_placement_never_hides_a_misspelt_or_unknown_device(no_gpu):
    with pytest.raises(InvalidArgumentError, match="is not understood"):
        with ek.device("gpu:x"):
            pass
    with pytest.raises(InvalidArgumentError, match="unknown device '/tpu:0'"):
        with ek.device("/tpu:0"):
            pass


def test_convert_to_tensor_of_a_variable_is_a_tensor_read_on_the_tape():
    v = ek.Variable([1.0, 2.0])
    t = ek.convert_to_tensor(v)
    assert type(t) is ek.Tensor and t.numpy().tolist() == [1.0, 2.0]
    v.assign([5.0, 6.0])
    assert t.numpy().tolist() == [1.0, 2.0]  # a value, not the variable
    with ek.GradientTape() as tape:
        loss = ek.reduce_sum(ek.convert_to_tensor(v) ** 2)
    assert tape.gradient(loss, v).numpy().tolist() == [10.0, 12.0]
    assert ek.convert_to_tensor(3, dtype_hint=ek.float32).dtype == ek.float32
    assert ek.convert_to_tensor("x", dtype_hint=ek.float32).dtype == ek.string  # a hint only
    with pytest.raises(ValueError, match="expected an int32 value but got a float32 one"):
        ek.convert_to_tensor(v, dtype=ek.int32)


def test_plus_joins_strings_as_tf():
    words = ek.constant(["Gray", "Lazy"])
    assert (words + " wolf").numpy().tolist() == [b"Gray wolf", b"Lazy wolf"]
    assert ("the " + words).numpy().tolist() == [b"the Gray", b"the Lazy"]
    assert (words + words).numpy().tolist() == [b"GrayGray", b"LazyLazy"]
    assert ek.add(ek.constant("a"), ek.constant("b")).numpy() == b"ab"
    with pytest.raises(InvalidArgumentError, match="string"):
        words + 1  # text and numbers never mix


def test_decode_raw():
    assert ek.io.decode_raw("Duck", ek.uint8).numpy().tolist() == [68, 117, 99, 107]
    big = ek.io.decode_raw(
        [b"\x00\x01\x00\x02", b"\x01\x00\x00\x00"], ek.int16, little_endian=False
    )
    assert big.numpy().tolist() == [[1, 2], [256, 0]] and big.dtype == ek.int16
    floats = ek.io.decode_raw(np.array([1.5, -2.0], np.float32).tobytes(), ek.float32)
    assert floats.numpy().tolist() == [1.5, -2.0]
    assert ek.io.decode_raw(["ab", "c"], ek.uint8, fixed_length=2).numpy().tolist() == [
        [97, 98],
        [99, 0],
    ]
    with pytest.raises(InvalidArgumentError, match="not a whole number of int32s"):
        ek.io.decode_raw("abc", ek.int32)
    with pytest.raises(InvalidArgumentError, match="every string must hold as many"):
        ek.io.decode_raw(["ab", "c"], ek.uint8)


# Each misuse, the exception class TF documents for it, and eagerkit's words for it.
TF_DOCUMENTED = [
    (
        "tf.constant of a non-rectangular list",
        lambda: ek.constant([[1, 2], [3]]),
        ValueError,
        "non-rectangular",
    ),
    (
        "tf.ragged.constant with mixed types",
        lambda: ek.ragged.constant([["a"], [1]]),
        ValueError,
        "mixed types",
    ),
    (
        "tf.ragged.constant with mixed depths",
        lambda: ek.ragged.constant(["A", ["B"]]),
        ValueError,
        "same nesting depth",
    ),
    (
        "Variable.assign of another shape",
        lambda: ek.Variable([1.0, 2.0]).assign([1.0, 2.0, 3.0]),
        ValueError,
        "shape",
    ),
    (
        "tf.constant of a value that does not fit the dtype",
        lambda: ek.constant(1.5, ek.int32),
        TypeError,
        "expected an int32 value",
    ),
    (
        "tf.constant of a complex value as a float",
        lambda: ek.constant(1j, ek.float32),
        TypeError,
        "complex128",
    ),
    (
        "tf.convert_to_tensor of a tensor of another dtype",
        lambda: ek.convert_to_tensor(ek.constant(1.0), dtype=ek.int32),
        ValueError,
        "int32",
    ),
    (
        "bool() of a tensor of several elements",
        lambda: bool(ek.constant([1, 2])),
        ValueError,
        "ambiguous",
    ),
    ("len() of a scalar", lambda: len(ek.constant(1)), TypeError, "has no `len"),
    ("iterating a scalar", lambda: iter(ek.constant(1.0)), TypeError, "scalar"),
    (
        "float() of a tensor of several elements",
        lambda: float(ek.constant([1.0, 2.0])),
        TypeError,
        "single-element",
    ),
    ("hashing a tensor", lambda: {ek.constant(1.0)}, TypeError, "unhashable"),
    (
        "tape.watch of a Python list of numbers",
        lambda: ek.GradientTape().watch([1.0]),
        ValueError,
        "not ek.Tensor",
    ),
    (
        "a RaggedTensor in a boolean context",
        lambda: bool(ek.ragged.constant([[1]])),
        TypeError,
        "truth value",
    ),
]


@pytest.mark.parametrize(
    ("call", "expected", "words"),
    [case[1:] for case in TF_DOCUMENTED],
    ids=[case[0] for case in TF_DOCUMENTED],
)
def test_errors_are_the_class_tf_documents(call, expected, words):
    with pytest.raises(expected, match=words):
        call()

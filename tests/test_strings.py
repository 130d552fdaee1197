"""String tensors: what makes them, what accepts them, what refuses them (and how)."""

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError, UnimplementedError

CPU = "/job:localhost/replica:0/task:0/device:CPU:0"  # TF's full device names
SIM = "/job:localhost/replica:0/task:0/device:SIM:0"


def test_text_becomes_a_string_tensor_of_bytes():
    scalar = ek.constant("héllo")
    assert scalar.dtype == ek.string and scalar.shape == ()
    assert scalar.numpy() == "héllo".encode()
    assert repr(scalar) == "<ek.Tensor: shape=(), dtype=string, numpy=b'h\\xc3\\xa9llo'>"
    words = ek.constant([["a", b"bc"], ["", "d\x00"]])
    assert words.shape == (2, 2) and words.numpy().dtype == object
    assert words.numpy().tolist() == [[b"a", b"bc"], [b"", b"d\x00"]]
    assert str(ek.constant(["a", "b"])) == "ek.Tensor([b'a' b'b'], shape=(2,), dtype=string)"
    assert ek.constant(np.array(["x", "yz"])).dtype == ek.string  # numpy text arrays too
    assert ek.as_dtype("string") is ek.string and ek.as_dtype(str) is ek.string
    assert ek.string.is_string and not ek.float32.is_string
    with pytest.raises(InvalidArgumentError, match="from list \\[1, 'a'\\]; every element must"):
        ek.constant([1, "a"])  # numpy would quietly make the 1 text


def test_shape_ops_indexing_and_equality_work_on_strings():
    words = ek.constant(["a", "bc", "d"])
    assert words[1].numpy() == b"bc" and [w.numpy() for w in words] == [b"a", b"bc", b"d"]
    assert ek.reshape(words, [3, 1]).shape == (3, 1)
    assert ek.concat([words, words], 0).shape == (6,)
    assert ek.gather(words, [2, 0]).numpy().tolist() == [b"d", b"a"]
    assert ek.stack([words, words]).shape == (2, 3)
    assert (words == "bc").numpy().tolist() == [False, True, False]
    assert (words != b"a").numpy().tolist() == [False, True, True]
    assert ek.boolean_mask(words, [True, False, True]).numpy().tolist() == [b"a", b"d"]
    assert (ek.constant(1.0) == "x") is False  # a number never equals text


def test_strings_refuse_arithmetic_math_and_casts_with_the_fix():
    words = ek.constant(["1", "2"])
    assert (words + words).numpy().tolist() == [b"11", b"22"]  # + joins text, as in TF
    with pytest.raises(
        InvalidArgumentError, match="multiply: no kernel for dtype string"
    ) as caught:
        words * words
    assert "ek.strings.to_number" in str(caught.value)
    with pytest.raises(InvalidArgumentError, match="reduce_sum: no kernel for dtype string"):
        ek.reduce_sum(words)
    with pytest.raises(InvalidArgumentError, match="exp: no kernel for dtype string"):
        ek.exp(words)
    with pytest.raises(UnimplementedError, match="cannot cast string to float32"):
        ek.cast(words, ek.float32)
    with pytest.raises(UnimplementedError, match="cannot cast int32 to string"):
        ek.cast(ek.constant([1]), ek.string)
    with pytest.raises(InvalidArgumentError, match="cannot convert the string value 'x' to float"):
        ek.constant("x", dtype=ek.float32)
    with pytest.raises(InvalidArgumentError, match="cannot make a string tensor from int 1"):
        ek.constant(1, dtype=ek.string)
    with pytest.raises(InvalidArgumentError, match="as_string: no kernel for dtype string"):
        ek.strings.as_string(words)


def test_strings_stay_on_the_cpu_and_get_no_gradient():
    ek.devices.enable_simulated_gpu()
    try:
        with ek.device("/sim:0"):
            on_cpu = ek.constant(["a"])
            numbers = ek.constant([1.0])
        assert on_cpu.device == CPU and numbers.device == SIM
        with pytest.raises(InvalidArgumentError, match="string tensors live on the CPU"):
            ek.copy_to_device(on_cpu, "/sim:0")
    finally:
        ek.devices.disable_simulated_gpu()
    with ek.GradientTape() as tape, pytest.warns(UserWarning, match="got ek.string"):
        tape.watch(on_cpu)
    assert tape.gradient(ek.cast(ek.strings.length(on_cpu), ek.float32), on_cpu) is None


def test_string_ops():
    text = ek.constant([" Hello ", "wörld"])
    assert ek.strings.length(text).numpy().tolist() == [7, 6]
    assert ek.strings.length(text, unit="UTF8_CHAR").numpy().tolist() == [7, 5]
    assert ek.strings.upper(ek.strings.strip(text)).numpy().tolist() == [b"HELLO", "WÖRLD".encode()]
    assert ek.strings.lower("ABC").numpy() == b"abc"
    joined = ek.strings.join([["a", "b"], "x"], separator=", ")
    assert joined.numpy().tolist() == [b"a, x", b"b, x"]
    assert ek.strings.regex_replace("2024-01-05", r"(\d+)-(\d+)-(\d+)", r"\3/\2").numpy() == (
        b"05/01"
    )
    assert ek.strings.regex_replace("aaa", "a", "b", replace_global=False).numpy() == b"baa"
    numbers = ek.strings.to_number(["1.5", "-2", "1e3"])
    assert numbers.dtype == ek.float32 and numbers.numpy().tolist() == [1.5, -2.0, 1000.0]
    assert ek.strings.to_number(["7"], out_type=ek.int64).dtype == ek.int64
    assert ek.strings.as_string([1.5, 2.0]).numpy().tolist() == [b"1.500000", b"2.000000"]
    assert ek.strings.as_string([3, -4]).numpy().tolist() == [b"3", b"-4"]
    assert ek.strings.as_string([True]).numpy().tolist() == [b"true"]
    with pytest.raises(InvalidArgumentError, match="could not convert the string b'1,5' to"):
        ek.strings.to_number(["1", "1,5"])
    with pytest.raises(InvalidArgumentError, match="out_type must be a number type"):
        ek.strings.to_number(["1"], out_type=ek.string)
    with pytest.raises(InvalidArgumentError, match="is not a regular expression"):
        ek.strings.regex_replace("a", "(", "b")
    with pytest.raises(InvalidArgumentError, match="unit must be 'BYTE' or 'UTF8_CHAR'"):
        ek.strings.length(text, unit="CHAR")
    with pytest.raises(InvalidArgumentError, match="string_length: no kernel for dtype float32"):
        ek.strings.length([1.0])


def test_string_datasets_slice_and_batch():
    ds = ek.data.Dataset.from_tensor_slices((["a", "b", "c"], [1, 2, 3])).batch(2)
    words, numbers = next(iter(ds))
    assert words.dtype == ek.string and words.numpy().tolist() == [b"a", b"b"]
    assert numbers.numpy().tolist() == [1, 2]
    lengths = ek.data.Dataset.from_tensor_slices(["ab", "c"]).map(ek.strings.length)
    assert [int(n) for n in lengths] == [2, 1]

"""TF2's guide "Introduction to Tensors": its ragged, string, sparse and complex parts, ported
with ``import eagerkit as tf`` (the rest of the guide is in test_tf_guide_eager_basics.py's
territory: basics, shapes, indexing, broadcasting).

The guide lists complex numbers among the dtypes without an example; the complex examples
here are those of TF's API documentation (``tf.complex``, ``tf.math.real``, ``imag``,
``abs``, ``angle``, ``conj``), each checking the value TF documents.
"""

import numpy as np
import pytest

import eagerkit as tf


def _printed(capsys):
    return capsys.readouterr().out.splitlines()


def test_ragged_tensors(capsys):
    ragged_list = [[0, 1, 2, 3], [4, 5], [6, 7, 8], [9]]
    try:
        tensor = tf.constant(ragged_list)  # noqa: F841 - as the guide writes it
    except Exception as e:
        print(f"{type(e).__name__}: {e}")
    ragged_tensor = tf.ragged.constant(ragged_list)
    print(ragged_tensor)
    print(ragged_tensor.shape)
    lines = _printed(capsys)
    # TF: "ValueError: Can't convert non-rectangular Python sequence to Tensor."; eagerkit's
    # error is a ValueError too (InvalidArgumentError subclasses it) and says the same.
    assert "Can't convert non-rectangular Python sequence to Tensor" in lines[0]
    assert lines[1:] == ["<ek.RaggedTensor [[0, 1, 2, 3], [4, 5], [6, 7, 8], [9]]>", "(4, None)"]
    with pytest.raises(ValueError, match="ek.ragged.constant"):
        tf.constant(ragged_list)


def test_string_tensors(capsys):
    # Tensors can be strings, too here is a scalar string.
    scalar_string_tensor = tf.constant("Gray wolf")
    print(scalar_string_tensor)
    # If you have three string tensors of different lengths, this is OK.
    tensor_of_strings = tf.constant(["Gray wolf", "Quick brown fox", "Lazy dog"])
    # Note that the shape is (3,). The string length is not included.
    print(tensor_of_strings)
    assert repr(tf.constant("🥳👍")) == (
        r"<ek.Tensor: shape=(), dtype=string, numpy=b'\xf0\x9f\xa5\xb3\xf0\x9f\x91\x8d'>"
    )
    # You can use split to split a string into a set of tensors
    print(tf.strings.split(scalar_string_tensor, sep=" "))
    # ...but it turns into a `RaggedTensor` if you split up a tensor of strings,
    # as each string might be split into a different number of parts.
    print(tf.strings.split(tensor_of_strings))
    text = tf.constant("1 10 100")
    print(tf.strings.to_number(tf.strings.split(text, " ")))
    byte_strings = tf.strings.bytes_split(tf.constant("Duck"))
    byte_ints = tf.io.decode_raw(tf.constant("Duck"), tf.uint8)
    print("Byte strings:", byte_strings)
    print("Bytes:", byte_ints)
    # Or split it up as unicode and then decode it
    unicode_bytes = tf.constant("アヒル 🦆")
    unicode_char_bytes = tf.strings.unicode_split(unicode_bytes, "UTF-8")
    unicode_values = tf.strings.unicode_decode(unicode_bytes, "UTF-8")
    print("\nUnicode bytes:", unicode_bytes)
    print("\nUnicode chars:", unicode_char_bytes)
    print("\nUnicode values:", unicode_values)
    assert _printed(capsys) == [
        "ek.Tensor(b'Gray wolf', shape=(), dtype=string)",
        "ek.Tensor([b'Gray wolf' b'Quick brown fox' b'Lazy dog'], shape=(3,), dtype=string)",
        "ek.Tensor([b'Gray' b'wolf'], shape=(2,), dtype=string)",
        "<ek.RaggedTensor [[b'Gray', b'wolf'], [b'Quick', b'brown', b'fox'], [b'Lazy', b'dog']]>",
        "ek.Tensor([  1.  10. 100.], shape=(3,), dtype=float32)",
        "Byte strings: ek.Tensor([b'D' b'u' b'c' b'k'], shape=(4,), dtype=string)",
        "Bytes: ek.Tensor([ 68 117  99 107], shape=(4,), dtype=uint8)",
        "",
        r"Unicode bytes: ek.Tensor(b'\xe3\x82\xa2\xe3\x83\x92\xe3\x83\xab \xf0\x9f\xa6\x86', "
        "shape=(), dtype=string)",
        "",
        r"Unicode chars: ek.Tensor([b'\xe3\x82\xa2' b'\xe3\x83\x92' b'\xe3\x83\xab' b' ' "
        r"b'\xf0\x9f\xa6\x86'], shape=(5,), dtype=string)",
        "",
        "Unicode values: ek.Tensor([ 12450  12498  12523     32 129414], shape=(5,), dtype=int32)",
    ]


def test_sparse_tensors(capsys):
    # Sparse tensors store values by index in a memory-efficient manner
    sparse_tensor = tf.sparse.SparseTensor(
        indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4]
    )
    print(sparse_tensor, "\n")
    # You can convert sparse tensors to dense
    print(tf.sparse.to_dense(sparse_tensor))
    assert _printed(capsys) == [
        "SparseTensor(indices=ek.Tensor(",
        "[[0 0]",
        " [1 2]], shape=(2, 2), dtype=int64), values=ek.Tensor([1 2], shape=(2,), dtype=int32), "
        "dense_shape=ek.Tensor([3 4], shape=(2,), dtype=int64)) ",
        "",
        "ek.Tensor(",
        "[[1 0 0 0]",
        " [0 0 2 0]",
        " [0 0 0 0]], shape=(3, 4), dtype=int32)",
    ]


def test_complex_numbers_from_tfs_api_docs():
    real = tf.constant([2.25, 3.25])
    imag = tf.constant([4.75, 5.75])
    assert tf.complex(real, imag).numpy().tolist() == [2.25 + 4.75j, 3.25 + 5.75j]
    assert tf.complex(real, imag).dtype == tf.complex64

    x = tf.constant([-2.25 + 4.75j, 3.25 + 5.75j])
    assert x.dtype == tf.complex128  # a Python complex is complex128, as in TF
    assert tf.math.real(x).numpy().tolist() == [-2.25, 3.25]
    assert tf.math.imag(x).numpy().tolist() == [4.75, 5.75]
    assert tf.math.conj(x).numpy().tolist() == [-2.25 - 4.75j, 3.25 - 5.75j]

    x = tf.constant([[-2.25 + 4.75j], [-3.25 + 5.75j]])
    np.testing.assert_allclose(tf.abs(x).numpy(), [[5.25594902], [6.60492229]], rtol=1e-7)

    input = tf.constant([-2.25 + 4.75j, 3.25 + 5.75j], dtype=tf.complex64)  # noqa: A001
    angle = tf.math.angle(input).numpy()
    assert angle.dtype == np.float32
    np.testing.assert_allclose(angle, [2.0131705, 1.056345], rtol=1e-6)

"""TF2's guide "Unicode strings" (TF Text), ported with ``import eagerkit as tf``.

Each test is a section of the guide, its code as written, checking what the guide shows
(``ek.Tensor`` where TF shows ``tf.Tensor``). Left out, as eagerkit has no such API:
``tf.strings.unicode_script`` (ICU's script codes) and the word segmentation built on it.
"""

import numpy as np

import eagerkit as tf


def _printed(capsys):
    return capsys.readouterr().out.splitlines()


def test_the_tf_string_data_type():
    assert repr(tf.constant("Thanks 😊")) == (
        r"<ek.Tensor: shape=(), dtype=string, numpy=b'Thanks \xf0\x9f\x98\x8a'>"
    )
    assert tf.constant(["You're", "welcome!"]).shape == tf.TensorShape([2])


def test_representing_unicode():
    # Unicode string, represented as a UTF-8 encoded string scalar.
    text_utf8 = tf.constant("语言处理")
    assert text_utf8.numpy() == b"\xe8\xaf\xad\xe8\xa8\x80\xe5\xa4\x84\xe7\x90\x86"
    # Unicode string, represented as a UTF-16-BE encoded string scalar.
    text_utf16be = tf.constant("语言处理".encode("UTF-16-BE"))
    assert text_utf16be.numpy() == b"\x8b\xed\x8a\x00Y\x04t\x06"
    # Unicode string, represented as a vector of Unicode code points.
    text_chars = tf.constant([ord(char) for char in "语言处理"])
    assert repr(text_chars) == (
        "<ek.Tensor: shape=(4,), dtype=int32, numpy=array([35821, 35328, 22788, 29702], "
        "dtype=int32)>"
    )
    decoded = tf.strings.unicode_decode(text_utf8, input_encoding="UTF-8")
    assert repr(decoded) == repr(text_chars)
    encoded = tf.strings.unicode_encode(text_chars, output_encoding="UTF-8")
    assert encoded.numpy() == text_utf8.numpy()
    transcoded = tf.strings.unicode_transcode(
        text_utf8, input_encoding="UTF8", output_encoding="UTF-16-BE"
    )
    assert transcoded.numpy() == text_utf16be.numpy()


def test_batch_dimensions(capsys):
    # A batch of Unicode strings, each represented as a UTF8-encoded string.
    batch_utf8 = [
        s.encode("UTF-8") for s in ["hÃllo", "What is the weather tomorrow", "Göödnight", "😊"]
    ]
    batch_chars_ragged = tf.strings.unicode_decode(batch_utf8, input_encoding="UTF-8")
    for sentence_chars in batch_chars_ragged.to_list():
        print(sentence_chars)
    assert _printed(capsys) == [
        "[104, 195, 108, 108, 111]",
        "[87, 104, 97, 116, 32, 105, 115, 32, 116, 104, 101, 32, 119, 101, 97, 116, 104, 101, "
        "114, 32, 116, 111, 109, 111, 114, 114, 111, 119]",
        "[71, 246, 246, 100, 110, 105, 103, 104, 116]",
        "[128522]",
    ]
    batch_chars_padded = batch_chars_ragged.to_tensor(default_value=-1)
    padded = batch_chars_padded.numpy()
    assert padded.shape == (4, 28) and padded[0].tolist()[:6] == [104, 195, 108, 108, 111, -1]
    assert padded[3].tolist() == [128522] + [-1] * 27

    batch_chars_sparse = batch_chars_ragged.to_sparse()
    nrows, ncols = batch_chars_sparse.dense_shape.numpy()
    elements = [["_" for i in range(ncols)] for j in range(nrows)]
    for (row, col), value in zip(
        batch_chars_sparse.indices.numpy(), batch_chars_sparse.values.numpy()
    ):
        elements[row][col] = str(value)
    assert (nrows, ncols) == (4, 28) and elements[2][:9] == [
        "71",
        "246",
        "246",
        "100",
        "110",
        "105",
        "103",
        "104",
        "116",
    ]
    assert elements[3] == ["128522"] + ["_"] * 27

    encoded = tf.strings.unicode_encode(
        [[99, 97, 116], [100, 111, 103], [99, 111, 119]], output_encoding="UTF-8"
    )
    assert encoded.numpy().tolist() == [b"cat", b"dog", b"cow"]
    expected = [
        b"h\xc3\x83llo",
        b"What is the weather tomorrow",
        b"G\xc3\xb6\xc3\xb6dnight",
        b"\xf0\x9f\x98\x8a",
    ]
    assert (
        tf.strings.unicode_encode(batch_chars_ragged, output_encoding="UTF-8").numpy().tolist()
        == expected
    )
    from_sparse = tf.strings.unicode_encode(
        tf.RaggedTensor.from_sparse(batch_chars_sparse), output_encoding="UTF-8"
    )
    assert from_sparse.numpy().tolist() == expected
    from_padded = tf.strings.unicode_encode(
        tf.RaggedTensor.from_tensor(batch_chars_padded, padding=-1), output_encoding="UTF-8"
    )
    assert from_padded.numpy().tolist() == expected


def test_unicode_operations(capsys):
    # Note that the final character takes up 4 bytes in UTF8.
    thanks = "Thanks 😊".encode()
    num_bytes = tf.strings.length(thanks).numpy()
    num_chars = tf.strings.length(thanks, unit="UTF8_CHAR").numpy()
    print("{} bytes; {} UTF-8 characters".format(num_bytes, num_chars))
    # Here, unit='BYTE' (default). Returns a single byte with len=1
    assert tf.strings.substr(thanks, pos=7, len=1).numpy() == b"\xf0"
    # Specifying unit='UTF8_CHAR', returns a single 4 byte character in this case
    print(tf.strings.substr(thanks, pos=7, len=1, unit="UTF8_CHAR").numpy())
    chars = tf.strings.unicode_split(thanks, "UTF-8").numpy()
    assert chars.tolist() == [b"T", b"h", b"a", b"n", b"k", b"s", b" ", b"\xf0\x9f\x98\x8a"]
    codepoints, offsets = tf.strings.unicode_decode_with_offsets("🎈🎉🎊", "UTF-8")
    for codepoint, offset in zip(codepoints.numpy(), offsets.numpy()):
        print("At byte offset {}: codepoint {}".format(offset, codepoint))
    assert _printed(capsys) == [
        "11 bytes; 8 UTF-8 characters",
        r"b'\xf0\x9f\x98\x8a'",
        "At byte offset 0: codepoint 127880",
        "At byte offset 4: codepoint 127881",
        "At byte offset 8: codepoint 127882",
    ]
    assert isinstance(chars, np.ndarray)

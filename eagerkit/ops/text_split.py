"""Splitting text (``ek.strings.split``, ``bytes_split``, ``unicode_split``) and code points
(``unicode_decode`` / ``unicode_encode`` / ``unicode_transcode``), as ``tf.strings``.

A scalar string splits into a vector; a vector of strings into a RaggedTensor, one row per
string (the rows have different lengths). The work happens on the host, string by string,
with Python's codecs; TF's encoding names ("UTF-8", "UTF8", "UTF-16-BE", "UTF-32-BE") are
Python's too.

Examples
--------
>>> import eagerkit as ek
>>> ek.strings.split(["Gray wolf", "Quick brown fox"])
<ek.RaggedTensor [[b'Gray', b'wolf'], [b'Quick', b'brown', b'fox']]>
>>> ek.strings.unicode_decode("语言", "UTF-8")
<ek.Tensor: shape=(2,), dtype=int32, numpy=array([35821, 35328], dtype=int32)>
"""

import codecs

import numpy as np

from eagerkit import dtypes
from eagerkit.arguments import describe, whole_number
from eagerkit.errors import InvalidArgumentError
from eagerkit.tensor import Tensor, convert_to_tensor

_ERRORS = ("replace", "ignore", "strict")


def _strings(input, op):  # noqa: A002 - TF's argument name
    """``input`` as a string Tensor (text converted; numbers refused, naming ``op``)."""
    if input is None:
        raise InvalidArgumentError(
            f"strings.{op}: input is required: pass a string or a string tensor", op=op
        )
    tensor = input if isinstance(input, Tensor) else convert_to_tensor(input, dtype=dtypes.string)
    if not tensor.dtype.is_string:
        raise InvalidArgumentError(
            f"strings.{op}: input must be a string tensor, got {tensor.dtype.name} "
            f"{list(tensor.shape)}; convert numbers with ek.strings.as_string",
            op=op,
        )
    return tensor


def _rows(tensor, pieces, dtype):
    """One row of ``pieces(text)`` per string of ``tensor``: a vector for a scalar, a
    RaggedTensor otherwise (outer dimensions as ragged dimensions of their full size)."""
    from eagerkit.ragged.ragged_tensor import RaggedTensor

    texts = np.array(tensor.numpy(), dtype=object)  # a scalar's numpy() is bare bytes
    if texts.ndim == 0:
        return _vector(pieces(texts.item()), dtype)
    rows = [pieces(text) for text in texts.reshape(-1)]
    flat = _vector([item for row in rows for item in row], dtype)
    result = RaggedTensor.from_row_lengths(flat, [len(row) for row in rows])
    for size in reversed(texts.shape[1:]):  # [2, 3] strings: 2 rows of 3 rows of pieces
        result = RaggedTensor.from_uniform_row_length(result, size)
    return result


def _vector(items, dtype):
    if dtype.is_string:
        array = np.empty(len(items), dtype=object)
        array[:] = items
        return Tensor(array)
    return Tensor(np.array(items, dtype=dtype.as_numpy_dtype).reshape(-1))


def split(input=None, sep=None, maxsplit=-1, name=None):  # noqa: A002 - TF's argument name
    """Split each string at ``sep`` (whitespace runs when None): a vector for one string, a
    RaggedTensor for several. Consecutive separators give empty strings, as in TF.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.strings.split("1 10 100", " ")
    <ek.Tensor: shape=(3,), dtype=string, numpy=array([b'1', b'10', b'100'], dtype=object)>
    """
    tensor = _strings(input, "split")
    if isinstance(sep, Tensor) and sep.dtype.is_string and sep.ndim == 0:
        sep = sep.numpy()
    if sep is not None and not isinstance(sep, (str, bytes)):
        raise InvalidArgumentError(
            f"strings.split: sep must be a string (e.g. ' ' or ','), got {describe(sep)}",
            op="split",
        )
    sep = (sep.encode("utf-8") if isinstance(sep, str) else sep) or None  # TF: "" = whitespace
    maxsplit = whole_number(maxsplit, "maxsplit (-1 for no limit)", "strings.split")
    maxsplit = -1 if not 0 <= maxsplit < 2**31 else maxsplit  # more splits than bytes: no limit
    return _rows(tensor, lambda text: text.split(sep, maxsplit), dtypes.string)


def bytes_split(input, name=None):  # noqa: A002 - TF's argument name
    """Each string as its single bytes.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.strings.bytes_split("Duck")
    <ek.Tensor: shape=(4,), dtype=string, numpy=array([b'D', b'u', b'c', b'k'], dtype=object)>
    """
    tensor = _strings(input, "bytes_split")
    return _rows(tensor, lambda text: [text[i : i + 1] for i in range(len(text))], dtypes.string)


def _codec(encoding, op, what="input_encoding"):
    if isinstance(encoding, bytes):
        encoding = encoding.decode("ascii", "replace")
    try:
        if not isinstance(encoding, str):
            raise LookupError(encoding)
        return codecs.lookup(encoding).name
    except LookupError:
        raise InvalidArgumentError(
            f"strings.{op}: {what} is not an encoding: {describe(encoding)}; use 'UTF-8', "
            "'UTF-16-BE' or 'UTF-32-BE'",
            op=op,
        ) from None


def _error_mode(errors, replacement_char, op):
    """TF's ``errors`` (a mode name) and ``replacement_char`` (a code point) checked."""
    if not isinstance(errors, str) or errors not in _ERRORS:
        raise InvalidArgumentError(
            f"strings.{op}: errors must be one of {_ERRORS}, got {describe(errors)}", op=op
        )
    point = whole_number(replacement_char, "replacement_char", f"strings.{op}")
    if not 0 <= point <= 0x10FFFF or 0xD800 <= point <= 0xDFFF:
        raise InvalidArgumentError(
            f"strings.{op}: replacement_char must be a Unicode code point (0 to 0x10FFFF, "
            f"no surrogate), got {point}; the default 65533 is U+FFFD",
            op=op,
        )
    return chr(point)


def _decoder(input_encoding, errors, replacement_char, op):
    """``text (bytes) -> str``, with TF's error modes."""
    codec = _codec(input_encoding, op)
    replacement = _error_mode(errors, replacement_char, op)

    def decode(text):
        try:
            decoded = text.decode(codec, errors=errors)
        except UnicodeDecodeError as error:
            raise InvalidArgumentError(
                f"strings.{op}: {text!r} is not valid {input_encoding} ({error.reason}); "
                "use errors='replace' or 'ignore' to go on past bad bytes",
                op=op,
            ) from None
        return decoded.replace("\ufffd", replacement) if errors == "replace" else decoded

    return decode


def unicode_decode(
    input,  # noqa: A002 - TF's argument name
    input_encoding,
    errors="replace",
    replacement_char=65533,
    replace_control_characters=False,
    name=None,
):
    """Each string's code points (int32): a vector for one string, a RaggedTensor for several.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.strings.unicode_decode(["hé", "😊"], "UTF-8")
    <ek.RaggedTensor [[104, 233], [128522]]>
    """
    decode = _decoder(input_encoding, errors, replacement_char, "unicode_decode")
    tensor = _strings(input, "unicode_decode")
    return _rows(tensor, lambda text: [ord(c) for c in decode(text)], dtypes.int32)


def unicode_decode_with_offsets(
    input,  # noqa: A002 - TF's argument name
    input_encoding,
    errors="replace",
    replacement_char=65533,
    replace_control_characters=False,
    name=None,
):
    """``unicode_decode``, and each character's byte offset in its string (int64)."""
    decode = _decoder(input_encoding, errors, replacement_char, "unicode_decode_with_offsets")
    codec = _codec(input_encoding, "unicode_decode_with_offsets")
    tensor = _strings(input, "unicode_decode_with_offsets")

    def offsets(text):
        found, at = [], 0
        for char in decode(text):
            found.append(at)
            at += len(char.encode(codec, errors="surrogatepass"))
        return found

    codes = _rows(tensor, lambda text: [ord(c) for c in decode(text)], dtypes.int32)
    return codes, _rows(tensor, offsets, dtypes.int64)


def unicode_split(
    input,  # noqa: A002 - TF's argument name
    input_encoding,
    errors="replace",
    replacement_char=65533,
    name=None,
):
    """Each string as its characters, each encoded as the input was.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.strings.unicode_split("アヒ", "UTF-8").numpy().tolist()
    [b'\\xe3\\x82\\xa2', b'\\xe3\\x83\\x92']
    """
    decode = _decoder(input_encoding, errors, replacement_char, "unicode_split")
    codec = _codec(input_encoding, "unicode_split")
    tensor = _strings(input, "unicode_split")
    return _rows(tensor, lambda text: [c.encode(codec) for c in decode(text)], dtypes.string)


def unicode_encode(
    input,  # noqa: A002 - TF's argument name
    output_encoding,
    errors="replace",
    replacement_char=65533,
    name=None,
):
    """Code points (int32, the last dimension, ragged or not) encoded as strings.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.strings.unicode_encode([[99, 97, 116], [100, 111, 103]], "UTF-8")
    <ek.Tensor: shape=(2,), dtype=string, numpy=array([b'cat', b'dog'], dtype=object)>
    """
    from eagerkit.ragged.ragged_tensor import RaggedTensor

    codec = _codec(output_encoding, "unicode_encode", "output_encoding")
    replacement = _error_mode(errors, replacement_char, "unicode_encode")

    def encode(points):
        chars = []
        for point in np.asarray(points).tolist():
            if 0 <= point <= 0x10FFFF and not 0xD800 <= point <= 0xDFFF:
                chars.append(chr(point))
            elif errors == "replace":
                chars.append(replacement)
            elif errors == "strict":
                raise InvalidArgumentError(
                    f"strings.unicode_encode: {point} is not a Unicode code point",
                    op="unicode_encode",
                )
        return "".join(chars).encode(codec)

    if isinstance(input, RaggedTensor):
        if isinstance(input.values, RaggedTensor):  # encode the innermost rows
            return input.with_values(
                unicode_encode(input.values, output_encoding, errors, replacement_char)
            )
        rows = input.to_list()
        return _vector([encode(row) for row in rows], dtypes.string)
    points = input if isinstance(input, Tensor) else convert_to_tensor(input, dtype=dtypes.int32)
    if not points.dtype.is_integer or points.ndim == 0:
        raise InvalidArgumentError(
            "strings.unicode_encode: input must be integer code points of rank >= 1 (a "
            f"vector per string), got {points.dtype.name} of shape {points.shape}",
            op="unicode_encode",
        )
    array = points.numpy()
    encoded = [encode(row) for row in array.reshape(-1, array.shape[-1])]
    return Tensor(_vector(encoded, dtypes.string)._data.reshape(array.shape[:-1]))


def unicode_transcode(
    input,  # noqa: A002 - TF's argument name
    input_encoding,
    output_encoding,
    errors="replace",
    replacement_char=65533,
    replace_control_characters=False,
    name=None,
):
    """Each string re-encoded from ``input_encoding`` to ``output_encoding``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.strings.unicode_transcode("语", "UTF8", "UTF-16-BE")
    <ek.Tensor: shape=(), dtype=string, numpy=b'\\x8b\\xed'>
    """
    decode = _decoder(input_encoding, errors, replacement_char, "unicode_transcode")
    codec = _codec(output_encoding, "unicode_transcode", "output_encoding")
    tensor = _strings(input, "unicode_transcode")
    texts = np.array(tensor.numpy(), dtype=object)
    result = np.empty(texts.shape, dtype=object)
    for index, text in np.ndenumerate(texts):
        result[index] = decode(text).encode(codec)
    return Tensor(result)

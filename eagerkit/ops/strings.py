"""String ops (``ek.strings``): text in, text or numbers out, never a gradient.

A string tensor (dtype ``ek.string``) holds Python ``bytes`` of any length in a numpy
object array, on the CPU (TF keeps strings in host memory too). Shape ops (reshape,
concat, gather, indexing, batching in a Dataset) and ``==`` work on it as on any tensor;
arithmetic, reductions and math refuse it with the registry's dtype error. These ops are
the bridge: parse text into numbers (``to_number``) and numbers into text (``as_string``).
"""

import re

import numpy as np

from eagerkit import dtypes
from eagerkit.arguments import describe, whole_number
from eagerkit.dtypes import NUMERIC, string
from eagerkit.errors import InvalidArgumentError
from eagerkit.registry import defop
from eagerkit.tensor import Tensor


def _each(xp, function, x, otype=object):
    """``function`` applied to every element (``bytes``) of ``x``, keeping the shape."""
    return xp.vectorize(function, otypes=[otype])(x)


@defop("string_length", dtypes=(string,), differentiable=False)
def length(xp, input, unit="BYTE"):  # noqa: A002 - TF's argument name
    """The length of each string in bytes, or in characters with ``unit='UTF8_CHAR'``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.strings.length(["ab", "héllo"])
    <ek.Tensor: shape=(2,), dtype=int32, numpy=array([2, 6], dtype=int32)>
    """
    if unit not in ("BYTE", "UTF8_CHAR"):
        raise InvalidArgumentError(
            f"strings.length: unit must be 'BYTE' or 'UTF8_CHAR', got {unit!r}",
            op="string_length",
        )
    count = len if unit == "BYTE" else (lambda b: len(b.decode("utf-8")))
    return _each(xp, count, input, np.int32)


@defop("string_lower", dtypes=(string,), differentiable=False)
def lower(xp, input, encoding=""):  # noqa: A002 - TF's argument name
    """Each string in lower case.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.strings.lower("Hello")
    <ek.Tensor: shape=(), dtype=string, numpy=b'hello'>
    """
    return _each(xp, lambda b: b.decode("utf-8").lower().encode("utf-8"), input)


@defop("string_upper", dtypes=(string,), differentiable=False)
def upper(xp, input, encoding=""):  # noqa: A002 - TF's argument name
    """Each string in upper case."""
    return _each(xp, lambda b: b.decode("utf-8").upper().encode("utf-8"), input)


@defop("string_strip", dtypes=(string,), differentiable=False)
def strip(xp, input):  # noqa: A002 - TF's argument name
    """Each string without leading and trailing whitespace.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.strings.strip("  hi \\n")
    <ek.Tensor: shape=(), dtype=string, numpy=b'hi'>
    """
    return _each(xp, bytes.strip, input)


@defop("regex_replace", dtypes=(string,), differentiable=False)
def _regex_replace(xp, x, *, pattern, rewrite, count):
    compiled = re.compile(pattern)
    return _each(xp, lambda b: compiled.sub(rewrite, b, count=count), x)


def regex_replace(input, pattern, rewrite, replace_global=True, name=None):  # noqa: A002
    """Replace matches of the regular expression ``pattern`` with ``rewrite`` (``\\1`` groups).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.strings.regex_replace("a1b22", "[0-9]+", "#")
    <ek.Tensor: shape=(), dtype=string, numpy=b'a#b#'>
    """
    pattern, rewrite = (
        _as_bytes(pattern, "pattern", "regex_replace"),
        _as_bytes(rewrite, "rewrite", "regex_replace"),
    )
    try:
        re.compile(pattern)
    except re.error as error:
        raise InvalidArgumentError(
            f"strings.regex_replace: {pattern!r} is not a regular expression ({error})",
            op="regex_replace",
        ) from None
    return _regex_replace(input, pattern=pattern, rewrite=rewrite, count=0 if replace_global else 1)


def _as_bytes(text, what, op):
    """A text argument (str, bytes or a scalar string tensor) as bytes; anything else is
    refused (``bytes(2**31)`` would make two billion zero bytes)."""
    if isinstance(text, Tensor) and text.dtype.is_string and text.ndim == 0:
        text = text.numpy()
    if isinstance(text, str):
        return text.encode("utf-8")
    if isinstance(text, bytes):
        return text
    raise InvalidArgumentError(
        f"strings.{op}: {what} must be a string (e.g. ','), got {describe(text)}", op=op
    )


@defop("string_join", dtypes=(string,), differentiable=False)
def _join(xp, *inputs, separator):
    return xp.vectorize(lambda *items: separator.join(items), otypes=[object])(*inputs)


def join(inputs, separator="", name=None):
    """Join strings elementwise across the tensors in ``inputs`` (broadcasting).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.strings.join([["a", "b"], "!"], separator="-")
    <ek.Tensor: shape=(2,), dtype=string, numpy=array([b'a-!', b'b-!'], dtype=object)>
    """
    if not isinstance(inputs, (list, tuple)) or not inputs:
        raise InvalidArgumentError(
            "strings.join: inputs must be a non-empty list of string tensors", op="string_join"
        )
    return _join(*inputs, separator=_as_bytes(separator, "separator", "join"))


@defop("string_to_number", dtypes=(string,), differentiable=False)
def _to_number(xp, x, *, out_type):
    np_dtype = dtypes.as_dtype(out_type).as_numpy_dtype
    parse = float if np_dtype.kind == "f" else int

    def number(text):
        try:
            return parse(text)
        except ValueError:
            raise InvalidArgumentError(
                f"strings.to_number: could not convert the string {text!r} to "
                f"{dtypes.as_dtype(out_type).name}; clean the text first (e.g. "
                "ek.strings.strip) or read it as a float",
                op="string_to_number",
            ) from None

    return _each(xp, number, x).astype(np_dtype)


def to_number(string_tensor, out_type=dtypes.float32, name=None):
    """Parse each string as a number of ``out_type`` (float32 unless told otherwise).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.strings.to_number(["1.5", " -2"])
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([ 1.5, -2. ], dtype=float32)>
    """
    out_type = dtypes.as_dtype(out_type)
    if out_type not in NUMERIC:
        raise InvalidArgumentError(
            f"strings.to_number: out_type must be a number type, got {out_type.name}",
            op="string_to_number",
        )
    return _to_number(string_tensor, out_type=out_type.name)


@defop("as_string", dtypes=NUMERIC + (dtypes.bool,), differentiable=False)
def as_string(xp, input, precision=-1):  # noqa: A002 - TF's argument name
    """Each number as text; floats with ``precision`` digits after the point (TF's default: 6).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.strings.as_string([1.5, 2.0], precision=2)
    <ek.Tensor: shape=(2,), dtype=string, numpy=array([b'1.50', b'2.00'], dtype=object)>
    """
    precision = whole_number(precision, "precision", "as_string")  # an array would meet >=
    if input.dtype.kind == "f":
        digits = precision if precision >= 0 else 6
        if digits > 100:  # Python's format stops at about 100 digits after the point
            raise InvalidArgumentError(
                f"as_string: precision={precision} asks for more digits than a float has; use "
                "at most 17 for a float64 (9 for a float32), or -1 for TF's 6",
                op="as_string",
            )
        return _each(xp, lambda v: f"{v:.{digits}f}".encode("ascii"), input)
    if input.dtype.kind == "b":
        return _each(xp, lambda v: b"true" if v else b"false", input)
    return _each(xp, lambda v: str(v).encode("ascii"), input)


@defop("substr", dtypes=(string,), differentiable=False)
def _substr(xp, input, *, pos, length, unit):  # noqa: A002 - TF's argument name
    def part(text):
        units = text if unit == "BYTE" else text.decode("utf-8")
        size = len(units)
        if not -size <= pos <= size:
            raise InvalidArgumentError(
                f"strings.substr: pos {pos} is out of range for {text!r} (length {size} in "
                f"{unit} units); give a pos from {-size} to {size}",
                op="substr",
            )
        start = pos % size if size and pos < 0 else pos
        # TF: a negative len, or one past the end, takes as much as there is
        piece = units[start : start + length] if length >= 0 else units[start:]
        return piece if unit == "BYTE" else piece.encode("utf-8")

    return _each(xp, part, input)


def substr(input, pos, len, unit="BYTE", name=None):  # noqa: A002 - TF's argument names
    """Each string's ``len`` units from position ``pos`` (bytes, or characters with
    ``unit='UTF8_CHAR'``); a negative ``pos`` counts from the end.

    Examples
    --------
    >>> import eagerkit as ek
    >>> thanks = "Thanks 😊".encode("UTF-8")
    >>> ek.strings.substr(thanks, pos=7, len=1).numpy(), ek.strings.substr(
    ...     thanks, pos=7, len=1, unit="UTF8_CHAR").numpy()
    (b'\\xf0', b'\\xf0\\x9f\\x98\\x8a')
    """
    if unit not in ("BYTE", "UTF8_CHAR"):
        raise InvalidArgumentError(
            f"strings.substr: unit must be 'BYTE' or 'UTF8_CHAR', got {unit!r}", op="substr"
        )
    pos, length = (_whole(value, what) for value, what in ((pos, "pos"), (len, "len")))
    return _substr(input, pos=pos, length=length, unit=unit)


def _whole(value, what):
    return whole_number(value, what, "strings.substr")

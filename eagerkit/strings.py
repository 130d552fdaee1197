"""``ek.strings``: string tensors, as ``tf.strings``; and how text becomes a tensor.

``ek.constant("hi")`` is a scalar of dtype ``ek.string`` whose value is ``b'hi'``: like TF,
eagerkit stores strings as bytes (str is encoded as UTF-8), in host memory. The ops are in
``ops/strings.py``; this module gathers them and converts Python text to string arrays.

Examples
--------
>>> import eagerkit as ek
>>> ek.constant(["a", "bc"])
<ek.Tensor: shape=(2,), dtype=string, numpy=array([b'a', b'bc'], dtype=object)>
>>> ek.strings.to_number(ek.strings.strip(" 42 "), out_type=ek.int32)
<ek.Tensor: shape=(), dtype=int32, numpy=42>
"""

import numpy as np

from eagerkit.errors import InvalidArgumentError
from eagerkit.ops.strings import (
    as_string,
    join,
    length,
    lower,
    regex_replace,
    strip,
    to_number,
    upper,
)


def to_bytes_array(host, value, np_dtype, device, op_name):
    """``host`` (a numpy array of text) as an object array of bytes, the value of a string tensor.

    Refuses numbers where strings are wanted and text where numbers are, naming the
    conversion op to use instead; refuses devices other than the CPU.
    """
    from eagerkit.devices import CPU

    is_text = host.dtype.kind in "SU" or (
        host.dtype.kind == "O" and all(isinstance(x, (str, bytes)) for x in host.flat)
    )
    if np_dtype.kind != "O":  # numbers wanted
        if not is_text:
            raise TypeError(
                f"{op_name}: cannot convert {type(value).__name__} {value!r} to a tensor; "
                "tensors hold numbers, bools or strings"
            )
        raise InvalidArgumentError(
            f"{op_name}: cannot convert the string value {value!r} to {np_dtype}; parse text "
            "into numbers with ek.strings.to_number",
            op=op_name,
        )
    if not is_text:
        raise InvalidArgumentError(
            f"{op_name}: cannot make a string tensor from {type(value).__name__} {value!r}; "
            "format numbers as text with ek.strings.as_string",
            op=op_name,
        )
    if device is not CPU:
        raise InvalidArgumentError(
            f"{op_name}: string tensors live on the CPU (as in TF), not on {device.name}; "
            "make them outside the device scope, or keep them on /cpu:0",
            op=op_name,
        )
    if isinstance(value, (str, bytes)):  # one string (numpy's 'S' arrays drop trailing NULs)
        return np.array(value.encode("utf-8") if isinstance(value, str) else value, dtype=object)
    if isinstance(value, (list, tuple)):  # keep the Python objects (numpy's 'U' drops NULs)
        kept = np.array(value, dtype=object)
        host = kept if kept.shape == host.shape else host
    result = np.empty(host.shape, dtype=object)
    for index, item in enumerate(host.flat):
        result.flat[index] = item.encode("utf-8") if isinstance(item, str) else bytes(item)
    return result


__all__ = [
    "as_string",
    "join",
    "length",
    "lower",
    "regex_replace",
    "strip",
    "to_number",
    "upper",
]

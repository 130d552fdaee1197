"""``ek.strings``: string tensors, as ``tf.strings``; and how text becomes a tensor.

``ek.constant("hi")`` is a scalar of dtype ``ek.string`` whose value is ``b'hi'``: like TF,
eagerkit stores strings as bytes (str is encoded as UTF-8), in host memory. The ops are in
``ops/strings.py`` (``reduce_join`` in ``ops/string_reduce.py``); this module gathers them
and converts Python text to string arrays.

Examples
--------
>>> import eagerkit as ek
>>> ek.constant(["a", "bc"])
<ek.Tensor: shape=(2,), dtype=string, numpy=array([b'a', b'bc'], dtype=object)>
>>> ek.strings.to_number(ek.strings.strip(" 42 "), out_type=ek.int32)
<ek.Tensor: shape=(), dtype=int32, numpy=42>
>>> ek.constant("Gray") + " wolf"  # + joins strings, as in TF
<ek.Tensor: shape=(), dtype=string, numpy=b'Gray wolf'>
"""

import numpy as np

from eagerkit.errors import InvalidArgumentError
from eagerkit.ops.string_reduce import reduce_join
from eagerkit.ops.strings import (
    as_string,
    join,
    length,
    lower,
    regex_replace,
    strip,
    substr,
    to_number,
    upper,
)
from eagerkit.ops.text_split import (
    bytes_split,
    split,
    unicode_decode,
    unicode_decode_with_offsets,
    unicode_encode,
    unicode_split,
    unicode_transcode,
)


def to_bytes_array(host, value, np_dtype, device, op_name):
    """``value`` (text; ``host`` is numpy's view of it) as an object array of bytes.

    That array is a string tensor's value. Refuses numbers where strings are wanted and text
    where numbers are, naming the conversion op to use instead; refuses devices but the CPU.
    """
    from eagerkit.devices import CPU

    # The Python objects themselves: numpy's fixed-width 'S'/'U' arrays drop trailing NULs and
    # would quietly turn the 1 in [1, "a"] into text.
    if isinstance(value, (str, bytes)):
        items = np.array(value, dtype=object)
    elif isinstance(value, (list, tuple)) and np.array(value, dtype=object).shape == host.shape:
        items = np.array(value, dtype=object)
    else:
        items = host
    is_text = items.dtype.kind in "SU" or all(isinstance(x, (str, bytes)) for x in items.flat)
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
            "every element must be text (format numbers with ek.strings.as_string)",
            op=op_name,
        )
    if device is not CPU:
        raise InvalidArgumentError(
            f"{op_name}: string tensors live on the CPU (as in TF), not on {device.name}; "
            "make them outside the device scope, or keep them on /cpu:0",
            op=op_name,
        )
    result = np.empty(items.shape, dtype=object)
    for index, item in enumerate(items.flat):
        result.flat[index] = item.encode("utf-8") if isinstance(item, str) else bytes(item)
    return result


__all__ = [
    "as_string",
    "bytes_split",
    "join",
    "length",
    "lower",
    "reduce_join",
    "regex_replace",
    "split",
    "strip",
    "substr",
    "to_number",
    "unicode_decode",
    "unicode_decode_with_offsets",
    "unicode_encode",
    "unicode_split",
    "unicode_transcode",
    "upper",
]

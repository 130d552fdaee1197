"""CSV fields to values: the column types and defaults that ``make_csv_dataset`` and
``ek.io.decode_csv`` share.

A column is described by ``(dtype, default)``; ``default`` is None for a required column
(an empty field there is an error). Defaults are given as TF gives them: ``[0.0]`` (a
float32 column defaulting to 0.0), ``["?"]``, ``[]`` (a required float32 column), or a
dtype alone (``ek.int32``: required, of that type).
"""

from eagerkit import dtypes
from eagerkit.errors import InvalidArgumentError


def infer_kind(values, na_value):
    """The narrowest dtype that parses every non-missing value (TF's order of tries)."""
    present = [v for v in values if v not in ("", na_value)]
    for dtype, parse in ((dtypes.int32, int), (dtypes.float32, float)):
        try:
            numbers = [parse(v) for v in present]
        except ValueError:
            continue
        if dtype is dtypes.int32 and numbers and max(map(abs, numbers)) >= 2**31:
            return dtypes.int64
        return dtype
    return dtypes.string


def kinds_from_defaults(defaults):
    """One ``(dtype, default or None)`` per entry of TF-style ``record_defaults``."""
    from eagerkit.ops.creation import constant

    kinds = []
    for default in defaults:
        if isinstance(default, (dtypes.DType, type)):  # a dtype alone: a required column
            kinds.append((dtypes.as_dtype(default), None))
        elif isinstance(default, (list, tuple)) and not default:  # TF's empty float32 tensor
            kinds.append((dtypes.float32, None))
        else:
            value = default[0] if isinstance(default, (list, tuple)) else default
            kinds.append((constant(value).dtype, value))
    return kinds


def parse_field(text, kind, where, na_value, op):
    """One field's value: the default when empty or ``na_value``, else parsed as the dtype."""
    dtype, default = kind
    if text in ("", na_value):
        if default is None:
            raise InvalidArgumentError(f"{op}: {where} is empty but the column is required", op=op)
        return default
    if dtype.is_string:
        return text
    try:
        return (float if dtype.is_floating else int)(text)
    except ValueError:
        raise InvalidArgumentError(
            f"{op}: {where}: {text!r} is not a {dtype.name}; give that column a string "
            "default, or fix the data",
            op=op,
        ) from None

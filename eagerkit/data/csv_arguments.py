"""``make_csv_dataset``'s argument checks: each names the argument, what it got and the fix.

They run before any file is read, so a bad call reads nothing and makes nothing.

Examples
--------
>>> from eagerkit.data.csv_arguments import names
>>> names(["x", "label"], "column_names")
['x', 'label']
>>> names("x", "column_names")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
eagerkit.errors.InvalidArgumentError: make_csv_dataset: column_names must be a list of ...
"""

import os

from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError

_OP = "make_csv_dataset"


def patterns(file_pattern):
    """``file_pattern`` as a list of str: a path or glob pattern, or a list of them."""
    given = file_pattern if isinstance(file_pattern, (list, tuple)) else [file_pattern]
    if not given or not all(isinstance(p, (str, os.PathLike)) for p in given):
        raise InvalidArgumentError(
            f"{_OP}: file_pattern must be a path or glob pattern (a str), or a list of them, "
            f"got {describe(file_pattern)}; pass e.g. 'data/*.csv'",
            op=_OP,
        )
    return [os.fspath(p) for p in given]


def names(value, what):
    """``column_names`` or ``select_columns``: a list of column names (str)."""
    if not isinstance(value, (list, tuple)) or not all(isinstance(n, str) for n in value):
        raise InvalidArgumentError(
            f"{_OP}: {what} must be a list of column names (str), got {describe(value)}; "
            f"pass e.g. {what}=['age', 'chd']",
            op=_OP,
        )
    return list(value)


def among(wanted, what, column_names):
    """Check that column ``wanted`` (given as ``what``) is one of ``column_names``."""
    if not isinstance(wanted, str) or wanted not in column_names:
        raise InvalidArgumentError(
            f"{_OP}: {what} {describe(wanted)} is not among the columns {column_names}; "
            "pass one of those names",
            op=_OP,
        )


def defaults(column_defaults, column_names):
    """``column_defaults``: a list with one default value (or dtype) per column."""
    if not isinstance(column_defaults, (list, tuple)) or len(column_defaults) != len(column_names):
        count = (
            f"{len(column_defaults)} entries"
            if isinstance(column_defaults, (list, tuple))
            else describe(column_defaults)
        )
        raise InvalidArgumentError(
            f"{_OP}: column_defaults must be a list with one default (or dtype) per column, "
            f"got {count} for {len(column_names)} columns {column_names}; pass e.g. "
            f"{[0.0] * len(column_names)}",
            op=_OP,
        )
    return column_defaults

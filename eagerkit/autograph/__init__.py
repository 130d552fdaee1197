"""``ek.autograph``: Python's ``if``, ``while`` and ``for`` over tensors, as graph control flow.

Inside ``ek.function``, eagerkit runs your Python code once to trace it. A Python ``if`` on a
tensor would then take the first call's branch for good. AutoGraph, as in TF, rewrites the
function's syntax tree before it is traced, so that each ``if``, ``while`` and ``for`` asks,
when it runs, what its condition is: a tensor inside a trace makes graph control flow
(``ek.cond``, ``ek.while_loop``), anything else stays the Python statement it was.
``to_code(f)`` shows the rewritten function. Each rewriting is one small file:

=================  ========================================================================
returns.py         an ``if`` that returns, returns in both branches
continues.py       ``continue`` becomes a flag guarding the rest of the body
breaks.py          ``break`` becomes a flag that the loop's test reads
logical.py         ``and``/``or``/``not`` work on tensors
conditionals.py    ``if`` becomes ``ag__.if_stmt`` over the names it changes
loops.py           ``while``/``for`` become ``ag__.while_stmt``/``ag__.for_stmt``
=================  ========================================================================

operators.py is what the rewritten code calls; conversion.py puts it all together.
Functions that a converted function calls are not converted: decorate them with
``ek.function`` too (the inner function's graph becomes part of the outer one).
"""

import functools
import os
import sys
import warnings

from eagerkit import boundary
from eagerkit.autograph.conversion import ConversionError, NoSourceError, converted

__all__ = ["to_code", "do_not_convert"]


def to_code(entity, recursive=True, experimental_optional_features=None):
    """The source code of ``entity`` (a function, or an ``ek.function``) as AutoGraph
    rewrites it.

    Examples
    --------
    >>> import eagerkit as ek
    >>> def relu(x):
    ...     if x > 0:
    ...         return x
    ...     return 0
    >>> print(ek.autograph.to_code(relu))
    def relu(x):
    <BLANKLINE>
        def if_true():
            return x
    <BLANKLINE>
        def if_false():
            return 0
        return ag__.if_stmt(x > 0, if_true, if_false)
    """
    function = getattr(entity, "python_function", entity)
    try:
        return converted(function)[1]
    except ConversionError as error:
        raise ValueError(f"to_code: cannot convert {entity!r}: {error}") from None


def do_not_convert(func=None):
    """Decorator: run ``func`` as written inside ``ek.function`` (no AutoGraph).

    Examples
    --------
    >>> import eagerkit as ek
    >>> @ek.autograph.experimental.do_not_convert
    ... def frozen(x):
    ...     return x
    >>> frozen.__ag_do_not_convert__
    True
    """
    if func is None:
        return do_not_convert
    func.__ag_do_not_convert__ = True
    return func


class experimental:  # noqa: N801 - TF's namespace tf.autograph.experimental
    """``ek.autograph.experimental.do_not_convert``, as in TF."""

    do_not_convert = staticmethod(do_not_convert)


_ENGINE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def convert_or_keep(function):
    """The converted twin of ``function``, or ``function`` itself when it cannot or should
    not be converted (no source, a lambda, eagerkit's own code, ``do_not_convert``)."""
    if getattr(function, "__ag_do_not_convert__", False) or isinstance(function, functools.partial):
        return function
    code = getattr(function, "__code__", None)
    if code is not None and os.path.abspath(code.co_filename).startswith(_ENGINE):
        return function  # eagerkit's own code (a Keras layer's call): written for graphs
    try:
        return converted(function)[0]
    except NoSourceError as error:  # as TF: say so, since its tensor ifs will not convert
        warnings.warn(
            f"AutoGraph could not transform {function.__qualname__} and will run it as-is "
            f"({error}): a Python if/while/for over tensors in it keeps the branch its first "
            "trace took. Define it in a file or a notebook cell, or decorate it with "
            "@ek.autograph.experimental.do_not_convert to silence this warning.",
            stacklevel=boundary.user_stacklevel(),
        )
        return function
    except ConversionError:
        return function
    except SyntaxError as error:  # source that parses alone but not once rewritten
        warnings.warn(
            f"AutoGraph could not transform {function.__qualname__} and will run it as-is: {error}",
            stacklevel=boundary.user_stacklevel(),
        )
        return function

"""How an op's error inside ``ek.function`` reads: as eager code words it (the op's own
message, ``matmul: ...``), with where it happened appended: the function, the line of the
user's code that made the call, and what the function was called with.

Examples
--------
>>> import eagerkit as ek
>>> @ek.function
... def product(x, y):
...     return ek.matmul(x, y)
>>> try:
...     product(ek.ones([2, 3]), ek.ones([2, 3]))
... except ek.errors.InvalidArgumentError as error:
...     print(str(error).split(" (inside ")[1])  # doctest: +ELLIPSIS
ek.function 'product', line ...: return ek.matmul(x, y); called with float32[2, 3], float32[2, 3])
"""

from eagerkit.graph.deferred import is_user_file, line_of


def located(error, name, args, kwargs):
    """``error``, raised by an op inside ek.function ``name``, as eager code words it (the
    op's own message, ``matmul: ...``) with where it happened: the function, the line of
    the user's code that made the call, and what the function was called with."""
    if error.op == "Function" or getattr(error, "located", False):
        return error  # the function's own message (a call that does not fit), or an inner one's
    from eagerkit.boundary import _describe

    where = getattr(error, "where", None) or _innermost_user_line(error.__traceback__)
    line = "" if where is None else f", line {where[0]}" + (f": {where[1]}" if where[1] else "")
    called = _describe(args, kwargs) or "no arguments"
    error.message = f"{error.message} (inside ek.function {name!r}{line}; called with {called})"
    error.args, error.op, error.located = (error.message,), "Function", True
    return error


def _innermost_user_line(traceback):
    """The user's innermost line in ``traceback`` (the error went through it), or None."""
    found = None
    while traceback is not None:
        filename = traceback.tb_frame.f_code.co_filename
        if is_user_file(filename):
            found = line_of(filename, traceback.tb_lineno)
        traceback = traceback.tb_next
    return found

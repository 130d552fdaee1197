"""``ek.debugging.assert_shapes``: shapes checked against named dimensions, as in TF.

A specification is a tuple per tensor, e.g. ``[(x, ("N", "Q")), (y, ("N", "D"))]``:

- an int (or a string that parses as one, ``"3"``) is an exact size;
- any other name (``"N"``) is a size shared by every tensor that uses it: the first tensor
  to use a name fixes its size, the others must match;
- ``None`` or ``"."`` is any size;
- ``"*"`` or ``...`` as the first entry stands for any number of leading dimensions, so the
  rest constrains the innermost ones only (``("*", "C")`` is "the last axis is C").

A scalar and a shape of length zero both count as one dimension of size 1 (TF's rule), so a
scalar passes ``("N",)`` with N = 1. In eager mode every shape is known, so the check is
done at once and ``data``/``summarize`` (which TF prints from a graph-mode assert) are
accepted and not needed.
"""

from eagerkit.errors import InvalidArgumentError
from eagerkit.tensor import convert_to_tensor


def _is_any_leading(symbol):
    return symbol is Ellipsis or (isinstance(symbol, str) and symbol == "*")


def _meaning(symbol, x, prefix):
    """``('any', None)``, ``('exact', size)`` or ``('name', symbol)`` for one entry."""
    if symbol is None or (isinstance(symbol, str) and symbol == "."):
        return "any", None
    if not isinstance(symbol, bool):
        try:
            return "exact", int(symbol)
        except (TypeError, ValueError):
            pass
    try:
        hash(symbol)
    except TypeError:
        raise InvalidArgumentError(
            f"{prefix}Tensor {_name(x)}: a dimension must be an int, a name, None, '.' or "
            f"'*', got {symbol!r}",
            op="assert_shapes",
        ) from None
    return "name", symbol


def _name(x):
    return f"shape={x.shape} dtype={x.dtype.name}"


def _parse(x, spec, prefix):
    """``(symbols, innermost)`` for one tensor's specification."""
    if not hasattr(spec, "__iter__") and not hasattr(spec, "__getitem__"):
        raise InvalidArgumentError(
            f"{prefix}Tensor {_name(x)}.  Specified shape must be an iterable.  An iterable "
            f"has the attribute `__iter__` or `__getitem__`.  Received specified shape: {spec}",
            op="assert_shapes",
        )
    try:
        symbols = tuple(spec)  # a string "NQ" is the names "N" and "Q", as in TF
    except TypeError as error:  # a 0-d tensor or array has __iter__ and cannot iterate
        raise InvalidArgumentError(
            f"{prefix}Tensor {_name(x)}.  Specified shape must be an iterable, got {spec!r} "
            f"({error})",
            op="assert_shapes",
        ) from None
    for i, symbol in enumerate(symbols):
        if _is_any_leading(symbol) and i != 0:
            raise InvalidArgumentError(
                f"{prefix}Tensor {_name(x)} specified shape index {i}.  Symbol `...` or `*` "
                "for a variable number of unspecified dimensions is only allowed as the "
                "first entry",
                op="assert_shapes",
            )
    innermost = bool(symbols) and _is_any_leading(symbols[0])
    return (symbols[1:] if innermost else symbols), innermost


def _check_rank(x, sizes, symbols, innermost, prefix):
    rank = len(symbols)
    if innermost:
        wrong, wanted = len(sizes) < rank, f"rank at least {rank}"
    elif rank <= 1:  # rank 0 and rank 1 are one thing here (a scalar is [1])
        wrong, wanted = x.ndim > 1, "rank in (0, 1)"
    else:
        wrong, wanted = x.ndim != rank, f"rank {rank}"
    if wrong:
        raise InvalidArgumentError(
            f"{prefix}Tensor {_name(x)} must have {wanted}.  Received rank {x.ndim}, shape "
            f"{x.shape}",
            op="assert_shapes",
        )


def assert_shapes(shapes, data=None, summarize=None, message=None, name=None):
    """Raise ``InvalidArgumentError`` unless the tensors' shapes fit the named dimensions.

    ``shapes`` is a list of ``(tensor, shape)`` pairs (or a dict). The error names the
    tensor (by shape and dtype), its dimension, the size it must have and who fixed it.

    Examples
    --------
    >>> import eagerkit as ek
    >>> x, y = ek.zeros([10, 3]), ek.ones([10, 7])
    >>> ek.debugging.assert_shapes([(x, ("N", "Q")), (y, ("N", "D")), (1.0, ())])
    >>> ek.debugging.assert_shapes([(x, ("N", "D")), (y, ("N", "D"))])
    Traceback (most recent call last):
    ...
    eagerkit.errors.InvalidArgumentError: Specified by tensor shape=(10, 3) dtype=float32 \
dimension 1.  Tensor shape=(10, 7) dtype=float32 dimension 1 must have size 3.  Received \
size 7, shape (10, 7) ('D' names one size that every tensor using it must have)
    """
    prefix = f"{message}.  " if message else ""
    pairs = shapes.items() if isinstance(shapes, dict) else shapes
    checked = []
    for pair in pairs:
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise InvalidArgumentError(
                f"assert_shapes: shapes must be (tensor, shape) pairs, got {pair!r}",
                op="assert_shapes",
            )
        tensor, spec = pair
        if spec is None:  # no constraint at all
            continue
        x = convert_to_tensor(tensor)
        symbols, innermost = _parse(x, spec, prefix)
        if not symbols and innermost:  # ("*",): any shape
            continue
        sizes = tuple(x.shape) or (1,)
        symbols = symbols or (1,)
        _check_rank(x, sizes, symbols, innermost, prefix)
        meanings = [_meaning(symbol, x, prefix) for symbol in symbols]
        checked.append((x, sizes, meanings, innermost))
    fixed = {}  # name -> (size, tensor, dimension) of the first tensor that used it
    for x, sizes, meanings, innermost in checked:
        for i, (kind, value) in enumerate(meanings):
            dim = i - len(meanings) if innermost else i
            if kind == "any":
                continue
            if kind == "name" and value not in fixed:
                fixed[value] = (sizes[dim], x, dim)
                continue
            if kind == "exact":
                wanted, source, why = value, "Specified explicitly", ""
            else:
                wanted, by, at = fixed[value]
                source = f"Specified by tensor {_name(by)} dimension {at}"
                why = f" ({value!r} names one size that every tensor using it must have)"
            if sizes[dim] != wanted:
                raise InvalidArgumentError(
                    f"{prefix}{source}.  Tensor {_name(x)} dimension {dim} must have size "
                    f"{wanted}.  Received size {sizes[dim]}, shape {x.shape}{why}",
                    op="assert_shapes",
                )

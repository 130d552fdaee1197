"""TF's dispatch for values the ops do not take themselves: ragged and sparse tensors, and
``+`` on strings.

``ek.add(rt, 3)`` with a RaggedTensor ``rt`` first fails, as any op given something that is
not an array (a ragged value has no rectangular array). Before the error reaches the user,
the boundary asks its fallbacks (boundary.symbolic_fallback) whether the call means
something else; this module is one of them. When an argument is a RaggedTensor or a
SparseTensor and a handler is registered for the call's name and that kind, the handler's
answer is the call's answer: TF's ``dispatch_for_api``. Nothing here runs on the fast path:
only calls that failed come this way.

Examples
--------
>>> import eagerkit as ek
>>> ek.add(ek.ragged.constant([[1, 2], [3]]), 10)
<ek.RaggedTensor [[11, 12], [13]]>
>>> ek.constant("to") + "day"
<ek.Tensor: shape=(), dtype=string, numpy=b'today'>
"""

from eagerkit import boundary

_HANDLERS = {}  # (call's name, kind) -> handler(*args, **kwargs)


def register(names, kind):
    """Decorate ``handler`` to answer the calls ``names`` (op or function names) given a
    value of ``kind`` ("ragged", "sparse" or "string")."""
    names = (names,) if isinstance(names, str) else names

    def decorate(handler):
        for name in names:
            _HANDLERS[(name, kind)] = handler
        return handler

    return decorate


def kind_of(value):
    """ "ragged" or "sparse" for those tensors (their class says, ``_dispatch_kind``), else None."""
    return getattr(type(value), "_dispatch_kind", None)


def _kinds(args, kwargs):
    """The kinds among the arguments, a list's items included (``ek.concat([rt, x])``)."""
    found = set()
    for value in (*args, *kwargs.values()):
        items = value if isinstance(value, (list, tuple)) else (value,)
        for item in items:
            kind = kind_of(item)
            if kind is not None:
                found.add(kind)
    return found


def _all_text(args):
    from eagerkit.tensor import Tensor

    def text(value):
        if isinstance(value, Tensor):
            return value.dtype.is_string
        return isinstance(value, (str, bytes))

    return len(args) == 2 and any(isinstance(a, Tensor) for a in args) and all(map(text, args))


def fallback(function, label, args, kwargs):
    """A failed call's answer when a handler takes it, else ``boundary.NOT_SYMBOLIC``."""
    name = label.rsplit(".", 1)[-1]
    kinds = _kinds(args, kwargs)
    if kinds and boundary.inside_a_public_call():
        return boundary.NOT_SYMBOLIC  # the user's call (concat, not the op inside) answers
    for kind in ("ragged", "sparse"):  # a ragged argument decides over a sparse one
        handler = _HANDLERS.get((name, kind)) if kind in kinds else None
        if handler is not None:
            return handler(*args, **kwargs)
    if name == "add" and not kinds and not kwargs and _all_text(args):
        from eagerkit.ops.strings import join

        return join(list(args))  # TF's + on strings: concatenation
    return boundary.NOT_SYMBOLIC


boundary.install_symbolic_fallback(fallback)

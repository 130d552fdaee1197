"""What the converters need to know about a piece of code, read from its syntax tree.

- ``assigned_names(statements)``: the names a block binds (its *state*: what an ``if`` or a
  loop changes and must hand on), in order of first binding;
- ``contains(statements, kinds)``: whether a block holds a ``return``, ``break`` ...,
  not counting nested functions, which have their own;
- ``always_returns(statements)``: whether every path through a block ends in ``return``.
"""

import ast

_NESTED_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def assigned_names(statements):
    """The names ``statements`` bind (assignments, loop targets, ``with ... as``), in order.

    Examples
    --------
    >>> import ast
    >>> assigned_names(ast.parse("x = 1\\nfor i in y:\\n    s += i\\ndef f(): z = 2").body)
    ['x', 'i', 's']
    """
    found = {}
    for statement in statements:
        for node in _walk(statement):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                found.setdefault(node.id, None)
    return list(found)


def contains(statements, kinds, stop_at_loops=False):
    """Whether any statement in ``statements`` is one of ``kinds`` (outside nested functions;
    with ``stop_at_loops``, outside nested loops too: a ``break`` there is theirs)."""
    for statement in statements:
        for node in _walk(statement, stop_at_loops):
            if isinstance(node, kinds):
                return True
    return False


def always_returns(statements):
    """Whether every path through ``statements`` ends in ``return`` (or ``raise``)."""
    if not statements:
        return False
    last = statements[-1]
    if isinstance(last, (ast.Return, ast.Raise)):
        return True
    if isinstance(last, ast.If):
        return always_returns(last.body) and always_returns(last.orelse)
    return False


def _walk(node, stop_at_loops=False):
    """Like ast.walk, but not into nested functions, classes, lambdas or comprehensions
    (their names are their own), nor, when asked, into nested loops."""
    yield node
    if isinstance(node, _NESTED_SCOPES + _COMPREHENSIONS):
        return
    for child in ast.iter_child_nodes(node):
        if not (stop_at_loops and isinstance(child, (ast.For, ast.While))):
            yield from _walk(child, stop_at_loops)

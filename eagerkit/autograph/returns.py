"""Conversion 1: every ``if`` that returns, returns in both branches.

An ``if`` over a tensor becomes a ``cond``, whose branches are functions; a ``return`` inside
one must therefore be the branch function's result, and the statements after the ``if``
must run only when it did not return. So, as TF's AutoGraph does, the code after an ``if``
that may return moves into the branches that do not, and a branch that falls off the end
of the function gets ``return None``::

    if x > 0:                 if x > 0:
        return x        ->        return x
    return 0                  else:
                                  return 0

Returns inside loops (and inside ``with`` or ``try``) are left as they are; so are the ifs
and loops around them, which then run as Python.
"""

import ast
import copy

from eagerkit.autograph.analysis import always_returns, contains

_OPAQUE = (ast.For, ast.While, ast.AsyncFor, ast.With, ast.AsyncWith, ast.Try)


def convert(function):
    """Rewrite ``function`` (an ``ast.FunctionDef``) in place."""
    function.body = _normalized(function.body)
    return function


def returns_in_opaque(node):
    """Whether ``node`` holds a return this conversion leaves in place (in a loop, ...)."""
    return any(
        isinstance(child, _OPAQUE)
        and contains(child.body + getattr(child, "orelse", []), ast.Return)
        for child in ast.walk(node)
    )


def _normalized(block):
    """``block`` (which ends the function: every block given here does) with the code after
    each returning ``if`` moved into its branches, each branch ending in a return."""
    for k, statement in enumerate(block):
        if not isinstance(statement, ast.If) or not contains([statement], ast.Return):
            continue
        if returns_in_opaque(statement):
            continue  # left as Python (see the module docstring)
        rest = block[k + 1 :]
        for branch in ("body", "orelse"):
            statements = getattr(statement, branch)
            if not always_returns(statements):
                statements = _normalized(statements + copy.deepcopy(rest))
            if not always_returns(statements):  # falls off the end of the function
                statements = statements + [ast.Return(value=ast.Constant(None))]
            setattr(statement, branch, statements)
        return block[:k] + [statement]
    return block

"""Conversion 6: ``and``, ``or`` and ``not`` work on tensors.

Python's ``a and b`` asks ``bool(a)``, which a tensor inside a graph cannot answer once for
every run. As TF's AutoGraph does, they become calls that use ``ek.logical_and`` (``or``,
``not``) for tensors and keep Python's meaning, short-circuit included, for anything
else; the right side is passed as a function so it runs only when Python would run it::

    a > 0 and b < 1   ->   ag__.and_(lambda: a > 0, lambda: b < 1)
    not done          ->   ag__.not_(done)
"""

import ast

from eagerkit.autograph.templates import statements


class LogicalConverter(ast.NodeTransformer):
    """Rewrites every ``and``, ``or`` and ``not`` of a function."""

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        operator = "ag__.and_" if isinstance(node.op, ast.And) else "ag__.or_"
        result = node.values[-1]
        for value in reversed(node.values[:-1]):  # a and b and c -> and_(a, and_(b, c))
            result = statements(
                f"{operator}(lambda: left, lambda: right)", left=value, right=result
            )[0].value
        return result

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if not isinstance(node.op, ast.Not):
            return node
        return statements("ag__.not_(value)", value=node.operand)[0].value

    def visit_FunctionDef(self, node):  # nested functions are converted when they run
        return node

    visit_AsyncFunctionDef = visit_FunctionDef


def convert(function):
    """Rewrite the logical operators of ``function`` (an ``ast.FunctionDef``) in place."""
    converter = LogicalConverter()
    function.body = [converter.visit(statement) for statement in function.body]
    return function

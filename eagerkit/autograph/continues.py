"""Conversion 2: ``continue`` becomes a flag.

As TF's AutoGraph does, each loop whose body says ``continue`` gets a flag, reset at the
start of every iteration; the statements after a ``continue`` run only while it is unset::

    for i in x:                   for i in x:
        if i % 2 == 0:                continue_ = False
            continue         ->       if i % 2 == 0:
        total += i                        continue_ = True
                                      if ag__.not_(continue_):
                                          total += i
"""

import ast

from eagerkit.autograph.analysis import contains
from eagerkit.autograph.flags import guard, unique_name
from eagerkit.autograph.templates import statements


class ContinueConverter(ast.NodeTransformer):
    """Rewrites the ``continue`` statements of every loop (inner loops first)."""

    def __init__(self, taken_names):
        self.taken = taken_names

    def _loop(self, node):
        self.generic_visit(node)
        if node.orelse or not contains(node.body, ast.Continue, stop_at_loops=True):
            return node
        flag = unique_name("continue_", self.taken)
        node.body = statements("flag = False", flag=flag) + guard(node.body, ast.Continue, flag)
        return node

    visit_For = visit_While = _loop

    def visit_FunctionDef(self, node):  # a nested function's loops are converted when it is
        return node

    visit_AsyncFunctionDef = visit_Lambda = visit_FunctionDef


def convert(function, taken_names):
    """Rewrite the loops of ``function`` (an ``ast.FunctionDef``) in place."""
    converter = ContinueConverter(taken_names)
    function.body = [converter.visit(statement) for statement in function.body]
    return function

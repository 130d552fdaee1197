"""Conversion 3: ``break`` becomes a flag that the loop's test reads.

As TF's AutoGraph does, a loop whose body says ``break`` gets a flag, False before the
loop; ``break`` sets it, the statements after it run only while it is unset, and the loop
goes on only while it is unset::

    while i < n:                  break_ = False
        if x[i] < 0:              while ag__.and_(lambda: i < n, lambda: ag__.not_(break_)):
            break          ->         if x[i] < 0:
        i += 1                            break_ = True
                                      if ag__.not_(break_):
                                          i += 1

A ``for`` loop gets the test as a function the loop conversion hands on (``extra_test``).
"""

import ast

from eagerkit.autograph.analysis import contains
from eagerkit.autograph.flags import guard, unique_name
from eagerkit.autograph.templates import rewrite_body, statements

EXTRA_TEST = "_ag_extra_test"  # where a for loop keeps its break test for loops.py


class BreakConverter(ast.NodeTransformer):
    """Rewrites the ``break`` statements of every loop (inner loops first)."""

    def __init__(self, taken_names):
        self.taken = taken_names

    def _loop(self, node):
        self.generic_visit(node)
        if node.orelse or not contains(node.body, ast.Break, stop_at_loops=True):
            return node
        flag = unique_name("break_", self.taken)
        node.body = guard(node.body, ast.Break, flag)
        stop = statements("ag__.not_(flag)", flag=flag)[0].value
        if isinstance(node, ast.While):
            node.test = statements(
                "ag__.and_(lambda: test, lambda: stop)", test=node.test, stop=stop
            )[0].value
        else:
            setattr(node, EXTRA_TEST, stop)
        return statements("flag = False", flag=flag) + [node]

    visit_For = visit_While = _loop

    def visit_FunctionDef(self, node):
        return node

    visit_AsyncFunctionDef = visit_Lambda = visit_FunctionDef


def convert(function, taken_names):
    """Rewrite the loops of ``function`` (an ``ast.FunctionDef``) in place."""
    return rewrite_body(function, BreakConverter(taken_names))

"""Conversion 5: ``while`` and ``for`` become ``ag__.while_stmt`` and ``ag__.for_stmt``.

The test and the body become functions of the names the loop changes (its *state*); the
operators run them as a Python loop, or, for a tensor inside a trace, trace them once into
a ``while_loop``::

    while x > 1:                  def loop_test(x):
        x = x / 2                     return x > 1
                          ->      def loop_body(x):
                                      x = x / 2
                                      return (x,)
                                  (x,) = ag__.while_stmt(loop_test, loop_body,
                                                         ag__.state(locals(), 'x'), ('x',))

A ``for`` loop's body takes the element first (``def loop_body(itr, i, s): i = itr ...``),
and its ``break`` test (breaks.py) becomes ``extra_test``. Loops with an ``else:`` or with a
``return`` inside stay Python loops.
"""

import ast

from eagerkit.autograph.analysis import assigned_names, contains
from eagerkit.autograph.breaks import EXTRA_TEST
from eagerkit.autograph.conditionals import declarations
from eagerkit.autograph.templates import names_tuple, rewrite_body, statements, strings_tuple


class LoopConverter(ast.NodeTransformer):
    """Rewrites every ``while`` and ``for`` of a function (inner ones first)."""

    def __init__(self, names, global_names):
        self.names = names  # the generated names: {"loop_test": ..., "loop_body": ..., "itr": ...}
        self.global_names = global_names

    def visit_While(self, node):
        self.generic_visit(node)
        if node.orelse or contains(node.body, ast.Return):
            return node
        state = self._state(node.body)
        test = self._function(self.names["loop_test"], state, [ast.Return(value=node.test)])
        body = self._function(self.names["loop_body"], state, self._body(node.body, state))
        call = statements(
            "ag__.while_stmt(test, body)",
            test=self.names["loop_test"],
            body=self.names["loop_body"],
        )[0].value
        return [test, body, self._assign(call, state)]

    def visit_For(self, node):
        self.generic_visit(node)
        if node.orelse or contains(node.body, ast.Return):
            return node
        itr = self.names["itr"]
        unpack = statements("target = itr", target=node.target, itr=itr)
        state = self._state(unpack + node.body)
        parameters = [itr, *state]
        body = self._function(
            self.names["loop_body"], parameters, self._body(unpack + node.body, state)
        )
        call = statements(
            "ag__.for_stmt(items, body)", items=node.iter, body=self.names["loop_body"]
        )
        call = call[0].value
        generated = [body]
        stop = getattr(node, EXTRA_TEST, None)
        if stop is not None:  # a break: the loop goes on only while its flag is unset
            generated.insert(0, self._function(self.names["loop_test"], state, [ast.Return(stop)]))
            call.keywords.append(
                ast.keyword(arg="extra_test", value=ast.Name(self.names["loop_test"], ast.Load()))
            )
        return [*generated, self._assign(call, state)]

    def _state(self, body):
        return [n for n in assigned_names(body) if n not in self.global_names]

    def _body(self, body, state):
        return (
            declarations(body, self.global_names)
            + body
            + [ast.Return(value=names_tuple(state, ast.Load))]
        )

    @staticmethod
    def _function(name, parameters, body):
        return statements("def name(params):\n    body", name=name, params=parameters, body=body)[0]

    @staticmethod
    def _assign(call, state):
        """``(a, b) = call`` with the state's values and names passed to the call."""
        state_call = statements("ag__.state(locals())")[0].value
        state_call.args += [ast.Constant(n) for n in state]
        call.args += [state_call, strings_tuple(state)]
        if not state:
            return ast.Expr(value=call)
        return ast.Assign(targets=[names_tuple(state, ast.Store)], value=call)

    def visit_FunctionDef(self, node):  # nested functions are converted when they run
        return node

    visit_AsyncFunctionDef = visit_Lambda = visit_FunctionDef


def convert(function, names, global_names):
    """Rewrite the loops of ``function`` (an ``ast.FunctionDef``) in place."""
    return rewrite_body(function, LoopConverter(names, global_names))

"""Conversion 4: ``if`` becomes ``ag__.if_stmt``, a ``cond`` when its condition is a tensor.

Each branch becomes a function of the names the ``if`` may change (its *state*), returning
them; ``if_stmt`` calls the one the condition picks, or, for a tensor inside a trace,
traces both into a ``cond``::

    if x > 0:                     def if_true(y):
        y = x                         y = x
    else:                 ->          return (y,)
        y = -x                    def if_false(y):
                                      y = -x
                                      return (y,)
                                  (y,) = ag__.if_stmt(x > 0, if_true, if_false,
                                                      ag__.state(locals(), 'y'), ('y',))

An ``if`` whose branches both end in ``return`` (returns.py made them so) becomes
``return ag__.if_stmt(...)``, each branch function returning the value.
"""

import ast

from eagerkit.autograph.analysis import always_returns, assigned_names, contains
from eagerkit.autograph.returns import returns_in_opaque
from eagerkit.autograph.templates import names_tuple, rewrite_body, statements, strings_tuple


class IfConverter(ast.NodeTransformer):
    """Rewrites every ``if`` of a function (inner ones first)."""

    def __init__(self, names, global_names):
        self.names = names  # the generated names: {"if_true": ..., "if_false": ...}
        self.global_names = global_names  # name -> "global" or "nonlocal": not state

    def visit_If(self, node):
        self.generic_visit(node)
        if returns_in_opaque(node):
            return node  # a return inside a loop in it: stays Python (returns.py)
        returns = always_returns(node.body) and always_returns(node.orelse)
        if not returns and contains([node], ast.Return):
            return node
        state = [n for n in assigned_names(node.body + node.orelse) if n not in self.global_names]
        if returns:
            state = []  # the function ends here: nothing after the if reads the names
        true_fn, false_fn = self.names["if_true"], self.names["if_false"]
        branches = [
            self._branch(true_fn, node.body, state, returns),
            self._branch(false_fn, node.orelse, state, returns),
        ]
        call = statements(
            "ag__.if_stmt(test, true_fn, false_fn)",
            test=node.test,
            true_fn=true_fn,
            false_fn=false_fn,
        )[0].value
        if state:
            call.args += [_state_call(state), strings_tuple(state)]
        if returns:
            result = ast.Return(value=call)
        elif state:
            result = ast.Assign(targets=[names_tuple(state, ast.Store)], value=call)
        else:
            result = ast.Expr(value=call)
        return [*branches, result]

    def _branch(self, name, body, state, returns):
        """``def name(*state): body; return state`` (or, ending in return, just the body)."""
        tail = [] if returns else [ast.Return(value=names_tuple(state, ast.Load))]
        header = declarations(body, self.global_names)
        return statements(
            "def name(params):\n    body", name=name, params=state, body=header + body + tail
        )[0]

    def visit_FunctionDef(self, node):  # nested functions are converted when they run
        return node

    visit_AsyncFunctionDef = visit_Lambda = visit_FunctionDef


def declarations(body, global_names):
    """``global x`` / ``nonlocal y`` for the declared names ``body`` assigns: a generated
    function assigns them where the user's function did."""
    declared = [n for n in assigned_names(body) if n in global_names]
    kinds = {"global": ast.Global, "nonlocal": ast.Nonlocal}
    return [
        kinds[kind](names=[n for n in declared if global_names[n] == kind])
        for kind in kinds
        if any(global_names[n] == kind for n in declared)
    ]


def _state_call(names):
    """``ag__.state(locals(), 'a', 'b')``: the state's values before the statement."""
    call = statements("ag__.state(locals())")[0].value
    call.args += [ast.Constant(n) for n in names]
    return call


def convert(function, names, global_names):
    """Rewrite the ifs of ``function`` (an ``ast.FunctionDef``) in place."""
    return rewrite_body(function, IfConverter(names, global_names))

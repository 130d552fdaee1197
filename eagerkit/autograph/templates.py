"""Writing generated code as code: small templates filled with syntax trees.

A converter writes what it generates as Python source with placeholders, e.g.::

    statements("def name(params):\\n    body\\n    return state", name=..., body=[...])

A placeholder is a plain name in the template: an expression placeholder takes an ``ast``
expression, a statement placeholder (a name alone on its line) takes a list of statements,
and ``params`` takes parameter names. Generated names (``if_true``, ``loop_body``) are
passed in as strings.
"""

import ast
import textwrap


def statements(template, **values):
    """The statements of ``template`` with its placeholders replaced by ``values``."""
    tree = ast.parse(textwrap.dedent(template))
    tree = _Filler(values).visit(tree)
    return tree.body


def names_tuple(names, ctx):
    """``(a, b,)`` as a Load or Store tuple of names."""
    return ast.Tuple(elts=[ast.Name(id=n, ctx=ctx()) for n in names], ctx=ctx())


def strings_tuple(names):
    """``('a', 'b')``: the names, as the runtime reports them."""
    return ast.Tuple(elts=[ast.Constant(n) for n in names], ctx=ast.Load())


class _Filler(ast.NodeTransformer):
    def __init__(self, values):
        self.values = values

    def visit_Expr(self, node):  # a placeholder alone on its line: statements
        if isinstance(node.value, ast.Name) and node.value.id in self.values:
            value = self.values[node.value.id]
            if isinstance(value, list):
                return value or [ast.Pass()]
        return self.generic_visit(node)

    def visit_Name(self, node):
        value = self.values.get(node.id)
        if value is None:
            return node
        if isinstance(value, str):  # a generated name, in the same context
            return ast.Name(id=value, ctx=node.ctx)
        return value

    def visit_FunctionDef(self, node):
        name = self.values.get(node.name)
        if isinstance(name, str):
            node.name = name
        parameters = [a for a in node.args.args]
        filled = []
        for argument in parameters:
            value = self.values.get(argument.arg)
            if isinstance(value, (list, tuple)):  # a list of parameter names
                filled += [ast.arg(arg=n) for n in value]
            else:
                filled.append(argument)
        node.args.args = filled
        return self.generic_visit(node)


def rewrite_body(function, converter):
    """Run ``converter`` (an ``ast.NodeTransformer``) over each statement of ``function``'s
    body in place; a statement it turns into several is spliced in. Returns ``function``."""
    body = []
    for statement in function.body:
        converted = converter.visit(statement)
        body += converted if isinstance(converted, list) else [converted]  # one became several
    function.body = body
    return function

"""Converting a Python function: source -> syntax tree -> converted tree -> a new function.

The converted function is the original's twin: the same globals (so a global changed later
is seen, as by the original), the same closure cells, defaults, name and line numbers (a
traceback points into the user's file), with one more free variable, ``ag__``: the
operators (operators.py) that the converted code calls.

The conversions run in this order, each in its own file:
returns.py, continues.py, breaks.py, logical.py, conditionals.py, loops.py.
"""

import ast
import inspect
import textwrap
import types
import weakref

from eagerkit.autograph import (
    breaks,
    conditionals,
    continues,
    logical,
    loops,
    operators,
    returns,
)
from eagerkit.autograph.flags import unique_name

_CONVERTED = weakref.WeakKeyDictionary()  # function -> (converted function, its source)
_CONTROL_FLOW = (ast.If, ast.While, ast.For, ast.BoolOp, ast.UnaryOp)
GENERATED = ("if_true", "if_false", "loop_test", "loop_body", "itr")


class ConversionError(Exception):
    """The function cannot be converted (no source, or source AutoGraph cannot take)."""


class NoSourceError(ConversionError):
    """Python keeps no source for the function (``python -c``, ``exec`` of a string)."""


def converted(function):
    """``(converted function, its source text)``, made once per function."""
    found = _CONVERTED.get(function)
    if found is None:
        found = _CONVERTED[function] = _convert(function)
    return found


def _convert(function):
    tree = _function_tree(function)
    if not any(isinstance(node, _CONTROL_FLOW) for node in ast.walk(tree)):
        return function, ast.unparse(tree)  # nothing to convert: the function as it is
    taken = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    taken |= {a.arg for a in ast.walk(tree) if isinstance(a, ast.arg)}
    names = {base: unique_name(base, taken) for base in GENERATED}
    declared = _declared(tree)
    returns.convert(tree)
    continues.convert(tree, taken)
    breaks.convert(tree, taken)
    logical.convert(tree)
    conditionals.convert(tree, names, declared)
    loops.convert(tree, names, declared)
    ast.fix_missing_locations(tree)
    return _compile(tree, function), ast.unparse(tree)


def _function_tree(function):
    """The ``ast.FunctionDef`` of ``function``, decorators removed, with its line numbers."""
    if not isinstance(function, types.FunctionType) or function.__name__ == "<lambda>":
        raise ConversionError(f"{function!r} is not a def statement")
    try:
        lines, first = inspect.getsourcelines(function)
    except (OSError, TypeError) as error:
        raise NoSourceError(f"no source for {function.__qualname__}: {error}") from None
    module = ast.parse(textwrap.dedent("".join(lines)))
    tree = module.body[0]
    if not isinstance(tree, ast.FunctionDef) or tree.name != function.__name__:
        raise ConversionError(f"the source of {function.__qualname__} is not its def")
    tree.decorator_list = []
    ast.increment_lineno(tree, first - 1)
    return tree


def _declared(tree):
    """The names the function declares ``global`` or ``nonlocal``: never state."""
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Global):
            found.update(dict.fromkeys(node.names, "global"))
        elif isinstance(node, ast.Nonlocal):
            found.update(dict.fromkeys(node.names, "nonlocal"))
    return found


def _compile(tree, function):
    """The converted ``tree`` as a function sharing ``function``'s globals and closure."""
    free = list(function.__code__.co_freevars)
    # Under its own name, the def would be a local of the factory: a recursive call would
    # find that local, not the global or closure the original function finds.
    name, tree.name = tree.name, "ag__converted"
    factory = ast.FunctionDef(
        name="ag__factory",
        args=ast.arguments(
            posonlyargs=[],
            args=[ast.arg(arg=name) for name in ["ag__", *free]],
            kwonlyargs=[],
            kw_defaults=[],
            defaults=[],
        ),
        body=[tree, ast.Return(value=ast.Name(id=tree.name, ctx=ast.Load()))],
        decorator_list=[],
        lineno=1,
    )
    module = ast.fix_missing_locations(ast.Module(body=[factory], type_ignores=[]))
    filename = inspect.getsourcefile(function) or "<converted>"
    namespace = {}
    try:
        exec(compile(module, filename, "exec"), function.__globals__, namespace)  # noqa: S102
    finally:
        tree.name = name
    made = namespace["ag__factory"](operators, *[None] * len(free))
    cells = dict(zip(free, function.__closure__ or (), strict=True))
    cells["ag__"] = types.CellType(operators)
    closure = tuple(cells[name] for name in made.__code__.co_freevars)
    twin = types.FunctionType(
        made.__code__, function.__globals__, function.__name__, function.__defaults__, closure
    )
    twin.__kwdefaults__ = function.__kwdefaults__
    twin.__qualname__ = function.__qualname__
    twin.__doc__ = function.__doc__
    twin.__module__ = function.__module__
    return twin

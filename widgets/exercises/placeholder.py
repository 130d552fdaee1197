"""Is an answer still the template's placeholder? Decided by the object, never by source text.

A student copy replaces each solution with ``...`` (see student.py). What reaches a check is
then either the placeholder value itself (``t = ...``, ``gradients = [..., ...]``) or a
function the template defines (``def softsign(x): ...``). The first is recognised by
identity; the second by its code: the check compiles the exercise's template cell (never
runs it) and compares the code objects' instructions, line numbers left out. An answer whose
code differs from the template's in any way (a comment does not count: comments are not
code) is an answer, and is run and judged.
"""

import dis
import types

from eagerkit.registry import OpDef


def is_placeholder_value(answer, template=...):
    """True when every ``...`` of ``template`` (``...``, ``[..., ...]``, ``(..., 0)``) is still
    ``...`` in ``answer``.

    Examples
    --------
    >>> is_placeholder_value(...), is_placeholder_value([..., ...], [..., ...])
    (True, True)
    >>> is_placeholder_value([3.0, ...], [..., ...]), is_placeholder_value(None)
    (False, False)
    """
    if template is ...:
        return answer is ...
    if isinstance(template, (list, tuple)):
        if not isinstance(answer, (list, tuple)) or len(answer) != len(template):
            return False
        spots = [(a, t) for a, t in zip(answer, template, strict=True) if _has_ellipsis(t)]
        return bool(spots) and all(is_placeholder_value(a, t) for a, t in spots)
    return False


def _has_ellipsis(value):
    if value is ...:
        return True
    return isinstance(value, (list, tuple)) and any(_has_ellipsis(v) for v in value)


def template_codes(template_source):
    """The code objects of every function and lambda the template cell defines, without
    line numbers (compiled only: nothing in the template runs)."""
    module = compile(template_source, "<exercise template>", "exec")
    return {_without_lines(code) for code in _nested_codes(module)}


def answer_codes(answer):
    """The code objects that make up ``answer``: a function (unwrapped through decorators
    such as ``ek.custom_gradient`` and ``ek.function``) or an op made by ``defop`` (its
    forward and its VJPs)."""
    found = []
    for part in _parts(answer):
        code = getattr(part, "__code__", None)
        if isinstance(code, types.CodeType):
            found.append(_without_lines(code))
    return found


def is_template_function(answer, template_source):
    """True when ``answer`` is made only of code the template defines: the student copy's
    function (or op) as it was handed out."""
    if template_source is None or not callable(answer):
        return False
    codes = answer_codes(answer)
    return bool(codes) and all(code in template_codes(template_source) for code in codes)


def _parts(answer):
    op = getattr(answer, "op", None)
    if isinstance(op, OpDef):  # defop's public function: the student wrote forward and VJPs
        yield op.forward
        yield from (vjp for vjp in op.vjps if vjp is not None)
        return
    seen = set()  # the innermost function: what the student wrote under the decorators
    while id(answer) not in seen:
        seen.add(id(answer))
        # functools.wraps (custom_gradient) keeps __wrapped__; ek.function python_function.
        inner = getattr(answer, "__wrapped__", None) or getattr(answer, "python_function", None)
        if inner is None:
            break
        answer = inner
    yield answer


def _nested_codes(code):
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield const
            yield from _nested_codes(const)


def _without_lines(code):
    """What identifies ``code`` as written: its name, parameters and instructions (jumps by
    instruction index, nested functions likewise), without line numbers, so a template moved
    down the cell is still the template. Python 3.11 compiles ``ek.f()`` as a method call
    or as an attribute load depending on whether ``ek`` was imported in the same cell: both
    are the same instruction here."""
    instructions = [i for i in dis.get_instructions(code) if i.opname not in _NO_MEANING]
    index = {instruction.offset: n for n, instruction in enumerate(instructions)}
    steps = []
    for instruction in instructions:
        argument = instruction.argval
        if instruction.opcode in _JUMPS:
            argument = index.get(argument, argument)
        elif isinstance(argument, types.CodeType):
            argument = _without_lines(argument)
        elif not isinstance(argument, _HASHABLE):
            argument = repr(argument)
        steps.append((_SAME_AS.get(instruction.opname, instruction.opname), argument))
    return (code.co_name, code.co_argcount, code.co_kwonlyargcount, code.co_varnames, tuple(steps))


_NO_MEANING = {"CACHE", "NOP", "RESUME", "PRECALL", "EXTENDED_ARG", "PUSH_NULL", "KW_NAMES"}
_SAME_AS = {"LOAD_METHOD": "LOAD_ATTR"}
_JUMPS = set(dis.hasjabs) | set(dis.hasjrel)
_HASHABLE = (str, int, float, bool, bytes, type(None), type(...), tuple, frozenset)

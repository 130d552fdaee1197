"""What ``break`` and ``continue`` conversions share: a flag, and guarding what follows it.

A loop over tensors runs its body as a function, where ``break`` and ``continue`` mean
nothing. Both become a flag set to True; every statement after the flag may have been set
runs under ``if not flag:`` (converted in turn into a ``cond`` when the flag is a tensor).
"""

import ast

from eagerkit.autograph.analysis import contains
from eagerkit.autograph.templates import statements

_BLOCKS = ("body", "orelse", "finalbody")


def guard(block, kind, flag):
    """``block`` (a loop body, or a block inside it) with each ``kind`` statement (Break or
    Continue) replaced by ``flag = True`` and the statements after it guarded."""
    result = []
    for k, statement in enumerate(block):
        if isinstance(statement, kind):
            result += statements("flag = True", flag=flag)
            return result  # the rest of this block can never run
        if isinstance(statement, (ast.For, ast.While)) or not contains(
            [statement], kind, stop_at_loops=True
        ):
            result.append(statement)  # a nested loop's break is its own
            continue
        for name in _BLOCKS:
            if getattr(statement, name, None):
                setattr(statement, name, guard(getattr(statement, name), kind, flag))
        for handler in getattr(statement, "handlers", []):
            handler.body = guard(handler.body, kind, flag)
        result.append(statement)
        rest = block[k + 1 :]
        if rest:
            result += statements(
                "if ag__.not_(flag):\n    rest", flag=flag, rest=guard(rest, kind, flag)
            )
        return result
    return result


def unique_name(base, taken):
    """``base``, or ``base_1``, ``base_2``... whichever the function does not use yet."""
    name, number = base, 0
    while name in taken:
        number += 1
        name = f"{base}_{number}"
    taken.add(name)
    return name

"""One fuzzed call: a valid call with one argument replaced, and what became of it.

``slots(prepared)`` are the places a bad argument can go: each positional argument, each
keyword argument, each optional parameter the valid call leaves out, the tensor an operator
is applied to, and "leave the last argument out". ``attempt`` makes the call and classifies
the outcome (``Outcome.kind``), the same way for the test and for a census of the surface.
"""

import inspect
import math
import numbers
from dataclasses import dataclass

import eagerkit as ek
from eagerkit import boundary
from eagerkit.operators import BINARY_OPERATORS, BOOL_OPERATORS, COMPARISONS, UNARY_OPERATORS

from . import inputs, runner, verdict

MISSING = "leave the last argument out"
# Deliberate truncation, named as such by TF: cast(1.5, int32) is 1 by definition.
TRUNCATES_BY_DESIGN = frozenset({"cast", "saturate_cast", "floor", "floordiv", "round"})
CLEAN = ("ok", "clean error")
_SYNONYMS = {
    "getitem": ("index", "slice", "getitem"),
    "bool": ("bool", "truth value"),
    "iter": ("iterat",),
    "array": ("array",),
    "enter": ("with",),
    "exit": ("with",),
    "reduce": ("pickle",),
    "deepcopy": ("copy",),
    "setattr": ("attribute",),
}
_OPERATOR_OPS = {
    **BINARY_OPERATORS,
    **COMPARISONS,
    **UNARY_OPERATORS,
    **{k: v[0] for k, v in BOOL_OPERATORS.items()},
    "eq": "equal",
    "ne": "not_equal",
}
# x > y on a KerasTensor or numpy array beside a tensor runs as y < x (Python reflects it).
_REFLECTED = {"lt": "greater", "le": "greater_equal", "gt": "less", "ge": "less_equal"}


@dataclass
class Outcome:
    kind: str  # "ok", "clean error", "raw exception", "Python's words", "unclear error",
    # "wrong answer", "accepted a fraction", "hang", "changed state"
    detail: str = ""


def call_names(entry):
    """The words that name the call the user made, any one of which a message must hold."""
    names = set(entry.aliases) | {entry.short}
    if entry.kind == "method":
        names.add(entry.name.rsplit(".", 2)[-2])  # the class: "Dense" for Dense.build
    if entry.kind in ("class", "method") and isinstance(entry.target, type):
        names |= {c.__name__ for c in (entry.target, *_subclasses(entry.target))}
    if entry.kind == "returned":  # gradients_function(f)(x): the call that made it
        names.add(entry.name.removesuffix("()").rsplit(".", 1)[-1].removesuffix("()"))
    if entry.attribute and entry.attribute.startswith("__"):
        bare = entry.attribute.strip("_")
        plain = bare[1:] if bare[1:] in _OPERATOR_OPS and bare.startswith("r") else bare
        names |= {bare, plain, _OPERATOR_OPS.get(plain, plain), *_SYNONYMS.get(plain, ())}
        names.add(_REFLECTED.get(plain))
    names.discard(None)
    return names


def _subclasses(cls):
    """What ``ek.Model(inputs, outputs)`` makes (a Functional): named in its messages."""
    found = []
    for sub in cls.__subclasses__():
        found += [sub, *_subclasses(sub)]
    return found


def slots(entry, prepared, tensor_receiver, fixed=()):
    """Where a bad argument can go: ``[(kind, key)]`` (``fixed``: positions left alone)."""
    found = [("arg", i) for i in range(len(prepared.args)) if i not in fixed]
    found += [("kw", k) for k in prepared.kwargs if k not in fixed]
    found += [("kw", name) for name in prepared.optional if name not in fixed]
    if tensor_receiver:
        found.append(("self", None))
    operator = entry.attribute in runner.PROTOCOLS and entry.attribute != "__call__"
    if (prepared.args or prepared.kwargs) and not operator:  # x + (nothing) is no call
        found.append((MISSING, None))
    return found


def labels_for(entry, slot):
    """The bad arguments to try in ``slot``: tensors of the receiver's class for the object
    an operator is applied to (a Variable's assign needs a Variable), or any."""
    if slot[0] == MISSING:
        return [None]
    if slot[0] == "self":
        return inputs.receivers(entry.owner or entry.target)
    return inputs.BAD_LABELS


def parameter_of(prepared, slot):
    kind, key = slot
    if kind == "arg":
        return prepared.parameters[key] if key < len(prepared.parameters) else None
    return key


def replaced(prepared, slot, value):
    """``prepared`` with ``value`` in ``slot`` (its receiver is replaced by the caller)."""
    kind, key = slot
    args, kwargs = list(prepared.args), dict(prepared.kwargs)
    if kind == "arg":
        args[key] = value
    elif kind == "kw":
        kwargs[key] = value
    elif kind == MISSING:
        if kwargs:
            kwargs.pop(list(kwargs)[-1])
        else:
            args.pop()
    return runner.Prepared(prepared.function, args, kwargs, prepared.receiver)


def missing_parameter(prepared):
    """The name of the argument that MISSING leaves out (None: one of ``*args``)."""
    if prepared.kwargs:
        return list(prepared.kwargs)[-1]
    return prepared.parameters[-1] if len(prepared.parameters) == len(prepared.args) else None


def attempt(surface, name, slot, label):
    """Make entry ``name``'s valid call with bad argument ``label`` in ``slot``."""
    with runner.in_a_new_directory():
        try:
            return _attempt(surface, name, slot, label)
        finally:
            runner.reset_switches()


def _attempt(surface, name, slot, label):
    entry = surface.entries[name]
    kind, key = slot
    value = inputs.make(label) if kind != MISSING else None
    prepared = surface.prepare(name, receiver=value if kind == "self" else None)
    parameter = parameter_of(prepared, slot) if kind != "self" else "self"
    if kind == MISSING:
        parameter = missing_parameter(prepared)
    call = replaced(prepared, slot, value)
    watched = [prepared.receiver, *call.args, *call.kwargs.values()]
    before = runner.state(watched)
    try:
        result = runner.run(call)
    except runner.Hung:
        return Outcome("hang", f"ran over {runner.SECONDS_PER_CALL} s of CPU time")
    except AssertionError as error:
        if "assert" in name or entry.short == "check_grads":  # they fail this way on purpose
            return Outcome("clean error")
        return Outcome("raw exception", f"AssertionError: {error}")
    except Exception as error:  # noqa: BLE001 - this is what the test looks for
        return _judge_error(surface, error, entry, parameter, value, kind, before, watched)
    if kind != MISSING and _fraction_accepted(entry, parameter, value):
        return Outcome("accepted a fraction", f"{parameter}={value!r} gave {result!r:.120}")
    return Outcome("ok")


def _judge_error(surface, error, entry, parameter, value, kind, before, watched):
    if isinstance(error, verdict.PROTOCOL_ERRORS.get(entry.attribute or "", ())):
        return Outcome("clean error")
    if boundary._raised_by_user_code(error.__traceback__):
        return Outcome("clean error", "the user's own function raised it, unchanged (as TF)")
    if entry.short.startswith("assert_") and verdict.FAILED_ASSERTION.search(str(error)):
        return Outcome("clean error")  # the assertion did its job: TF's words, TF's class
    after = runner.state(watched)
    if after != before:
        return Outcome("changed state", runner.changed(before, after))
    words = {parameter} if kind == MISSING else verdict.words_for(value, parameter)
    if surface.table[entry.name].raises is not None or not parameter:
        words = None  # it fails by design whatever the argument (a base class's method)
    internal = surface.internal_names() - _parameter_names(entry)  # its own are public
    found = verdict.problems(error, call_names(entry), words, internal)
    text = f"{type(error).__name__}: {str(error)[:300]}"
    if not found:
        return Outcome("clean error")
    if found[0].startswith("raw"):
        return Outcome("raw exception", text)
    if found[0].startswith("Python's words"):
        return Outcome("Python's words", f"{'; '.join(found)} in {text}")
    return Outcome("unclear error", f"{'; '.join(found)} in {text}")


def _parameter_names(entry):
    """The names of the call's parameters: a message may name them (clone_model's
    ``input_tensors``) even where an eagerkit helper has the same name."""
    try:
        return set(inspect.signature(entry.target).parameters)
    except (TypeError, ValueError):  # a builtin without a signature
        return set()


def _fraction_accepted(entry, parameter, value):
    """True when a fractional number passed for a count or axis was taken (truncated?)."""
    if entry.short in TRUNCATES_BY_DESIGN or parameter not in inputs.COUNTS:
        return False
    if isinstance(value, ek.Tensor) or not isinstance(value, numbers.Real):
        return False
    return math.isfinite(value) and value != int(value)

"""When a call failed on arguments that do not fit, say which one, in our words.

Run only after a call failed with a raw Python or numpy error (boundary.py, and
op_errors.explain for primitives). Python says ``softmax() got an unexpected keyword argument
'axes'`` or ``'float' object is not iterable``; we say ``softmax has no parameter 'axes' (did
you mean 'axis'?)`` or ``shape must be a list or tuple, got 1.5``: the argument to blame, what
it was, and what it must be.

Examples
--------
>>> def pad(tensor, paddings, mode="CONSTANT"): ...
>>> mismatch("pad", pad, (), (1,), {"padding": 2})
"pad has no parameter 'padding' (did you mean 'paddings'?)"
>>> blame(pad, (), (1, 2.5), {}, TypeError("'float' object is not iterable"))
'paddings must be a list or tuple, got float 2.5'
>>> signature_text(pad, ())
"(tensor, paddings, mode='CONSTANT')"
"""

import difflib
import inspect
import re

import numpy as np

# Parameters that take a type: np.float32 is a right answer there.
_TYPE_PARAMETERS = frozenset({"dtype", "out_type", "output_type", "output_types", "types"})
# Python's words naming the type of a value it could not use, and what that value had to be.
_TYPE_NAMED = (
    (r"'([\w.]+)' object is not iterable", "a list or tuple"),
    (r"object of type '([\w.]+)' has no len", "a list or tuple"),
    (r"'([\w.]+)' object is not subscriptable", "a list or tuple"),
    (r"'([\w.]+)' object cannot be interpreted as an integer", "a whole number"),
    (r"'([\w.]+)' object is not callable", "callable (a function)"),
    (r"expected str, bytes or os\.PathLike object, not ([\w.]+)", "a path (a string)"),
    (r"\(\) argument must be .*, not '([\w.]+)'", "a number"),
    (r"not supported between instances of '[\w.]+' and '([\w.]+)'", "a number"),
    (r"unhashable type: '([\w.]+)'", "a name or a number (it is looked up as a key)"),
    (r"unsupported operand type\(s\) for .+: '[\w.]+' and '([\w.]+)'", "a number"),
    (r"unsupported operand type\(s\) for .+: '([\w.]+)' and", "a number"),
    (r"cannot unpack non-iterable ([\w.]+) object", "a list or tuple"),
    (r"not supported between instances of '([\w.]+)' and", "a number"),
    (r"'([\w.]+)' object has no attribute", "a tensor, or the kind of value the call names"),
)
# Python's words quoting a value it could not read as a number.
_VALUE_QUOTED = (
    r"could not convert string to float: '(.*)'",
    r"invalid literal for int\(\) with base \d+: (?:np\.str_\()?'(.*?)'",
)


def mismatch(label, function, bound, args, kwargs):
    """Why ``function(*bound, *args, **kwargs)``, the call ``label``, does not bind, or None
    when it does."""
    signature = _signature(function)
    if signature is None:
        return None
    parameters = signature.parameters
    if not any(p.kind is p.VAR_KEYWORD for p in parameters.values()):
        for key in kwargs:  # a misspelt name first: it often explains a "missing" one too
            if key not in parameters:
                close = difflib.get_close_matches(key, list(parameters), n=1)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                return f"{label} has no parameter '{key}'{hint}"
    try:
        signature.bind(*bound, *args, **kwargs)
    except TypeError as error:
        return _reworded(label, signature, str(error), len(bound), len(args))
    return None


def blame(function, bound, args, kwargs, error):
    """``'keepdims must be True or False, got np.float32'``: the argument of a call that
    failed with ``error`` to blame, or None when none stands out."""
    signature = _signature(function)
    try:
        given = signature.bind(*bound, *args, **kwargs).arguments if signature else {}
    except TypeError:
        return None
    defaults = {n: p.default for n, p in signature.parameters.items()} if signature else {}
    return blame_values(dict(list(given.items())[len(bound) :]), defaults, error)


def blame_values(given, defaults, error):
    """As ``blame``, for the arguments ``given`` by name and the parameters' ``defaults``."""
    from eagerkit.arguments import describe

    text = str(error)
    for name, value in given.items():
        default = defaults.get(name, inspect.Parameter.empty)
        if isinstance(value, type) and name not in _TYPE_PARAMETERS:
            return (
                f"{name} got {describe(value)}, a type, not a value; pass a value such as "
                f"{describe(value)}(1) (a numpy type goes where a dtype does: dtype=...)"
            )
        if isinstance(default, bool) and not _a_flag(value):
            return f"{name} must be True or False, got {describe(value)}"
        if isinstance(default, str) and not isinstance(value, str) and value is not None:
            # Only where Python's words name the value's type ("'int' object has no attribute
            # 'upper'"), or a function took a name's place: such parameters often take more
            # than text (fit's verbose=0, compile's optimizer=Adam()), and another failure,
            # a file's bytes that are not UTF-8 say, is not theirs.
            if callable(value) or _type_names(value) & set(re.findall(r"[\w.]+", text)):
                return f"{name} must be a string such as {default!r}, got {describe(value)}"
    for name, value in given.items():
        if "truth value of an array" in text and getattr(value, "size", 0) > 1:
            return f"{name} must be one value (or None), got {describe(value)}"
        if "inhomogeneous" in text and isinstance(value, (list, tuple)) and _ragged(value):
            return f"{name} must be a number or rows of one length, got a ragged {describe(value)}"
        if "iteration over a 0-d array" in text and getattr(value, "ndim", None) == 0:
            return f"{name} must be a list or tuple, got {describe(value)}"
        if "could not be promoted" in text and isinstance(value, (str, bytes)):
            return f"{name} must be a number, got the text {value!r}"
    unpacked = re.search(r"(?:not enough|too many) values to unpack \(expected (\d+)", text)
    for name, value in given.items() if unpacked else ():
        sized = isinstance(value, (list, tuple, str, bytes)) or getattr(value, "ndim", 0) >= 1
        if sized and len(value) != int(unpacked.group(1)):
            return f"{name} must hold {unpacked.group(1)} items, got {describe(value)}"
    for pattern in _VALUE_QUOTED:
        found = re.search(pattern, text)
        for name, value in given.items() if found else ():
            if isinstance(value, str) and found.group(1) in value:
                return f"{name} must be a number, got the text {value!r}"
    for pattern, needed in _TYPE_NAMED:
        found = re.search(pattern, text)
        if found:
            for name, value in given.items():
                if found.group(1) in _type_names(value):
                    return f"{name} must be {needed}, got {_given(value)}"
    return None


def _a_flag(value):
    """True/False, a numpy bool, 0 or 1, or None (Python's truth of it is what is meant)."""
    return (
        value is None
        or isinstance(value, (bool, np.bool_))
        or (type(value) is int and value in (0, 1))
    )


def _ragged(value):
    """True when nested lists have rows of different lengths (or a row beside a number)."""
    rows = [v for v in value if isinstance(v, (list, tuple))]
    if not rows:
        return False
    if len(rows) < len(value) or len({len(r) for r in rows}) > 1:
        return True
    return any(_ragged(r) for r in rows)


def signature_text(function, bound):
    """``(logits, axis=None, name=None)``: the parameters, without a method's ``self``."""
    signature = _signature(function)
    if signature is None:
        return "(...)"
    parameters = list(signature.parameters.values())[len(bound) :]
    return str(signature.replace(parameters=parameters))


def _signature(function):
    try:
        return inspect.signature(function)
    except (TypeError, ValueError):
        return None


def _type_names(value):
    """How Python's messages may name the type of ``value``: ``float``, ``Tensor``,
    ``numpy.float32`` (a C type is named with its module)."""
    cls = type(value)
    return {cls.__name__, f"{cls.__module__}.{cls.__name__}"}


def _given(value):
    from eagerkit.arguments import describe

    text = describe(value)
    return text if text.startswith(type(value).__name__) else f"{type(value).__name__} {text}"


def _reworded(name, signature, text, bound, given):
    quoted = text.split("'")[1] if text.count("'") >= 2 else ""
    if text.startswith("missing a required"):
        return f"{name} needs the argument '{quoted}', which is missing"
    if text.startswith("too many positional"):
        positional = [
            p.name
            for p in list(signature.parameters.values())[bound:]
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
        return (
            f"{name} takes at most {len(positional)} arguments by position "
            f"({', '.join(positional) or 'none'}), got {given}; pass the others by name"
        )
    if text.startswith("multiple values"):
        return f"{name} got '{quoted}' twice, by position and by name; give it once"
    return f"{name} cannot take these arguments ({text})"

"""Is an error one a user can act on? What the property test asks of every raised error.

It must be an eagerkit error (or the exception type TF documents for that protocol), and
its message must name the call the user made, name the offending argument (its parameter, or
its type, dtype, shape or value), say what to do, use no name of eagerkit's internals, and
not be numpy's or Python's words alone (``'float' object is not iterable``).
"""

import inspect
import re
import sys

import numpy as np

import eagerkit as ek
from eagerkit.errors import OpError
from eagerkit.registry import REGISTRY

# What Python and numpy say when they fail inside a library: words about the library's own
# code, not the user's call. An eagerkit message says what was wrong with the arguments.
PYTHON_WORDS = re.compile(
    "|".join(
        [
            r"object is not (iterable|callable|subscriptable|an iterator)",
            r"has no attribute",
            r"unsupported operand type",
            r"takes (\d+|from \d+ to \d+) positional arguments? but",
            r"got an unexpected keyword argument",
            r"missing \d+ required (positional|keyword-only) argument",
            r"got multiple values for argument",
            r"could not convert string to float",
            r"invalid literal for int\(\)",
            r"cannot be interpreted as an integer",
            r"setting an array element with a sequence",
            r"inhomogeneous shape",
            r"operands could not be broadcast",
            r"(list|tuple|string) index out of range",
            r"is out of bounds for axis",
            r"only integer scalar arrays",
            r"truth value of an array",
            r"cannot reshape array",
            r"not supported between instances",
            r"must be real number, not",
            r"can't multiply sequence",
            r"unhashable type",
            r"object of type '\w+' has no len",
            r"'NoneType'",
            r"getset_descriptor",
            r"expected str, bytes or os\.PathLike",
            r"data type [\"'].*[\"'] not understood",
            r"Cannot cast ufunc",
            r"ufunc '\w+' (not supported|did not contain)",
            r"zero-size array to reduction",
            r"too many indices for array",
            r"Unable to allocate",
            r"cannot convert float (NaN|infinity) to integer",
            r"Python int too large",
            r"int too large to convert",
            r"(not enough|too many) values to unpack",
            r"maximum recursion depth",
            r"bad operand type for",
            r"argument must be a string or a",
            r"^\[Errno \d+\]",
            r"\(\) argument must be",
            r"division by zero",
            r"math domain error",
        ]
    )
)
# A failed assertion (assert_near, assert_greater...): TF's own words.
FAILED_ASSERTION = re.compile(r"did not hold|not equal to tolerance")
# What saying how to fix it sounds like.
FIX_WORDS = re.compile(
    r"\b(use|pass|write|cast|call|give|convert|reshape|remove|move|make|try|provide|expected"
    r"|expects?|must|should|needs?|only|instead|accepts?|takes|valid|rather than"
    r"|create|wrap|add|choose|set|copy|load|build|start|check|save|unset|drop|compare|ask"
    r"|pick|format|index|swap|put)\b",
    re.IGNORECASE,
)
EXAMPLE = re.compile(r"\be\.g\.")  # an example of the right call is a fix too
# Exceptions TF documents for protocols: iteration ends, AssertionError from assert_*.
PROTOCOL_ERRORS = {
    "__next__": (StopIteration,),
    "next": (StopIteration,),
}


WIDGETS = "eagerkit.widgets"


def internal_names(public):
    """Names of eagerkit's own functions and classes that are no public API (``public``: the
    names of the walk): a message showing one (``_value_and_gradients``, ``to_array``)
    points into eagerkit's code instead of at the user's call."""
    public = set(public) | set(REGISTRY)
    defined = set()
    for module_name, module in list(sys.modules.items()):
        # (the widgets' helpers are no engine internals: whether a test imported them
        # before must not change what a message may say, output_shapes in lesson 03's checks)
        if not module_name.startswith("eagerkit") or module_name.startswith(WIDGETS):
            continue
        if module is None:
            continue
        for name, value in vars(module).items():
            if (inspect.isfunction(value) or inspect.isclass(value)) and "_" in name.strip("_"):
                if (getattr(value, "__module__", None) or "") == module_name:
                    defined.add(name)
    return frozenset(defined - {n for n in public if not n.startswith("_")})


def problems(error, call_names, argument_words, internal):
    """What is wrong with ``error`` as the answer to a bad call, as a list of reasons.

    ``call_names`` are the words that name the user's call (any one will do);
    ``argument_words`` those that name the offending argument (None: not checked);
    ``internal`` the names of eagerkit's internals (``internal_names``).
    """
    if not isinstance(error, OpError):
        return [f"raw {type(error).__name__}"]
    message = str(error)
    found = []
    raw = PYTHON_WORDS.search(message)
    if raw:
        found.append(f"Python's words ({raw.group(0)!r})")
    tf_op = str(getattr(error, "op", ""))  # TF's text, named after TF's op: CheckNumerics
    named = any(n in message or _camel(n) in tf_op for n in call_names if n)
    if not named:
        found.append(f"does not name the call ({' or '.join(sorted(call_names))})")
    if argument_words is not None and not any(w in message for w in argument_words):
        found.append("does not name the offending argument")
    if not FIX_WORDS.search(message) and not EXAMPLE.search(message):
        found.append("says no fix")
    leaked = sorted(w for w in set(re.findall(r"\b_*\w+\b", message)) if w in internal)
    if leaked:
        found.append(f"internal names {leaked}")
    return found


def _camel(name):
    return "".join(part.capitalize() for part in name.strip("_").split("_")) or name


def words_for(value, parameter=None):
    """Words that identify ``value`` in a message: its parameter, type, dtype, shape, value."""
    words = {parameter} if parameter else set()
    words.add(type(value).__name__)
    if isinstance(value, ek.Tensor):
        words |= {value.dtype.name, str(list(value.shape)), str(tuple(value.shape))}
        words.add(f"rank {value.ndim}")
        words.add(value._device.name)
    elif isinstance(value, np.ndarray):
        words |= {str(value.dtype), str(list(value.shape)), str(tuple(value.shape))}
        words.add(f"rank {value.ndim}")
    elif type(value).__name__ == "KerasTensor":  # its dtype; its shape shows a stand-in batch
        words |= {value.dtype.name, "KerasTensor", "symbolic"}
    elif isinstance(value, type):
        words |= {value.__name__, getattr(value, "__qualname__", "")}
    elif isinstance(value, np.dtype):
        words |= {str(value), value.name}
    elif isinstance(value, (str, bytes)):
        words |= {repr(value)[:20]} | ({str(value)[:20]} if value else set())
    elif not isinstance(value, (list, tuple, dict, set)) or len(repr(value)) < 40:
        words |= {repr(value)[:20], str(value)[:20]}
    if isinstance(value, np.generic):
        words |= {str(value.dtype)}
    words |= _as_tensor_words(value)
    words.discard("")
    return words


def _as_tensor_words(value):
    """How a message may describe a number or list by the tensor it became: its shape."""
    if isinstance(value, (str, bytes)):
        return {"string", "text", "rank 0", "()"}
    if not isinstance(value, (int, float, bool, list, tuple, np.generic)):
        return set()
    try:
        shape = np.shape(value)
    except ValueError:  # ragged: its rows are what an op sees
        return {"ragged", "rank 1"}
    found = {str(shape), str(list(shape)), f"rank {len(shape)}"}
    if isinstance(value, (list, tuple)) and len(value) <= 4:  # its items, as a message quotes
        found |= {repr(v) for v in value if isinstance(v, (int, float, str))}
        found |= {"string"} if any(isinstance(v, str) for v in value) else set()
    return found | {"shape ()", "scalar"} if shape == () else found

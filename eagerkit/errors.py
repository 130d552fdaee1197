"""Error classes named like TensorFlow's, so messages and ``except`` clauses transfer.

Each one also subclasses the Python built-in a student would reach for first
(``except ValueError`` catches an ``InvalidArgumentError``).
"""

import builtins


class OpError(Exception):
    """Base class: an op (or API call) could not run. ``op`` names it."""

    def __init__(self, message, op=None):
        super().__init__(message)
        self.message = message
        self.op = op


class InvalidArgumentError(OpError, ValueError):
    """An argument has the wrong shape, dtype or value."""


class NotFoundError(OpError, LookupError):
    """Something asked for does not exist: a kernel, a file, a checkpoint key."""


class FailedPreconditionError(OpError, RuntimeError):
    """The system is not in a state where the call can run (e.g. a spent tape)."""


class UnimplementedError(OpError, NotImplementedError):
    """The operation is not supported here."""


class OutOfRangeError(OpError, IndexError):
    """Iteration went past the end (of a dataset, say)."""


class DataLossError(OpError, OSError):
    """A file is corrupt or truncated."""


class UnavailableError(OpError, RuntimeError):
    """A device or service is not available (no GPU, no network)."""


class InternalError(OpError, RuntimeError):
    """A bug in eagerkit itself; please report it."""


class ResourceExhaustedError(OpError, MemoryError):
    """Not enough memory (or another resource) for what was asked: a tensor too large."""


class PermissionDeniedError(OpError, PermissionError):
    """The operating system refused access to a file or directory."""


# Python's own exceptions, and the eagerkit error each becomes when it escapes from inside.
_CONVERSIONS = (
    (MemoryError, ResourceExhaustedError),
    (FileNotFoundError, NotFoundError),
    (PermissionError, PermissionDeniedError),
    (OSError, UnavailableError),
    (NotImplementedError, UnimplementedError),
    (RecursionError, InternalError),
    (RuntimeError, FailedPreconditionError),
    (IndexError, OutOfRangeError),
    (LookupError, NotFoundError),
    (Exception, InvalidArgumentError),
)
_BOTH = {}  # (eagerkit class, Python class) -> a class that is both, named as the first
# Python's exceptions made from more than a message (a codec's error holds the bytes and
# where they failed): the converted error subclasses their message-only ancestor instead.
_NOT_FROM_A_MESSAGE = (UnicodeDecodeError, UnicodeEncodeError, UnicodeTranslateError)
if hasattr(builtins, "BaseExceptionGroup"):  # Python 3.11+
    _NOT_FROM_A_MESSAGE += (builtins.BaseExceptionGroup,)


def converted_class(python_class):
    """The eagerkit error for ``python_class``, still an instance of it: ``except TypeError``
    keeps working, and the traceback says ``eagerkit.errors.InvalidArgumentError``. (A
    codec's error becomes a ``UnicodeError``, an exception group an ``Exception``: Python
    makes those from more than a message.)"""
    kind = next(new for old, new in _CONVERSIONS if issubclass(python_class, old))
    # Python's own class behind it (JSONDecodeError -> ValueError): its __init__ is plain
    # (UnicodeDecodeError -> UnicodeError: made from a message, as the converted error is).
    python_class = next(
        c
        for c in python_class.__mro__
        if c.__module__ == "builtins" and not issubclass(c, _NOT_FROM_A_MESSAGE)
    )
    if issubclass(kind, python_class):
        return kind
    key = (kind, python_class)
    if key not in _BOTH:
        _BOTH[key] = type(kind.__name__, key, {"__module__": kind.__module__})
    return _BOTH[key]


def type_error(message, op):
    """An ``InvalidArgumentError`` that is also a ``TypeError``: what a protocol raises where
    Python (and TF) raise TypeError, as ``len()`` of a scalar tensor does.

    Examples
    --------
    >>> error = type_error("len: a scalar tensor has no length", op="len")
    >>> isinstance(error, TypeError), isinstance(error, InvalidArgumentError)
    (True, True)
    """
    return converted_class(TypeError)(message, op=op)

"""Error classes named like TensorFlow's, so messages and ``except`` clauses transfer.

Each one also subclasses the Python built-in a student would reach for first
(``except ValueError`` catches an ``InvalidArgumentError``).
"""


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

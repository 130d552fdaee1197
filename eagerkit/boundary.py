"""The edge of the public API: how an error looks when it reaches the user.

Whatever goes wrong inside eagerkit, the user should see one eagerkit error (TF's class
names) that names the call *they* made (``softmax``, not the ``reduce_max`` inside it), the
shapes and dtypes they passed, and the fix; and a traceback that ends at their own line, as
TensorFlow 2.7+ shows it (``tf.debugging.disable_traceback_filtering()`` there, and
``ek.debugging.disable_traceback_filtering()`` here, bring eagerkit's own frames back).

One mechanism does it, as TF's ``traceback_utils.filter_traceback`` does: every public
function and method runs inside ``at_the_boundary``, a ``try`` that does nothing until an
exception passes through it (a ``try`` costs nothing in Python 3.11 when nothing is raised).
Primitive ops need no wrapper: dispatch.py calls ``user_error`` where it turns a numpy error
into an op error. namespaces.py puts the wrappers on the public namespaces once, at import;
eagerkit's own modules call the unwrapped functions.
"""

import functools
import os
import sysconfig
import types

from eagerkit import errors

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
# Files whose exceptions are eagerkit's fault, not the user's: eagerkit, numpy, the stdlib.
_LIBRARY_DIRS = tuple(
    {_PACKAGE_DIR, *(sysconfig.get_paths()[key] for key in ("stdlib", "purelib", "platlib"))}
)
_filtering = True  # ek.debugging.disable_traceback_filtering() turns it off

# Python's own exceptions, and the eagerkit error each becomes when it escapes from inside.
_CONVERSIONS = (
    (MemoryError, errors.ResourceExhaustedError),
    (FileNotFoundError, errors.NotFoundError),
    (PermissionError, errors.PermissionDeniedError),
    (OSError, errors.UnavailableError),
    (NotImplementedError, errors.UnimplementedError),
    (RecursionError, errors.InternalError),
    (RuntimeError, errors.FailedPreconditionError),
    (LookupError, errors.NotFoundError),
    (Exception, errors.InvalidArgumentError),
)
_BOTH = {}  # (eagerkit class, Python class) -> a class that is both, named as the first
# Not errors to convert: the AssertionError TF's assert_* methods raise on purpose.
_PROTOCOL = (AssertionError,)


def set_filtering(enabled):
    global _filtering
    _filtering = bool(enabled)


def is_filtering():
    return _filtering


def user_error(error, cause=None):
    """``error`` ready to raise to the user: our frames dropped and no chained numpy error
    (or, with filtering off, every frame and ``cause`` chained as "the direct cause")."""
    if _filtering:
        error.__traceback__ = _user_frames(error.__traceback__)
        error.__cause__ = None
        error.__suppress_context__ = True
    elif cause is not None:
        error.__cause__ = cause
    return error


def public(function, name=None):
    """``function`` inside the boundary: its errors leave as eagerkit errors naming ``name``."""
    label = name or function.__name__

    @functools.wraps(function)
    def at_the_boundary(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except _PROTOCOL:
            raise
        except Exception as error:
            outcome = symbolic_fallback(at_the_boundary, label, args, kwargs, error)
            if not isinstance(outcome, BaseException):
                return outcome  # given a KerasTensor: a node of a functional model
            shown = _shown(outcome, label, args, kwargs)
            raise shown from shown.__cause__  # see ek.debugging.disable_traceback_filtering()

    at_the_boundary.__boundary__ = True
    return at_the_boundary


NOT_SYMBOLIC = object()
# Who else may answer a failed call, asked in turn: type_dispatch.py (ragged and sparse
# tensors, string +) and the Keras functional API (keras/symbolic.py), each installed when
# its module is imported, so the engine imports neither.
_fallbacks = []


def install_symbolic_fallback(fallback):
    """Let ``fallback(function, label, args, kwargs)`` answer calls that failed: it returns
    what the call gives (a node of a Keras model for KerasTensors, a RaggedTensor for ragged
    inputs), or ``NOT_SYMBOLIC`` when the call is not its business.

    keras/symbolic.py installs one when it is imported, so the engine never imports Keras:
    without Keras loaded there are no KerasTensors, and a failed call is simply an error.
    """
    if fallback not in _fallbacks:
        _fallbacks.append(fallback)


def symbolic_fallback(function, label, args, kwargs, error):
    """What a call that raised ``error`` gives instead: when it was given a KerasTensor (the
    Keras functional API), a node of the model being built (keras/symbolic.py); when given a
    RaggedTensor or SparseTensor, the op applied to it (type_dispatch.py); or, if the call
    fails for real too (``ek.concat(..., axis=5)``), that error; else ``error``."""
    for fallback in _fallbacks:
        try:
            recorded = fallback(function, label, args, kwargs)
        except Exception as failure:  # noqa: BLE001 - the caller raises it as its own error
            return failure
        if recorded is not NOT_SYMBOLIC:
            return recorded
    return error


def public_method(function, method_name):
    """A method inside the boundary; its errors name the class (``Dense``, ``Adam.minimize``)."""

    @functools.wraps(function)
    def at_the_boundary(self, *args, **kwargs):
        try:
            return function(self, *args, **kwargs)
        except _PROTOCOL:
            raise
        except Exception as error:
            label = type(self).__name__
            if method_name not in CONSTRUCTION:
                label += "." + method_name
            shown = _shown(error, label, args, kwargs)
            raise shown from shown.__cause__  # see ek.debugging.disable_traceback_filtering()

    at_the_boundary.__boundary__ = True
    return at_the_boundary


CONSTRUCTION = ("__init__", "__call__")  # methods whose errors name just the class


def _shown(error, label, args, kwargs):
    """The error to raise at the boundary of the call ``label(*args, **kwargs)``."""
    if isinstance(error, errors.OpError):
        if _from_an_inner_op(error, label):  # say which of the user's calls it happened in
            error.detail = getattr(error, "detail", error.message)
            error.message = f"{label}({_describe(args, kwargs)}): {error.detail}"
            error.args = (error.message,)
            error.op = label
        return user_error(error)
    if _raised_by_user_code(error.__traceback__):
        return user_error(error)  # the user's own callback (a loss_fn, a map function) raised it
    # A raw Python or numpy error leaked out of eagerkit: an eagerkit error naming the call.
    kind = converted_class(type(error))
    text = str(error) or type(error).__name__
    converted = kind(f"{label}({_describe(args, kwargs)}): {text}", op=label)
    converted.__traceback__ = error.__traceback__
    converted.converted_from = type(error).__name__  # the property test counts these
    return user_error(converted, cause=error)


def _from_an_inner_op(error, label):
    """True when ``error`` came from an op or public call inside ``label``, not from it."""
    from eagerkit.registry import REGISTRY

    inner = error.op in REGISTRY or hasattr(error, "detail")  # a primitive, or a boundary
    return inner and error.op not in (label, label.rsplit(".", 1)[-1])


def converted_class(python_class):
    """The eagerkit error for ``python_class``, still an instance of it: ``except TypeError``
    keeps working, and the traceback says ``eagerkit.errors.InvalidArgumentError``."""
    kind = next(new for old, new in _CONVERSIONS if issubclass(python_class, old))
    # Python's own class behind it (JSONDecodeError -> ValueError): its __init__ is plain.
    python_class = next(c for c in python_class.__mro__ if c.__module__ == "builtins")
    if issubclass(kind, python_class):
        return kind
    key = (kind, python_class)
    if key not in _BOTH:
        _BOTH[key] = type(kind.__name__, key, {"__module__": kind.__module__})
    return _BOTH[key]


def _raised_by_user_code(traceback):
    """True when the innermost frame of ``traceback`` is outside eagerkit and the libraries."""
    if traceback is None:
        return False
    while traceback.tb_next is not None:
        traceback = traceback.tb_next
    filename = traceback.tb_frame.f_code.co_filename
    compiled = not os.path.isabs(filename) and not filename.startswith("<")  # Cython's .pyx
    return not (compiled or filename.startswith(_LIBRARY_DIRS))


def _user_frames(traceback):
    """A copy of ``traceback`` without the frames of eagerkit's own files."""
    kept = []
    while traceback is not None:
        if not traceback.tb_frame.f_code.co_filename.startswith(_PACKAGE_DIR):
            kept.append(traceback)
        traceback = traceback.tb_next
    filtered = None
    for entry in reversed(kept):
        filtered = types.TracebackType(filtered, entry.tb_frame, entry.tb_lasti, entry.tb_lineno)
    return filtered


def _describe(args, kwargs):
    """``float32[2, 3], axis=5``: what the user passed, as dtypes and shapes."""
    parts = [_describe_value(a) for a in args]
    parts += [f"{k}={_describe_value(v)}" for k, v in kwargs.items()]
    return ", ".join(parts)


def _describe_value(value):
    from eagerkit.tensor import Tensor

    if isinstance(value, Tensor):
        where = "" if value._device.name == "/cpu:0" else f" on {value._device.name}"
        kind = "Variable " if value._is_variable else ""
        return f"{kind}{value.dtype.name}{list(value.shape)}{where}"
    if hasattr(value, "dtype") and hasattr(value, "shape"):  # a numpy array or scalar
        return f"{type(value).__name__} {value.dtype}{list(value.shape)}"
    if isinstance(value, (list, tuple)):
        return f"{type(value).__name__} of {len(value)}"
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes)):
        text = repr(value)
        return text if len(text) <= 24 else text[:21] + "..."
    return type(value).__name__

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
import re
import sys
import sysconfig
import types

from eagerkit import arguments, binding, errors, op_errors
from eagerkit.errors import converted_class  # noqa: F401 - kept here for callers of boundary's

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
# Files whose exceptions are eagerkit's fault, not the user's: eagerkit, numpy, the stdlib.
_LIBRARY_DIRS = tuple(
    {_PACKAGE_DIR, *(sysconfig.get_paths()[key] for key in ("stdlib", "purelib", "platlib"))}
)
_filtering = True  # ek.debugging.disable_traceback_filtering() turns it off

# Not errors to convert: the AssertionError TF's assert_* methods raise on purpose.
_PROTOCOL = (AssertionError,)


def set_filtering(enabled):
    global _filtering
    _filtering = bool(enabled)


def is_filtering():
    return _filtering


def user_stacklevel():
    """The ``stacklevel`` that points a warning at the user's call, past eagerkit's frames
    (``warnings.warn(..., stacklevel=user_stacklevel())``)."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame, level = frame.f_back, level + 1
    return level


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
            shown = _shown(outcome, label, args, kwargs, function)
            try:
                raise shown from shown.__cause__  # see ek.debugging.disable_traceback_filtering()
            finally:
                del shown, outcome  # its traceback holds this frame: a cycle, until gc ran

    at_the_boundary.__boundary__ = True
    return at_the_boundary


def returned(function, producer, of):
    """``function``, which the public call ``producer(of)`` returns for users to call, inside
    the boundary: its errors name ``gradients_function(loss)``, the call that made it."""
    name = getattr(of, "__name__", type(of).__name__)
    return public(function, f"{producer}({name})")


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


def inside_a_public_call():
    """Whether the public call whose error a fallback is answering runs inside another public
    call: then that outer call is the one to dispatch, not this inner one.

    Called from a fallback; the frames are: this one, the fallback, ``symbolic_fallback``,
    the boundary or dispatch that caught the error, then eagerkit's callers up to the user's.
    """
    frame = sys._getframe(4)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        if frame.f_code.co_name == "at_the_boundary" and frame.f_code.co_filename == __file__:
            return True
        frame = frame.f_back
    return False


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
            shown = _shown(error, label, args, kwargs, function, self)
            try:
                raise shown from shown.__cause__  # see ek.debugging.disable_traceback_filtering()
            finally:
                del shown  # its traceback holds this frame: a cycle, until gc ran

    at_the_boundary.__boundary__ = True
    return at_the_boundary


CONSTRUCTION = ("__init__", "__call__")  # methods whose errors name just the class


def _shown(error, label, args, kwargs, function=None, *bound):
    """The error to raise at the boundary of the call ``label(*args, **kwargs)``
    (``function(*bound, *args, **kwargs)``: ``bound`` is a method's object)."""
    if isinstance(error, errors.OpError):
        if _from_an_inner_op(error, label):  # say which of the user's calls it happened in
            error.detail = getattr(error, "detail", error.message)
            named = error.detail.startswith(f"{label.rsplit('.', 1)[-1]}:")  # names it already
            error.message = (
                error.detail if named else f"{label}({_describe(args, kwargs)}): {error.detail}"
            )
            error.args = (error.message,)
            error.op = label
        return user_error(error)
    if _raised_by_user_code(error.__traceback__):
        return user_error(error)  # the user's own callback (a loss_fn, a map function) raised it
    # A raw Python or numpy error leaked out of eagerkit: an eagerkit error naming the call.
    kind = errors.converted_class(type(error))
    text = _in_our_words(error, label, function, bound, args, kwargs)
    converted = kind(f"{label}({_describe(args, kwargs)}): {text}", op=label)
    converted.detail = text  # an outer public call names itself in place of this one
    converted.__traceback__ = error.__traceback__
    converted.converted_from = type(error).__name__  # the property test counts these
    return user_error(converted, cause=error)


def _in_our_words(error, label, function, bound, args, kwargs):
    """What went wrong, as said to the user: the arguments that do not fit the call, or the
    argument to blame, or what the file system refused, before Python's own words."""
    if isinstance(error, TypeError):
        # A wrapper object (ek.function's) is called with the arguments of what it wraps.
        wrapped = getattr(bound[0], "__wrapped__", None) if bound else None
        target, owner = (wrapped, ()) if callable(wrapped) else (function, bound)
        mismatch = binding.mismatch(label, target, owner, args, kwargs)
        if mismatch:
            return f"{mismatch}; call it as {label}{binding.signature_text(target, owner)}"
    if isinstance(error, AttributeError) and bound and getattr(bound[0], "built", True) is False:
        return (  # a layer's call() before build(): its weights do not exist yet
            f"{type(bound[0]).__name__} is not built yet, so it has no weights; call the layer "
            "itself on an input first (layer(x) builds it), or layer.build(input_shape)"
        )
    blamed = binding.blame(function, bound, args, kwargs, error)
    return blamed or _os_error_text(error) or op_errors.reworded(str(error)) or type(error).__name__


def _os_error_text(error):
    """What the file system (or the memory) refused, in words that say what to do (not
    ``[Errno 2] ...``)."""
    if isinstance(error, MemoryError):
        from eagerkit.op_errors import out_of_memory

        return out_of_memory(str(error))
    if not isinstance(error, OSError) or error.strerror is None:
        return None
    where = f" for {error.filename!r}" if error.filename is not None else ""
    return (
        f"the operating system refused{where}: {error.strerror.lower()}; check that the "
        "path is right, that its folder exists and that you may write there, or use another"
    )


def _from_an_inner_op(error, label):
    """True when ``error`` came from something ``label`` called (an op, a conversion, another
    public call) and does not name ``label`` yet: the user must see the call they made."""
    from eagerkit.registry import REGISTRY

    short = label.rsplit(".", 1)[-1]
    if error.op in (label, short):
        return False
    if error.op in REGISTRY or hasattr(error, "detail"):  # a primitive, or a boundary
        return True
    # Anything else inside (a conversion, a checker) unless the message names the call, or is
    # TF's own text, named after TF's op ("CheckNumerics", "IteratorGetNext"), as TF prints it.
    tf_op = str(error.op)[:1].isupper() and str(error.op).isalnum()
    # (a dotted mention is another call's name: "use ek.ragged.constant" does not name constant)
    named = any(re.search(rf"(?<![\w.]){re.escape(n)}\b", error.message) for n in {label, short})
    return not tf_op and not named


def _raised_by_user_code(traceback):
    """True when the innermost frame of ``traceback`` is outside eagerkit and the libraries."""
    if traceback is None:
        return False
    while traceback.tb_next is not None:
        traceback = traceback.tb_next
    filename = traceback.tb_frame.f_code.co_filename
    compiled = not os.path.isabs(filename) and not filename.startswith("<")  # Cython's .pyx
    frozen = filename.startswith("<frozen ")  # the standard library's own (os.makedirs)
    return not (compiled or frozen or filename.startswith(_LIBRARY_DIRS))


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
    try:
        return arguments.describe(value)
    except Exception:  # noqa: BLE001 - describing must never hide the error it describes
        return type(value).__name__

"""The edge of the public API: how an error looks when it reaches the user.

Whatever goes wrong inside eagerkit, the user should see one eagerkit error (TF's class
names) that names the call *they* made (``softmax``, not the ``reduce_max`` inside it), the
shapes and dtypes they passed, and the fix; and a traceback that ends at their own line, as
TensorFlow 2.7+ shows it (``tf.debugging.disable_traceback_filtering()`` there, and
``ek.debugging.disable_traceback_filtering()`` here, bring eagerkit's own frames back).

One mechanism does it, as TF's ``traceback_utils.filter_traceback`` does: every public
function and method runs inside ``at_the_boundary``, a ``try`` that does nothing until an
exception passes through it (a ``try`` costs nothing in Python 3.11 when nothing is raised).
Primitive ops need no wrapper: dispatch (registry.py) calls ``user_error`` where it turns a
numpy error into an op error. ``install`` puts the wrappers on the public namespaces once, at
import; eagerkit's own modules call the unwrapped functions.
"""

import functools
import inspect
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
            shown = _shown(error, label, args, kwargs)
            raise shown from shown.__cause__  # see ek.debugging.disable_traceback_filtering()

    at_the_boundary.__boundary__ = True
    return at_the_boundary


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
            if method_name not in _CONSTRUCTION:
                label += "." + method_name
            shown = _shown(error, label, args, kwargs)
            raise shown from shown.__cause__  # see ek.debugging.disable_traceback_filtering()

    at_the_boundary.__boundary__ = True
    return at_the_boundary


_CONSTRUCTION = ("__init__", "__call__")


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


# --- putting the boundary on the public namespaces ------------------------------------------
def install(namespaces):
    """Wrap every public function and class method reachable from ``namespaces`` (modules).

    One wrapper per function, shared by every namespace that names it, so ``ek.math.exp is
    ek.exp`` still holds. Primitive ops (they have ``.op``) are their own boundary.
    """
    wrapped, seen_classes = {}, set()
    for module, attribute, value in public_members(namespaces):
        if inspect.isclass(value):
            if value not in seen_classes:
                seen_classes.add(value)
                _wrap_methods(value)
        elif _wrappable(value):
            if value not in wrapped:
                wrapped[value] = public(value)
            setattr(module, attribute, wrapped[value])
    return len(wrapped) + len(seen_classes)


def public_members(namespaces):
    """``(module, name, value)`` for each public function and class of eagerkit's that the
    namespaces export (error classes aside); the first namespace is the root, ``ek``."""
    for module in namespaces:
        for attribute in _public_names(module):
            value = getattr(module, attribute, None)
            if not _ours(value) or not _exported_by(module, value, namespaces[0]):
                continue
            if inspect.isclass(value) and issubclass(value, BaseException):
                continue  # error classes are what the boundary raises
            if inspect.isclass(value) or callable(value):
                yield module, attribute, value


def _public_names(module):
    """``__all__``, or else every attribute without a leading underscore."""
    names = getattr(module, "__all__", None)
    return list(names) if names is not None else [n for n in vars(module) if n[0] != "_"]


def _exported_by(module, value, root):
    """A module lists what it exports in ``__all__``; without one (the root aside), only
    what it defines counts, not the helpers it imports for its own use."""
    if module is root or hasattr(module, "__all__"):
        return True
    return getattr(value, "__module__", None) == module.__name__


def _ours(value):
    return getattr(value, "__module__", "").split(".")[0] == "eagerkit"


def _wrappable(value):
    return (
        isinstance(value, types.FunctionType)
        and _ours(value)
        and not hasattr(value, "op")  # a primitive: dispatch is its boundary
        and not getattr(value, "__boundary__", False)
    )


def _wrap_methods(cls):
    """Put ``cls``'s construction and the public methods it has (its own and those of its
    eagerkit base classes) inside the boundary."""
    for owner in cls.__mro__:
        if owner is object or not _ours(owner) or vars(owner).get("__boundary_done__"):
            continue
        for name, member in list(vars(owner).items()):
            if name.startswith("_") and name not in _CONSTRUCTION:
                continue
            if isinstance(member, (staticmethod, classmethod)) and _wrappable(member.__func__):
                label = f"{owner.__name__}.{name}"
                setattr(owner, name, type(member)(public(member.__func__, label)))
            elif _wrappable(member) and not (owner.__name__ == "Tensor" and name == "__init__"):
                setattr(owner, name, public_method(member, name))  # (Tensor() runs on every op)
        owner.__boundary_done__ = True
    _wrap_construction(cls)


def _wrap_construction(cls):
    """``cls(...)`` with wrong arguments fails inside the boundary even when ``__init__`` or
    ``__new__`` is not eagerkit's own code (a namedtuple's, object's)."""
    if getattr(cls.__init__, "__boundary__", False) or cls.__name__ == "Tensor":
        return
    if cls.__init__ is not object.__init__:
        cls.__init__ = public_method(cls.__init__, "__init__")
    elif cls.__new__ is object.__new__:  # neither is ours: object's complains about arguments
        cls.__init__ = public_method(object.__init__, "__init__")
    elif isinstance(vars(cls).get("__new__"), staticmethod) or "__new__" in vars(cls):
        new = inspect.getattr_static(cls, "__new__")
        new = new.__func__ if isinstance(new, staticmethod) else new
        cls.__new__ = staticmethod(public(new, cls.__name__))


def module_namespaces(root, names):
    """``root`` and those of its sub-namespaces ``names`` (dotted: ``keras.layers``) that
    exist, found as attributes (``ek.metrics`` may be another module under a second name)."""
    found = [root]
    for dotted in names:
        module = root
        for part in dotted.split("."):
            module = getattr(module, part, None)
        if isinstance(module, types.ModuleType) and module not in found:
            found.append(module)
    return found

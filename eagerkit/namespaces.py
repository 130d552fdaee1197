"""TF's namespaces (``ek.nn``, ``ek.keras.layers``, ...) and putting them inside the boundary.

``install`` wraps every public function and every public method of a public class in
``boundary.public`` once, when eagerkit is imported, so whatever a user calls fails with an
eagerkit error naming that call. ``public_members`` is the one walk over the namespaces:
the error boundary and the property test of the public API (tests/public_api.py) both use
it, so a name added to a namespace is wrapped and fuzzed without being listed anywhere.
"""

import inspect
import sys
import types

from eagerkit.boundary import CONSTRUCTION, public, public_method
from eagerkit.missing_names import name_namespace


def install(namespaces, returned=()):
    """Wrap every public function and class method reachable from ``namespaces`` (modules),
    and the methods of the ``returned`` classes (what public calls return: ``ek.function``'s
    Function, its ConcreteFunction).

    One wrapper per function, shared by every namespace that names it, so ``ek.math.exp is
    ek.exp`` still holds. Primitive ops (they have ``.op``) are their own boundary.
    """
    for cls in returned:
        _wrap_methods(cls)
    wrapped, seen_classes = {}, set(returned)
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
            if not ours(value) or not _exported_by(module, value, namespaces[0]):
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


def ours(value):
    return getattr(value, "__module__", "").split(".")[0] == "eagerkit"


def _wrappable(value):
    return (
        isinstance(value, types.FunctionType)
        and ours(value)
        and not hasattr(value, "op")  # a primitive: dispatch is its boundary
        and not getattr(value, "__boundary__", False)
    )


def _wrap_methods(cls):
    """Put ``cls``'s construction and the public methods it has (its own and those of its
    eagerkit base classes) inside the boundary."""
    for owner in cls.__mro__:
        if owner is object or not ours(owner) or vars(owner).get("__boundary_done__"):
            continue
        for name, member in list(vars(owner).items()):
            if name.startswith("_") and name not in CONSTRUCTION:
                continue
            if isinstance(member, (staticmethod, classmethod)) and _wrappable(member.__func__):
                shown = vars(owner).get("_shown_as", owner.__name__)  # a mixin: its class
                label = f"{shown}.{name}"
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


def second_name(name, target):
    """A module ``name`` with ``target``'s names: TF 1's ``tf.layers`` holds Keras' layers,
    yet ``ek.layers.X`` must fail as ``ek.layers``, not ``ek.keras.layers``; one module
    object cannot answer under two names, so the second name gets its own (same members).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.layers.Dense is ek.keras.layers.Dense
    True
    """
    module = types.ModuleType(name, target.__doc__)
    for attribute, value in vars(target).items():
        if not attribute.startswith("_"):
            setattr(module, attribute, value)
    module.__all__ = list(target.__all__)
    sys.modules[name] = module  # (import eagerkit.layers works too)
    return module


def name_namespaces(root, names):
    """Each public namespace ``root.<dotted>`` answers a missing name under that name."""
    for dotted in names:
        module = root
        for part in dotted.split("."):
            module = getattr(module, part)
        name_namespace(module, f"{root.__name__}.{dotted}")

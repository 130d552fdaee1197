"""Every public callable of eagerkit, found by walking ``ek``'s namespaces.

An entry is named the way a user reaches it: ``ek.nn.softmax`` (a function),
``ek.keras.layers.Dense`` (building one), ``ek.keras.layers.Dense.build`` (a method, inherited
ones included), ``ek.Tensor.__add__`` (an operator or protocol: ``x + y``, ``len(x)``), and
``ek.gradients_function()`` for what a call returns that is called in turn (``.method`` after
it for that object's methods). A callable with several public names is walked once, under the
first (the root's, then the namespaces' in ``ek.PUBLIC_NAMESPACES`` order).
"""

import functools
import inspect
import os
import types
from dataclasses import dataclass, field

import eagerkit as ek

# Dunder methods that are plumbing, not something a user calls: object creation and
# attribute machinery (``__init__`` is the class's own entry).
PLUMBING = frozenset(
    """__init__ __new__ __init_subclass__ __class_getitem__ __subclasshook__ __getattribute__
    __getattr__ __delattr__ __dir__ __sizeof__ __reduce_ex__ __getstate__ __setstate__
    __set_name__ __get__ __post_init__ __del__ __weakref__""".split()
)


@dataclass
class Entry:
    """One public callable: how a user reaches it, and what it is."""

    name: str
    kind: str  # "function", "class", "method" or "returned"
    target: object  # the function, or the class (for its construction and its methods)
    attribute: str | None = None  # the method's name
    owner: type | None = None  # the class that defines the method
    aliases: set = field(default_factory=set)  # every public name of the callable

    @property
    def short(self):
        """The name a message should contain: ``softmax``, ``Dense``, ``build``."""
        if self.kind in ("function", "class") or self.attribute is None:
            return self.name.rsplit(".", 1)[-1]  # (what a call returned: "gradients_function()")
        return self.attribute


def namespaces():
    """``{dotted name: module}``: ``ek`` and each of ``ek.PUBLIC_NAMESPACES``."""
    found = {"ek": ek}
    for dotted in ek.PUBLIC_NAMESPACES:
        found[f"ek.{dotted}"] = functools.reduce(getattr, dotted.split("."), ek)
    return found


def exported(module):
    """The names a namespace exports: its ``__all__`` (the root: its public attributes)."""
    if module is ek:
        return [n for n in vars(ek) if not n.startswith("_")]
    return list(module.__all__)


def public_callables():
    """``{name: Entry}`` for every public function and class, first name first."""
    entries, by_id = {}, {}
    for prefix, module in namespaces().items():
        for attribute in exported(module):
            value = getattr(module, attribute)
            if isinstance(value, types.ModuleType) or not callable(value):
                continue
            if inspect.isclass(value) and issubclass(value, BaseException):
                continue  # the errors are what the surface raises (ek.errors)
            name = f"{prefix}.{attribute}"
            if id(value) in by_id:
                by_id[id(value)].aliases.add(attribute)
                continue
            kind = "class" if inspect.isclass(value) else "function"
            entry = Entry(name, kind, value, aliases={attribute})
            entries[name] = by_id[id(value)] = entry
    return entries


def methods(class_name, cls):
    """``{name: Entry}`` for the public methods, operators and protocols of ``cls``."""
    found = {}
    for attribute in sorted(dir(cls)):
        public = not attribute.startswith("_")
        dunder = attribute.startswith("__") and attribute not in PLUMBING
        if not (public or dunder):
            continue
        owner = _defining_class(cls, attribute)
        if owner is None:
            continue  # object's, or a non-eagerkit base class's (a namedtuple's count)
        member = inspect.getattr_static(owner, attribute)
        if isinstance(member, (staticmethod, classmethod)):
            member = member.__func__
        if member is None or isinstance(member, property) or not callable(member):
            continue  # __hash__ = None (unhashable), properties, class attributes
        name = f"{class_name}.{attribute}"
        found[name] = Entry(name, "method", cls, attribute, owner, aliases={attribute})
    return found


def _defining_class(cls, attribute):
    """The eagerkit class in ``cls``'s MRO that defines ``attribute``, or None."""
    for owner in cls.__mro__:
        if attribute in vars(owner):
            return owner if _ours(owner) else None
    return None


def _ours(value):
    return (getattr(value, "__module__", None) or "").startswith("eagerkit")


def static_surface():
    """Every public function, class and method, without calling anything."""
    surface = public_callables()
    for entry in list(surface.values()):
        if entry.kind == "class":
            surface.update(methods(entry.name, entry.target))
    return surface


def returned_surface(surface, results):
    """Entries for what calls returned that the surface does not hold yet.

    ``results`` maps an entry's name to what its valid call returned. A function of
    eagerkit's becomes ``name()``; an object of an eagerkit class that is not public yet
    becomes ``name()`` (if callable) and ``name().method`` for each of its methods.
    """
    known = {e.target for e in surface.values()}  # functions, and classes (of methods too)
    # A closure made anew by each call (each layer's with_name_scope) is walked once.
    known |= {_code(e.target) for e in surface.values() if e.kind == "returned"}
    new = {}
    for producer in sorted(results):
        for value in _parts(results[producer]):
            name = f"{producer}()"
            if _is_function(value) and _our_code(value) and not {value, _code(value)} & known:
                if name not in surface:
                    new[name] = Entry(name, "returned", value, aliases={value.__name__})
                    known.add(_code(value))
            elif _ours(type(value)) and type(value) not in known and not _is_function(value):
                cls = type(value)
                known.add(cls)
                for method in methods(name, cls).values():
                    if method.attribute == "__call__":
                        method = Entry(name, "returned", cls, "__call__", method.owner)
                    method.aliases |= {cls.__name__}
                    new.setdefault(method.name, method)
    return new


def _parts(result):
    """A result and, one level down, the items of a tuple, list or dict it is."""
    if isinstance(result, (tuple, list)):
        return [result, *result]
    if isinstance(result, dict):
        return [result, *result.values()]
    return [result]


def _code(function):
    """The code a returned function runs: through the error boundary's wrapper (one code
    object for every wrapped function) to what it wraps."""
    function = function.func if isinstance(function, functools.partial) else function
    while getattr(function, "__boundary__", False):
        function = function.__wrapped__
    return getattr(function, "__code__", None)


def _our_code(function):
    """True for a function written in eagerkit, even one that took a user function's name
    and module with ``functools.wraps`` (what gradients_function returns)."""
    code = _code(function)
    return code is not None and code.co_filename.startswith(os.path.dirname(ek.__file__))


def _is_function(value):
    return isinstance(value, (types.FunctionType, functools.partial))

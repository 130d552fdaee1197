"""Module (``ek.Module``, TF2's ``tf.Module``): an object that finds its own variables.

Keep Variables and other Modules in attributes (or in lists, tuples and dicts held in
attributes) and ``variables``, ``trainable_variables`` and ``submodules`` collect them, with
no registration step. As in TF, attributes are visited in sorted order of their names and a
module's own variables come before those of its submodules. A variable made after a checkpoint
was restored into the module (a lazily built one) takes the restored value when it is
assigned. Keras' ``Layer`` is a Module too (it lists its variables in creation order instead,
as Keras does).

Examples
--------
>>> import eagerkit as ek
>>> class SimpleModule(ek.Module):
...     def __init__(self, name=None):
...         super().__init__(name=name)
...         self.a_variable = ek.Variable(5.0, name="train_me")
...         self.non_trainable_variable = ek.Variable(5.0, trainable=False, name="do_not_train_me")
...     def __call__(self, x):
...         return self.a_variable * x + self.non_trainable_variable
>>> simple_module = SimpleModule(name="simple")
>>> simple_module(ek.constant(5.0))
<ek.Tensor: shape=(), dtype=float32, numpy=30.0>
>>> simple_module.trainable_variables
(<ek.Variable 'train_me:0' shape=() dtype=float32, numpy=5.0>,)
"""

import functools
import re

from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError
from eagerkit.name_scope import name_scope as _name_scope
from eagerkit.train.tracking import restore_deferred
from eagerkit.variables import Variable


def snake_case(name):
    """``MNISTModel`` -> ``mnist_model``, ``Conv2D`` -> ``conv2d`` (TF's default names)."""
    words = re.sub(r"(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", words).lower()


class Module:
    """Base class for objects that hold variables and other modules.

    Examples
    --------
    >>> import eagerkit as ek
    >>> class Dense(ek.Module):
    ...     def __init__(self, in_features, out_features, name=None):
    ...         super().__init__(name=name)
    ...         self.w = ek.Variable(ek.ones([in_features, out_features]), name="w")
    ...         self.b = ek.Variable(ek.zeros([out_features]), name="b")
    ...     def __call__(self, x):
    ...         return ek.nn.relu(ek.matmul(x, self.w) + self.b)
    >>> class Stack(ek.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.dense_1 = Dense(3, 3)
    ...         self.dense_2 = Dense(3, 2)
    >>> model = Stack()
    >>> model.name, [m.name for m in model.submodules], [v.name for v in model.variables]
    ('stack', ['dense', 'dense'], ['b:0', 'w:0', 'b:0', 'w:0'])
    """

    def __init__(self, name=None):
        if name is not None and not (isinstance(name, str) and name.isidentifier()):
            raise InvalidArgumentError(
                f"{name!r} is not a valid module name: module names must be valid Python "
                "identifiers (e.g. a valid class name), such as 'encoder' or 'dense_1'",
                op=type(self).__name__,
            )
        self._name = name or snake_case(type(self).__name__)

    def __setattr__(self, name, value):
        super().__setattr__(name, value)
        if isinstance(value, Variable):  # made after a checkpoint restore? take its value
            restore_deferred(self)

    @property
    def name(self):
        """The name given to the constructor, or the class name in snake_case."""
        return vars(self).get("_name") or snake_case(type(self).__name__)

    @name.setter
    def name(self, value):
        self._name = value

    @property
    def name_scope(self):
        """``with module.name_scope:`` prefixes variables made inside with ``<name>/``."""
        return _name_scope(self.name)

    @property
    def variables(self):
        """Every Variable of this module and its submodules (a tuple, each once)."""
        return tuple(_flatten(self, lambda value: isinstance(value, Variable)))

    @property
    def trainable_variables(self):
        """The variables with ``trainable=True``: what an optimizer should change."""
        return tuple(v for v in self.variables if v.trainable)

    @property
    def non_trainable_variables(self):
        """The variables with ``trainable=False`` (counters, running averages, ...)."""
        return tuple(v for v in self.variables if not v.trainable)

    @property
    def submodules(self):
        """Every Module inside this one, directly or through other modules (a tuple)."""
        return tuple(_flatten(self, lambda value: isinstance(value, Module)))

    @classmethod
    def with_name_scope(cls, method):
        """Decorate a method so that it runs inside the module's name scope.

        Examples
        --------
        >>> import eagerkit as ek
        >>> class Lazy(ek.Module):
        ...     @ek.Module.with_name_scope
        ...     def __call__(self, x):
        ...         if not hasattr(self, "w"):
        ...             self.w = ek.Variable(ek.ones([x.shape[1], 3]))
        ...         return ek.matmul(x, self.w)
        >>> lazy = Lazy()
        >>> _ = lazy(ek.ones([1, 2]))
        >>> lazy.w.name
        'lazy/Variable:0'
        """

        @functools.wraps(method)
        def in_scope(self, *args, **kwargs):
            if not isinstance(self, Module):  # called unbound, on something else
                raise InvalidArgumentError(
                    f"with_name_scope({method.__name__}): decorates methods of an ek.Module, "
                    f"but was called on {describe(self)}; call it as module.method(...)",
                    op="with_name_scope",
                )
            with self.name_scope:
                return method(self, *args, **kwargs)

        return in_scope

    def __repr__(self):
        return f"<ek.Module {type(self).__name__} '{self.name}'>"


def _flatten(module, predicate):
    """The values reachable from ``module`` that satisfy ``predicate``, each once, in TF's
    order: this module's attributes by sorted name (containers opened in place), then the
    submodules found there, recursively."""
    seen = {id(module)}
    pending = [module]
    while pending:
        current, submodules = pending.pop(0), []
        for leaf in _leaves(vars(current)):
            if id(leaf) in seen:
                continue
            seen.add(id(leaf))
            if predicate(leaf):
                yield leaf
            if isinstance(leaf, Module):
                submodules.append(leaf)
        pending[:0] = submodules  # depth first: a submodule's contents before the next one's


def _leaves(value):
    """The non-container values inside ``value``: dicts by sorted key, lists in order."""
    if isinstance(value, dict):
        for key in sorted(value, key=str):
            yield from _leaves(value[key])
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _leaves(item)
    else:
        yield value

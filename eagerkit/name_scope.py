"""Name scopes (``ek.name_scope``): prefixes for the names of the variables made inside.

``with ek.name_scope("encoder"):`` makes ``ek.Variable(1.0, name="w")`` be called
``'encoder/w:0'``, as in TF2. Scopes nest. Nothing else depends on names (checkpoints
follow objects), so a scope only helps people read what they made.

Examples
--------
>>> import eagerkit as ek
>>> with ek.name_scope("encoder"):
...     with ek.name_scope("layer_1") as scope:
...         w = ek.Variable(1.0, name="w")
>>> scope, w.name
('encoder/layer_1/', 'encoder/layer_1/w:0')
"""

import threading

_state = threading.local()  # each thread has its own stack of scope names


def _stack():
    stack = getattr(_state, "stack", None)
    if stack is None:
        stack = _state.stack = []
    return stack


def current_prefix():
    """``'a/b/'`` inside ``name_scope('a')`` and ``name_scope('b')``; ``''`` outside any."""
    stack = _stack()
    return stack[-1] if stack else ""


class name_scope:  # noqa: N801 - TF's name; used as ``with ek.name_scope("x"):``
    """A context manager that prefixes the names of variables made inside it.

    It can be entered again and again (``tf.Module.name_scope`` is one such object). A name
    ending in ``/`` is absolute: it replaces the enclosing scopes instead of nesting.
    """

    def __init__(self, name):
        if not isinstance(name, str):
            from eagerkit.errors import InvalidArgumentError

            raise InvalidArgumentError(
                f"name_scope: the name must be a string, got {type(name).__name__} {name!r}",
                op="name_scope",
            )
        self.name = name

    def __enter__(self):
        if self.name.endswith("/"):
            scope = self.name  # absolute, as TF's name_scope("outer/inner/")
        else:
            scope = current_prefix() + self.name + "/" if self.name else current_prefix()
        _stack().append(scope)
        return scope

    def __exit__(self, *exc_info):
        _stack().pop()
        return False

    def __repr__(self):
        return f"<ek.name_scope {self.name!r}>"

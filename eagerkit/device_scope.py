"""Where new tensors go: the stack of ``ek.device(...)`` blocks, one per thread.

``ek.device`` (devices.py) looks its device up and opens a block here; creation ops ask
``current_device()``.

Examples
--------
>>> import eagerkit as ek
>>> with ek.device("/cpu:0"):
...     print(current_device().name)
/cpu:0
"""

import contextlib
import threading

from eagerkit.device_class import CPU

_scope = threading.local()


def current_device():
    """The device that creation ops use now (``/cpu:0`` unless inside ``ek.device(...)``).

    Examples
    --------
    >>> current_device().name
    '/cpu:0'
    """
    stack = getattr(_scope, "stack", None)
    return stack[-1] if stack else CPU


def scope_device():
    """The device of the innermost ``ek.device(...)`` block, or None outside any.

    Examples
    --------
    >>> import eagerkit as ek
    >>> scope_device() is None
    True
    >>> with ek.device("/cpu:0"):
    ...     print(scope_device().name)
    /cpu:0
    """
    stack = getattr(_scope, "stack", None)
    return stack[-1] if stack else None


@contextlib.contextmanager
def scope_on(target):
    """The block of ``device``: new tensors go to ``target`` until it ends."""
    stack = getattr(_scope, "stack", None)
    if stack is None:
        stack = _scope.stack = []
    stack.append(target)
    try:
        with target.backend.activate():  # e.g. cupy's current GPU, for '/gpu:1'
            yield target
    finally:
        stack.pop()

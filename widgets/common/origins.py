"""Where a record came from: the user's line that ran the op, and the layer (or name
scope) it ran in.

A TapeView asks this once per record *while it listens* (``on_record``), so code runs at
full speed when no view watches. We walk up the Python stack from the op: the first frame
outside eagerkit is the user's line; the innermost ``Layer.__call__`` on the way is the
layer the record belongs to (records of one layer fold into one box).
"""

import linecache
import pathlib
import sys

import eagerkit
from eagerkit.name_scope import current_prefix

ENGINE = str(pathlib.Path(eagerkit.__file__).parent)
WIDGETS = str(pathlib.Path(__file__).parent.parent)


def capture():
    """``(origin, fold)`` of the op running now: origin is a dict (file, line, code,
    where); fold is ``(key, label)`` of what the record folds into: the innermost Layer
    whose ``__call__`` is on the stack, else the name scope it runs in, else None."""
    layer_type = eagerkit.layers.Layer
    frame, origin, layer = sys._getframe(1), None, None
    while frame is not None and (origin is None or layer is None):
        code = frame.f_code
        if origin is None and not code.co_filename.startswith((ENGINE, WIDGETS)):
            origin = _origin(frame)  # a user's own Layer.call counts: it is their line
        if layer is None and code.co_name == "__call__":
            owner = frame.f_locals.get("self")
            if isinstance(owner, layer_type):
                layer = owner
        frame = frame.f_back
    if layer is not None:
        return origin, (id(layer), f"{layer.name} ({type(layer).__name__})")
    scope = current_prefix()
    return origin, (("scope", scope), f"{scope[:-1]} (name scope)") if scope else None


def _origin(frame):
    path, line = frame.f_code.co_filename, frame.f_lineno
    return {
        "file": path,
        "line": line,
        "code": linecache.getline(path, line, frame.f_globals).strip(),
        "where": f"{_place_name(path)}, line {line}",
    }


def _place_name(path):
    """``In [3]`` for a notebook cell (as IPython's tracebacks say it), else the file's name."""
    shell = _ipython()
    if shell is not None:
        try:
            kind, name = shell.compile.format_code_name(path) or (None, None)
        except (AttributeError, TypeError):
            kind, name = None, None
        if kind == "Cell":
            return "cell " + name.replace("In[", "In [")
    if path.startswith("<"):  # <%%tape cell>, <stdin>, <doctest ...>
        return path
    return pathlib.Path(path).name


def _ipython():
    if "IPython" not in sys.modules:
        return None
    from IPython import get_ipython

    return get_ipython()

"""Where each record came from: the user's line that ran the op, and the *context* it ran
in (the lines, layers and name scopes around it), from which the tape view folds.

A ``Tracker`` listens to one tape (``tape.listeners``) and, for every record, walks up the
Python stack once: frames of eagerkit itself and of installed libraries are skipped; each
frame of the user's own code (a notebook cell, a script, a function they wrote) adds the
line it is running, and each ``Layer.__call__`` on the way adds the layer. The result is a
*path*, outermost first, e.g. for an op in a layer called from line 3 of a cell::

    (("line", 7, ("<cell>", 3), "logits = model(x)"), ("layer", 8, ..., "mlp (MLP)"),
     ("layer", 9, ..., "hidden (Dense)"))

A layer called by another is named by the attribute that holds it (``hidden``, as
GradientFlow names its variables), one called from the user's code by its own name.

The number in each entry is its *key*: it stays the same while the same execution of a
line (the same call of a layer) goes on, and changes when the line runs again, e.g. at the
next turn of a loop. So records that share a key were made by one execution of one line,
and a run of keys with the same line is a loop (tape_view/structure.py folds them).

Recording costs nothing extra when no Tracker listens. In a notebook, importing
``eagerkit.widgets`` puts a Tracker on every tape opened in a cell (``track_new_tapes``), so
a TapeView made after the ``with`` block still knows each record's line.
"""

import linecache
import pathlib
import site
import sys
import sysconfig

import eagerkit
from eagerkit import recording
from eagerkit.keras.layers import base as layers_base
from eagerkit.name_scope import current_prefix
from eagerkit.tensor import Tensor

from .names import layer_paths

ENGINE = str(pathlib.Path(eagerkit.__file__).parent)
WIDGETS = str(pathlib.Path(__file__).parent.parent)
LIBRARIES = tuple(  # the standard library and installed packages: never the user's code
    {sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib", "purelib", "platlib")}
    | set(site.getsitepackages())
) + ("<frozen",)
USER, SKIP, CALL = 0, 1, 2  # what a code object is: the user's, skipped, or a __call__
CODE_LENGTH = 60  # a line's code, as a group's label: long lines end in "…"


class Tracker:
    """A tape listener that notes, for every record, its origin, its path and how many
    active tapes recorded it (nested tapes).

    ``info[id(record)]`` is ``(record, origin, path, depth)``: ``origin`` is a dict
    (``file``, ``line``, ``code``, ``where``) or None, ``path`` a tuple of
    ``(kind, key, signature, label)`` entries (see the module doc). ``unrecorded[id(t)]``
    is ``(t, layer, inputs)`` for a tensor ``t`` a layer returned while the tape recorded
    but no record made (``layer``: its name in the view, ``flatten``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> x = ek.constant(2.0)
    >>> tape = ek.GradientTape()
    >>> tracker = Tracker.on(tape)
    >>> with tape:
    ...     tape.watch(x)
    ...     y = x * x
    >>> record = tape.records[0]
    >>> _, origin, path, depth = tracker.info[id(record)]
    >>> origin["code"], path[-1][0], path[-1][3], depth  # innermost: the line that ran it
    ('y = x * x', 'line', 'y = x * x', 1)
    """

    def __init__(self):
        self.info = {}
        self._previous = []  # (kind, frame, line, lasti, key) along the last record's path
        self._next_key = 0
        self._kinds = {}  # code object -> USER, SKIP or CALL
        self._lines = {}  # (file, line) -> origin dict
        self._layer_labels = {}  # (id(calling layer), id(layer)) -> (caller, layer, label)
        self._recorded = set()  # id of every record's output
        self.unrecorded = {}
        if _note_layer_call not in layers_base.call_listeners:
            layers_base.call_listeners.append(_note_layer_call)

    @classmethod
    def on(cls, tape):
        """The Tracker listening to ``tape``, attached now if there is none."""
        for listener in tape.listeners:
            if isinstance(listener, cls):
                return listener
        tracker = cls()
        tape.listeners.insert(0, tracker)  # before any view: the view reads what it noted
        return tracker

    def on_record(self, tape, record):
        depth = sum(1 for t in recording.active_tapes if t._watches_any(record.inputs))
        origin, path = self._capture(sys._getframe(1))
        self.info[id(record)] = (record, origin, path, max(1, depth))
        self._recorded.add(id(record.output))

    def on_backward(self, tape, step):
        pass

    def lines(self):
        """The origin of every line that made a record, each once."""
        return list(self._lines.values())

    # --- the walk up the stack ----------------------------------------------------------
    def _capture(self, frame):
        chain, callee = [], None  # (kind, frame, the frame it called), innermost first
        while frame is not None:
            code = frame.f_code
            kind = self._kinds.get(code)
            if kind is None:
                kind = self._kinds[code] = _kind_of(code)
            if kind == USER:
                chain.append((USER, frame, callee))
            elif kind == CALL and isinstance(frame.f_locals.get("self"), eagerkit.layers.Layer):
                chain.append((CALL, frame, callee))
            frame, callee = frame.f_back, frame
        chain.reverse()
        path, previous, same, caller = [], [], True, None
        for d, (kind, frame, callee) in enumerate(chain):
            old = self._previous[d] if same and d < len(self._previous) else None
            line, lasti = frame.f_lineno, frame.f_lasti
            if old is None or old[1] is not frame or not _goes_on(old, line, lasti, callee):
                same, key = False, self._key()
            else:
                key = old[4]
            # The frames are kept until the next record, so none can be reused meanwhile.
            previous.append((kind, frame, line, lasti, key, callee))
            if kind == CALL:
                layer = frame.f_locals["self"]
                label = self._layer_label(caller, layer)
                path.append(("layer", key, ("layer", id(layer)), label))
                caller = layer
            else:
                where = self._origin(frame)
                path.append(("line", key, (where["file"], where["line"]), where["label"]))
        self._previous = previous
        scope = current_prefix()
        if scope:  # a name scope groups the lines run inside it
            at = max((i for i, e in enumerate(path) if e[0] == "line"), default=0)
            key = self._scope_key(path[:at], scope)
            path.insert(at, ("scope", key, ("scope", scope), f"{scope[:-1]} (name scope)"))
        users = [frame for kind, frame, _ in chain if kind == USER]
        origin = self._origin(users[-1]) if users else None
        return origin, tuple(path)

    def _layer_label(self, caller, layer):
        """``hidden (Dense)``: the attribute of the calling layer that holds ``layer`` (what
        GradientFlow names its variables by, and what the student wrote), else its name."""
        found = self._layer_labels.get((id(caller), id(layer)))
        if found is None:
            paths = layer_paths(caller) if caller is not None else {}
            name = paths.get(id(layer), layer.name)
            # The layers are kept with the label, so their ids cannot be reused meanwhile.
            found = (caller, layer, f"{name} ({type(layer).__name__})")
            self._layer_labels[(id(caller), id(layer))] = found
        return found[2]

    def _layer_returned(self, layer, inputs, outputs, caller):
        if id(outputs) not in self._recorded:  # the layer recorded nothing: note who made it
            name = self._layer_label(caller, layer).rsplit(" (", 1)[0]
            # The tensor is kept with its entry, so its id cannot be reused meanwhile.
            self.unrecorded[id(outputs)] = (outputs, name, inputs)

    def _scope_key(self, outer, scope):
        """One key for a name scope while the path around it and its name stay the same."""
        marker = (tuple(e[1] for e in outer), scope)
        if getattr(self, "_scope", (None,))[0] != marker:
            self._scope = (marker, self._key())
        return self._scope[1]

    def _key(self):
        self._next_key += 1
        return self._next_key

    def _origin(self, frame):
        path, line = frame.f_code.co_filename, frame.f_lineno
        found = self._lines.get((path, line))
        if found is None:
            code = linecache.getline(path, line, frame.f_globals).strip()
            short = code if len(code) <= CODE_LENGTH else code[: CODE_LENGTH - 1] + "…"
            where = f"{_place_name(path)}, line {line}"
            label = short or where  # no source (a file since deleted): say where
            found = {"file": path, "line": line, "code": code, "where": where, "label": label}
            self._lines[(path, line)] = found
        return found


def _note_layer_call(layer, inputs, outputs):
    """After each layer call (layers_base.call_listeners): tell the Trackers of the tapes
    recording now what the layer returned, if no record made it."""
    if not recording.active_tapes or type(outputs) is not Tensor:
        return  # nothing records, or a Variable, a tuple, ...
    trackers = [
        listener
        for tape in recording.active_tapes
        for listener in tape.listeners
        if isinstance(listener, Tracker)
    ]
    if trackers:
        caller = _calling_layer(sys._getframe(1), layer)
        for tracker in trackers:
            tracker._layer_returned(layer, inputs, outputs, caller)


def _calling_layer(frame, layer):
    """The layer whose ``__call__`` is running ``layer`` (None: the user's code called it)."""
    while frame is not None:
        owner = frame.f_locals.get("self") if frame.f_code.co_name == "__call__" else None
        if isinstance(owner, eagerkit.layers.Layer) and owner is not layer:
            return owner
        frame = frame.f_back
    return None


def _goes_on(old, line, lasti, callee):
    """Does the execution of a line that made the last record go on? The same call of a
    layer does; a line does at a later instruction, or at the same one while it is in the
    same call (an op that records several ops), not in a new one (the next turn of a loop).
    """
    if old[0] == CALL:
        return True  # the frame is the same: the same call
    if line != old[2] or lasti < old[3]:
        return False
    return lasti > old[3] or callee is old[5]


def track_new_tapes():
    """From now on, put a Tracker on every tape whose ``with`` block the user's own code
    opens (a notebook calls this when it imports ``eagerkit.widgets``): a TapeView made
    after the records then still knows their lines. Tapes opened inside eagerkit (by
    ``gradients_function``, say) get none, and neither does a with-block that runs again
    and again (a training loop): after its first ``LOOP_TAPES`` tapes, tracking (about
    10 µs per op) would slow the loop down, and its spent tapes cannot be shown anyway.
    Calling it again changes nothing.
    """
    if _track_if_users not in recording.tape_opened:
        recording.tape_opened.append(_track_if_users)


def stop_tracking_new_tapes():
    """Undo ``track_new_tapes``."""
    if _track_if_users in recording.tape_opened:
        recording.tape_opened.remove(_track_if_users)


LOOP_TAPES = 2
_last_opened = [None, -1, 0]  # the frame and instruction that opened the last tape, and how often


def _track_if_users(tape):
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith((ENGINE, WIDGETS)):
        frame = frame.f_back  # push_tape, _push, __enter__: eagerkit's own frames
    if frame is None or _kind_of(frame.f_code) != USER:
        return
    again = _last_opened[0] is frame and _last_opened[1] == frame.f_lasti
    _last_opened[:] = [frame, frame.f_lasti, _last_opened[2] + 1 if again else 1]
    if _last_opened[2] <= LOOP_TAPES:
        Tracker.on(tape)


def _kind_of(code):
    path = code.co_filename
    if path.startswith((ENGINE, WIDGETS)):
        return CALL if code.co_name == "__call__" else SKIP
    return SKIP if path.startswith(LIBRARIES) else USER


def origin_of(info):
    """The origin dict without the group label (what the graph's nodes carry)."""
    return {k: v for k, v in info.items() if k != "label"} if info else None


def _place_name(path):
    """``cell In [3]`` for a notebook cell (as IPython's tracebacks say it), else the file."""
    shell = _ipython()
    if shell is not None:
        try:
            kind, name = shell.compile.format_code_name(path) or (None, None)
        except (AttributeError, TypeError):
            kind, name = None, None
        if kind == "Cell":
            return "cell " + name.replace("In[", "In [")
    if path.startswith("<"):  # <stdin>, <doctest ...>
        return path
    return pathlib.Path(path).name


def _ipython():
    if "IPython" not in sys.modules:
        return None
    from IPython import get_ipython

    return get_ipython()

"""TapeView: the recorded tape as a graph you can step through, forwards then backwards.

The view listens to its tape (``tape.listeners``): it keeps its own copy of the records,
notes how many tapes recorded each op (nested tapes), the user's line and the layer (or
name scope) of each record, collects the steps of the reverse sweep and, when
``gradient()`` returns, explains every ``None``. It sends the browser two things: ``graph``
(what happened) and ``drawing`` (where everything goes, in pixels, for every folding
state); stepping, folding and zooming happen there, without the kernel.
"""

import inspect
import pathlib

import traitlets

from eagerkit.tape import GradientTape, active_tapes
from eagerkit.tensor import Tensor, convert_to_tensor

from ..common import origins
from ..common.live import SnapshotWidget
from .drawing import tape_drawing
from .marks import highlight_mark, nonfinite_mark, record_index
from .model import Namer, backward_steps, build_graph, host, preview
from .reasons import explain_none
from .snapshot import tape_png

HERE = pathlib.Path(__file__).parent
COMMON = HERE.parent / "common"


class TapeView(SnapshotWidget):
    """Show a GradientTape as a graph; step through its records and its reverse sweep.

    Make the view before calling ``tape.gradient`` (the view then sees the sweep), or use
    ``TapeView.record(f, x)``. A view made before the records (inside the with-block) also
    knows each record's line in the user's code, folds the records of each layer into one
    box, and sees how many tapes recorded each op, which colours a nested tape's backward
    pass. The first NaN or Inf is marked and named; ``view.save_html(path)`` writes a page
    that steps with no kernel.

    Parameters
    ----------
    tape : the GradientTape to show.
    names : a dict such as ``locals()``: tensors found there are labelled by their name,
        the others ``t0``, ``t1``, ... in record order.
    highlight : a record index (``tape.records[highlight]``) or the Tensor a record made:
        that record is marked on the graph and the view opens on it (exercise checks
        point at the first op where a student's value disagrees).
    note : a short text shown with the highlighted record: why it is marked.

    Examples
    --------
    >>> import eagerkit as ek
    >>> x = ek.constant(3.0)
    >>> with ek.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = x * x
    >>> view = TapeView(tape, names={"x": x, "y": y})
    >>> dy_dx = tape.gradient(y, x)
    >>> view
    TapeView(records=1, phase='backward')
    >>> [step["text"] for step in view.graph["forward"]]
    ['y = multiply(x, x)']
    >>> view.graph["backward"][0]["grads"][1]["total"]  # x fans out: 3 + 3
    '6.0'
    """

    _esm = (HERE / "camera.js").read_text() + (HERE / "view.js").read_text()
    _css = (COMMON / "frame.css").read_text() + (HERE / "view.css").read_text()
    graph = traitlets.Dict().tag(sync=True)
    drawing = traitlets.Dict().tag(sync=True)

    def __init__(self, tape, names=None, *, highlight=None, note=""):
        if not isinstance(tape, GradientTape):
            raise TypeError(
                f"TapeView: expected an ek.GradientTape, got {type(tape).__name__}; "
                "to record a function, use TapeView.record(f, x)"
            )
        if tape._spent:
            raise ValueError(
                "TapeView: this non-persistent tape already computed its gradient and freed "
                "its records. Make the TapeView before calling tape.gradient, use "
                "ek.GradientTape(persistent=True), or TapeView.record(f, x)."
            )
        super().__init__()
        self._tape = tape
        self._records = list(tape.records)
        self._depths = {}  # record index -> how many tapes recorded it
        self._watched = list(tape._watched)  # what tape.watch and variable reads watched
        self._paused = list(tape.paused_at)
        self._names = names
        self._given = []  # (tensor, name) pairs named by the view itself
        self._origins = {}  # record index -> the user's line that made it
        self._groups = {}  # record index -> id of the layer or name scope it ran in
        self._folds = {}  # a layer's or name scope's key -> its group
        self._sweep = []  # BackwardSteps of the sweep in progress
        self._gradient = None  # (targets, sources, grads, steps) of the last gradient()
        self._highlight = None  # (record index, note)
        tape.listeners.append(self)
        if highlight is None:
            self._publish()
        else:
            self.set_highlight(highlight, note)

    # --- what the tape tells us ------------------------------------------------------
    def on_record(self, tape, record):
        index = len(self._records)
        watching = sum(1 for t in active_tapes if t._watches_any(record.inputs))
        self._depths[index] = max(1, watching)
        self._records.append(record)
        origin, fold = origins.capture()
        if origin is not None:
            self._origins[index] = origin
        if fold is not None:
            key, label = fold
            group = self._folds.setdefault(key, _group(label, len(self._folds)))
            group["records"].append(index)
            self._groups[index] = group["id"]

    def on_backward(self, tape, step):
        self._sweep.append(step)

    def on_gradient(self, tape, targets, sources, grads):
        # Snapshot now: a non-persistent tape forgets what it watched right after this.
        self._watched = list(tape._watched)
        self._paused = list(tape.paused_at)
        self._gradient = (list(targets), list(sources), list(grads), self._sweep)
        self._sweep = []
        self._publish()

    # --- building what the browser shows ---------------------------------------------
    def _publish(self):
        # A fresh namer each time: ``names=locals()`` may hold names made after the view.
        self._namer = Namer(self._names)
        for tensor, name in self._given:
            self._namer.give(tensor, name)
        watched_ids = {id(t) for t in self._watched}
        targets, sources, grads, steps = self._gradient or ((), (), (), ())
        model = build_graph(
            self._records,
            namer=self._namer,
            watched_ids=watched_ids,
            depths=self._depths,
            extra=[t for t in (*targets, *sources) if isinstance(t, Tensor)],
            origins=self._origins,
            groups=self._groups,
        )
        nodes, node_of = model["nodes"], model["node_of"]
        by_id = {node["id"]: node for node in nodes}
        for target in targets:
            by_id[node_of[id(target)]]["target"] = True
        for source, grad in zip(sources, grads, strict=True):
            node = by_id[node_of[id(source)]]
            node["source"] = True
            if grad is not None:
                node["grad"] = preview(host(grad))
            else:
                code, text = explain_none(
                    source, targets, self._records, watched_ids, self._paused, self._namer
                )
                node["none"] = {"code": code, "text": text}
        backward, edge_values, bad_gradient = backward_steps(
            steps, self._records, node_of, self._namer, self._groups
        )
        graph = {
            "nodes": nodes,
            "edges": model["edges"],
            "forward": model["forward"],
            "backward": backward,
            "groups": list(self._folds.values()),
            "phase": "backward" if self._gradient else "forward",
            "highlight": highlight_mark(self._highlight, model["forward"]),
            "nonfinite": nonfinite_mark(
                model["nonfinite"] or bad_gradient, model["forward"], self._records, self._origins
            ),
        }
        self._published = len(self._records)
        with self.hold_sync():  # the browser gets both at once
            self.graph = graph
            self.drawing = tape_drawing(graph, edge_values)

    def set_highlight(self, record, note=""):
        """Mark one record on the graph with a short note, and open the view on it.

        ``record`` is an index into ``tape.records`` or the Tensor a record made; ``None``
        removes the mark. Returns the view, so a check can end with ``view.set_highlight(...)``.

        Examples
        --------
        >>> import eagerkit as ek
        >>> x = ek.constant(3.0)
        >>> with ek.GradientTape(persistent=True) as tape:
        ...     tape.watch(x)
        ...     y = x * x + x
        >>> view = TapeView(tape, names=locals(), highlight=1, note="d(x*x)/dx is 2x")
        >>> view.graph["highlight"]
        {'record': 1, 'node': 'op1', 'text': 'y = add(t0, x)', 'note': 'd(x*x)/dx is 2x'}
        >>> view.set_highlight(y, "the add").graph["highlight"]["record"]
        1
        """
        if record is None:
            self._highlight = None
        else:
            self._highlight = (record_index(self._records, record), str(note))
        self._publish()
        return self

    # --- the other ways in ---------------------------------------------------------------
    @classmethod
    def record(cls, fn, *args):
        """Run ``fn(*args)`` under a new tape, take its gradient w.r.t. ``args``, show both.

        Float arguments are watched; the arguments are named after ``fn``'s parameters.

        Examples
        --------
        >>> import eagerkit as ek
        >>> def f(x, w):
        ...     return x * w + w
        >>> view = TapeView.record(f, 2.0, 3.0)
        >>> [n["grad"] for n in view.graph["nodes"] if n.get("source")]
        ['3.0', '3.0']
        """
        tensors = [a if isinstance(a, Tensor) else convert_to_tensor(a) for a in args]
        tape = GradientTape(persistent=True)
        view = cls(tape, names=dict(zip(_parameter_names(fn, len(args)), tensors, strict=True)))
        with tape:
            for tensor in tensors:
                if tensor.dtype.is_floating and not tensor._is_variable:
                    tape.watch(tensor)
            out = fn(*tensors)
        if isinstance(out, Tensor):
            view._given.append((out, "out" if fn.__name__ == "<lambda>" else fn.__name__))
        tape.gradient(out, tensors)
        return view

    # --- display -----------------------------------------------------------------------
    def refresh(self):
        """Show what the tape recorded since the view last drew (displaying the view, and
        ``tape.gradient``, refresh it too). Returns the view.

        Examples
        --------
        >>> import eagerkit as ek
        >>> tape = ek.GradientTape()
        >>> view = TapeView(tape)  # made first: it sees every record, nested tapes too
        >>> with tape:
        ...     x = ek.constant(2.0)
        ...     tape.watch(x)
        ...     y = x * x
        >>> len(view.refresh().graph["forward"])
        1
        """
        if self._published != len(self._records):
            self._publish()
        return self

    def _repr_mimebundle_(self, **kwargs):
        self.refresh()  # recorded more since it was made: show it all
        return super()._repr_mimebundle_(**kwargs)

    def __repr__(self):
        return f"TapeView(records={len(self._records)}, phase={self.graph['phase']!r})"

    def snapshot_png(self):
        return tape_png(self.graph, self.drawing)


def _group(label, number):
    """A fold group: what it is called, and the records made in it."""
    return {"id": f"g{number}", "label": label, "records": []}


def _parameter_names(fn, count):
    try:
        params = list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):  # builtins without a signature
        params = []
    names = params[:count]
    return names + [f"arg{i}" for i in range(len(names), count)]

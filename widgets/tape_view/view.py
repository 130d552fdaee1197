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

from eagerkit.tape import READ_VARIABLE, GradientTape
from eagerkit.tensor import Tensor, convert_to_tensor

from ..common import origins
from ..common.live import SnapshotWidget
from ..common.origins import Tracker
from .drawing import Layouts, label_state, label_states, state_key
from .marks import highlight_mark, nonfinite_mark, record_index
from .model import Namer, build_graph
from .reasons import explain_none
from .snapshot import tape_png
from .structure import group_tree, innermost_group
from .sweep import backward_steps, grads_of_tensors, mark_ends

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
        one a layer made without recording by the layer (``flatten(images)``), the others
        ``t0``, ``t1``, ... in record order.
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

    _esm = "".join(
        (HERE / f).read_text() for f in ("camera.js", "stepping.js", "info.js", "view.js")
    )
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
        self._tracker = Tracker.on(tape)  # lines and layers, from now on (or since the with)
        self._records = list(tape.records)
        self._watched = list(tape._watched)  # what tape.watch and variable reads watched
        self._paused = list(tape.paused_at)
        self._late = tape._swept  # its gradient ran before this view listened: say so
        self._names = names
        self._given = []  # (tensor, name) pairs named by the view itself
        self._sweep = []  # BackwardSteps of the sweep in progress
        self._gradient = None  # (targets, sources, grads, steps) of the last gradient()
        self._highlight = None  # (record index, note)
        self._layout = None  # (what it was laid out for, its Layouts, the prepared states)
        self._edge_values = {}  # the gradient that flowed along each graph edge
        tape.listeners.append(self)
        self.on_msg(self._on_browser_message)
        if highlight is None:
            self._publish()
        else:
            self.set_highlight(highlight, note)

    # --- what the tape tells us ------------------------------------------------------
    def on_record(self, tape, record):
        self._records.append(record)  # the Tracker, listening first, noted where it came from

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
        self._namer = Namer(self._names, self._tracker.unrecorded)
        for tensor, name in self._given:
            self._namer.give(tensor, name)
        watched_ids = {id(t) for t in self._watched}
        targets, sources, grads, steps = self._gradient or ((), (), (), ())
        known = [self._tracker.info.get(id(r)) for r in self._records]
        reads = {i for i, r in enumerate(self._records) if r.op is READ_VARIABLE}
        wheres = {(o["file"], o["line"]): o["where"] for o in self._tracker.lines()}
        groups, _ = group_tree([k[2] if k else () for k in known], reads, wheres)
        record_group = innermost_group(groups)
        model = build_graph(
            self._records,
            namer=self._namer,
            watched_ids=watched_ids,
            depths={i: k[3] for i, k in enumerate(known) if k},
            extra=[t for t in (*targets, *sources) if isinstance(t, Tensor)],
            origins={i: origins.origin_of(k[1]) for i, k in enumerate(known) if k and k[1]},
            groups=record_group,
        )
        nodes, node_of = model["nodes"], model["node_of"]

        def why_none(source):
            return explain_none(
                source, targets, self._records, watched_ids, self._paused, self._namer
            )

        mark_ends(nodes, node_of, targets, zip(sources, grads, strict=True), why_none)
        backward, edge_values, bad_gradient = backward_steps(
            steps, self._records, node_of, self._namer, record_group
        )
        grads_of_tensors(nodes, backward)
        graph = {
            "nodes": nodes,
            "edges": model["edges"],
            "forward": model["forward"],
            "backward": backward,
            "groups": groups,
            "phase": "backward" if self._gradient else "forward",
            "notice": _notice(self._records, self._late and not self._gradient),
            "highlight": highlight_mark(self._highlight, model["forward"]),
            "nonfinite": nonfinite_mark(
                model["nonfinite"] or bad_gradient,
                model["forward"],
                self._records,
                {i: k[1] for i, k in enumerate(known) if k and k[1]},
            ),
        }
        self._published = len(self._records)
        self._edge_values = edge_values
        with self.hold_sync():  # the browser gets both at once
            self.graph = graph
            self.drawing = label_states(self._laid_out(graph), graph, edge_values)

    def _laid_out(self, graph):
        """The drawing's prepared states, laid out once for these nodes and groups."""
        shape = ([n["id"] for n in graph["nodes"]], [g["records"] for g in graph["groups"]])
        if self._layout is None or self._layout[0] != shape:
            layouts = Layouts(graph)
            self._layout = (shape, layouts, layouts.prepared())
        return self._layout[2]

    def _on_browser_message(self, widget, content, buffers):
        """The browser asks for a folding state it was not sent: lay it out, send it."""
        if not isinstance(content, dict) or content.get("type") != "unfold":
            return
        known = {g["id"] for g in self.graph["groups"]}
        wanted = [g for g in content.get("groups", []) if g in known]
        if self._layout is None or len(wanted) != len(content.get("groups", [])):
            return  # a stale request (the tape changed since): the browser redraws anyway
        laid_out = self._layout[1].state(set(wanted))
        nodes = {n["id"]: n for n in self.graph["nodes"]}
        states = dict(self.drawing["states"])
        states[state_key(wanted)] = label_state(laid_out, nodes, self._edge_values)
        self.drawing = dict(self.drawing, states=states)

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
        self.refresh()  # recorded more since it was made: draw it all, as the display does
        return tape_png(self.graph, self.drawing)


EMPTY = (
    "A tape records only the ops run inside its with-block on a watched tensor "
    "(tape.watch(x)) or a trainable ek.Variable; ops on constants alone leave it empty."
)
LATE = (
    "tape.gradient ran before this view was made, so the view missed its reverse sweep: "
    "call tape.gradient(...) again (this tape is persistent) or make the view before it."
)


def _notice(records, late):
    """What the overview says instead of "call tape.gradient(...)", when that would mislead."""
    if not records:
        return EMPTY
    return LATE if late else None


def _parameter_names(fn, count):
    try:
        params = list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):  # builtins without a signature
        params = []
    names = params[:count]
    return names + [f"arg{i}" for i in range(len(names), count)]

"""What every eagerkit widget shares: a PNG snapshot in its mime bundle, and live updates.

A widget is an anywidget model (its front end is a plain ``.js`` file beside this one). It
shows a PNG drawn with matplotlib wherever no widget manager runs (GitHub, nbconvert, an
untrusted notebook), and a fixed ``__repr__`` so nbval compares stable text.

Live widgets (LossCurve, GradientFlow) buffer every ``log`` call in Python and *flush* at
most every ``interval`` seconds: one comm message with the points that are new since the
last flush. A downsampled copy of the whole history goes into the synced ``history`` trait
now and then, so a view opened later can draw everything.

A live widget is shown with a display id, so its output can be redrawn later: when a
``live()`` block ends, and after every cell that gave it new points (a GradientFlow shown
in one cell and fed by the training loop in the next). The saved notebook then keeps the
final picture.
"""

import base64
import contextlib
import pathlib
import time
import weakref

import anywidget
import numpy as np
import traitlets

from eagerkit.errors import NotFoundError
from eagerkit.tensor import Tensor

from .html_page import widget_page

# Points per series kept in the synced history (for views opened later). A chart is a few
# hundred pixels wide, so 1000 points show everything; fewer points keep syncing cheap.
MAX_HISTORY = 1000
HISTORY_EVERY = 10.0  # seconds between history updates during a run (they are big)


class SnapshotWidget(anywidget.AnyWidget):
    """An anywidget with a deterministic ``__repr__`` and an ``image/png`` in its bundle."""

    def _repr_mimebundle_(self, **kwargs):
        bundle = super()._repr_mimebundle_(**kwargs)
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
        data = dict(data, **{"image/png": base64.b64encode(self.snapshot_png()).decode("ascii")})
        return data, metadata

    def snapshot_png(self):
        """The PNG bytes of what the widget shows now (drawn with matplotlib, Agg)."""
        raise NotImplementedError(type(self).__name__ + " must draw its snapshot")

    def save_html(self, path, title=None):
        """Write the widget as one self-contained HTML page that works with no kernel and
        no network (stepping, zoom and hover included), for course pages and static sites.

        Examples
        --------
        >>> import pathlib, tempfile
        >>> from eagerkit.widgets import TapeView
        >>> view = TapeView.record(lambda x: x * x, 3.0)
        >>> page = pathlib.Path(tempfile.mkdtemp()) / "tape.html"
        >>> view.save_html(page)
        >>> 'type="module"' in page.read_text()
        True
        """
        path = pathlib.Path(path)
        if not path.parent.is_dir():
            raise NotFoundError(
                f"{type(self).__name__}.save_html: the folder {str(path.parent)!r} does not "
                "exist; create it first or choose another path",
                op="save_html",
            )
        text = widget_page(self, title or repr(self))
        partial = path.with_name(path.name + ".partial")
        partial.write_text(text, encoding="utf-8")  # a failed write leaves no half page
        partial.replace(path)


class FlushClock:
    """Says when a flush is due: ``interval`` seconds after the last one, or later when
    flushing is slow, so that it takes at most ``share`` of the time.

    A widget's ``log`` compares ``time.perf_counter()`` with ``clock.deadline`` itself: a
    method call every training step would cost more than the comparison.

    Examples
    --------
    >>> clock = FlushClock(interval=60.0)
    >>> time.perf_counter() >= clock.deadline
    False
    >>> clock.took(3.0)  # a 3 s flush: wait 3 / 0.01 = 300 s before the next one
    >>> clock.wait
    300.0
    """

    # 1% each: a LossCurve and a GradientFlow together stay within 2% of a training loop.
    def __init__(self, interval=0.25, share=0.01):
        self.interval = interval
        self.share = share
        self.wait = interval
        self.deadline = time.perf_counter() + interval  # when the next flush is due

    def took(self, seconds):
        """Tell the clock how long the flush that just ended took."""
        self.wait = max(self.interval, seconds / self.share)
        self.deadline = time.perf_counter() + self.wait


class LiveWidget(SnapshotWidget):
    """Base of the live views: buffered ``log`` calls, throttled flushes and ``live()``.

    A subclass buffers in its ``log`` and calls ``self.flush()`` when ``self._clock`` says so.
    It implements ``_take_new_points(final)`` (``(content, buffers)`` of a message for the
    front end, numbers travelling as binary float64 buffers, or None), ``_has_pending()``
    (whether points wait for the next flush) and ``_history_state()`` (the downsampled
    whole history, a JSON-able dict).
    """

    history = traitlets.Dict().tag(sync=True)
    interval = traitlets.Float(0.25).tag(sync=True)

    def __init__(self, interval=0.25, **kwargs):
        super().__init__(interval=interval, **kwargs)
        self._clock = FlushClock(interval)
        self._last_history = time.perf_counter()
        self._handle = None  # the display of this widget that refresh() redraws
        self._stale = False  # points flushed since the output was last drawn

    def flush(self, final=False):
        """Send the points logged since the last flush (and, now and then, the history)."""
        start = time.perf_counter()
        message = self._take_new_points(final)
        if message is not None:
            content, buffers = message
            self.send(content, buffers=buffers)
            self._stale = True
        if final or start - self._last_history >= HISTORY_EVERY:
            self._last_history = start
            self.history = self._history_state()
        self._clock.took(time.perf_counter() - start)

    @contextlib.contextmanager
    def live(self, display=True):
        """Show the widget, run the block, then flush and refresh the saved PNG.

        Examples
        --------
        >>> from eagerkit.widgets import LossCurve
        >>> curve = LossCurve()
        >>> with curve.live(display=False):
        ...     for step in range(3):
        ...         curve.log(step, loss=1.0 / (step + 1))
        >>> curve.history["runs"]["main"]["loss"]["y"]
        [1.0, 0.5, 0.3333333333333333]
        """
        if display:
            self._ipython_display_()
        try:
            yield self
        finally:
            self.flush(final=True)
            self.refresh()

    def refresh(self):
        """Redraw the widget's output (its PNG too), so a saved notebook keeps what it shows."""
        if self._handle is not None:
            data, metadata = self._repr_mimebundle_()  # flushes what is left first
            self._handle.update(data, metadata=metadata, raw=True)
        self._stale = False

    def _ipython_display_(self):
        """Show the widget with a display id (IPython calls this for ``display(w)`` and a
        cell ending in ``w``), and redraw it after each cell that gives it new points."""
        from IPython import get_ipython
        from IPython.display import display

        shell = get_ipython()
        if shell is None:  # outside IPython there is nowhere to show it
            return
        data, metadata = self._repr_mimebundle_()  # raw: display(self) would come back here
        self._handle = display(data, metadata=metadata, raw=True, display_id=True)
        self._stale = False
        _SHOWN.add(self)
        if not any(
            callback is _refresh_shown for callback in shell.events.callbacks["post_run_cell"]
        ):
            shell.events.register("post_run_cell", _refresh_shown)


_SHOWN = weakref.WeakSet()  # live widgets on display, redrawn after cells that fed them


def _refresh_shown(result=None):
    """After a cell: flush and redraw every shown live widget that got new points."""
    for widget in list(_SHOWN):
        if widget._stale or widget._has_pending():
            widget.flush(final=True)
            widget.refresh()


def to_host_array(values):
    """A float64 numpy array from numbers and one-element Tensors, one copy per device.

    Tensors on one device are stacked there first, so a GPU is read once per flush,
    not once per value.

    Examples
    --------
    >>> import eagerkit as ek
    >>> to_host_array([1, ek.constant(2.5), 3.0]).tolist()
    [1.0, 2.5, 3.0]
    """
    if not any(issubclass(kind, Tensor) for kind in set(map(type, values))):
        return np.asarray(values, dtype=np.float64)  # plain numbers: one C loop
    out = np.empty(len(values))
    on_device = {}
    for i, value in enumerate(values):
        if isinstance(value, Tensor):
            on_device.setdefault(value._device, []).append(i)
        else:
            out[i] = value
    for device, indices in on_device.items():
        arrays = [values[i]._data for i in indices]
        if device.kind == "cpu":  # already host memory: no copy to make, just gather
            out[indices] = [a.item() for a in arrays]
            continue
        stacked = device.xp.stack([a.reshape(()) for a in arrays])
        out[indices] = device.backend.to_host(stacked)
    return out


def downsample_indices(n, limit=MAX_HISTORY):
    """At most ``limit`` evenly spread indices into ``range(n)``, first and last included.

    Examples
    --------
    >>> downsample_indices(5, limit=3).tolist()
    [0, 2, 4]
    """
    if n <= limit:
        return np.arange(n)
    return np.unique(np.linspace(0, n - 1, limit).round().astype(np.int64))

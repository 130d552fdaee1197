"""Where a random draw in ``ek.function`` happens: its *site*, the state TF keeps per op.

In a TF graph each random op keeps its own state, seeded when the function is traced: with
a global seed and no op seed, the op seed comes from the op's place in the graph. So every
``tf.function`` starts its own sequence ("``f()`` and ``g()`` both give ``(A1, A2)``"), two
ops with the same op seed do not share a counter, and a later call goes on where the last
one stopped. eagerkit does the same: each draw a trace records gets a ``DrawSite`` (its
place among the function's draws), and ``ek.random`` keeps one stream per site
(random/__init__.py).

While the trace runs the draw, the site draws from a stream of its own that the trace then
throws away: the trace's numbers are the ones the first call gives, and that call, which
runs the graph, starts the site's real stream (TF's "A1" on the first call, not "A2").
"""

import contextlib

_drawing = [(None, False)]  # (the site drawing now or None when eager, whether tracing)


class DrawSite:
    """One random draw of one trace: ``index`` is its place among the function's draws.

    Examples
    --------
    >>> from eagerkit.graph.draw_sites import DrawSite, drawing_at, current
    >>> site = DrawSite(0)
    >>> with drawing_at(site, tracing=True):
    ...     current() == (site, True)
    True
    >>> current()
    (None, False)
    """

    __slots__ = ("index", "trace_streams", "__weakref__")

    def __init__(self, index):
        self.index = index
        self.trace_streams = {}  # the streams the trace draws from, thrown away after it

    def __repr__(self):
        return f"<DrawSite {self.index}>"


def new_site(tracer):
    """The next site of the function ``tracer`` traces (a branch's draws count in it)."""
    while tracer.parent is not None:
        tracer = tracer.parent
    tracer.draw_count += 1
    return DrawSite(tracer.draw_count - 1)


def current():
    """``(site, tracing)``: the site of the draw running now (None eagerly), and whether a
    trace is running it."""
    return _drawing[-1]


@contextlib.contextmanager
def drawing_at(site, tracing=False):
    """Inside: draws are ``site``'s (its trace streams when ``tracing``)."""
    _drawing.append((site, tracing))
    try:
        yield
    finally:
        _drawing.pop()
        if tracing:
            site.trace_streams.clear()  # the trace looked; the first call draws the same

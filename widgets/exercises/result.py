"""What a check cell shows: a verdict, the reasons, and (for a wrong gradient) the tape.

A ``Result`` is the value of ``exercise(...).check(answer)``. In a notebook it shows as a
coloured box (green right, red wrong, grey not answered), followed by a TapeView with the
op that went wrong highlighted when there is one. Its text is deterministic, so nbval can
compare it, and it is all a plain Python session or a test needs.
"""

import html

STATUS_TEXT = {"right": "right ✓", "wrong": "not right yet ✗", "unanswered": "not answered yet"}


class Result:
    """The verdict of one check.

    Attributes: ``status`` (``"right"``, ``"wrong"`` or ``"unanswered"``), ``lines`` (why),
    ``record`` and ``op`` (the index in ``tape.records`` of the record the diagnosis points
    at, and its op's name, or None; the text numbers records from 1, as the view does),
    ``view`` (a TapeView of the student's tape with that record highlighted).
    """

    def __init__(self, key, title, status, lines=(), *, record=None, op=None, view=None):
        self.key, self.title, self.status = key, title, status
        self.lines = list(lines)
        self.record, self.op, self.view = record, op, view

    @property
    def passed(self):
        return self.status == "right"

    def __bool__(self):
        return self.passed

    @property
    def headline(self):
        return f"Exercise {self.key} · {self.title}: {STATUS_TEXT[self.status]}"

    def __repr__(self):
        return "\n".join([self.headline, *(f"  {line}" for line in self.lines)])

    def _repr_html_(self):
        items = "".join(f"<li>{html.escape(line)}</li>" for line in self.lines)
        return (
            f'<div class="eagerkit-check eagerkit-check-{self.status}">'
            f"<b>{html.escape(self.headline)}</b>"
            + (f"<ul>{items}</ul>" if items else "")
            + "</div>"
            + _STYLE
        )

    def _ipython_display_(self):
        from IPython.display import display

        display({"text/plain": repr(self), "text/html": self._repr_html_()}, raw=True)
        if self.view is not None:
            display(self.view)


class Hint:
    """One hint, shown as text (``exercise(...).hint()`` returns it)."""

    def __init__(self, key, number, count, text):
        self.key, self.number, self.count, self.text = key, number, count, text

    def __repr__(self):
        more = "" if self.number < self.count else " (the last one)"
        return f"Hint {self.number} of {self.count} for exercise {self.key}{more}: {self.text}"

    def _repr_html_(self):
        return f'<div class="eagerkit-check eagerkit-hint">{html.escape(repr(self))}</div>' + _STYLE

    def _ipython_display_(self):  # shown like a check's verdict: no Out[n] prompt
        from IPython.display import display

        display({"text/plain": repr(self), "text/html": self._repr_html_()}, raw=True)


_STYLE = (
    "<style>.eagerkit-check{border-left:4px solid #999;padding:4px 10px;margin:2px 0;"
    "font-family:var(--jp-content-font-family,sans-serif);color:var(--jp-content-font-color1,#222)}"
    ".eagerkit-check ul{margin:4px 0 2px 0;padding-left:20px}"
    ".eagerkit-check-right{border-color:#2e7d32;background:rgba(46,125,50,.08)}"
    ".eagerkit-check-wrong{border-color:#c62828;background:rgba(198,40,40,.08)}"
    ".eagerkit-check-unanswered{border-color:#888;background:rgba(128,128,128,.08)}"
    ".eagerkit-hint{border-color:#1565c0;background:rgba(21,101,192,.08)}</style>"
)

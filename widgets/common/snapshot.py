"""PNG snapshots of the widgets, drawn with matplotlib's Agg canvas.

A saved notebook, GitHub and nbconvert cannot run a widget, so each widget also puts a
picture of itself in its mime bundle. We draw on a bare ``Figure`` (never ``pyplot`` and
never ``matplotlib.use``: that would change the kernel's backend) and strip the metadata
that would make the bytes differ from run to run. Each widget draws its own picture
(tape_snapshot.py, loss_curve_png.py, gradient_flow_png.py, graph_passes_png.py).
"""

import io

from matplotlib.backends.backend_agg import FigureCanvasAgg


def to_png(figure):
    """The figure as PNG bytes, identical for identical drawings."""
    buffer = io.BytesIO()
    FigureCanvasAgg(figure)
    figure.savefig(buffer, format="png", metadata={"Software": None})
    return buffer.getvalue()

"""TapeView: the recorded tape as a graph you step through (model.py: what happened,
sweep.py: what the reverse sweep sent where, reasons.py: why a gradient is None, marks.py:
a highlighted record and the first NaN, structure.py: the lines, layers and loops it can
fold, folding.py and drawing.py: what each folding draws and where, boxes.py: the text in
each box, view.js, stepping.js, info.js and camera.js: drawing, stepping and zooming in the
browser, snapshot.py: the PNG picture, magic.py: the ``%%tape`` cell magic).

In a notebook, importing it makes every tape opened in a cell note where each record came
from (common/origins.py), so a TapeView made after the ``with`` block knows the lines too.
"""

from ..common.origins import track_new_tapes
from .view import TapeView

if getattr(__import__("builtins"), "get_ipython", None) is not None:  # inside IPython
    track_new_tapes()

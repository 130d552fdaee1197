"""eagerkit.widgets: live views of what the engine did (the tape, gradient flow, loss curves).

- ``TapeView(tape, names=locals())``, ``TapeView.record(f, x)`` and the ``%%tape`` cell
  magic (after ``%load_ext eagerkit.widgets``): step through a tape forwards and backwards.
- ``GradientFlow(model)``: gradient norms per layer and step; vanishing/exploding/NaN flags.
- ``LossCurve()``: live training curves (``log``, ``live()``, ``track()``), runs overlaid.
- ``GraphPassView(ek.function(f), x)``: step through graph mode's optimization passes.
"""

from .gradient_flow import GradientFlow
from .graph_passes import GraphPassView
from .loss_curve import LossCurve
from .tape_view import TapeView
from .tape_view.magic import load_ipython_extension, unload_ipython_extension

__all__ = [
    "GradientFlow",
    "GraphPassView",
    "LossCurve",
    "TapeView",
    "load_ipython_extension",
    "unload_ipython_extension",
]

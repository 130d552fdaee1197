"""LossCurve: live training curves (view.js: the plot in the browser, snapshot.py: the PNG
picture)."""

from .view import LossCurve

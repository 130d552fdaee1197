"""TapeView: the recorded tape as a graph you step through (model.py: what happened,
drawing.py and folding.py: where it goes, view.js: stepping in the browser, snapshot.py:
the PNG picture, magic.py: the ``%%tape`` cell magic)."""

from .view import TapeView

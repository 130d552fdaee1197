"""GraphPassView: graph mode's optimization passes, one stage at a time (view.js: stepping
in the browser, snapshot.py: the PNG picture)."""

from .view import GraphPassView

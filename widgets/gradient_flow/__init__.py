"""GradientFlow: gradient norms per layer and step (norms.py and norm_history.py: what is
kept per step, view.js: the heat map in the browser, snapshot.py: the PNG picture)."""

from .view import GradientFlow

"""Training: optimizers (and, with them, checkpoints and the global step)."""

from eagerkit.train.optimizer import GradientDescentOptimizer, Optimizer

__all__ = ["GradientDescentOptimizer", "Optimizer"]

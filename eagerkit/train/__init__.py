"""Training: optimizers, the global step, L-BFGS, and checkpoints of the whole training state."""

from eagerkit.train.adagrad import AdagradOptimizer
from eagerkit.train.adam import AdamOptimizer
from eagerkit.train.checkpoint import Checkpoint
from eagerkit.train.checkpoint_manager import CheckpointManager
from eagerkit.train.checkpoint_reader import CheckpointReader, load_checkpoint, load_variable
from eagerkit.train.checkpoint_state import latest_checkpoint, list_variables
from eagerkit.train.checkpoint_status import LoadStatus
from eagerkit.train.global_step import get_global_step, get_or_create_global_step
from eagerkit.train.lbfgs import LBFGSResult, lbfgs_minimize
from eagerkit.train.momentum import MomentumOptimizer
from eagerkit.train.optimizer import GradientDescentOptimizer, Optimizer
from eagerkit.train.rmsprop import RMSPropOptimizer
from eagerkit.train.tracking import restore_deferred

__all__ = [
    "AdagradOptimizer",
    "AdamOptimizer",
    "Checkpoint",
    "CheckpointManager",
    "CheckpointReader",
    "GradientDescentOptimizer",
    "LBFGSResult",
    "LoadStatus",
    "MomentumOptimizer",
    "Optimizer",
    "RMSPropOptimizer",
    "get_global_step",
    "get_or_create_global_step",
    "latest_checkpoint",
    "lbfgs_minimize",
    "list_variables",
    "load_checkpoint",
    "load_variable",
    "restore_deferred",
]

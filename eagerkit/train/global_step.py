"""The global step: one int64 counter per program, as in TF1's ``tf.train``.

``apply_gradients(..., global_step=step)`` adds 1 to it, summaries read it to know which
step they belong to, and a checkpoint saves it like any variable.
"""

from eagerkit import dtypes
from eagerkit.variables import Variable

_global_step = None


def get_or_create_global_step():
    """The program's global step (an int64, non-trainable Variable named ``global_step``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> step = ek.train.get_or_create_global_step()
    >>> step is ek.train.get_or_create_global_step(), step.dtype, step.name
    (True, ek.int64, 'global_step:0')
    """
    global _global_step
    if _global_step is None:
        _global_step = Variable(0, dtype=dtypes.int64, trainable=False, name="global_step")
    return _global_step


def get_global_step():
    """The global step if one was created, else ``None``."""
    return _global_step

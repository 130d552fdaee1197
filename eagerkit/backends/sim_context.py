"""The simulated GPU's "CUDA context": like CUDA's, unusable in a child forked after use.

A process that initialised CUDA cannot be forked and the child use the GPU: every CUDA call
there fails with ``cudaErrorInitializationError``. Standing in for a real GPU
(``EAGERKIT_SIMULATED_GPU=1``), ``/sim:0`` does the same, so code that forks after using
the GPU (a test harness, a data loader) fails on any machine as it would on a GPU machine.
Switched on in code, the simulated GPU lets forks use it (test harnesses that fork lessons
stay fast). backends/simulated.py calls ``use()`` at every array operation.

Examples
--------
>>> from eagerkit.backends.simulated import SimulatedBackend
>>> _ = SimulatedBackend().asarray([1.0])
>>> initialised()
True
"""

import os

_context = {"used": False, "forked_after_use": False}  # this process's "CUDA context"


class CUDARuntimeError(RuntimeError):
    """What cupy raises when CUDA refuses a call (cupy's class of the same name)."""


def use():
    """Note that the device is used here; refuse, as CUDA does, in a child forked after its
    parent used the device (the child inherits a context it cannot use)."""
    if _context["forked_after_use"]:
        raise CUDARuntimeError(
            "cudaErrorInitializationError: initialization error (/sim:0 behaves as CUDA: a "
            "process forked after its parent used the GPU cannot use it; start the process "
            "with multiprocessing's 'spawn' or 'forkserver' method instead)"
        )
    _context["used"] = True


def initialised():
    """True when this process used ``/sim:0`` (or inherited its use through a fork): as the
    stand-in for a real GPU, a child forked now could not use it, as with CUDA."""
    return _context["used"]


def _after_fork_in_child():
    # Only as the stand-in for a real GPU machine (the variable devices.py reads).
    strict = os.environ.get("EAGERKIT_SIMULATED_GPU", "").strip() == "1"
    _context["forked_after_use"] = _context["used"] and strict


os.register_at_fork(after_in_child=_after_fork_in_child)

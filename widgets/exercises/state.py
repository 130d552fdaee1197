"""The state a check runs in: its own, whatever the lesson's cells did before.

A lesson's later cells change global state (the simulated GPU switched off, ``check_numerics``
left on, a ``with ek.device(...)`` block around the check). A check must give the same verdict
whenever it runs, so it runs its reference, and the student's answer, in a state it sets up
itself and puts back afterwards.
"""

import contextlib

from eagerkit import devices, recording

GPU = "/gpu:0"  # the lesson's GPU: a real one, or the simulated GPU standing in for it


def lesson_gpu():
    """The name ops on ``/gpu:0`` run under: ``"/gpu:0"`` on a real GPU, ``"/sim:0"`` where
    the simulated GPU stands in (lesson 09 asks for it where there is no GPU)."""
    return devices.get_device(GPU).name


@contextlib.contextmanager
def check_state(needs=()):
    """No execution callback (``enable_check_numerics``), no outer tape recording the check,
    new tensors on the CPU, and the devices in ``needs`` available: ``"/gpu:0"`` is the
    machine's GPU or, without one, the simulated GPU standing in for it.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.devices.reset_devices()
    >>> before = ek.devices.all_device_names()
    >>> with check_state(needs=["/gpu:0"]):
    ...     y = ek.copy_to_device(ek.constant(1.0), "/gpu:0")
    >>> y.device.endswith(("GPU:0", "SIM:0")), ek.devices.all_device_names() == before
    (True, True)
    """
    callbacks = recording.execution_callbacks[:]
    for callback in callbacks:
        recording.remove_callback(callback)
    stand_in = GPU in needs and devices.num_gpus() == 0
    if stand_in:
        had_sim = devices.SIMULATED in devices.all_device_names()
        devices.enable_simulated_gpu(as_gpu=True)
    try:
        with recording.paused(), devices.device("/cpu:0"):
            yield
    finally:
        if stand_in:
            _take_back_stand_in(had_sim)
        for callback in callbacks:
            recording.add_callback(callback)


def _take_back_stand_in(had_sim):
    """Undo ``enable_simulated_gpu(as_gpu=True)``: no ``/gpu:0``, and ``/sim:0`` (the same
    device, so the lesson's tensors there stay on it) only where it was before."""
    if had_sim:
        devices._DEVICES.pop(GPU, None)  # the alias only (devices has no public call for it)
    else:
        devices.disable_simulated_gpu()

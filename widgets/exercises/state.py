"""The state a check runs in: its own, whatever the lesson's cells did before.

A lesson's later cells change global state (the simulated GPU switched off, ``check_numerics``
left on, a ``with ek.device(...)`` block around the check). A check must give the same verdict
whenever it runs, so it runs its reference, and the student's answer, in a state it sets up
itself and puts back afterwards.
"""

import contextlib

from eagerkit import devices, recording

SIM = "/sim:0"


@contextlib.contextmanager
def check_state(needs=()):
    """No execution callback (``enable_check_numerics``), no outer tape recording the check,
    new tensors on the CPU, and the devices in ``needs`` (``"/sim:0"``) available.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.devices.disable_simulated_gpu()
    >>> with check_state(needs=["/sim:0"]):
    ...     print(ek.copy_to_device(ek.constant(1.0), "/sim:0").device.endswith("SIM:0"))
    True
    >>> "/sim:0" in ek.devices.all_device_names()
    False
    """
    callbacks = recording.execution_callbacks[:]
    for callback in callbacks:
        recording.remove_callback(callback)
    had_sim = SIM in devices.all_device_names()
    if SIM in needs:
        devices.enable_simulated_gpu()
    try:
        with recording.paused(), devices.device("/cpu:0"):
            yield
    finally:
        if SIM in needs and not had_sim:
            devices.disable_simulated_gpu()
        for callback in callbacks:
            recording.add_callback(callback)

"""TF's switches for eager execution. In eagerkit eager execution is simply always on."""


def executing_eagerly():
    """Always True: every op runs as soon as it is called (``ek.function`` traces, then replays).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.executing_eagerly()
    True
    """
    return True


def enable_eager_execution(config=None, device_policy=None, execution_mode=None):
    """Accepted for TF 1.x code (``tfe.enable_eager_execution()``); eager is already on.

    ``device_policy`` is honoured: ``"silent"`` copies tensors between devices instead of
    raising (see ``ek.set_device_policy``).
    """
    if device_policy is not None:
        from eagerkit import devices

        devices.set_device_policy(device_policy)

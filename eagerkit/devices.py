"""Devices: where a tensor's array lives and which backend computes on it.

``/cpu:0`` is numpy; ``/gpu:N`` is cupy, imported the first time a GPU is asked for;
``/sim:0`` is a simulated GPU (``enable_simulated_gpu()``) for machines without one. Every op
reaches its arrays only through ``device.xp``, so the same forward code runs on all three.

Ops run where their inputs are; ``with ek.device(...)`` decides where *new* tensors are made.
Inputs on two devices are an error, or a copy under ``set_device_policy("silent")`` (see
placement.py).

``EAGERKIT_SIMULATED_GPU=1`` in the environment makes the simulated GPU stand in for
``/gpu:0`` from the start, so GPU code (a lesson, the test suite) runs unchanged on a
machine without one, as strict as on a real GPU.

The Device class is in device_class.py, the stack of ``ek.device`` blocks in device_scope.py.

Examples
--------
>>> import eagerkit as ek
>>> ek.constant([1.0, 2.0]).device  # TF's full name; '/cpu:0', 'CPU:0', ... name it too
'/job:localhost/replica:0/task:0/device:CPU:0'
"""

import os

from eagerkit.backends import ArrayNamespace, Backend  # noqa: F401 - re-exported
from eagerkit.device_class import (  # noqa: F401 - re-exported: ek.devices.Device, ...
    CPU,
    FULL_NAME_PREFIX,
    GPU_KERNEL_NOTES,
    GPU_KERNELS,
    Device,
    canonical_name,
)
from eagerkit.device_scope import current_device, scope_device, scope_on  # noqa: F401 - re-exported
from eagerkit.errors import InvalidArgumentError, UnavailableError
from eagerkit.placement import (  # noqa: F401 - the policies, re-exported (placement.py)
    DEVICE_PLACEMENT_EXPLICIT,
    DEVICE_PLACEMENT_SILENT,
    DEVICE_PLACEMENT_WARN,
    copy_hint,
    resolve_conflict,
    set_device_policy,
)

SIMULATED = "/sim:0"
SIMULATED_GPU_VARIABLE = "EAGERKIT_SIMULATED_GPU"  # "1": the simulated GPU is '/gpu:0'

_DEVICES = {CPU.name: CPU}  # name -> Device, filled as devices are first asked for
_HIDDEN = set()  # names hidden by ek.config.set_visible_devices


def register_device(device):
    """Make ``device`` reachable by its name."""
    if not isinstance(device, Device):
        raise InvalidArgumentError(
            f"register_device: expected an ek.Device, got {type(device).__name__}",
            op="register_device",
        )
    _DEVICES[device.name] = device
    return device


def get_device(name):
    """The Device called ``name``; a GPU is set up (and cupy imported) on first use.

    Raises ``UnavailableError`` for a GPU when cupy or a CUDA device is missing, saying which.

    Examples
    --------
    >>> get_device("cpu:0").name
    '/cpu:0'
    """
    return _looked_up(name)


def _looked_up(name):
    """``get_device``'s work, for ``device`` to call outside ``get_device``'s boundary (its
    errors then name ``ek.device``, the call the user made)."""
    if isinstance(name, Device):
        return name
    key = canonical_name(name)
    if key in _HIDDEN:
        raise InvalidArgumentError(
            f"device {key!r} was hidden with ek.config.set_visible_devices; make it visible "
            "again with ek.config.set_visible_devices(ek.config.list_physical_devices())",
            op="device",
        )
    device = _DEVICES.get(key)
    if device is not None:
        return device
    kind, index = key[1:].split(":")
    if kind == "gpu":
        return register_device(_make_gpu(int(index)))
    known = ", ".join(list_devices())
    simulated = " ('/sim:0' needs ek.devices.enable_simulated_gpu() first)" if kind == "sim" else ""
    raise InvalidArgumentError(
        f"unknown device {key!r}{simulated}; devices here: {known}. Write '/cpu:0', or "
        "'/gpu:N' for GPUs (they need cupy)",
        op="device",
    )


def _make_gpu(index):
    from eagerkit.backends import cupy_backend

    count, problem = cupy_backend.gpu_status()
    if problem is not None:
        raise UnavailableError(f"cannot use '/gpu:{index}'. {problem}", op="device")
    if index >= count:
        raise UnavailableError(
            f"cannot use '/gpu:{index}': this machine has {count} GPU(s), '/gpu:0' to "
            f"'/gpu:{count - 1}'",
            op="device",
        )
    backend = cupy_backend.CupyBackend(index)
    return Device(f"/gpu:{index}", backend, GPU_KERNELS, GPU_KERNEL_NOTES)


def num_gpus():
    """How many GPUs eagerkit can use: 0 without cupy or without a CUDA device.

    A simulated GPU enabled with ``as_gpu=True`` counts as one.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.num_gpus() >= 0
    True
    """
    return sum(name.startswith("/gpu:") for name in visible_device_names())


def list_devices():
    """Names of the devices eagerkit can use here, CPU first.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.list_devices()[0]
    '/cpu:0'
    """
    # The simulated GPU standing in for '/gpu:0' is one device: listed once, as '/sim:0'.
    names = {_DEVICES[name].name if name in _DEVICES else name for name in visible_device_names()}
    return sorted(names, key=lambda name: (name != CPU.name, name))


def visible_device_names():
    """Every device name here except those hidden by ``ek.config.set_visible_devices``."""
    return [name for name in all_device_names() if name not in _HIDDEN]


def all_device_names():
    """Every device name here, hidden ones too: CPU, GPUs (cupy's, or the simulated stand-in
    answering to ``/gpu:0``), then ``/sim:0`` when enabled."""
    names = set(_DEVICES)
    stand_in = _DEVICES.get("/gpu:0")
    if stand_in is None or stand_in.kind != "sim":  # a simulated stand-in is the only GPU
        from eagerkit.backends import cupy_backend

        names.update(f"/gpu:{i}" for i in range(cupy_backend.gpu_status()[0]))
    return sorted(names, key=lambda name: (name != CPU.name, name))


def set_hidden_devices(names):
    """Hide the devices called ``names`` from ``get_device``, ``list_devices`` and ``num_gpus``
    (``ek.config.set_visible_devices`` decides which); the CPU cannot be hidden."""
    hidden = {canonical_name(name) for name in names}
    if CPU.name in hidden:
        raise InvalidArgumentError(
            "set_visible_devices: the CPU cannot be hidden; keep it in the list of visible devices",
            op="set_visible_devices",
        )
    _HIDDEN.clear()
    _HIDDEN.update(hidden)


def enable_simulated_gpu(as_gpu=False):
    """Register ``/sim:0``, a simulated GPU: numpy inside, but as strict as cupy.

    It has a GPU's kernel table and refuses implicit copies to the host, so lessons and CI
    can meet GPU errors on any machine. With ``as_gpu=True`` it also answers to ``/gpu:0``
    (and ``num_gpus()`` counts it), so unchanged GPU code runs on it; tensors still say
    ``/sim:0``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> with ek.device(ek.devices.enable_simulated_gpu()):
    ...     print(ek.ones([2]) * 2)
    ek.Tensor([2. 2.], shape=(2,), dtype=float32, device=/sim:0)
    """
    from eagerkit.backends.simulated import SimulatedBackend

    device = _DEVICES.get(SIMULATED)
    if device is None:
        device = register_device(
            Device(SIMULATED, SimulatedBackend(), GPU_KERNELS, GPU_KERNEL_NOTES)
        )
    if as_gpu:
        _DEVICES["/gpu:0"] = device
    return device


def disable_simulated_gpu():
    """Forget ``/sim:0`` (and its ``/gpu:0`` stand-in); its tensors stay usable."""
    for name, device in list(_DEVICES.items()):
        if device.kind == "sim":
            del _DEVICES[name]


def simulated_gpu_requested(environment=os.environ):
    """True when ``EAGERKIT_SIMULATED_GPU=1``: the simulated GPU stands in for ``/gpu:0``.

    Examples
    --------
    >>> simulated_gpu_requested({"EAGERKIT_SIMULATED_GPU": "1"})
    True
    >>> simulated_gpu_requested({})
    False
    """
    value = environment.get(SIMULATED_GPU_VARIABLE, "").strip()
    if value not in ("", "0", "1"):
        raise InvalidArgumentError(
            f"{SIMULATED_GPU_VARIABLE}={value!r} is not understood: set it to 1 (the simulated "
            "GPU stands in for '/gpu:0') or 0 (it does not), or leave it unset",
            op="device",
        )
    return value == "1"


def reset_devices():
    """Back to the devices a fresh ``import eagerkit`` starts with: nothing hidden, no
    simulated GPU unless ``EAGERKIT_SIMULATED_GPU=1`` asks for it (tests call this between
    tests, so none leaks a device into the next).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.config.set_visible_devices(ek.config.list_physical_devices("CPU"))
    >>> reset_devices()
    >>> ek.config.get_visible_devices() == ek.config.list_physical_devices()
    True
    """
    disable_simulated_gpu()
    _HIDDEN.clear()
    if simulated_gpu_requested():
        enable_simulated_gpu(as_gpu=True)


def gpu_stand_in(device):
    """True when ``device`` is the simulated GPU answering to ``/gpu:0`` (``as_gpu=True``).

    Examples
    --------
    >>> gpu_stand_in(CPU)
    False
    """
    return device.kind == "sim" and _DEVICES.get("/gpu:0") is device


if simulated_gpu_requested():  # EAGERKIT_SIMULATED_GPU=1: GPU code runs on the stand-in
    enable_simulated_gpu(as_gpu=True)


def device(name):
    """Make new tensors inside the block on ``name`` (scopes nest; the old one comes back).

    A GPU this machine lacks means the CPU, under soft placement (TF2's default; see
    ``ek.config.set_soft_device_placement``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> with ek.device("CPU:0"):
    ...     print(ek.ones([2]).device)
    /job:localhost/replica:0/task:0/device:CPU:0
    """
    try:
        target = _looked_up(name)  # now, so an unknown device fails at ek.device(...) itself
    except (UnavailableError, InvalidArgumentError) as error:  # a GPU this machine lacks
        from eagerkit.placement import soft_placed

        target = soft_placed(name, error, CPU)  # the CPU, under soft placement (TF2's default)
    return scope_on(target)


# What this namespace exports (to ``import *`` and to the error boundary, namespaces.py);
# the helpers it imports or keeps for itself stay out.
__all__ = [
    "CPU",
    "SIMULATED",
    "DEVICE_PLACEMENT_EXPLICIT",
    "DEVICE_PLACEMENT_SILENT",
    "DEVICE_PLACEMENT_WARN",
    "Device",
    "device",
    "set_device_policy",
    "canonical_name",
    "register_device",
    "get_device",
    "num_gpus",
    "list_devices",
    "visible_device_names",
    "all_device_names",
    "set_hidden_devices",
    "enable_simulated_gpu",
    "disable_simulated_gpu",
    "current_device",
    "scope_device",
]

"""``ek.config``: which devices exist and which ones eagerkit may use, as ``tf.config``.

Physical devices are the hardware (``/physical_device:GPU:0``); logical devices are what
ops run on (``/device:GPU:0``). Here each physical device is one logical device. The
simulated GPU (``ek.devices.enable_simulated_gpu()``) is listed with type ``"SIM"``, or as
``GPU:0`` when it stands in for one (``as_gpu=True``).

Examples
--------
>>> import eagerkit as ek
>>> ek.config.list_physical_devices("CPU")
[PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]
"""

from collections import namedtuple

import numpy as np

from eagerkit import devices, placement
from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError

PhysicalDevice = namedtuple("PhysicalDevice", ["name", "device_type"])
LogicalDevice = namedtuple("LogicalDevice", ["name", "device_type"])


def _type_and_index(name):
    """``'/gpu:1'`` -> ``('GPU', '1')``."""
    kind, index = name.strip("/").split(":")
    return kind.upper(), index


def _physical(names, device_type):
    wanted = None if device_type is None else str(device_type).upper()
    found = []
    for name in names:
        kind, index = _type_and_index(name)
        if wanted is None or kind == wanted:
            found.append(PhysicalDevice(f"/physical_device:{kind}:{index}", kind))
    return found


def list_physical_devices(device_type=None):
    """The devices of ``device_type`` (``"CPU"``, ``"GPU"``, ``"SIM"``; None: all) on this machine.

    Examples
    --------
    >>> import eagerkit as ek
    >>> [d.device_type for d in ek.config.list_physical_devices()][0]
    'CPU'
    """
    return _physical(devices.all_device_names(), device_type)


def get_visible_devices(device_type=None):
    """The physical devices eagerkit may use (all but those hidden by ``set_visible_devices``)."""
    return _physical(devices.visible_device_names(), device_type)


def list_logical_devices(device_type=None):
    """The visible devices as ops see them, e.g. ``LogicalDevice(name='/device:CPU:0', ...)``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.config.list_logical_devices("CPU")
    [LogicalDevice(name='/device:CPU:0', device_type='CPU')]
    """
    return [
        LogicalDevice(d.name.replace("/physical_device:", "/device:"), d.device_type)
        for d in get_visible_devices(device_type)
    ]


def set_visible_devices(devices_to_use, device_type=None):
    """Let eagerkit use only ``devices_to_use`` (of ``device_type``, when given).

    ``ek.config.set_visible_devices([], "GPU")`` hides every GPU: ``ek.num_gpus()`` is 0 and
    ``with ek.device("/gpu:0")`` raises. The CPU always stays visible.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.config.set_visible_devices(ek.config.list_physical_devices("CPU"))
    >>> ek.config.get_visible_devices()
    [PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]
    >>> ek.config.set_visible_devices(ek.config.list_physical_devices())  # all again
    """
    if isinstance(devices_to_use, PhysicalDevice):
        devices_to_use = [devices_to_use]
    if isinstance(devices_to_use, str) or not hasattr(devices_to_use, "__iter__"):
        raise InvalidArgumentError(
            f"set_visible_devices: expected a list of PhysicalDevice objects (from "
            f"ek.config.list_physical_devices()), got {devices_to_use!r}",
            op="set_visible_devices",
        )
    wanted = set()
    for device in devices_to_use:
        if not isinstance(device, PhysicalDevice):
            raise InvalidArgumentError(
                f"set_visible_devices: expected PhysicalDevice objects from "
                f"ek.config.list_physical_devices(), got {device!r}",
                op="set_visible_devices",
            )
        kind, index = device.name.rsplit("/physical_device:", 1)[-1].split(":")
        wanted.add(f"/{kind.lower()}:{index}")
    kind = None if device_type is None else str(device_type).upper()
    everything = devices.all_device_names()
    unknown = wanted.difference(everything)
    if unknown:
        raise InvalidArgumentError(
            f"set_visible_devices: no such device(s) {sorted(unknown)}; the devices here are "
            f"{everything}",
            op="set_visible_devices",
        )
    # Only devices of device_type change; the CPU always stays visible, as in TF.
    affected = {n for n in everything if kind in (None, _type_and_index(n)[0]) and n != "/cpu:0"}
    already_hidden = set(everything).difference(devices.visible_device_names())
    devices.set_hidden_devices((already_hidden - affected) | (affected - wanted))


def set_soft_device_placement(enabled):
    """Whether ``with ek.device("GPU:0")`` on a machine without that GPU runs on the CPU
    (True, TF2's default) or raises the error that says why (False).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.config.set_soft_device_placement(False)
    >>> ek.config.get_soft_device_placement()
    False
    >>> ek.config.set_soft_device_placement(True)
    """
    if not isinstance(enabled, (bool, int, np.bool_, np.integer)):
        raise InvalidArgumentError(
            f"set_soft_device_placement: enabled: expected True or False, got {describe(enabled)}",
            op="set_soft_device_placement",
        )
    placement.soft_placement = bool(enabled)


def get_soft_device_placement():
    """True when a ``device`` scope naming a missing GPU places its block on the CPU.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.config.get_soft_device_placement()
    True
    """
    return placement.soft_placement


# --- graph mode: the debugging switch ------------------------------------------------------
RUN_FUNCTIONS_EAGERLY = [False]  # read by ek.function at every call


def run_functions_eagerly(run_eagerly):
    """Make every ``ek.function`` run its Python function eagerly, op by op (True), or as
    a graph again (False): TF's switch for debugging a function.

    Examples
    --------
    >>> import eagerkit as ek
    >>> @ek.function
    ... def f(x):
    ...     print("Python runs")
    ...     return x + 1
    >>> ek.config.run_functions_eagerly(True)
    >>> _ = f(ek.constant(1)); _ = f(ek.constant(1))  # the Python code runs at every call
    Python runs
    Python runs
    >>> ek.config.run_functions_eagerly(False)
    >>> f.trace_count
    0
    """
    if not isinstance(run_eagerly, (bool, int, np.bool_, np.integer)) or run_eagerly not in (0, 1):
        raise InvalidArgumentError(
            f"run_functions_eagerly: expected True or False, got {run_eagerly!r}; pass True to "
            "run every ek.function eagerly (debugging), False to run them as graphs again",
            op="run_functions_eagerly",
        )
    RUN_FUNCTIONS_EAGERLY[0] = bool(run_eagerly)


def functions_run_eagerly():
    """Whether ``run_functions_eagerly(True)`` is in force."""
    return RUN_FUNCTIONS_EAGERLY[0]


# What this namespace exports (to ``import *`` and to the error boundary, namespaces.py);
# the helpers it imports or keeps for itself stay out.
__all__ = [
    "PhysicalDevice",
    "LogicalDevice",
    "list_physical_devices",
    "get_visible_devices",
    "list_logical_devices",
    "set_visible_devices",
    "set_soft_device_placement",
    "get_soft_device_placement",
    "run_functions_eagerly",
    "functions_run_eagerly",
]

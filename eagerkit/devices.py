"""Devices: where a tensor's array lives and which array library computes on it.

``/cpu:0`` is numpy. Every op reaches its arrays only through ``device.xp``, the device's
array namespace, so the same forward code runs on numpy, cupy or anything shaped like them.

Examples
--------
>>> import eagerkit as ek
>>> ek.constant([1.0, 2.0]).device
'/cpu:0'
"""

import contextlib
import functools
import threading

import numpy as np

from eagerkit.errors import InvalidArgumentError


class ArrayNamespace:
    """An array library (numpy, cupy) plus the few pieces the array API leaves out.

    Forward kernels call ``xp.exp``, ``xp.matmul``, ... on it exactly as on the module;
    the extras (``scatter_add``, ``sliding_window_view``) are attached by the backend.
    """

    def __init__(self, module, **extras):
        self.__dict__.update(vars(module))
        self.__dict__.update(extras)
        self.__name__ = module.__name__


def _numpy_scatter_add(target, indices, updates):
    """target[indices] += updates, summing repeated indices (in place; returns target)."""
    np.add.at(target, indices, updates)
    return target


class Backend:
    """What a device needs from an array library: ``xp`` and moving arrays on and off it."""

    name = "numpy"

    def __init__(self):
        self.xp = ArrayNamespace(
            np,
            scatter_add=_numpy_scatter_add,
            sliding_window_view=np.lib.stride_tricks.sliding_window_view,
        )

    def asarray(self, value, dtype=None):
        """Host data (Python values, numpy arrays) as an array of this backend."""
        return np.asarray(value, dtype=dtype)

    def to_host(self, array):
        """The array as numpy (a no-op on the CPU)."""
        return array

    def is_array(self, value):
        """True for this backend's own arrays (and scalars)."""
        return isinstance(value, (np.ndarray, np.generic))

    def synchronize(self):
        """Wait until queued work is done (nothing to wait for on the CPU)."""

    def random_generator(self, seed):
        """A seeded generator with ``normal``, ``uniform`` and ``integers`` methods."""
        return np.random.default_rng(seed)


class Device:
    """A named place for tensors, e.g. ``/cpu:0``.

    ``kernels`` narrows, per op name, the dtypes this device runs (``None`` = what the op
    itself allows). An op that a device lacks fails before it runs, naming op, dtype and
    device.
    """

    def __init__(self, name, backend, kernels=None):
        self.name = name
        self.backend = backend
        self.xp = backend.xp
        self.kernels = dict(kernels or {})
        self.restricted = bool(self.kernels)

    @functools.cached_property
    def raw_ops(self):
        """The registry's forwards bound to this device's ``xp``: VJPs on raw arrays use it."""
        from eagerkit.registry import KernelNamespace

        return KernelNamespace(self.xp)

    @property
    def kind(self):
        """``"cpu"``, ``"gpu"`` or ``"sim"``: the part of the name before the colon."""
        return self.name.strip("/").split(":")[0]

    def supports(self, op_name, np_dtype):
        """True when this device has a kernel for ``op_name`` on ``np_dtype``."""
        allowed = self.kernels.get(op_name)
        return allowed is None or np_dtype in allowed

    def __repr__(self):
        return f"<ek.Device {self.name} ({self.backend.name})>"


CPU = Device("/cpu:0", Backend())

# name -> Device; other modules (GPU, simulated) add theirs with register_device.
_DEVICES = {CPU.name: CPU}
_FACTORIES = {}
_scope = threading.local()


def canonical_name(name):
    """``"gpu:0"``, ``"/GPU:0"``, ``"/device:GPU:0"`` -> ``"/gpu:0"``; ``"cpu"`` -> ``"/cpu:0"``."""
    text = str(name).strip().lower()
    text = text.rsplit("device:", 1)[-1].strip("/")
    if ":" not in text:
        text += ":0"
    kind, _, index = text.partition(":")
    if not index.isdigit() or not kind.isalpha():
        raise InvalidArgumentError(
            f"device name {name!r} is not understood; write it like '/cpu:0' or '/gpu:0'",
            op="device",
        )
    return f"/{kind}:{int(index)}"


def register_device(device):
    """Make ``device`` reachable by its name (used by the GPU and simulated backends)."""
    _DEVICES[device.name] = device
    return device


def register_device_factory(kind, factory):
    """Call ``factory(index)`` the first time a device of ``kind`` (e.g. "gpu") is asked for."""
    _FACTORIES[kind] = factory


def get_device(name):
    """The Device called ``name`` (created on first use for GPUs).

    Examples
    --------
    >>> from eagerkit.devices import get_device
    >>> get_device("cpu:0").name
    '/cpu:0'
    """
    if isinstance(name, Device):
        return name
    key = canonical_name(name)
    device = _DEVICES.get(key)
    if device is not None:
        return device
    kind, index = key[1:].split(":")
    if kind in _FACTORIES:
        return register_device(_FACTORIES[kind](int(index)))
    known = ", ".join(sorted(_DEVICES))
    raise InvalidArgumentError(
        f"unknown device {key!r}; devices here: {known}. "
        "GPUs are '/gpu:N' (needs cupy: pip install 'eagerkit[gpu]')",
        op="device",
    )


def current_device():
    """The device that creation ops use now (``/cpu:0`` unless inside ``ek.device(...)``)."""
    stack = getattr(_scope, "stack", None)
    return stack[-1] if stack else CPU


@contextlib.contextmanager
def device(name):
    """Place tensors created inside the block on ``name``.

    Ops run where their inputs are; this scope decides where new tensors (constants,
    zeros, random numbers, converted Python values) are made.

    Examples
    --------
    >>> import eagerkit as ek
    >>> with ek.device("/cpu:0"):
    ...     print(ek.ones([2]).device)
    /cpu:0
    """
    target = get_device(name)
    stack = getattr(_scope, "stack", None)
    if stack is None:
        stack = _scope.stack = []
    stack.append(target)
    try:
        yield target
    finally:
        stack.pop()


def list_devices():
    """Names of the devices known so far, CPU first."""
    return sorted(_DEVICES, key=lambda name: (name != CPU.name, name))

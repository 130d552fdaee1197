"""The Device class: a named place for tensors (``/cpu:0``) with the backend that computes
there, what a GPU lacks (its kernel table), the CPU device and the canonical spelling of a
device's name. The registry of devices this machine has is devices.py.

Examples
--------
>>> import eagerkit as ek
>>> ek.devices.CPU.full_name  # TF's fully qualified name, what ``tensor.device`` says
'/job:localhost/replica:0/task:0/device:CPU:0'
"""

import numpy as np

from eagerkit.backends.numpy_backend import NumpyBackend
from eagerkit.errors import InvalidArgumentError

FULL_NAME_PREFIX = "/job:localhost/replica:0/task:0/device:"  # one machine, one process


class Device:
    """A named place for tensors, e.g. ``/cpu:0``, with the backend that computes there.

    ``kernels`` narrows, per op name, the numpy dtypes this device runs (an op missing from
    it runs on every dtype the op allows); ``kernel_notes`` says why, for the error message.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.devices.get_device("/cpu:0")
    <ek.Device /cpu:0 (numpy)>
    """

    def __init__(self, name, backend, kernels=None, kernel_notes=None):
        self.name = name
        self.backend = backend
        self.xp = backend.xp
        self.kernels = dict(kernels or {})
        self.kernel_notes = dict(kernel_notes or {})
        # Some op lacks a kernel here (a GPU's integer matmul): dispatch asks ``supports``.
        self.restricted = bool(self.kernels)
        # "cpu", "gpu" or "sim": the part of the name before the colon.
        self.kind, index = name.strip("/").split(":")
        # TF's fully qualified name, what ``tensor.device`` says: ".../device:CPU:0".
        self.full_name = f"{FULL_NAME_PREFIX}{self.kind.upper()}:{index}"

    def supports(self, op_name, np_dtype):
        """True when this device has a kernel for ``op_name`` on ``np_dtype``."""
        allowed = self.kernels.get(op_name)
        return allowed is None or np_dtype in allowed

    def synchronize(self):
        """Wait for the work queued on this device (call it before reading a clock)."""
        self.backend.synchronize()

    def __repr__(self):
        return f"<ek.Device {self.name} ({self.backend.name})>"


# What a GPU lacks. TF registers its GPU MatMul kernel for half, float, double and the two
# complex types only, because cuBLAS multiplies floating-point matrices; integer matmul runs
# on the CPU. GPU devices here declare the same gap, so the "No registered kernel for GPU"
# error can be met on any machine.
_CUBLAS_TYPES = frozenset(
    np.dtype(name) for name in ("float16", "float32", "float64", "complex64", "complex128")
)
GPU_KERNELS = {"matmul": _CUBLAS_TYPES}
GPU_KERNEL_NOTES = {
    "matmul": "GPUs multiply matrices with cuBLAS, which works on floating-point (and complex) "
    "numbers only (TensorFlow's GPU MatMul is registered for half, float, double, complex64 "
    "and complex128, too).",
}

CPU = Device("/cpu:0", NumpyBackend())


def canonical_name(name):
    """``"gpu:0"``, ``"/GPU:0"``, ``"/device:GPU:0"`` -> ``"/gpu:0"``; ``"cpu"`` -> ``"/cpu:0"``.

    Examples
    --------
    >>> canonical_name("/job:localhost/replica:0/task:0/device:GPU:1")
    '/gpu:1'
    >>> canonical_name("CPU:0"), canonical_name("/job:localhost/replica:0/task:0/cpu:0")
    ('/cpu:0', '/cpu:0')
    """
    text = str(name).strip().lower().rstrip("/")
    # Only the last part names the device: ".../task:0/device:gpu:1", "/cpu:0", "gpu:1".
    text = text.rsplit("/", 1)[-1].rsplit("device:", 1)[-1]
    if ":" not in text:
        text += ":0"
    kind, _, index = text.partition(":")
    if not index.isdigit() or not kind.isalpha():
        raise InvalidArgumentError(
            f"device name {name!r} is not understood; write it like '/cpu:0' or '/gpu:0'",
            op="device",
        )
    return f"/{kind}:{int(index)}"

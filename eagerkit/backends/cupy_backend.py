"""The GPU backend: cupy, imported only when a GPU device is first asked for.

Without cupy, or with cupy but no usable CUDA device, ``gpu_status()`` says which of the two
is missing and how to fix it; nothing here runs at ``import eagerkit``.
"""

import importlib
import sys
import warnings

import numpy as np

from eagerkit.backends import ArrayNamespace, Backend, HostRandomGenerator
from eagerkit.backends.fusion import KernelTable
from eagerkit.errors import UnavailableError

INSTALL = (
    'run pip install "eagerkit[gpu]" (it brings cupy-cuda12x, built for CUDA 12 drivers), or '
    "for a CUDA 13 or CUDA 11 driver pip install cupy-cuda13x or cupy-cuda11x (nvidia-smi "
    "shows the CUDA version your driver supports)"
)
NO_GPU_HINT = "Meanwhile use '/cpu:0', or try GPU code on ek.devices.enable_simulated_gpu()."


def load_cupy():
    """The cupy module, or an UnavailableError saying it is not installed and how to get it."""
    try:
        return importlib.import_module("cupy")
    except ImportError as error:
        raise UnavailableError(
            f"No GPU: cupy is not installed ({error}). eagerkit reaches GPUs through cupy: to "
            f"install it, {INSTALL}. {NO_GPU_HINT}",
            op="device",
        ) from None


def gpu_status():
    """``(number of CUDA devices, None)``, or ``(0, why not)``; never raises.

    Examples
    --------
    >>> count, problem = gpu_status()
    >>> count > 0 or "cupy" in problem
    True
    """
    try:
        cupy = load_cupy()
    except UnavailableError as error:
        return 0, error.message
    try:
        # Without a driver cupy imports fine, is_available() is False and device calls raise
        # CUDARuntimeError (a RuntimeError): ask gently first.
        count = cupy.cuda.runtime.getDeviceCount() if cupy.is_available() else 0
    except RuntimeError:
        count = 0
    if count == 0:
        return 0, (
            f"No GPU: cupy {cupy.__version__} is installed but finds no usable CUDA device "
            "(cupy.is_available() is False: no NVIDIA GPU, no driver, or a driver older than the "
            "CUDA version this cupy wheel was built for). Check nvidia-smi. If the wheel does not "
            f"match the driver, uninstall it and {INSTALL}. {NO_GPU_HINT}"
        )
    return count, None


def cuda_initialised():
    """True when this process may have initialised CUDA (it imported cupy, and cupy finds a
    device: asking initialises CUDA too). A child forked after that cannot use the GPU
    (``cudaErrorInitializationError``): start child processes with multiprocessing's
    "spawn" or "forkserver" method instead. Never imports cupy itself.

    Examples
    --------
    >>> cuda_initialised() in (True, False)
    True
    """
    cupy = sys.modules.get("cupy")
    try:
        return cupy is not None and bool(cupy.is_available())
    except Exception:  # a broken driver: no usable context either way
        return False


class CupyBackend(Backend):
    """cupy arrays on CUDA device ``index``.

    Kernels run asynchronously: ``synchronize()`` waits for them (timing needs it), and
    ``to_host`` (what ``Tensor.numpy()`` calls) waits implicitly.
    """

    name = "cupy"

    def __init__(self, index):
        cupy = load_cupy()
        import cupyx
        import cupyx.scipy.special

        self.cupy = cupy
        self.index = index
        self.cuda_device = cupy.cuda.Device(index)
        self.array_types = (cupy.ndarray,)
        self.xp = ArrayNamespace(
            cupy,
            scatter_add=_cupy_scatter_add(cupyx),
            as_strided=cupy.lib.stride_tricks.as_strided,
            erf=cupyx.scipy.special.erf,
            kernels=KernelTable(self),  # fused elementwise kernels (fusion.py)
        )

    def asarray(self, host_array, dtype=None):
        """Host data copied to this GPU."""
        with self.cuda_device:
            return self.cupy.asarray(host_array, dtype=dtype)

    def to_host(self, array):
        """A numpy copy of a cupy array (waits for the kernels that compute it). A numpy
        scalar (a Python number an op took beside a tensor, as recorded on a tape) is on the
        host already."""
        if isinstance(array, np.generic):
            return np.asarray(array)
        return array.get()

    def activate(self):
        """cupy's current-device context: arrays made inside it land on this GPU."""
        return self.cuda_device

    def synchronize(self):
        """Wait until every kernel queued on this GPU has finished."""
        self.cuda_device.synchronize()

    def random_generator(self, seed):
        """numpy's generator on the host, its samples copied to the GPU."""
        return HostRandomGenerator(seed, self.asarray)

    def fuse(self, function, name, cuda=None):
        """``function(xp, *arrays)`` compiled by ``cupy.fuse`` into one kernel called ``name``
        (compiled on the first call for each set of input types, then cached by cupy); or,
        given ``cuda`` (fusion.py's ``Elementwise``), that ``cupy.ElementwiseKernel``."""
        return FusedKernel(self.cupy, self.xp, function, name, cuda)


class FusedKernel:
    """One ``cupy.fuse`` kernel (or ``ElementwiseKernel``), and the plain steps it stands for.

    Should cupy fail to compile the chain (an operation its fusion does not know), the
    plain steps run instead, with one warning: slower, never wrong. An error the plain
    steps raise too (inputs that do not fit) is the user's, and is raised as it is.
    """

    def __init__(self, cupy, xp, function, name, cuda=None):
        def kernel(*arrays):
            return function(xp, *arrays)

        kernel.__name__ = name
        self.name = name
        self.plain = kernel
        if cuda is None:
            self.fused = cupy.fuse(kernel)
        else:  # _ind.get() needs the output's own dimensions, not merged ones
            self.fused = cupy.ElementwiseKernel(*cuda, name=name, reduce_dims=False)

    def __call__(self, *arrays):
        if self.fused is None:
            return self.plain(*arrays)
        try:
            return self.fused(*arrays)
        except Exception as error:
            result = self.plain(*arrays)  # raises the user's error, if it is one
            warnings.warn(
                f"eagerkit: cupy could not fuse the kernel {self.name!r} ({error}); it runs "
                "as separate steps from now on (same results, more kernel launches)",
                RuntimeWarning,
                stacklevel=2,
            )
            self.fused = None
            return result


def _cupy_scatter_add(cupyx):
    def scatter_add(target, indices, updates):
        cupyx.scatter_add(target, indices, updates)  # atomic adds: repeated indices add up
        return target

    return scatter_add

"""A simulated GPU for machines without one: numpy inside, cupy's manners outside.

``SimArray`` holds a numpy array and behaves like a cupy array: arithmetic and numpy
functions on SimArrays give SimArrays (``__array_ufunc__`` / ``__array_function__``), but it
refuses what cupy refuses:

- implicit conversion to numpy (``np.asarray(a)``, ``np.array(a)``, anything calling
  ``__array__``): copy to the host explicitly with ``backend.to_host(a)``;
- mixing with a host numpy array in one operation (``a + np.ones(3)``);
- Python scalars (``float``, ``int``, ``bool``) from arrays with dimensions.

Code that passes every test on ``/sim:0`` therefore keeps device data on the device, as it
must on a real GPU. Python and numpy *scalars* mix freely, as they do with cupy.

Standing in for a real GPU (``EAGERKIT_SIMULATED_GPU=1``), it also cannot be used, as CUDA
cannot, in a process forked after its parent used it (``os.fork``, multiprocessing's default
"fork" start method on Linux): there every use raises CUDA's own
``cudaErrorInitializationError`` (backends/sim_context.py). Start such processes with
multiprocessing's "spawn" (or "forkserver"), which begin afresh, on a real GPU as here.

It also counts what costs time on a real GPU (``counting()``): kernels launched (each
function or operator that computes on device arrays: one launch, as in cupy; a fused
kernel: one launch for the whole function), reads from the host (a copy to the host, or a
Python number taken from a device array: the program waits for the GPU there) and copies
of host data to the device (``xp.asarray`` of a list or a Python number, as with cupy).
Tests read the counts to prove that fusion saves launches and that a training step never
waits and copies nothing.

Examples
--------
>>> import numpy as np
>>> a = SimulatedBackend().asarray([1.0, 2.0])
>>> a * 2
SimArray(array([2., 4.]))
>>> a + np.ones(2)  # doctest: +ELLIPSIS
Traceback (most recent call last):
  ...
TypeError: a /sim:0 array cannot be mixed with a host numpy array (shape (2,)) in one ...
"""

import contextlib
import functools

import numpy as np
from numpy.lib.mixins import NDArrayOperatorsMixin

from eagerkit.backends import ArrayNamespace, Backend, HostRandomGenerator
from eagerkit.backends.fusion import KernelTable
from eagerkit.backends.numpy_backend import erf, scatter_add
from eagerkit.backends.sim_context import use as _use


class Counts:
    """What the simulated device did: ``kernels`` launched, ``host_reads`` (waits) and
    ``copies_to_device`` (host data copied over)."""

    __slots__ = ("kernels", "host_reads", "copies_to_device")

    def __init__(self):
        self.kernels = 0
        self.host_reads = 0
        self.copies_to_device = 0

    def __repr__(self):
        return (
            f"Counts(kernels={self.kernels}, host_reads={self.host_reads}, "
            f"copies_to_device={self.copies_to_device})"
        )


_counts = Counts()  # since the process started; counting() reports the difference


@contextlib.contextmanager
def counting():
    """Count the kernels launched, the host reads and the copies to the device made on
    ``/sim:0`` inside the block.

    Examples
    --------
    >>> backend = SimulatedBackend()
    >>> a = backend.asarray([1.0, 2.0])
    >>> with counting() as counts:
    ...     b = (a * 2 + 1).sum()
    ...     total = float(b)
    >>> counts
    Counts(kernels=3, host_reads=1, copies_to_device=0)
    """
    start = {name: getattr(_counts, name) for name in Counts.__slots__}
    seen = Counts()
    try:
        yield seen
    finally:
        for name, before in start.items():
            setattr(seen, name, getattr(_counts, name) - before)


def _launched(value):
    """``value``, the result of one kernel: counted."""
    _use()
    _counts.kernels += 1
    return value


def _computed(result, args, kwargs):
    """True when a call computed ``result`` (a kernel on a GPU); False when it only viewed
    an argument's memory another way (``reshape``, ``astype`` to the same dtype), as cupy
    does without a kernel. A result written into ``out=`` was computed."""
    if "out" in kwargs or not isinstance(result, np.ndarray):
        return True
    return not any(isinstance(a, np.ndarray) and np.may_share_memory(result, a) for a in args)


class SimArray(NDArrayOperatorsMixin):
    """A numpy array that pretends to live on a GPU (see the module docstring)."""

    __slots__ = ("_array",)

    def __init__(self, array):
        self._array = array

    # --- the numpy protocols: SimArrays in, SimArrays out; host arrays refused -------------
    def __array__(self, dtype=None, copy=None):
        raise TypeError(
            "Implicit conversion of a /sim:0 array to a NumPy array is not allowed (cupy "
            "refuses it too); copy it to the host explicitly with tensor.numpy() or tensor.cpu()"
        )

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return _launched(_wrap(getattr(ufunc, method)(*_unwrap(inputs), **_unwrap(kwargs))))

    def __array_function__(self, func, types, args, kwargs):
        return _on_device(func)(*args, **kwargs)

    # --- indexing and iteration -------------------------------------------------------------
    def __getitem__(self, key):
        _use()
        return _wrap(self._array[_unwrap(key)])

    def __setitem__(self, key, value):
        _use()
        self._array[_unwrap(key)] = _unwrap(value)
        _counts.kernels += 1  # a copy into the array

    def __len__(self):
        return len(self._array)

    def __iter__(self):
        return (_wrap(row) for row in self._array)  # views: no kernel

    # --- Python scalars: only from 0-d arrays -------------------------------------------------
    def _scalar(self, convert):
        if self._array.ndim:
            raise TypeError(
                f"a /sim:0 array of shape {self._array.shape} cannot become a Python "
                f"{convert.__name__}; reduce it to a scalar first or copy it to the host "
                "with .numpy()"
            )
        _use()
        _counts.host_reads += 1  # a Python number: the program waits for the device
        return convert(self._array)

    def __float__(self):
        return self._scalar(float)

    def __int__(self):
        return self._scalar(int)

    def __bool__(self):
        return self._scalar(bool)

    def __index__(self):
        return self._scalar(int)

    # --- everything else (shape, dtype, astype, reshape, sum, ...) as numpy's --------------
    def __getattr__(self, name):
        if name.startswith("__"):  # never __array_interface__ & co: no back door to numpy
            raise AttributeError(name)
        value = getattr(self._array, name)
        if callable(value):
            return _on_device(value, self._array)
        return _wrap(value)

    def __repr__(self):
        return f"SimArray({self._array!r})"


def _unwrap(value):
    """SimArrays to their numpy arrays (in tuples, lists, dicts); host arrays refused."""
    if isinstance(value, SimArray):
        return value._array
    if isinstance(value, np.ndarray):
        raise TypeError(
            f"a /sim:0 array cannot be mixed with a host numpy array (shape {value.shape}) in "
            "one operation, as with cupy; convert the host value to a tensor on the device "
            "first (ek.constant under ek.device(...), or x.gpu()/ek.copy_to_device)"
        )
    if isinstance(value, (tuple, list)):
        return type(value)(_unwrap(v) for v in value)
    if isinstance(value, dict):
        return {k: _unwrap(v) for k, v in value.items()}
    return value


def _wrap(value):
    """numpy results back to SimArrays; a numpy scalar becomes a 0-d SimArray, as in cupy."""
    if isinstance(value, np.ndarray):
        return SimArray(value)
    if isinstance(value, np.generic):
        return SimArray(np.asarray(value))
    if isinstance(value, (tuple, list)):
        items = [_wrap(v) for v in value]
        # A named tuple (numpy's SVDResult) takes its fields one by one.
        return type(value)(*items) if hasattr(value, "_fields") else type(value)(items)
    return value


def _on_device(function, owner=None):
    """``function`` taking and giving SimArrays (a numpy function, or a method of the array
    ``owner``): one kernel launch, unless it only made a view (``_computed``)."""

    @functools.wraps(function)
    def on_device(*args, **kwargs):
        _use()
        args, kwargs = _unwrap(args), _unwrap(kwargs)
        result = function(*args, **kwargs)
        if _computed(result, (owner, *args), kwargs):
            _counts.kernels += 1
        return _wrap(result)

    return on_device


def _from_host(function):
    """``xp.asarray`` / ``xp.array``: like cupy's, they copy host data onto the device."""

    @functools.wraps(function)
    def from_host(value, *args, **kwargs):
        _use()
        if isinstance(value, SimArray):
            value = value._array
        else:  # host data (a list, a Python number): copied over, as cupy copies it
            _counts.copies_to_device += 1
        return SimArray(np.array(function(value, *args, **kwargs)))

    return from_host


def _namespace():
    """numpy's functions wrapped with ``_on_device``; types and constants as they are."""
    functions = {
        name: _on_device(value)
        for name, value in vars(np).items()
        if callable(value) and not isinstance(value, type) and not name.startswith("_")
    }
    functions.update(asarray=_from_host(np.asarray), array=_from_host(np.array))
    return ArrayNamespace(
        np,
        **functions,
        scatter_add=scatter_add,  # np.add.at reaches SimArrays through __array_ufunc__
        as_strided=_on_device(np.lib.stride_tricks.as_strided),  # a view: no kernel
        erf=_on_device(erf),
    )


class SimulatedBackend(Backend):
    """The backend of ``/sim:0``: SimArrays, copied to and from the host explicitly.

    Examples
    --------
    >>> backend = SimulatedBackend()
    >>> backend.to_host(backend.xp.ones(2))
    array([1., 1.])
    """

    name = "simulated"
    array_types = (SimArray,)

    def __init__(self):
        self.xp = _namespace()
        self.xp.kernels = KernelTable(self)  # fused elementwise kernels, one launch each

    def asarray(self, host_array, dtype=None):
        """Host data copied onto the simulated device."""
        _use()
        _counts.copies_to_device += 1
        return SimArray(np.array(host_array, dtype=dtype))

    def to_host(self, array):
        """A numpy copy of a SimArray (the explicit way off the device). A numpy scalar (a
        Python number an op took beside a tensor, as recorded on a tape) is on the host
        already, as with cupy: no wait."""
        if isinstance(array, np.generic):
            return np.asarray(array)
        if not isinstance(array, SimArray):
            raise TypeError(
                f"to_host: expected a /sim:0 array, got {type(array).__name__}; a tensor's "
                "data and its device disagree"
            )
        _use()
        _counts.host_reads += 1  # the program waits for the device here
        return array._array.copy()

    def fuse(self, function, name, cuda=None):
        """``function(xp, *arrays)`` as one kernel called ``name``: run on the host arrays
        inside, counted as one launch; SimArrays in and out (host arrays still refused).
        A CUDA body (``cuda``, a GPU's version of ``function``) is not needed here."""

        def fused(*arrays):
            return _launched(_wrap(function(np, *_unwrap(arrays))))

        fused.__name__ = name
        return fused

    def random_generator(self, seed):
        """numpy's generator on the host, its samples copied to the device."""
        return HostRandomGenerator(seed, self.asarray)

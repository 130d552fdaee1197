"""Backends: the array library behind a device, behind one small interface.

Every backend is an object with

- ``xp``: the array namespace the forward kernels call (``xp.exp``, ``xp.matmul``, ...), plus
  the two pieces the array API leaves out: ``xp.scatter_add(target, indices, updates)``
  (``target[indices] += updates`` with repeated indices adding up) and
  ``xp.as_strided(x, shape, strides)`` (a view of ``x``'s memory with other strides: the
  patches of a convolution; cupy's ``sliding_window_view`` copies its window shape to the
  GPU and reads a check back, a wait in every convolution) and
  ``xp.erf`` (the error function, for the exact GELU: scipy's, cupyx.scipy's);
- ``asarray(host_array)`` and ``to_host(array)``: the only doors between host memory and the
  device, so every copy is explicit;
- ``random_generator(seed)``: a seeded generator with ``normal``, ``uniform``, ``integers``;
- ``synchronize()``: wait until queued device work is done (read the clock only after it);
- ``activate()``: a context that makes the library allocate on this device (cupy's GPU N).

``numpy_backend`` serves ``/cpu:0``, ``cupy_backend`` serves ``/gpu:N`` (cupy is imported only
when a GPU is first asked for) and ``simulated`` serves ``/sim:0``, a stand-in for a GPU that
refuses what cupy refuses, so CI without a GPU still catches host-only code.
"""

import contextlib

import numpy as np


class ArrayNamespace:
    """An array module (numpy, cupy) plus extra functions, read as ``xp.name``.

    Examples
    --------
    >>> import numpy as np
    >>> xp = ArrayNamespace(np, double=lambda x: 2 * x)
    >>> xp.double(xp.ones(2))
    array([2., 2.])
    """

    def __init__(self, module, **extras):
        self.__dict__.update(vars(module))
        self.__dict__.update(extras)
        self.__name__ = module.__name__


class Backend:
    """What every backend shares; subclasses set ``name`` and ``xp`` and move data.

    ``is_array`` is true for the backend's own arrays; ``synchronize`` does nothing on
    backends that compute as soon as they are called (numpy).
    """

    name = "abstract"
    array_types = ()

    def is_array(self, value):
        """True for this backend's own arrays."""
        return isinstance(value, self.array_types)

    def synchronize(self):
        """Wait until queued work is done (nothing to wait for when work runs at once)."""

    def activate(self):
        """A context in which the library makes new arrays on this backend's device."""
        return contextlib.nullcontext()  # one host: nothing to switch

    def __repr__(self):
        return f"<{type(self).__name__} {self.name}>"


class HostRandomGenerator:
    """numpy's seeded generator whose samples are copied to a device by ``to_device``.

    Drawing on the host makes one seed give the same numbers on every device, so lessons
    and tests are reproducible whether or not a GPU is present (at the cost of one copy).

    Examples
    --------
    >>> import numpy as np
    >>> generator = HostRandomGenerator(0, np.asarray)
    >>> generator.normal(0.0, 1.0, size=2).shape
    (2,)
    """

    def __init__(self, seed, to_device):
        self._generator = np.random.default_rng(seed)
        self._to_device = to_device

    def __getattr__(self, name):
        if name.startswith("_"):  # not a sampler (and no recursion before __init__ ran)
            raise AttributeError(name)
        method = getattr(self._generator, name)

        def sample(*args, **kwargs):
            return self._to_device(method(*args, **kwargs))

        return sample

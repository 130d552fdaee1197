"""The CPU backend: numpy, used as it is."""

import numpy as np

from eagerkit.backends import ArrayNamespace, Backend
from eagerkit.backends.fusion import KernelTable


def scatter_add(target, indices, updates):
    """``target[indices] += updates``, adding up repeated indices (in place; returns target).

    Examples
    --------
    >>> import numpy as np
    >>> scatter_add(np.zeros(3), np.array([0, 0, 2]), np.ones(3))
    array([2., 0., 1.])
    """
    np.add.at(target, indices, updates)  # plain += would count a repeated index once
    return target


def erf(x):
    """The error function, from scipy (numpy has none); scipy is imported on first use.

    Examples
    --------
    >>> import numpy as np
    >>> erf(np.array([0.0, 10.0]))
    array([0., 1.])
    """
    from scipy.special import erf as scipy_erf

    return scipy_erf(x)


class NumpyBackend(Backend):
    """numpy on the host: ``to_host`` and ``asarray`` need no copy.

    Examples
    --------
    >>> backend = NumpyBackend()
    >>> backend.to_host(backend.asarray([1.0, 2.0]))
    array([1., 2.])
    """

    name = "numpy"
    array_types = (np.ndarray, np.generic)

    def __init__(self):
        self.xp = ArrayNamespace(
            np,
            scatter_add=scatter_add,
            as_strided=np.lib.stride_tricks.as_strided,
            erf=erf,
            kernels=KernelTable(self),  # fused elementwise kernels (fusion.py)
        )

    def asarray(self, host_array, dtype=None):
        """Host data as an array of this backend."""
        return np.asarray(host_array, dtype=dtype)

    def to_host(self, array):
        """The array as numpy (already is)."""
        return array

    def random_generator(self, seed):
        """numpy's seeded generator (``seed`` may be None, an int or a list of ints)."""
        return np.random.default_rng(seed)

"""Fused elementwise kernels: a chain of elementwise steps as one kernel on a GPU.

On a GPU every array operation is a kernel launch, and each launch costs about as much
as computing a small array: ``g * (1 - ans * ans)`` (tanh's gradient) is three launches and
two temporary arrays. Written once as array code over ``xp``, the same chain becomes one
kernel through ``cupy.fuse``, which compiles the whole expression into one loop over the
elements. Everywhere else the code runs as written:

- ``/gpu:N`` (cupy): ``cupy.fuse`` of the function, one launch; or its CUDA body, a
  ``cupy.ElementwiseKernel``, where it has one (a gather cupy cannot fuse, or a kernel
  whose call costs the host less that way: benchmarks/gpu_calls.py measures both);
- ``/sim:0`` (simulated GPU): the function on the host arrays, counted as one launch;
- ``/cpu:0`` (numpy): the function as written, or its ``host`` version when numpy has a
  faster way (relu's gradient picks by bit masks); fusing buys numpy nothing, since every
  step is a call into C anyway;
- Tensors (a VJP recorded for higher-order gradients): the function over the public ops,
  so an outer tape records each step.

Array code reaches a kernel by name through its namespace, ``xp.kernels.sgd_update(...)``
(each backend's ``xp`` has a ``KernelTable``); a VJP through its ``ops``
(``ops.tanh_grad(g, ans)``), as it reaches a primitive: the registry's ``ArrayOps`` binds
it to the device, ``TensorOps`` to the public ops. tests/test_fusion.py proves every kernel
equal to its plain steps on each device (bit for bit on the CPU and ``/sim:0``) and counts
the launches it saves.

Examples
--------
>>> import numpy as np
>>> from eagerkit.devices import CPU
>>> CPU.xp.kernels.tanh_grad(np.ones(2), np.array([0.0, 0.5]))
array([1.  , 0.75])
"""

import functools

KERNELS = {}  # name -> Elementwise, in definition order


class Elementwise:
    """An elementwise chain written once as ``function(xp, *arrays)``; one kernel on a GPU.

    ``host`` (optional, same signature) is what numpy runs instead, when numpy has a faster
    way to the same bits. ``recordable``: whether it can also run on Tensors (what a VJP
    needs, for higher-order gradients); a kernel of an op's GPU path need not. ``cuda``
    (optional): ``(in_params, out_params, operation)`` of a ``cupy.ElementwiseKernel``, for
    a kernel ``cupy.fuse`` cannot express (one that reads another element, as a gather
    does) or whose call costs the host less that way; ``function`` stays its definition,
    run everywhere else (tests/test_gpu.py proves the two give the same bits). Made by
    ``elementwise``; bound to a backend with ``on``.
    """

    def __init__(self, name, function, host=None, recordable=True, cuda=None):
        self.name = name
        self.function = function
        self.host = host or function
        self.recordable = recordable
        self.cuda = cuda

    def on(self, backend):
        """The kernel as a function of ``backend``'s arrays (fused where the backend fuses)."""
        fuse = getattr(backend, "fuse", None)
        if fuse is None:  # numpy: the code as written (or its faster host version)
            return functools.partial(self.host, backend.xp)
        return fuse(self.function, self.name, self.cuda)

    def on_tensors(self, *tensors):
        """The chain through the public ops, recorded on any active tape."""
        if not self.recordable:
            raise TypeError(f"the fused kernel {self.name!r} runs on arrays only, not Tensors")
        return self.function(TENSOR_NAMESPACE, *tensors)

    def __repr__(self):
        return f"<Elementwise {self.name}>"


def elementwise(name, host=None, recordable=True, cuda=None):
    """Register ``function(xp, *arrays)`` as the fused kernel ``name`` (a decorator).

    Examples
    --------
    >>> @elementwise("double_plus_one")
    ... def double_plus_one(xp, x):
    ...     return 2 * x + 1
    >>> KERNELS.pop("double_plus_one")
    <Elementwise double_plus_one>
    """

    def register(function):
        if name in KERNELS:
            raise ValueError(f"a fused kernel named {name!r} exists already")
        KERNELS[name] = Elementwise(name, function, host, recordable, cuda)
        return function

    return register


class KernelTable:
    """``xp.kernels``: every fused kernel, bound to one backend on first use, by name.

    Examples
    --------
    >>> from eagerkit.devices import CPU
    >>> CPU.xp.kernels.relu_grad
    functools.partial(<function _relu_grad_on_host at ...>, ...)
    """

    def __init__(self, backend):
        self._backend = backend
        # True on a GPU (and the simulated one): ops may take their device path there.
        self.fused = hasattr(backend, "fuse")

    def __getattr__(self, name):
        if name.startswith("_") or name not in KERNELS:
            raise AttributeError(f"no fused kernel named {name!r}")
        bound = KERNELS[name].on(self._backend)
        setattr(self, name, bound)
        return bound


class _TensorNamespace:
    """``xp`` for kernels run on Tensors: ``xp.where`` is ``ek.where``, and so on."""

    def __getattr__(self, name):
        from eagerkit.registry import REGISTRY

        try:
            call = REGISTRY[name].call
        except KeyError:
            raise AttributeError(f"no primitive op named {name!r} for a fused kernel") from None
        setattr(self, name, call)
        return call


TENSOR_NAMESPACE = _TensorNamespace()

"""What one kernel call costs the host on a GPU: ``cupy.fuse`` against an ``ElementwiseKernel``.

    python benchmarks/gpu_calls.py

A training step on a GPU is bound by the host: each launch costs Python and cupy's own
bookkeeping before the GPU sees it (``benchmarks/gpu_profile.py``). The fused kernels of
``backends/fusion.py`` with a CUDA body run as a plain ``cupy.ElementwiseKernel``; this
sets that beside ``cupy.fuse`` of the same Python definition, for each such kernel, on the
shapes of ``devices.py``'s MLP step (batch 1024, 784-1024-10), with a cupy ufunc, a sum
along rows and a product for scale. Host and device microseconds per call, median of
``REPEAT`` calls (``cupyx.profiler.benchmark``). It needs cupy and a CUDA device;
elsewhere it says so and stops. Run by ``benchmarks/gpu_session.sh``.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import eagerkit as ek  # noqa: E402
from eagerkit.backends import fusion  # noqa: E402
from eagerkit.backends.cupy_backend import FusedKernel, gpu_status  # noqa: E402

REPEAT = 200
BATCH, HIDDEN, CLASSES = 1024, 1024, 10


def kernel_inputs(cupy, name):
    """Arguments for the kernel ``name`` as the MLP step passes them."""
    rng = np.random.default_rng(0)

    def floats(*shape):
        return cupy.asarray(rng.uniform(0.5, 2.0, shape).astype(np.float32))

    labels = cupy.asarray(rng.integers(0, CLASSES, (BATCH, 1)).astype(np.int32))
    columns = cupy.arange(CLASSES, dtype=np.int32).reshape(1, CLASSES)
    rows = floats(BATCH, CLASSES)
    column = floats(BATCH, 1)
    return {
        "gradient_descent": (floats(HIDDEN, CLASSES), floats(HIDDEN, CLASSES), np.float32(0.1)),
        "relu_grad": (floats(BATCH, HIDDEN), floats(BATCH, HIDDEN)),
        "shifted_exp": (rows, column),
        "cross_entropy_loss": (column, column, column, labels, CLASSES),
        "cross_entropy_grad": (column, rows, column, column, labels, columns),
        "label_logit": (rows, labels),
    }[name]


def masked_sum(cupy, xp):
    """``label_logit`` as it was before its CUDA body: a fused mask, then a sum."""
    mask = FusedKernel(cupy, xp, lambda xp, r, label, c: xp.where(c == label, r, 0), "mask")
    columns = cupy.arange(CLASSES, dtype=np.int32).reshape(1, CLASSES)
    return lambda rows, labels: mask(rows, labels, columns).sum(axis=1, keepdims=True)


def microseconds(run):
    """Median host and device microseconds per call of ``run``."""
    import cupyx.profiler

    result = cupyx.profiler.benchmark(run, n_repeat=REPEAT, n_warmup=10)
    return np.median(result.cpu_times) * 1e6, np.median(result.gpu_times) * 1e6


def main():
    if not gpu_status()[0]:
        print(gpu_status()[1])
        return
    import cupy

    xp = ek.devices.get_device("/gpu:0").xp
    print(f"Microseconds per call, median of {REPEAT} (host, then device)")
    print(f"{'kernel':22}{'cupy.fuse':>20}{'ElementwiseKernel':>22}{'host ratio':>12}")
    for name in sorted(n for n, k in fusion.KERNELS.items() if k.cuda):
        kernel, arguments = fusion.KERNELS[name], kernel_inputs(cupy, name)
        by_cuda = FusedKernel(cupy, xp, kernel.function, name, kernel.cuda)
        cuda = microseconds(lambda by_cuda=by_cuda, a=arguments: by_cuda(*a))
        if name == "label_logit":  # cupy cannot fuse a gather: the form it replaced
            by_fuse = masked_sum(cupy, xp)
        else:
            by_fuse = FusedKernel(cupy, xp, kernel.function, name)
        fused = microseconds(lambda by_fuse=by_fuse, a=arguments: by_fuse(*a))
        cells = f"{fused[0]:10.1f}{fused[1]:10.1f}{cuda[0]:11.1f}{cuda[1]:11.1f}"
        print(f"{name:22}{cells}{cuda[0] / fused[0]:12.2f}")

    big = cupy.ones((BATCH, HIDDEN), np.float32)
    weights = cupy.ones((HIDDEN, CLASSES), np.float32)
    ones = cupy.ones((1, BATCH), np.float32)
    print(f"\n{'for scale':22}{'host':>10}{'device':>10}")
    for label, run in {
        "cupy.add (ufunc)": lambda: cupy.add(big, big),
        "matmul (1024x10 out)": lambda: big @ weights,
        "sum over the batch": lambda: big.sum(axis=0),
        "  as ones @ x (gemv)": lambda: ones @ big,
        "max along rows": lambda: big.max(axis=1, keepdims=True),
    }.items():
        host, device = microseconds(run)
        print(f"{label:22}{host:10.1f}{device:10.1f}")
    # cupy reduces through CUB by default; its own reduction kernel may cost the host less.
    from cupy._core import _accelerator

    kept = _accelerator.get_reduction_accelerators(), _accelerator.get_routine_accelerators()
    _accelerator.set_reduction_accelerators([])
    _accelerator.set_routine_accelerators([])
    try:
        for label, run in {
            "sum, CUB off": lambda: big.sum(axis=0),
            "max, CUB off": lambda: big.max(axis=1, keepdims=True),
        }.items():
            host, device = microseconds(run)
            print(f"{label:22}{host:10.1f}{device:10.1f}")
    finally:
        _accelerator.set_reduction_accelerators(kept[0])
        _accelerator.set_routine_accelerators(kept[1])


if __name__ == "__main__":
    main()

"""Where a GPU step's time goes: host (Python and launches) against device (kernels).

    python benchmarks/gpu_profile.py

``benchmarks/devices.py`` says how fast each contender is; this says why. For the workloads
of ``devices.py`` in ``PROFILED`` (matmul x10, the 100-op chain forward and backward, the MLP
step eager and through ``ek.function``, the convolution), on ``/gpu:0``:

- host and device milliseconds per call (``cupyx.profiler.benchmark``): when the host's time
  is far above the device's, the GPU waits for Python, and fewer or fused launches pay off,
  faster kernels do not;
- kernels and host<->device copies per call, read by PyTorch's profiler (CUPTI sees every
  kernel the process launches, cupy's too), for eagerkit, cupy by hand and PyTorch CUDA;
- the names of those kernels in the MLP step (eager and compiled) and the convolution, to
  set eagerkit's launches beside cupy's by hand and PyTorch's;
- eagerkit's functions with the most host time in the MLP step (eager and compiled), the
  chain and the convolution (``cProfile``).

It needs cupy and a CUDA device (and PyTorch CUDA for its columns); elsewhere it says so and
stops. Run by ``benchmarks/gpu_session.sh`` on a machine lent a GPU.
"""

import collections
import cProfile
import io
import os
import pstats
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from devices import by_hand_workloads, eagerkit_workloads, torch_workloads  # noqa: E402

from eagerkit.backends.cupy_backend import gpu_status  # noqa: E402

try:
    import torch
except ImportError:  # PyTorch is a reference, not a dependency
    torch = None

PROFILED = ("matmul x10", "100 ops fwd+bwd", "MLP step", "MLP step fn", "conv fwd+bwd")


def host_and_device_ms(run, repeat=20):
    """Median host and device milliseconds per call of ``run`` (cupy's own benchmark)."""
    import cupyx.profiler
    import numpy as np

    result = cupyx.profiler.benchmark(run, n_repeat=repeat, n_warmup=3)
    return float(np.median(result.cpu_times)) * 1e3, float(np.median(result.gpu_times)) * 1e3


def device_events(run):
    """Names of the kernels, copies and memsets of one call of ``run``, as CUPTI records them."""
    from torch.profiler import ProfilerActivity, profile

    run()  # warm: caches, slots, compiled kernels
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as recorded:
        run()
        torch.cuda.synchronize()
    # The host's side of a launch (cudaLaunchKernel) is not a kernel.
    cuda = torch.autograd.DeviceType.CUDA
    return [event.name for event in recorded.events() if event.device_type == cuda]


def kernels_and_copies(names):
    """(kernels, host<->device copies) among the device events ``names``."""
    kernels = copies = 0
    for name in map(str.lower, names):
        if "memcpy" in name and ("htod" in name or "dtoh" in name):
            copies += 1
        elif "memcpy" not in name and "memset" not in name:
            kernels += 1
    return kernels, copies


def host_profile(run, calls=20, top=15):
    """eagerkit's and cupy's functions with the most own host time over ``calls`` calls."""
    run()
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(calls):
        run()
    profiler.disable()
    text = io.StringIO()
    pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(top)
    return text.getvalue()


def main():
    if not gpu_status()[0]:
        print(gpu_status()[1])
        return
    import cupy

    contenders = {
        "eagerkit": eagerkit_workloads("/gpu:0"),
        "cupy by hand": by_hand_workloads(cupy),
    }
    if torch is not None and torch.cuda.is_available():
        contenders["PyTorch CUDA"] = torch_workloads("cuda")

    print(f"{'':17}{'contender':>14}{'host ms':>10}{'device ms':>11}{'kernels':>9}{'copies':>8}")
    for workload in PROFILED:
        for name, runs in contenders.items():
            run = runs[workload]
            if run is None:
                continue
            try:
                host, device = host_and_device_ms(run)
                counts = kernels_and_copies(device_events(run)) if torch else ("-", "-")
                print(
                    f"{workload:17}{name:>14}{host:10.3f}{device:11.3f}{counts[0]:>9}{counts[1]:>8}"
                )
            except Exception as error:  # a profile that fails must not hide the others
                print(f"{workload:17}{name:>14}  failed: {type(error).__name__}: {error}")

    if torch is not None:
        for workload in ("MLP step", "MLP step fn", "conv fwd+bwd"):
            for name, runs in contenders.items():
                if runs[workload] is not None:
                    counted = collections.Counter(device_events(runs[workload]))
                    print(f"\n{name}'s {workload}: device events (count x name)")
                    for event, count in counted.most_common():
                        print(f"  {count:3} x {event[:110]}")

    for workload in ("MLP step", "MLP step fn", "100 ops fwd+bwd", "conv fwd+bwd"):
        print(f"\neagerkit's {workload} on /gpu:0, 20 calls, by own host time:")
        print(host_profile(contenders["eagerkit"][workload]))


if __name__ == "__main__":
    main()

"""eagerkit on each device beside the same work by hand (numpy, cupy) and in PyTorch (CPU, CUDA).

    python benchmarks/devices.py

Five workloads, milliseconds per run (issue 20's GPU targets are the last three ratios):
- matmul x10: a 1000x1000 float32 matrix multiplied by itself 10 times (the TF guide's measure());
- 100 ops: a chain of 100 elementwise ops on a (10,) float32 array, forward only, and forward
  and backward (per-op overhead: on a GPU, kernel launches and the Python around them);
- MLP step: one SGD step of a 784-1024-10 ReLU network on a batch of 1024, written as a TF
  user writes it (Variables, ``+ b``, sparse softmax cross-entropy on integer labels);
  "MLP step fn" is the same step through ``ek.function`` (issue 20: within 1.1x of cupy by
  hand), beside the same hand-written step;
- conv: a 3x3 convolution, 64 images 32x32x32 -> 64 channels, forward and backward.

Columns: eagerkit on the CPU, numpy by hand, PyTorch on the CPU; where a GPU is present,
eagerkit on it, cupy by hand (the same array code as numpy's column, on the GPU) and PyTorch
CUDA. The contenders take turns round after round (each turn after one untimed call) and
each figure is the median round, so a machine that changes speed mid-run slows every column
alike; GPU work is queued, so every reading waits for its device (``synchronize``).

Last, the kernel launches, copies to the device and waits for the host of one MLP step
(eager, through ``ek.function``, by hand) and one convolution, counted on the simulated GPU
(``/sim:0`` counts each array operation as a launch, as cupy launches one). This runs on
any machine; a real GPU launches the same kernels.
"""

import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import eagerkit as ek  # noqa: E402
from eagerkit.backends.cupy_backend import gpu_status  # noqa: E402
from eagerkit.backends.simulated import counting  # noqa: E402

try:
    import torch
except ImportError:  # PyTorch is a reference, not a dependency
    torch = None

BATCH, INPUTS, HIDDEN, CLASSES = 1024, 784, 1024, 10
IMAGES, SIDE, CHANNELS, FILTERS = 64, 32, 32, 64
WORKLOADS = (
    "matmul x10",
    "100 ops fwd",
    "100 ops fwd+bwd",
    "MLP step",
    "MLP step fn",
    "conv fwd+bwd",
)
SETTINGS = {  # workload -> (rounds, calls per round)
    "matmul x10": (3, 1),
    "100 ops fwd": (7, 20),
    "100 ops fwd+bwd": (7, 10),
    "MLP step": (5, 2),
    "MLP step fn": (5, 2),
    "conv fwd+bwd": (3, 1),
}


def median_milliseconds(runs, rounds, repeat):
    """Median time per call of each ``(run, synchronize)`` in ``runs``, in ms (turns taken).

    Each turn starts with one call untimed: a GPU left idle while the CPU columns ran lowers
    its clocks, and the first GPU column after them would pay for raising them again (on
    the H100, ten 1000x1000 products timed 0.93 ms there, 0.53 under cupy's own benchmark).
    """
    for run, synchronize in runs.values():
        run()  # warm-up: the first use of a GPU initialises it (and cupy compiles kernels)
        synchronize()
    seen = {name: [] for name in runs}
    for _ in range(rounds):
        for name, (run, synchronize) in runs.items():
            run()  # this turn's warm-up
            synchronize()
            start = time.perf_counter()
            for _ in range(repeat):
                run()
            synchronize()
            seen[name].append((time.perf_counter() - start) / repeat * 1e3)
    return {name: statistics.median(times) for name, times in seen.items()}


# --- eagerkit on one device -------------------------------------------------------------------
def eagerkit_workloads(device_name):
    with ek.device(device_name):
        ek.set_random_seed(0)
        big = ek.random_normal([1000, 1000])
        x_small, y_small = ek.random_normal([10]), ek.random_normal([10])
        images = ek.random_normal([BATCH, INPUTS])
        labels = ek.random_uniform([BATCH], 0, CLASSES, dtype=ek.int32)
        w1 = ek.Variable(ek.random_normal([INPUTS, HIDDEN], stddev=0.05))
        b1 = ek.Variable(ek.zeros([HIDDEN]))
        w2 = ek.Variable(ek.random_normal([HIDDEN, CLASSES], stddev=0.05))
        b2 = ek.Variable(ek.zeros([CLASSES]))
        pictures = ek.random_normal([IMAGES, SIDE, SIDE, CHANNELS])
        kernel = ek.Variable(ek.random_normal([3, 3, CHANNELS, FILTERS], stddev=0.05))
    optimizer = ek.train.GradientDescentOptimizer(0.1)
    variables = [w1, b1, w2, b2]

    def matmul_10():
        for _ in range(10):
            ek.matmul(big, big)

    def chain(x):
        for _ in range(25):  # 4 ops each: multiply, add, tanh, subtract
            x = ek.tanh(x * y_small + y_small) - y_small
        return x

    def chain_backward():
        with ek.GradientTape() as tape:
            tape.watch(x_small)
            y = ek.reduce_sum(chain(x_small))
        tape.gradient(y, x_small)

    def mlp_step():
        with ek.GradientTape() as tape:
            hidden = ek.nn.relu(ek.matmul(images, w1) + b1)
            logits = ek.matmul(hidden, w2) + b2
            loss = ek.reduce_mean(
                ek.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
            )
        grads = tape.gradient(loss, variables)
        optimizer.apply_gradients(zip(grads, variables, strict=True))

    def conv():
        with ek.GradientTape() as tape:
            y = ek.reduce_sum(ek.nn.conv2d(pictures, kernel, strides=1, padding="SAME"))
        tape.gradient(y, kernel)

    step_fn = ek.function(mlp_step)  # traced on its first call (the warm-up run)
    runs = (matmul_10, lambda: chain(x_small), chain_backward, mlp_step, step_fn, conv)
    return dict(zip(WORKLOADS, runs, strict=True))


# --- the same by hand, as array code (numpy on the CPU, cupy on a GPU) -------------------------
def by_hand_workloads(xp):
    rng = np.random.default_rng(0)
    host = {
        "big": rng.standard_normal((1000, 1000), dtype=np.float32),
        "x": rng.standard_normal(10, dtype=np.float32),
        "y": rng.standard_normal(10, dtype=np.float32),
        "images": rng.standard_normal((BATCH, INPUTS), dtype=np.float32),
        "w1": (rng.standard_normal((INPUTS, HIDDEN)) * 0.05).astype(np.float32),
        "w2": (rng.standard_normal((HIDDEN, CLASSES)) * 0.05).astype(np.float32),
    }
    a = {name: xp.asarray(value) for name, value in host.items()}
    labels = xp.asarray(rng.integers(0, CLASSES, BATCH))
    weights = [a["w1"], xp.zeros(HIDDEN, np.float32), a["w2"], xp.zeros(CLASSES, np.float32)]

    def matmul_10():
        for _ in range(10):
            a["big"] @ a["big"]

    def chain():
        x, y = a["x"], a["y"]
        for _ in range(25):
            x = xp.tanh(x * y + y) - y
        return x

    def chain_backward():
        x, y, slopes = a["x"], a["y"], []
        for _ in range(25):
            t = xp.tanh(x * y + y)
            slopes.append((1 - t * t) * y)  # d(tanh(x*y+y) - y)/dx
            x = t - y
        g = xp.ones_like(x)
        for slope in reversed(slopes):
            g = g * slope

    def mlp_step():
        w1, b1, w2, b2 = weights
        h = xp.maximum(a["images"] @ w1 + b1, 0)
        logits = h @ w2 + b2
        e = xp.exp(logits - logits.max(axis=1, keepdims=True))
        p = e / e.sum(axis=1, keepdims=True)
        p[xp.arange(BATCH), labels] -= 1  # softmax minus one-hot: d(sum of losses)/d logits
        g = p / BATCH
        g_hidden = (g @ w2.T) * (h > 0)
        weights[:2] = w1 - 0.1 * (a["images"].T @ g_hidden), b1 - 0.1 * g_hidden.sum(axis=0)
        weights[2:] = w2 - 0.1 * (h.T @ g), b2 - 0.1 * g.sum(axis=0)

    runs = (matmul_10, chain, chain_backward, mlp_step, mlp_step, None)  # one step by hand
    return dict(zip(WORKLOADS, runs, strict=True))


def torch_workloads(device):
    generator = torch.Generator().manual_seed(0)

    def randn(*shape, scale=1.0):
        return (torch.randn(*shape, generator=generator) * scale).to(device)

    big, x_small, y_small = randn(1000, 1000), randn(10), randn(10)
    images = randn(BATCH, INPUTS)
    labels = torch.randint(0, CLASSES, (BATCH,), generator=generator).to(device)
    w1, w2 = randn(INPUTS, HIDDEN, scale=0.05), randn(HIDDEN, CLASSES, scale=0.05)
    b1, b2 = torch.zeros(HIDDEN, device=device), torch.zeros(CLASSES, device=device)
    parameters = [p.requires_grad_() for p in (w1, b1, w2, b2)]
    optimizer = torch.optim.SGD(parameters, lr=0.1)
    pictures = randn(IMAGES, CHANNELS, SIDE, SIDE)
    kernel = randn(FILTERS, CHANNELS, 3, 3, scale=0.05).requires_grad_()

    def matmul_10():
        with torch.no_grad():
            for _ in range(10):
                big @ big

    def chain(x):
        for _ in range(25):
            x = torch.tanh(x * y_small + y_small) - y_small
        return x

    def forward():
        with torch.no_grad():
            chain(x_small)

    def chain_backward():
        x = x_small.detach().requires_grad_()
        chain(x).sum().backward()

    def mlp_step():
        optimizer.zero_grad()
        logits = torch.relu(images @ w1 + b1) @ w2 + b2
        torch.nn.functional.cross_entropy(logits, labels).backward()
        optimizer.step()

    def conv():
        kernel.grad = None
        torch.nn.functional.conv2d(pictures, kernel, padding=1).sum().backward()

    runs = (matmul_10, forward, chain_backward, mlp_step, None, conv)
    return dict(zip(WORKLOADS, runs, strict=True))


def no_wait():
    """The CPU computes before it returns: nothing to wait for."""


# --- kernel launches and copies per step, counted on the simulated GPU -------------------------
def launches_per_step():
    """``{label: Counts}`` for one MLP step (eager, through ek.function, by hand) and one
    convolution forward and backward on /sim:0, each after a warm call."""
    sim = ek.devices.enable_simulated_gpu()
    ours = eagerkit_workloads(sim.name)
    steps = {
        "MLP step": ours["MLP step"],
        "MLP step fn": ours["MLP step fn"],
        "MLP step by hand": by_hand_workloads(sim.xp)["MLP step"],
        "conv fwd+bwd": ours["conv fwd+bwd"],
    }
    counts = {}
    for label, step in steps.items():
        step()  # warm: slots, caches, the trace
        with counting() as counts[label]:
            step()
    ek.devices.disable_simulated_gpu()
    return counts


def columns():
    """name -> (workloads, synchronize) for every contender this machine has."""
    found = {
        "eagerkit CPU": (eagerkit_workloads("/cpu:0"), no_wait),
        "numpy CPU": (by_hand_workloads(np), no_wait),
    }
    if torch is not None:
        found["PyTorch CPU"] = (torch_workloads("cpu"), no_wait)
    if gpu_status()[0]:
        import cupy

        gpu = ek.devices.get_device("/gpu:0")
        found["eagerkit GPU"] = (eagerkit_workloads("/gpu:0"), gpu.synchronize)
        found["cupy GPU"] = (by_hand_workloads(cupy), cupy.cuda.Device().synchronize)
        if torch is not None and torch.cuda.is_available():
            found["PyTorch CUDA"] = (torch_workloads("cuda"), torch.cuda.synchronize)
    return found


def ratio(times, over, under, workload):
    top, bottom = times[over].get(workload), times.get(under, {}).get(workload)
    return f"{top / bottom:.2f}" if top and bottom else "-"


def main():
    contenders = columns()
    times = {name: {} for name in contenders}
    for workload in WORKLOADS:
        runs = {
            name: (work[workload], wait)
            for name, (work, wait) in contenders.items()
            if work[workload] is not None
        }
        for name, milliseconds in median_milliseconds(runs, *SETTINGS[workload]).items():
            times[name][workload] = milliseconds

    print("Milliseconds per run (median round; devices synchronised before each reading)")
    print(f"{'':17}" + "".join(f"{name:>14}" for name in contenders))
    for workload in WORKLOADS:
        cells = [times[name].get(workload) for name in contenders]
        print(f"{workload:17}" + "".join(f"{c:14.3f}" if c else f"{'-':>14}" for c in cells))

    print(f"\n{'eagerkit / reference':30}{'numpy':>8}{'PyTorch':>9}", end="")
    gpu = "eagerkit GPU" in times
    print(f"{'GPU/cupy':>10}{'GPU/PyTorch CUDA':>18}" if gpu else "")
    for workload in WORKLOADS:
        row = ratio(times, "eagerkit CPU", "numpy CPU", workload)
        row = f"{workload:30}{row:>8}{ratio(times, 'eagerkit CPU', 'PyTorch CPU', workload):>9}"
        if gpu:
            row += f"{ratio(times, 'eagerkit GPU', 'cupy GPU', workload):>10}"
            row += f"{ratio(times, 'eagerkit GPU', 'PyTorch CUDA', workload):>18}"
        print(row)
    if gpu:
        print("GPU targets: 100 ops fwd+bwd <= 1.0x and MLP step <= 1.0x PyTorch CUDA;")
        print("             MLP step fn <= 1.1x cupy; conv <= 1.5x PyTorch CUDA (cuDNN)")
    else:
        print(f"\nNo GPU here, so no GPU columns. {gpu_status()[1].split('. ')[0]}.")

    print("\nPer step on /sim:0 (a GPU launches the same kernels; copies and waits must be 0):")
    for label, seen in launches_per_step().items():
        print(
            f"  {label:18} {seen.kernels:3} kernels, {seen.copies_to_device} copies to the "
            f"device, {seen.host_reads} waits for the host"
        )


if __name__ == "__main__":
    main()

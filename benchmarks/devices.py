"""eagerkit on the CPU and, where present, the GPU, side by side with numpy and PyTorch (CPU).

    python benchmarks/devices.py

Three workloads, each in milliseconds:
- matmul: a 1000x1000 float32 matrix multiplied by itself 10 times (the TF guide's measure());
- small ops: a chain of 100 elementwise ops on a (10,) array, forward only (per-op overhead);
- MLP step: one training step of a 784-128-10 ReLU network on a batch of 256 (forward,
  backward, gradient-descent update) with plain Variables and matmul.
GPU work is queued asynchronously, so every timing waits for the device (``synchronize``)
before reading the clock, after a warm-up run (the first GPU call initialises the device).
"""

import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import eagerkit as ek  # noqa: E402
from eagerkit.backends.cupy_backend import gpu_status  # noqa: E402

try:
    import torch
except ImportError:  # PyTorch is a reference, not a dependency
    torch = None

BATCH, INPUTS, HIDDEN, CLASSES = 256, 784, 128, 10


def best_milliseconds(runs, rounds, repeat):
    """Best time per call of each ``(run, synchronize)`` in ``runs``, in ms.

    The runs take turns round by round, so a machine that changes speed mid-run slows every
    column alike; each reading waits for its device first.
    """
    for run, synchronize in runs.values():
        run()  # warm-up: the first use of a GPU initialises it
        synchronize()
    best = {name: float("inf") for name in runs}
    for _ in range(rounds):
        for name, (run, synchronize) in runs.items():
            start = time.perf_counter()
            for _ in range(repeat):
                run()
            synchronize()
            best[name] = min(best[name], (time.perf_counter() - start) / repeat * 1e3)
    return best


# --- eagerkit on one device ----------------------------------------------------------------------
def eagerkit_workloads(device_name):
    with ek.device(device_name):
        ek.set_random_seed(0)
        big = ek.random_normal([1000, 1000])
        x_small, y_small = ek.random_normal([10]), ek.random_normal([10])
        images = ek.random_normal([BATCH, INPUTS])
        labels = ek.one_hot(ek.random_uniform([BATCH], 0, CLASSES, dtype=ek.int32), CLASSES)
        w1 = ek.Variable(ek.random_normal([INPUTS, HIDDEN], stddev=0.05))
        w2 = ek.Variable(ek.random_normal([HIDDEN, CLASSES], stddev=0.05))
    optimizer = ek.train.GradientDescentOptimizer(0.1)

    def matmul_10():
        for _ in range(10):
            ek.matmul(big, big)

    def small_ops():
        x = x_small
        for _ in range(25):
            x = ek.tanh(x * y_small + y_small) - y_small

    def mlp_step():
        with ek.GradientTape() as tape:
            logits = ek.matmul(ek.nn.relu(ek.matmul(images, w1)), w2)
            loss = ek.reduce_mean(
                ek.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
            )
        optimizer.apply_gradients(zip(tape.gradient(loss, [w1, w2]), [w1, w2], strict=True))

    return {"matmul x10": matmul_10, "100 small ops": small_ops, "MLP step": mlp_step}


# --- the same by hand in numpy (the floor) -------------------------------------------------
def numpy_workloads():
    rng = np.random.default_rng(0)
    big = rng.standard_normal((1000, 1000), dtype=np.float32)
    x_small, y_small = rng.standard_normal(10), rng.standard_normal(10)
    images = rng.standard_normal((BATCH, INPUTS), dtype=np.float32)
    labels = np.eye(CLASSES, dtype=np.float32)[rng.integers(0, CLASSES, BATCH)]
    w1 = (rng.standard_normal((INPUTS, HIDDEN)) * 0.05).astype(np.float32)
    w2 = (rng.standard_normal((HIDDEN, CLASSES)) * 0.05).astype(np.float32)

    def matmul_10():
        for _ in range(10):
            big @ big

    def small_ops():
        x = x_small
        for _ in range(25):
            x = np.tanh(x * y_small + y_small) - y_small

    def mlp_step():
        nonlocal w1, w2
        hidden = np.maximum(images @ w1, 0)
        logits = hidden @ w2
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        g_logits = (e / e.sum(axis=1, keepdims=True) - labels) / BATCH  # d mean CE / d logits
        g_hidden = (g_logits @ w2.T) * (hidden > 0)
        w2 = w2 - 0.1 * (hidden.T @ g_logits)
        w1 = w1 - 0.1 * (images.T @ g_hidden)

    return {"matmul x10": matmul_10, "100 small ops": small_ops, "MLP step": mlp_step}


def torch_workloads():
    torch.manual_seed(0)
    big = torch.randn(1000, 1000)
    x_small, y_small = torch.randn(10), torch.randn(10)
    images = torch.randn(BATCH, INPUTS)
    labels = torch.randint(0, CLASSES, (BATCH,))
    w1 = (torch.randn(INPUTS, HIDDEN) * 0.05).requires_grad_()
    w2 = (torch.randn(HIDDEN, CLASSES) * 0.05).requires_grad_()
    optimizer = torch.optim.SGD([w1, w2], lr=0.1)

    def matmul_10():
        with torch.no_grad():
            for _ in range(10):
                big @ big

    def small_ops():
        with torch.no_grad():
            x = x_small
            for _ in range(25):
                x = torch.tanh(x * y_small + y_small) - y_small

    def mlp_step():
        optimizer.zero_grad()
        logits = torch.relu(images @ w1) @ w2
        torch.nn.functional.cross_entropy(logits, labels).backward()
        optimizer.step()

    return {"matmul x10": matmul_10, "100 small ops": small_ops, "MLP step": mlp_step}


def main():
    gpus, problem = gpu_status()
    columns = {
        "eagerkit CPU": (eagerkit_workloads("/cpu:0"), ek.devices.get_device("/cpu:0").synchronize),
        "numpy CPU": (numpy_workloads(), lambda: None),
    }
    if torch is not None:
        columns["PyTorch CPU"] = (torch_workloads(), lambda: None)
    if gpus:
        gpu = ek.devices.get_device("/gpu:0")
        columns["eagerkit GPU"] = (eagerkit_workloads("/gpu:0"), gpu.synchronize)

    times = {name: {} for name in columns}
    for workload, rounds, repeat in (
        ("matmul x10", 3, 1),
        ("100 small ops", 7, 20),
        ("MLP step", 7, 3),
    ):
        runs = {name: (work[workload], sync) for name, (work, sync) in columns.items()}
        for name, milliseconds in best_milliseconds(runs, rounds, repeat).items():
            times[name][workload] = milliseconds

    print("Milliseconds per run (best of several rounds; devices synchronised before each reading)")
    print(f"{'':16}" + "".join(f"{name:>15}" for name in columns) + f"{'ek/numpy':>11}")
    for workload in ("matmul x10", "100 small ops", "MLP step"):
        row = "".join(f"{times[name][workload]:15.3f}" for name in columns)
        ratio = times["eagerkit CPU"][workload] / times["numpy CPU"][workload]
        print(f"{workload:16}{row}{ratio:11.2f}")
    if gpus:
        for workload in ("matmul x10", "100 small ops", "MLP step"):
            speedup = times["eagerkit CPU"][workload] / times["eagerkit GPU"][workload]
            print(f"GPU speed-up over the CPU, {workload}: {speedup:.1f}x")
    else:
        print(f"\nNo GPU here, so no GPU column. {problem.split('. ')[0]}.")


if __name__ == "__main__":
    main()

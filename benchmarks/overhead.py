"""Per-op overhead of eagerkit, side by side with numpy by hand and PyTorch (CPU), in one run.

    python benchmarks/overhead.py

Measures, on a (10,) float64 array, a 100-op chain of small elementwise ops:
- forward only, no tape (eagerkit) / no autograd (PyTorch) / plain numpy;
- forward + backward (eagerkit tape, PyTorch autograd, numpy with hand-written gradients);
and 1024x1024 matmul forward+backward, and the memory a tape holds per recorded op.
Implementations are timed in interleaved rounds and the best round is kept, so a machine
that changes speed mid-run affects all columns alike. Figures are printed as ratios too.
"""

import gc
import os
import sys
import time
import tracemalloc

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import eagerkit as ek  # noqa: E402

try:
    import torch
except ImportError:  # PyTorch is a reference, not a dependency
    torch = None

CHAIN = 100  # ops per chain: 25 x (multiply, add, tanh, subtract)
SIZE = 10


# --- the chain, three ways ---------------------------------------------------------------------
def chain_eagerkit(x, y):
    for _ in range(CHAIN // 4):
        x = ek.tanh(x * y + y) - y
    return x


def forward_backward_eagerkit(x, y):
    with ek.GradientTape() as tape:
        tape.watch(x)
        z = chain_eagerkit(x, y)
    return tape.gradient(z, x)


def chain_numpy(x, y):
    for _ in range(CHAIN // 4):
        x = np.tanh(x * y + y) - y
    return x


def forward_backward_numpy(x, y):
    # The floor: the same chain with its gradient written by hand, keeping what backward needs.
    saved = []
    for _ in range(CHAIN // 4):
        t = np.tanh(x * y + y)
        saved.append(t)
        x = t - y
    g = np.ones_like(x)
    for t in reversed(saved):
        g = g * (1 - t * t) * y  # d/dx tanh(x*y + y) - y
    return g


def chain_torch(x, y):
    for _ in range(CHAIN // 4):
        x = torch.tanh(x * y + y) - y
    return x


def forward_torch(x, y):
    with torch.no_grad():
        return chain_torch(x, y)


def forward_backward_torch(x, y):
    x = x.detach().requires_grad_(True)
    z = chain_torch(x, y)
    z.backward(torch.ones_like(z))
    return x.grad


# --- timing ------------------------------------------------------------------------------------
def best_microseconds(cases, rounds=15, repeat=50):
    """Interleaved rounds; returns the best time per call of each case, in microseconds."""
    best = {name: float("inf") for name in cases}
    for _ in range(rounds):
        for name, (function, args) in cases.items():
            start = time.perf_counter()
            for _ in range(repeat):
                function(*args)
            best[name] = min(best[name], (time.perf_counter() - start) / repeat * 1e6)
    return best


def check_same_gradients(x_np, y_np):
    expected = forward_backward_numpy(x_np, y_np)
    got = forward_backward_eagerkit(ek.constant(x_np), ek.constant(y_np)).numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-10)
    if torch is not None:
        got = forward_backward_torch(torch.tensor(x_np), torch.tensor(y_np)).numpy()
        np.testing.assert_allclose(got, expected, rtol=1e-10)


def tape_bytes_per_op():
    """Bytes allocated and kept alive by a tape, per recorded op (tracemalloc)."""
    x = ek.constant(np.random.default_rng(0).random(SIZE))
    y = ek.constant(np.random.default_rng(1).random(SIZE))
    n_chains = 20
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    with ek.GradientTape(persistent=True) as tape:
        tape.watch(x)
        z = x
        for _ in range(n_chains):
            z = chain_eagerkit(z, y)
    held = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    records = len(tape.records)
    del tape, z
    return held / records, records


def matmul_cases(n=1024):
    rng = np.random.default_rng(0)
    a = rng.random((n, n), dtype=np.float32)
    b = rng.random((n, n), dtype=np.float32)

    def numpy_by_hand():
        c = a @ b
        g = np.ones_like(c)
        return g @ b.T, a.T @ g

    ta, tb = ek.constant(a), ek.constant(b)

    def eagerkit_tape():
        with ek.GradientTape() as tape:
            tape.watch([ta, tb])
            c = ek.matmul(ta, tb)
        return tape.gradient(c, [ta, tb])

    cases = {"numpy by hand": (numpy_by_hand, ()), "eagerkit": (eagerkit_tape, ())}
    if torch is not None:
        pa = torch.tensor(a, requires_grad=True)
        pb = torch.tensor(b, requires_grad=True)

        def torch_autograd():
            pa.grad = pb.grad = None
            c = pa @ pb
            c.backward(torch.ones_like(c))
            return pa.grad, pb.grad

        cases["PyTorch"] = (torch_autograd, ())
    return cases


def main():
    rng = np.random.default_rng(0)
    x_np, y_np = rng.random(SIZE), rng.random(SIZE) * 0.5
    check_same_gradients(x_np, y_np)
    x, y = ek.constant(x_np), ek.constant(y_np)
    forward = {
        "numpy": (chain_numpy, (x_np, y_np)),
        "eagerkit": (chain_eagerkit, (x, y)),
    }
    both = {
        "numpy by hand": (forward_backward_numpy, (x_np, y_np)),
        "eagerkit": (forward_backward_eagerkit, (x, y)),
    }
    if torch is not None:
        tx, ty = torch.tensor(x_np), torch.tensor(y_np)
        forward["PyTorch"] = (forward_torch, (tx, ty))
        both["PyTorch"] = (forward_backward_torch, (tx, ty))
    else:
        print("PyTorch is not installed (pip install torch==2.13.0): its column is left out.\n")

    fwd = {k: v / CHAIN for k, v in best_microseconds(forward).items()}
    fb = {k: v / CHAIN for k, v in best_microseconds(both).items()}
    print(f"Chain of {CHAIN} elementwise ops on a ({SIZE},) float64 array, microseconds per op")
    print(f"{'':26}{'forward':>10}{'fwd+bwd':>10}")
    for name, key_f, key_b in [
        ("numpy (by hand)", "numpy", "numpy by hand"),
        ("PyTorch CPU", "PyTorch", "PyTorch"),
        ("eagerkit", "eagerkit", "eagerkit"),
    ]:
        if key_f in fwd:
            print(f"{name:26}{fwd[key_f]:10.2f}{fb[key_b]:10.2f}")
    if torch is not None:
        print(
            f"{'eagerkit / PyTorch':26}{fwd['eagerkit'] / fwd['PyTorch']:10.2f}"
            f"{fb['eagerkit'] / fb['PyTorch']:10.2f}   (target <= 1.00)"
        )
    print(
        f"{'eagerkit / numpy':26}{fwd['eagerkit'] / fwd['numpy']:10.2f}"
        f"{fb['eagerkit'] / fb['numpy by hand']:10.2f}"
    )

    times = best_microseconds(matmul_cases(), rounds=5, repeat=2)
    print("\n1024x1024 float32 matmul, forward + backward, milliseconds")
    for name, us in times.items():
        print(f"{name:26}{us / 1000:10.1f}")
    print(
        f"{'eagerkit / numpy':26}{times['eagerkit'] / times['numpy by hand']:10.2f}"
        "   (target <= 1.10)"
    )

    per_op, records = tape_bytes_per_op()
    print(
        f"\nMemory held by a tape: {per_op:.0f} bytes per recorded op ({records} records)"
        "   (target < 1024; PyTorch ~ 900)"
    )


if __name__ == "__main__":
    main()

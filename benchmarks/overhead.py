"""Per-op overhead of eagerkit, side by side with numpy by hand and PyTorch (CPU), in one run.

    python benchmarks/overhead.py

Measures, on (10,) float64 arrays, a 100-op chain of small elementwise ops:
- forward only, no tape (eagerkit) / no autograd (PyTorch) / plain numpy;
- the forward under a tape (eagerkit) / with autograd (PyTorch): what recording costs;
- forward + backward (eagerkit tape, PyTorch autograd, numpy with hand-written gradients);
- the same chain reading two trainable Variables (PyTorch: two parameters) at every op;
- the backward pass alone, over a chain recorded once (the reverse sweep);
and ``sum(A @ B)`` forward+backward on 1024x1024 float32, and the memory a tape holds per
recorded op. The contenders (benchmarks/chains.py) are timed in alternation, round after
round, and each figure is the median of its rounds, so a busy neighbour on the machine
slows all columns alike. Figures are printed as ratios against the issue's targets (issue 12).
"""

import numpy as np
from alternated import alternated_seconds
from chains import (  # the contenders, each chain written three ways
    CHAIN,
    SIZE,
    backward_cases,
    chain_eagerkit,
    chain_numpy,
    ek,
    forward_backward_eagerkit,
    forward_backward_numpy,
    forward_backward_torch,
    forward_torch,
    recording_eagerkit,
    recording_torch,
    torch,
    variable_chain_eagerkit,
    variable_chain_numpy,
    variable_chain_torch,
)
from held_memory import held_bytes
from threadpoolctl import threadpool_limits


# --- timing ------------------------------------------------------------------------------------
def median_microseconds(cases, rounds=15, repeat=20):
    """Median time per call of each case, in microseconds, the cases taking turns each round."""
    times = alternated_seconds(cases, rounds, repeat)
    return {name: float(np.median(values)) * 1e6 for name, values in times.items()}


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

    def record():
        with ek.GradientTape(persistent=True) as tape:
            tape.watch(x)
            z = x
            for _ in range(n_chains):
                z = chain_eagerkit(z, y)
        return tape, z

    held, (tape, z) = held_bytes(record)
    records = len(tape.records)
    del tape, z
    return held / records, records


def matmul_cases(n=1024):
    """``sum(A @ B)`` and its gradients with respect to A and B."""
    rng = np.random.default_rng(0)
    a = rng.random((n, n), dtype=np.float32)
    b = rng.random((n, n), dtype=np.float32)

    def numpy_by_hand():
        c = a @ b
        total = c.sum()
        g = np.ones_like(c)  # d total / d c
        return total, g @ b.T, a.T @ g

    ta, tb = ek.constant(a), ek.constant(b)

    def eagerkit_tape():
        with ek.GradientTape() as tape:
            tape.watch([ta, tb])
            total = ek.reduce_sum(ek.matmul(ta, tb))
        return total, tape.gradient(total, [ta, tb])

    cases = {"numpy by hand": (numpy_by_hand, ()), "eagerkit": (eagerkit_tape, ())}
    if torch is not None:
        pa = torch.tensor(a, requires_grad=True)
        pb = torch.tensor(b, requires_grad=True)

        def torch_autograd():
            pa.grad = pb.grad = None
            total = (pa @ pb).sum()
            total.backward()
            return total, pa.grad, pb.grad

        cases["PyTorch"] = (torch_autograd, ())
    return cases


def check_same_variable_gradients(x_np, w_np, b_np):
    expected = variable_chain_numpy(x_np, w_np, b_np)
    got = variable_chain_eagerkit(ek.constant(x_np), ek.Variable(w_np), ek.Variable(b_np))
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_allclose(g.numpy(), e, rtol=1e-10)


def ratio_line(label, value, target):
    verdict = "meets" if value <= target else "MISSES"
    return f"{label:44}{value:8.2f}   ({verdict} the target <= {target:.2f})"


def main():
    rng = np.random.default_rng(0)
    x_np, y_np = rng.random(SIZE), rng.random(SIZE) * 0.5
    w_np, b_np = rng.random(SIZE) * 0.5, rng.random(SIZE) * 0.5
    check_same_gradients(x_np, y_np)
    check_same_variable_gradients(x_np, w_np, b_np)
    x, y = ek.constant(x_np), ek.constant(y_np)
    w, b = ek.Variable(w_np), ek.Variable(b_np)
    forward = {"numpy": (chain_numpy, (x_np, y_np)), "eagerkit": (chain_eagerkit, (x, y))}
    forward["eagerkit recording"] = (recording_eagerkit, (x, y))
    both = {
        "numpy by hand": (forward_backward_numpy, (x_np, y_np)),
        "eagerkit": (forward_backward_eagerkit, (x, y)),
    }
    variables = {
        "numpy by hand": (variable_chain_numpy, (x_np, w_np, b_np)),
        "eagerkit": (variable_chain_eagerkit, (x, w, b)),
    }
    if torch is not None:
        tx, ty = torch.tensor(x_np), torch.tensor(y_np)
        tw = torch.tensor(w_np, requires_grad=True)
        tb = torch.tensor(b_np, requires_grad=True)
        forward["PyTorch"] = (forward_torch, (tx, ty))
        forward["PyTorch recording"] = (recording_torch, (tx, ty))
        both["PyTorch"] = (forward_backward_torch, (tx, ty))
        variables["PyTorch"] = (variable_chain_torch, (tx, tw, tb))
    else:
        print("PyTorch is not installed (pip install torch==2.13.0): its column is left out.\n")

    fwd = {k: v / CHAIN for k, v in median_microseconds(forward).items()}
    fb = {k: v / CHAIN for k, v in median_microseconds(both).items()}
    var = {k: v / CHAIN for k, v in median_microseconds(variables).items()}
    print(f"Chains of {CHAIN} elementwise ops on (10,) float64 arrays, median microseconds per op")
    print(f"{'':26}{'forward':>10}{'recording':>11}{'fwd+bwd':>10}{'variables':>11}")
    for name, key_f, key_b in [
        ("numpy (by hand)", "numpy", "numpy by hand"),
        ("PyTorch CPU", "PyTorch", "PyTorch"),
        ("eagerkit", "eagerkit", "eagerkit"),
    ]:
        if key_f in fwd:
            recorded = fwd.get(f"{key_f} recording")
            recorded = "" if recorded is None else f"{recorded:.2f}"
            print(f"{name:26}{fwd[key_f]:10.2f}{recorded:>11}{fb[key_b]:10.2f}{var[key_b]:11.2f}")
    print(
        f"{'eagerkit / numpy':26}{fwd['eagerkit'] / fwd['numpy']:10.2f}{'':11}"
        f"{fb['eagerkit'] / fb['numpy by hand']:10.2f}"
        f"{var['eagerkit'] / var['numpy by hand']:11.2f}"
    )
    if torch is not None:
        print(
            ratio_line(
                "forward, no tape: eagerkit / PyTorch", fwd["eagerkit"] / fwd["PyTorch"], 0.8
            )
        )
        recording = fwd["eagerkit recording"] / fwd["PyTorch recording"]
        print(f"{'forward under a tape: eagerkit / PyTorch':44}{recording:8.2f}")
        print(
            ratio_line(
                "forward + backward: eagerkit / PyTorch", fb["eagerkit"] / fb["PyTorch"], 0.7
            )
        )
        print(
            ratio_line(
                "ops reading Variables: eagerkit / PyTorch", var["eagerkit"] / var["PyTorch"], 1.0
            )
        )

    bwd = {k: v / CHAIN for k, v in median_microseconds(backward_cases(x_np, y_np)).items()}
    print("\nThe backward pass alone (a chain recorded once), median microseconds per op")
    for name, us in bwd.items():
        print(f"{name:26}{us:10.2f}")
    if torch is not None:
        print(f"{'backward only: eagerkit / PyTorch':44}{bwd['eagerkit'] / bwd['PyTorch']:8.2f}")

    times = median_microseconds(matmul_cases(), rounds=7, repeat=1)
    print("\nsum(A @ B) on 1024x1024 float32, forward + backward, median milliseconds")
    for name, us in times.items():
        print(f"{name:26}{us / 1000:10.1f}")
    print(ratio_line("eagerkit / numpy by hand", times["eagerkit"] / times["numpy by hand"], 1.1))
    if torch is not None:
        print(f"{'PyTorch / numpy by hand':44}{times['PyTorch'] / times['numpy by hand']:8.2f}")

    per_op, records = tape_bytes_per_op()
    print(
        f"\nMemory held by a tape: {per_op:.0f} bytes per recorded op ({records} records)"
        "   (target <= 400; PyTorch ~ 900)"
    )


if __name__ == "__main__":
    with threadpool_limits(limits=1):  # one BLAS thread each: the machine's cores are shared
        main()

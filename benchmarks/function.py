"""Graph mode: ek.function against eager eagerkit, numpy by hand and PyTorch (CPU), per call.

    python benchmarks/function.py

Three workloads:
- a 100-op chain of elementwise ops on a (10,) float64 array (per-op overhead dominates);
- a small MLP forward, (32, 64) -> 128 -> 10 with relu and softmax, float32;
- the same 100-op chain on a (512, 512) float64 array, with and without buffer reuse
  (allocation dominates: here writing into dead temporaries is what a graph buys).
Implementations run in interleaved rounds and the median round is kept; ratios are printed.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import eagerkit as ek  # noqa: E402

try:
    import torch
except ImportError:  # PyTorch is a reference, not a dependency
    torch = None

# The same chain as the per-op overhead benchmark, so the two tables can be read together.
from chains import CHAIN, chain_eagerkit, chain_numpy  # noqa: E402
from overhead import median_microseconds  # noqa: E402


def chain_torch(x, y):
    with torch.no_grad():
        for _ in range(CHAIN // 4):
            x = torch.tanh(x * y + y) - y
        return x


def mlp_eagerkit(x, w1, b1, w2, b2):
    return ek.nn.softmax(ek.matmul(ek.nn.relu(ek.matmul(x, w1) + b1), w2) + b2)


def mlp_numpy(x, w1, b1, w2, b2):
    logits = np.maximum(x @ w1 + b1, 0) @ w2 + b2
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mlp_torch(x, w1, b1, w2, b2):
    with torch.no_grad():
        return torch.softmax(torch.relu(x @ w1 + b1) @ w2 + b2, dim=-1)


def cases_for(eager, numpy_version, torch_version, arrays, **function_options):
    """The four columns for one workload, after checking they all give the same answer."""
    tensors = [ek.constant(a) for a in arrays]
    traced = ek.function(eager, **function_options)
    expected = numpy_version(*arrays)
    np.testing.assert_allclose(traced(*tensors).numpy(), expected, rtol=1e-5)
    np.testing.assert_allclose(eager(*tensors).numpy(), expected, rtol=1e-5)
    cases = {
        "numpy by hand": (numpy_version, arrays),
        "eagerkit eager": (eager, tensors),
        "ek.function": (traced, tensors),
    }
    if torch is not None:
        cases["PyTorch eager"] = (torch_version, [torch.tensor(a) for a in arrays])
    return cases, traced.get_concrete_function(*tensors)


def report(title, times, unit=1.0, unit_name="us"):
    print(f"\n{title}, {unit_name} per call")
    for name, us in times.items():
        print(f"  {name:22}{us / unit:10.1f}")
    floor = times["numpy by hand"]
    print(f"  {'eager / ek.function':22}{times['eagerkit eager'] / times['ek.function']:10.2f}")
    print(f"  {'ek.function / numpy':22}{times['ek.function'] / floor:10.2f}")
    if "PyTorch eager" in times:
        print(
            f"  {'ek.function / PyTorch':22}{times['ek.function'] / times['PyTorch eager']:10.2f}"
        )


def main():
    if torch is None:
        print("PyTorch is not installed (pip install torch==2.13.0): its column is left out.")
    rng = np.random.default_rng(0)

    small = [rng.random(10), rng.random(10) * 0.5]
    cases, concrete = cases_for(chain_eagerkit, chain_numpy, chain_torch, small)
    report(f"{CHAIN}-op chain on a (10,) float64 array", median_microseconds(cases))
    print(f"  graph: {len(concrete.graph.ops)} ops, {concrete.optimizations}")

    layers = [
        rng.standard_normal((32, 64)).astype(np.float32),
        rng.standard_normal((64, 128)).astype(np.float32) * 0.1,
        np.zeros(128, np.float32),
        rng.standard_normal((128, 10)).astype(np.float32) * 0.1,
        np.zeros(10, np.float32),
    ]
    cases, concrete = cases_for(mlp_eagerkit, mlp_numpy, mlp_torch, layers)
    report("MLP forward (32, 64) -> 128 -> 10", median_microseconds(cases))
    print(f"  graph: {len(concrete.graph.ops)} ops, {concrete.optimizations}")

    large = [rng.random((512, 512)), rng.random((512, 512)) * 0.5]
    cases, concrete = cases_for(chain_eagerkit, chain_numpy, chain_torch, large)
    without_reuse = ek.function(chain_eagerkit, buffer_reuse=False)
    cases["ek.function, no reuse"] = (without_reuse, cases["ek.function"][1])
    times = median_microseconds(cases, rounds=5, repeat=2)
    report(f"{CHAIN}-op chain on a (512, 512) float64 array", times, 1000.0, "ms")
    print(
        f"  {'no reuse / reuse':22}{times['ek.function, no reuse'] / times['ek.function']:10.2f}"
        f"   ({concrete.optimizations['buffer_reuse']} of {len(concrete.graph.ops)} ops write "
        "into a dead temporary)"
    )


if __name__ == "__main__":
    main()

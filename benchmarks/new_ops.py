"""The ops TF users reach for (einsum, solve, cumsum, sort, reduce_prod, segment sums, the
matrix 2-norm through svd, image resizing), forward and backward, side by side with numpy by
hand and PyTorch (CPU), in one run.

    python benchmarks/new_ops.py

Each case computes d sum(f(x) * w) / dx three ways and checks the three gradients agree
before timing them. The contenders run in alternating rounds (so a busy neighbour slows all
of them alike) and the medians are reported, with eagerkit's ratio to numpy and to PyTorch.
"""

import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import eagerkit as ek  # noqa: E402
from eagerkit.image.resize import _interpolation_matrix  # noqa: E402  (the by-hand reference)

try:
    import torch
except ImportError:  # PyTorch is a reference, not a dependency
    torch = None

rng = np.random.default_rng(0)


def _eagerkit(f):
    def run(x, w):
        x = ek.constant(x)
        with ek.GradientTape() as tape:
            tape.watch(x)
            y = ek.reduce_sum(f(x) * w)
        return np.asarray(tape.gradient(y, x))  # its memory, as torch's .numpy() gives

    return run


def _torch(f):
    def run(x, w):
        x = torch.tensor(x, requires_grad=True)
        (f(x) * torch.from_numpy(w)).sum().backward()
        return x.grad.numpy()

    return run


def _cases():
    """name -> (x, w, eagerkit f, numpy gradient by hand, torch f)."""
    batch = rng.standard_normal((64, 32, 32))
    rhs = rng.standard_normal((64, 8))
    matrix = rng.standard_normal((64, 64)) + 8 * np.eye(64)
    prods = rng.uniform(0.5, 1.5, (256, 16))
    prods[::7, 3] = 0.0  # zeros: the gradient is the product of the others, not NaN
    ids = rng.integers(0, 50, 1000)
    solve_w = rng.standard_normal((64, 8))
    images = rng.standard_normal((8, 64, 64, 3))
    rows, cols = (
        _interpolation_matrix(64, 96, np.float64),
        _interpolation_matrix(64, 80, np.float64),
    )

    def two_norm_grad(x, w):  # d sigma_max = u1 v1^T
        u, _, vh = np.linalg.svd(x)
        return w[:, None, None] * u[:, :, :1] * vh[:, :1, :]

    def resize_grad(x, w):  # resize is rows @ x @ cols^T per channel: the transposes back
        return np.einsum("oh,pw,nopc->nhwc", rows, cols, w, optimize=True)

    def solve_grad(x, w):  # X = A^-1 B; dL/dA = -A^-T w X^T
        solution = np.linalg.solve(x, rhs)
        return -np.linalg.solve(x.T, w) @ solution.T

    def prod_grad(x, w):  # the product of the entries before each one, times those after
        ones = np.ones((len(x), 1))
        before = np.cumprod(np.hstack([ones, x[:, :-1]]), axis=1)
        after = np.cumprod(np.hstack([x[:, 1:], ones])[:, ::-1], axis=1)[:, ::-1]
        return w[:, None] * before * after

    cases = {
        "einsum bij,bjk->bik": (
            batch,
            rng.standard_normal((64, 32, 32)),
            lambda x: ek.einsum("bij,bjk->bik", x, x),
            lambda x, w: w @ x.transpose(0, 2, 1) + x.transpose(0, 2, 1) @ w,
            lambda x: torch.einsum("bij,bjk->bik", x, x),
        ),
        "linalg.solve 64x64": (
            matrix,
            solve_w,
            lambda x: ek.linalg.solve(x, rhs),
            solve_grad,
            lambda x: torch.linalg.solve(x, torch.from_numpy(rhs)),
        ),
        "cumsum 256x256": (
            rng.standard_normal((256, 256)),
            rng.standard_normal((256, 256)),
            lambda x: ek.cumsum(x, axis=1),
            lambda x, w: np.cumsum(w[:, ::-1], axis=1)[:, ::-1],
            lambda x: torch.cumsum(x, dim=1),
        ),
        "sort 256x256": (
            rng.standard_normal((256, 256)),
            rng.standard_normal((256, 256)),
            lambda x: ek.sort(x, axis=-1),
            _scatter_back,
            lambda x: torch.sort(x, dim=-1).values,
        ),
        "reduce_prod 256x16 (zeros)": (
            prods,
            rng.standard_normal(256),
            lambda x: ek.reduce_prod(x, axis=1),
            prod_grad,
            lambda x: torch.prod(x, dim=1),
        ),
        "unsorted_segment_sum 1000x32": (
            rng.standard_normal((1000, 32)),
            rng.standard_normal((50, 32)),
            lambda x: ek.math.unsorted_segment_sum(x, ids, 50),
            lambda x, w: w[ids],
            lambda x: torch.zeros(50, 32, dtype=x.dtype).index_add(0, torch.from_numpy(ids), x),
        ),
        "norm ord=2 (svd) 32x16x16": (
            rng.standard_normal((32, 16, 16)),
            rng.standard_normal(32),
            lambda x: ek.norm(x, ord=2, axis=[-2, -1]),
            two_norm_grad,
            lambda x: torch.linalg.matrix_norm(x, ord=2),
        ),
        "image.resize 8x64x64x3->96x80": (
            images,
            rng.standard_normal((8, 96, 80, 3)),
            lambda x: ek.image.resize(x, [96, 80]),
            resize_grad,
            lambda x: torch.nn.functional.interpolate(
                x.permute(0, 3, 1, 2), size=(96, 80), mode="bilinear", align_corners=False
            ).permute(0, 2, 3, 1),
        ),
    }
    return cases


def _scatter_back(x, w):
    """The gradient of sorting: each g goes back to where its value came from."""
    grad = np.zeros_like(x)
    np.put_along_axis(grad, np.argsort(x, axis=-1), w, axis=-1)
    return grad


def median_microseconds(contenders, args, rounds=15, repeat=5):
    """Alternating rounds; the median time per call of each contender, in microseconds."""
    times = {name: [] for name in contenders}
    for _ in range(rounds):
        for name, run in contenders.items():
            start = time.perf_counter()
            for _ in range(repeat):
                run(*args)
            times[name].append((time.perf_counter() - start) / repeat * 1e6)
    return {name: statistics.median(t) for name, t in times.items()}


def main():
    print(
        f"eagerkit {ek.__version__}, numpy {np.__version__}, torch "
        f"{torch.__version__ if torch else 'not installed'}; medians of alternating rounds"
    )
    print(f"{'case':30s} {'numpy':>10s} {'eagerkit':>10s} {'torch':>10s}  ek/np  ek/torch")
    for name, (x, w, f, by_hand, torch_f) in _cases().items():
        contenders = {"numpy": by_hand, "eagerkit": _eagerkit(f)}
        if torch:
            contenders["torch"] = _torch(torch_f)
        expected = by_hand(x, w)
        # resize places its samples in float32, as TF does; PyTorch uses float64 for doubles.
        atol = 1e-4 if name.startswith("image.") else 1e-9
        for who, run in contenders.items():
            np.testing.assert_allclose(run(x, w), expected, rtol=1e-7, atol=atol, err_msg=who)
        t = median_microseconds(contenders, (x, w))
        torch_text = f"{t['torch']:10.1f}" if torch else f"{'-':>10s}"
        ratio = f"{t['eagerkit'] / t['torch']:8.2f}" if torch else f"{'-':>8s}"
        print(
            f"{name:30s} {t['numpy']:10.1f} {t['eagerkit']:10.1f} {torch_text}"
            f"  {t['eagerkit'] / t['numpy']:5.2f} {ratio}"
        )


if __name__ == "__main__":
    main()

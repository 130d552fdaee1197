"""The contenders of benchmarks/overhead.py: one chain of small ops, written three ways.

eagerkit, numpy by hand (gradients written out) and PyTorch (CPU, a reference only) run the
same 100-op chain on (10,) float64 arrays: forward, under a tape, forward + backward,
reading Variables, and the backward pass alone.
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
else:
    torch.set_num_threads(1)  # as numpy's BLAS: the machine's cores are shared

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


def variable_chain_eagerkit(x, w, b):
    """The chain with trainable Variables: every op reads one (an RNN or a layer's weights)."""
    with ek.GradientTape() as tape:
        for _ in range(CHAIN // 4):
            x = ek.tanh(x * w + b) - b
    return tape.gradient(x, [w, b])


def variable_chain_numpy(x, w, b):
    saved = []
    for _ in range(CHAIN // 4):
        h = x
        t = np.tanh(x * w + b)
        saved.append((h, t))
        x = t - b
    g = np.ones_like(x)
    gw, gb = np.zeros_like(w), np.zeros_like(b)
    for h, t in reversed(saved):
        gb -= g  # the "- b"
        d = g * (1 - t * t)
        gw += d * h
        gb += d
        g = d * w
    return gw, gb


def variable_chain_torch(x, w, b):
    w.grad = b.grad = None
    for _ in range(CHAIN // 4):
        x = torch.tanh(x * w + b) - b
    x.backward(torch.ones_like(x))
    return w.grad, b.grad


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


def recording_eagerkit(x, y):
    """The forward under a tape, without the backward: what recording adds to the forward."""
    with ek.GradientTape() as tape:
        tape.watch(x)
        return chain_eagerkit(x, y)


def recording_torch(x, y):
    return chain_torch(x.detach().requires_grad_(True), y)


def forward_backward_torch(x, y):
    x = x.detach().requires_grad_(True)
    z = chain_torch(x, y)
    z.backward(torch.ones_like(z))
    return x.grad


def backward_cases(x_np, y_np):
    """The backward pass alone, over one chain recorded once: what the reverse sweep costs."""
    x, y = ek.constant(x_np), ek.constant(y_np)
    with ek.GradientTape(persistent=True) as tape:
        tape.watch(x)
        z = chain_eagerkit(x, y)
    saved = []  # numpy by hand: what its forward kept
    h = x_np
    for _ in range(CHAIN // 4):
        t = np.tanh(h * y_np + y_np)
        saved.append(t)
        h = t - y_np

    def numpy_backward():
        g = np.ones_like(h)
        for t in reversed(saved):
            g = g * (1 - t * t) * y_np
        return g

    cases = {
        "numpy by hand": (numpy_backward, ()),
        "eagerkit": (tape.gradient, (z, x)),
    }
    if torch is not None:
        tx = torch.tensor(x_np, requires_grad=True)
        tz = chain_torch(tx, torch.tensor(y_np))
        seed = torch.ones_like(tz)

        def torch_backward():
            tx.grad = None
            tz.backward(seed, retain_graph=True)
            return tx.grad

        cases["PyTorch"] = (torch_backward, ())
    return cases

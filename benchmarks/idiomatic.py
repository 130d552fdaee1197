"""Speed on the code students write: eagerkit beside PyTorch (CPU), in one run.

    python benchmarks/idiomatic.py            (every case, float32 then float64)
    python benchmarks/idiomatic.py chain      (or: variables, mlp, tape: one group)

``benchmarks/overhead.py`` and ``benchmarks/train.py`` time the engine on the shapes of code
it was tuned on (tensor operands, one long tape, ``bias_add``, the library's cross-entropy).
This file times the forms a TF user writes from the tutorials (issue 20), each paired
with the same program in PyTorch:

- a 100-op chain whose other operand is a Python float (``x * 0.5``, ``x + 0.5``), forward
  alone and forward + backward;
- ``x * w + b`` on three Variables under a fresh ``GradientTape`` each step (the forward a
  tape records, then the same with ``tape.gradient``);
- one SGD step of an MLP 64-128-10 written by hand: Variables, ``x @ w + b``, cross-entropy
  through ``reduce_logsumexp``, updates with ``assign_sub``, at batch 64 and on the full
  digits training set (1437 images);
- the bytes a tape keeps per recorded op of the chain.

The MLP step also runs as numpy written by hand (the forward, the gradients derived on
paper, the updates in place): what numpy's own kernels cost for the same step, a floor for
any engine that computes on numpy; and as TF 2's tutorials write it, decorated with
``@ek.function`` (no target: graph mode replays the traced step without per-op work). Under
them, the step's five matrix products alone, numpy's BLAS against PyTorch's (MKL on x86):
at the full batch they are most of the step, so their ratio is the floor of the others.

Under each MLP step, the page faults per step of each contender (counted apart, after the
timing): a fault is a fresh page of a newly made array, zeroed by the system on its first
write, and at the full batch they cost more than the arithmetic of the elementwise ops.

The contenders take turns in every round and each figure is the median of its rounds, so a
busy neighbour slows both columns alike; the ratio eagerkit / PyTorch is printed beside
the issue's target. Both run single-threaded (PyTorch's intra-op pool, numpy's BLAS).
"""

import os
import resource
import sys

import numpy as np
from alternated import alternated_seconds
from held_memory import held_bytes
from threadpoolctl import threadpool_limits

import eagerkit as ek

try:
    import torch
except ImportError:  # PyTorch is a reference, not a dependency
    torch = None
else:
    torch.set_num_threads(1)

CHAIN = 100  # ops per chain: 25 x (multiply, add, tanh, subtract), each with a Python float
SIZE = 10
HIDDEN = 128
LEARNING_RATE = 0.1
TARGETS = {  # issue 20: eagerkit / PyTorch at most
    "chain forward": 0.8,
    "chain forward + backward": 0.7,
    "x * w + b, fresh tape": 1.0,
    "x * w + b, fresh tape + gradient": None,
    "MLP step, batch 64": 0.9,
    "MLP step, full batch": 0.9,
}


# --- the chain: Python-float operands ------------------------------------------------------------
def chain_eagerkit(x):
    for _ in range(CHAIN // 4):
        x = ek.tanh(x * 0.5 + 0.5) - 0.25
    return x


def chain_backward_eagerkit(x):
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = chain_eagerkit(x)
    return tape.gradient(y, x)


def chain_torch(x):
    for _ in range(CHAIN // 4):
        x = torch.tanh(x * 0.5 + 0.5) - 0.25
    return x


def chain_forward_torch(x):
    with torch.no_grad():
        return chain_torch(x)


def chain_backward_torch(x):
    x = x.detach().requires_grad_(True)
    y = chain_torch(x)
    y.backward(torch.ones_like(y))
    return x.grad


# --- x * w + b on three Variables, a fresh tape per step ---------------------------------------
def affine_eagerkit(x, w, b):
    with ek.GradientTape():
        return x * w + b


def affine_gradient_eagerkit(x, w, b):
    with ek.GradientTape() as tape:
        y = x * w + b
    return tape.gradient(y, [x, w, b])


def affine_torch(x, w, b):
    return x * w + b  # parameters: autograd records, as a tape does


def affine_gradient_torch(x, w, b):
    x.grad = w.grad = b.grad = None
    y = x * w + b
    y.backward(torch.ones_like(y))
    return x.grad, w.grad, b.grad


# --- an MLP step written by hand ---------------------------------------------------------------
def mlp_variables(dtype):
    rng = np.random.default_rng(0)
    shapes = [(64, HIDDEN), (HIDDEN,), (HIDDEN, 10), (10,)]
    return [rng.normal(0, 0.1, shape).astype(dtype) for shape in shapes]


def mlp_step_eagerkit(variables):
    w1, b1, w2, b2 = variables

    def step(x, labels):
        with ek.GradientTape() as tape:
            hidden = ek.nn.relu(x @ w1 + b1)
            logits = hidden @ w2 + b2
            log_probs = logits - ek.reduce_logsumexp(logits, axis=1, keepdims=True)
            loss = -ek.reduce_mean(ek.reduce_sum(labels * log_probs, axis=1))
        for variable, gradient in zip(variables, tape.gradient(loss, variables), strict=True):
            variable.assign_sub(LEARNING_RATE * gradient)
        return loss

    return step


def mlp_step_torch(parameters):
    w1, b1, w2, b2 = parameters

    def step(x, labels):
        hidden = torch.relu(x @ w1 + b1)
        logits = hidden @ w2 + b2
        log_probs = logits - torch.logsumexp(logits, dim=1, keepdim=True)
        loss = -torch.mean(torch.sum(labels * log_probs, dim=1))
        loss.backward()
        with torch.no_grad():
            for parameter in parameters:
                parameter.sub_(LEARNING_RATE * parameter.grad)
                parameter.grad = None
        return loss

    return step


def mlp_step_numpy(parameters):
    """The same step in plain numpy, gradients derived by hand: no tape, no engine."""
    w1, b1, w2, b2 = parameters

    def step(x, labels):
        before_relu = x @ w1 + b1
        hidden = np.maximum(before_relu, 0)
        logits = hidden @ w2 + b2
        top = logits.max(axis=1, keepdims=True)
        log_sum = np.log(np.exp(logits - top).sum(axis=1, keepdims=True)) + top
        log_probs = logits - log_sum
        loss = -np.mean(np.sum(labels * log_probs, axis=1))
        # d loss / d logits = (softmax - labels) / n, as each row of labels sums to 1
        d_logits = (np.exp(log_probs) - labels) / len(x)
        d_hidden = (d_logits @ w2.T) * (before_relu > 0)
        gradients = (x.T @ d_hidden, d_hidden.sum(axis=0), hidden.T @ d_logits, d_logits.sum(0))
        for parameter, gradient in zip(parameters, gradients, strict=True):
            parameter -= LEARNING_RATE * gradient
        return loss

    return step


def step_products(images, initial):
    """The operands of the MLP step's five matrix products: (x, w1, hidden, w2, d_hidden,
    d_logits), with the step's shapes."""
    rng = np.random.default_rng(1)
    w1, _, w2, _ = initial
    hidden = rng.random((len(images), HIDDEN)).astype(images.dtype)
    d_hidden = rng.normal(0, 1e-3, hidden.shape).astype(images.dtype)
    d_logits = rng.normal(0, 1e-3, (len(images), 10)).astype(images.dtype)
    return [images, w1, hidden, w2, d_hidden, d_logits]


def five_products(x, w1, hidden, w2, d_hidden, d_logits):
    """The step's products, in numpy or PyTorch (both write ``@``): two forward, three back."""
    return (x @ w1, hidden @ w2, x.T @ d_hidden, hidden.T @ d_logits, d_logits @ w2.T)


def digits_batch(dtype, count):
    (images, labels), _ = ek.datasets.load_digits()
    images = images.reshape(len(images), 64)[:count].astype(dtype)
    one_hot = np.eye(10, dtype=dtype)[labels[:count]]
    return images, one_hot


# --- the harness -------------------------------------------------------------------------------
def paired_microseconds(cases, rounds, repeat):
    """Median time per call of each case and of PyTorch, in microseconds, and the median of
    the rounds' ratios case / PyTorch: ``{name: (us, torch_us, ratio)}`` for every case but
    PyTorch. The cases take turns in every round, so each ratio compares like with like."""
    times = {
        name: np.array(t) * 1e6 for name, t in alternated_seconds(cases, rounds, repeat).items()
    }
    torch_times = times.pop("torch")
    return {
        name: (
            float(np.median(t)),
            float(np.median(torch_times)),
            float(np.median(t / torch_times)),
        )
        for name, t in times.items()
    }


def row(name, ek_us, torch_us, ratio, per=1):
    target = TARGETS.get(name)
    verdict = "" if target is None else ("met" if ratio <= target else "NOT met")
    limit = "" if target is None else f"<= {target}"
    print(
        f"  {name:34s} {ek_us / per:9.2f} {torch_us / per:9.2f} {ratio:7.2f}  {limit:7s} {verdict}"
    )


def header(title, unit):
    print(f"\n{title}")
    print(f"  {'':34s} {'this row':>9s} {'PyTorch':>9s} {'ratio':>7s}  target ({unit})")


def bench_chain(dtype):
    x_np = np.linspace(-1, 1, SIZE).astype(dtype)
    x, tx = ek.constant(x_np), torch.tensor(x_np)
    np.testing.assert_allclose(
        chain_backward_eagerkit(x).numpy(), chain_backward_torch(tx).numpy(), rtol=1e-5
    )
    header(f"100-op chain, Python-float operands, ({SIZE},) {dtype}", "us per op")
    pairs = {
        "chain forward": (chain_eagerkit, chain_forward_torch),
        "chain forward + backward": (chain_backward_eagerkit, chain_backward_torch),
    }
    for name, (ek_fn, torch_fn) in pairs.items():
        cases = {"ek": (ek_fn, (x,)), "torch": (torch_fn, (tx,))}
        row(name, *paired_microseconds(cases, 15, 20)["ek"], per=CHAIN)


def bench_variables(dtype):
    values = [np.linspace(0, 1, SIZE).astype(dtype) + i for i in range(3)]
    variables = [ek.Variable(v) for v in values]
    parameters = [torch.tensor(v, requires_grad=True) for v in values]
    for got, want in zip(
        affine_gradient_eagerkit(*variables), affine_gradient_torch(*parameters), strict=True
    ):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)
    header(f"x * w + b, three ({SIZE},) {dtype} Variables", "us per step")
    pairs = {
        "x * w + b, fresh tape": (affine_eagerkit, affine_torch),
        "x * w + b, fresh tape + gradient": (affine_gradient_eagerkit, affine_gradient_torch),
    }
    for name, (ek_fn, torch_fn) in pairs.items():
        cases = {"ek": (ek_fn, variables), "torch": (torch_fn, parameters)}
        row(name, *paired_microseconds(cases, 21, 200)["ek"])


def bench_mlp(dtype):
    header(f"MLP 64-{HIDDEN}-10 SGD step by hand, {dtype}", "us per step")
    for name, count in (("MLP step, batch 64", 64), ("MLP step, full batch", None)):
        images, one_hot = digits_batch(dtype, count)
        initial = mlp_variables(dtype)
        ek_step = mlp_step_eagerkit([ek.Variable(v) for v in initial])
        torch_step = mlp_step_torch([torch.tensor(v, requires_grad=True) for v in initial])
        numpy_step = mlp_step_numpy([v.copy() for v in initial])
        ek_args = (ek.constant(images), ek.constant(one_hot))
        torch_args = (torch.tensor(images), torch.tensor(one_hot))
        # TF 2's tutorials decorate the step: @tf.function replays it compiled (graph/replay.py)
        traced_step = ek.function(mlp_step_eagerkit([ek.Variable(v) for v in initial]))
        for _ in range(3):  # the same steps from the same weights: the same losses (the
            want = torch_step(*torch_args).item()  # traced step: traced, run, compiled)
            np.testing.assert_allclose(ek_step(*ek_args).numpy(), want, rtol=1e-4)
            np.testing.assert_allclose(numpy_step(images, one_hot), want, rtol=1e-4)
            np.testing.assert_allclose(traced_step(*ek_args).numpy(), want, rtol=1e-4)
        repeat = 20 if count else 3
        # Two pairings, each against PyTorch: a third contender in the same rounds would
        # change what the other two find in the caches.
        cases = {"ek": (ek_step, ek_args), "torch": (torch_step, torch_args)}
        row(name, *paired_microseconds(cases, 15, repeat)["ek"])
        cases = {"numpy": (numpy_step, (images, one_hot)), "torch": (torch_step, torch_args)}
        row("  numpy by hand, same step", *paired_microseconds(cases, 15, repeat)["numpy"])
        cases = {"fn": (traced_step, ek_args), "torch": (torch_step, torch_args)}
        row("  the same step in ek.function", *paired_microseconds(cases, 15, repeat)["fn"])
        # The floor under every row above: the step's five matrix products, numpy's BLAS
        # against PyTorch's, the same shapes (forward two, backward three).
        products = step_products(images, initial)
        cases = {
            "numpy": (five_products, products),
            "torch": (five_products, [torch.from_numpy(a) for a in products]),
        }
        row("  its 5 matrix products alone", *paired_microseconds(cases, 15, repeat)["numpy"])
        faults = {
            who: page_faults_per_step(step, args, 10 * repeat)
            for who, step, args in (
                ("eagerkit", ek_step, ek_args),
                ("PyTorch", torch_step, torch_args),
                ("numpy by hand", numpy_step, (images, one_hot)),
            )
        }
        print("    page faults per step: " + ", ".join(f"{k} {v:.0f}" for k, v in faults.items()))


def page_faults_per_step(step, args, steps):
    """Minor page faults per call of ``step``: each is a fresh page of a new array that the
    kernel zeroes on its first write (backends/host_pool.py keeps eagerkit's big arrays)."""
    step(*args)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(steps):
        step(*args)
    return (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / steps


def bench_tape(dtype):
    """Bytes allocated and kept alive by a tape, per recorded op (tracemalloc)."""
    x = ek.constant(np.linspace(-1, 1, SIZE).astype(dtype))
    chains = 20

    def record():
        with ek.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = x
            for _ in range(chains):
                y = chain_eagerkit(y)
        return tape, y

    held, (tape, y) = held_bytes(record)
    ops = chains * CHAIN
    print(f"\ntape, Python-float chain, {dtype}: {held / ops:.0f} bytes per recorded op (<= 400)")
    del tape, y


GROUPS = {"chain": bench_chain, "variables": bench_variables, "mlp": bench_mlp, "tape": bench_tape}


def main(names):
    if torch is None:
        sys.exit("PyTorch is the reference here: pip install torch (not a dependency)")
    print(f"load average {os.getloadavg()[0]:.2f}, torch {torch.__version__}")
    with threadpool_limits(1):
        for dtype in ("float32", "float64"):
            for name in names:
                GROUPS[name](dtype)
    print(f"\nload average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main(sys.argv[1:] or list(GROUPS))

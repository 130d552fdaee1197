"""Training benchmark: an MLP and a small CNN on the 8x8 digits, eagerkit beside PyTorch.

The two frameworks train the same model from the same initial weights (copied from the
eagerkit model into the PyTorch one) on the same batches (numpy slices of the data, wrapped
as each framework's tensors) in the same order, with Adam and the same settings, taking
their steps in alternation so that both see the same machine. Their
accuracies agree closely, not exactly: float sums run in different orders, TF1's Adam (which
eagerkit follows) applies epsilon slightly differently, and each framework draws its own
dropout masks. The table shows test accuracy, total training time and the median
milliseconds per training step (forward, loss, backward, Adam update), then the step-time
ratio eagerkit / PyTorch.

Targets: test accuracy >= 97% (MLP) and >= 98% (CNN), each run under 60 s on 2 CPU cores;
the MLP step no slower than PyTorch's (ratio <= 1), the CNN step within 3x of PyTorch's.

Both run single-threaded (PyTorch's intra-op pool and numpy's BLAS, the latter through
threadpoolctl, which scikit-learn installs): for batches this small a thread pool only adds
synchronization, and on a busy 2-core machine two spinning threads made steps 5-15x slower.

Two more measurements come first (issue 12's targets), each contender taking its turn in
every round and each figure the median of its rounds:

- one SGD step of an MLP 64-128-10 (Dense layers, softmax cross-entropy, plain gradient
  descent) at batch 64 and on the full training set (1437 images): eagerkit / PyTorch
  (target <= 0.9);
- the loss and gradient of a sparse autoencoder 784-196-784 (sigmoid units, squared error,
  weight decay and a KL sparsity penalty, as in Stanford's UFLDL exercise) on 10,000 samples:
  eagerkit / numpy with the gradient written by hand (target <= 1.2), PyTorch beside them.

Run:  .venv/bin/python benchmarks/train.py         (everything)
      .venv/bin/python benchmarks/train.py steps   (the two measurements above only)
"""

import sys
import time

import numpy as np
from alternated import alternated_seconds
from threadpoolctl import threadpool_limits

import eagerkit as ek

EPOCHS = {"mlp": 30, "cnn": 20}
LEARNING_RATE = {"mlp": 0.003, "cnn": 0.003}
BATCH = 32
SEED = 0


def digits():
    """(x_train, y_train, x_test, y_test): 64 pixels in [0, 1] as float32, labels int64."""
    (x_train, y_train), (x_test, y_test) = ek.datasets.load_digits()
    flat = lambda images: images.reshape(len(images), 64)  # noqa: E731
    return flat(x_train), y_train.astype(np.int64), flat(x_test), y_test.astype(np.int64)


def batches(count, epochs):
    """The index batches both frameworks train on: one fixed shuffle per epoch."""
    rng = np.random.default_rng(SEED)
    for _ in range(epochs):
        order = rng.permutation(count)
        for start in range(0, count, BATCH):
            yield order[start : start + BATCH]


def run(steps, count, epochs):
    """Call every framework's ``step(index)`` on every batch, alternating between them.

    Returns ``{framework: (total seconds, median seconds per step)}``. Alternating step by
    step means a change in machine load hits every framework alike; the median ignores
    the slow outliers that other work on the machine causes.
    """
    times = {name: [] for name in steps}
    for index in batches(count, epochs):
        for name, step in steps.items():
            start = time.perf_counter()
            step(index)
            times[name].append(time.perf_counter() - start)
    return {name: (sum(t), float(np.median(t))) for name, t in times.items()}


# --- eagerkit --------------------------------------------------------------------------------
def eagerkit_model(kind):
    """The model, built (variables made) on one image."""
    ek.set_random_seed(SEED)
    if kind == "mlp":
        layers = [ek.layers.Dense(128, activation="relu"), ek.layers.Dense(10)]
    else:
        layers = [
            ek.layers.Reshape([8, 8, 1]),
            ek.layers.Conv2D(16, 3, padding="same", activation="relu"),
            ek.layers.Conv2D(32, 3, padding="same", activation="relu"),
            ek.layers.MaxPool2D(2),
            ek.layers.Flatten(),
            ek.layers.Dropout(0.3),
            ek.layers.Dense(10),
        ]
    model = ek.Sequential(layers)
    model(ek.zeros([1, 64]))
    return model


def eagerkit_trainer(model, kind, data):
    """``(step, accuracy)``: one training step on a batch, and the test accuracy."""
    x_train, y_train, x_test, y_test = data
    optimizer = ek.train.AdamOptimizer(LEARNING_RATE[kind])
    variables = model.trainable_variables

    def step(index):
        x, y = ek.constant(x_train[index]), ek.constant(y_train[index])
        with ek.GradientTape() as tape:
            loss = ek.losses.sparse_softmax_cross_entropy(y, model(x, training=True))
        optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables, strict=True))

    def accuracy():
        predictions = ek.argmax(model(x_test), axis=1).numpy()
        return float(np.mean(predictions == y_test))

    return step, accuracy


# --- PyTorch ---------------------------------------------------------------------------------
def torch_model(torch, kind, initial):
    """The same model in PyTorch, starting from eagerkit's ``initial`` weights."""
    nn = torch.nn

    class FlattenNHWC(nn.Module):
        """Flatten in eagerkit's (height, width, channel) order so the Dense weights fit."""

        def forward(self, x):
            return x.permute(0, 2, 3, 1).flatten(1)

    if kind == "mlp":
        model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10))
    else:
        model = nn.Sequential(
            nn.Unflatten(1, (1, 8, 8)),
            nn.Conv2d(1, 16, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(16, 32, 3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),
            FlattenNHWC(),
            nn.Dropout(0.3),
            nn.Linear(32 * 4 * 4, 10),
        )
    with torch.no_grad():
        for parameter, value in zip(model.parameters(), initial, strict=True):
            if value.ndim == 4:  # filter: eagerkit HWIO -> PyTorch OIHW
                value = value.transpose(3, 2, 0, 1)
            elif value.ndim == 2:  # kernel: eagerkit (in, out) -> PyTorch (out, in)
                value = value.T
            parameter.copy_(torch.from_numpy(np.ascontiguousarray(value)))
    return model


def torch_trainer(torch, model, kind, data):
    """``(step, accuracy)`` for the PyTorch model, as ``eagerkit_trainer``."""
    x_train, y_train, x_test, y_test = data
    torch.manual_seed(SEED)  # its dropout masks
    # TF1's Adam epsilon (eagerkit's default), so both take the same steps.
    optimizer = torch.optim.Adam(model.parameters(), lr=LEARNING_RATE[kind], eps=1e-8)
    loss_fn = torch.nn.CrossEntropyLoss()

    def step(index):
        x, y = torch.from_numpy(x_train[index]), torch.from_numpy(y_train[index])
        loss = loss_fn(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    def accuracy():
        model.eval()  # dropout off for testing
        with torch.no_grad():
            predictions = model(torch.from_numpy(x_test)).argmax(1).numpy()
        return float(np.mean(predictions == y_test))

    return step, accuracy


# --- one SGD step, and the autoencoder's loss and gradient -----------------------------------
def median_milliseconds(contenders, rounds, warmup=5):
    """Median milliseconds per call of each contender; they take turns in every round.

    ``warmup`` untimed rounds come first (first calls fill caches and allocator pools).
    """
    for _ in range(warmup):
        for function in contenders.values():
            function()
    times = alternated_seconds({name: (f, ()) for name, f in contenders.items()}, rounds)
    return {name: float(np.median(t)) * 1000 for name, t in times.items()}


def sgd_step_contenders(torch, x, y):
    """One SGD step of the same MLP 64-128-10 on the batch ``(x, y)`` in each framework."""
    model = eagerkit_model("mlp")
    optimizer = ek.train.GradientDescentOptimizer(0.01)
    variables = model.trainable_variables
    xs, ys = ek.constant(x), ek.constant(y)

    def eagerkit_step():
        with ek.GradientTape() as tape:
            loss = ek.losses.sparse_softmax_cross_entropy(ys, model(xs, training=True))
        optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables, strict=True))

    contenders = {"eagerkit": eagerkit_step}
    if torch is not None:
        net = torch_model(torch, "mlp", [v.numpy() for v in variables])
        sgd = torch.optim.SGD(net.parameters(), lr=0.01)
        loss_fn = torch.nn.CrossEntropyLoss()
        tx, ty = torch.from_numpy(x), torch.from_numpy(y)

        def torch_step():
            loss = loss_fn(net(tx), ty)
            sgd.zero_grad()
            loss.backward()
            sgd.step()

        contenders["pytorch"] = torch_step
    return contenders


SPARSITY, BETA, DECAY = 0.1, 3.0, 1e-4  # UFLDL's rho, beta and lambda


def autoencoder_contenders(torch, samples=10_000, visible=784, hidden=196):
    """The sparse autoencoder's loss and gradient (w.r.t. W1, b1, W2, b2), three ways."""
    rng = np.random.default_rng(SEED)
    x = rng.random((samples, visible), dtype=np.float32)
    bound = np.sqrt(6 / (visible + hidden + 1))
    w1 = rng.uniform(-bound, bound, (visible, hidden)).astype(np.float32)
    w2 = rng.uniform(-bound, bound, (hidden, visible)).astype(np.float32)
    b1, b2 = np.zeros(hidden, np.float32), np.zeros(visible, np.float32)

    def numpy_by_hand():
        a2 = 1 / (1 + np.exp(-(x @ w1 + b1)))
        a3 = 1 / (1 + np.exp(-(a2 @ w2 + b2)))
        rho = a2.mean(axis=0)
        error = a3 - x
        kl = SPARSITY * np.log(SPARSITY / rho) + (1 - SPARSITY) * np.log((1 - SPARSITY) / (1 - rho))
        loss = (
            0.5 / samples * np.sum(error * error)
            + DECAY / 2 * (np.sum(w1 * w1) + np.sum(w2 * w2))
            + BETA * np.sum(kl)
        )
        d3 = error * (a3 * (1 - a3)) / samples
        sparse = BETA * (-SPARSITY / rho + (1 - SPARSITY) / (1 - rho)) / samples
        d2 = (d3 @ w2.T + sparse) * (a2 * (1 - a2))
        return loss, x.T @ d2 + DECAY * w1, d2.sum(0), a2.T @ d3 + DECAY * w2, d3.sum(0)

    def loss_of(backend, x, w1, b1, w2, b2):
        a2 = backend.sigmoid(backend.matmul(x, w1) + b1)
        a3 = backend.sigmoid(backend.matmul(a2, w2) + b2)
        rho = backend.mean(a2, 0)
        error = a3 - x
        kl = SPARSITY * backend.log(SPARSITY / rho) + (1 - SPARSITY) * backend.log(
            (1 - SPARSITY) / (1 - rho)
        )
        decay = backend.sum(w1 * w1) + backend.sum(w2 * w2)
        return (
            0.5 / samples * backend.sum(backend.square(error))
            + DECAY / 2 * decay
            + BETA * backend.sum(kl)
        )

    class EagerkitBackend:
        sigmoid, matmul, log, sum, square = ek.sigmoid, ek.matmul, ek.log, ek.reduce_sum, ek.square
        mean = staticmethod(lambda t, axis: ek.reduce_mean(t, axis=axis))

    tensors = [ek.constant(v) for v in (x, w1, b1, w2, b2)]

    def eagerkit_tape():
        with ek.GradientTape() as tape:
            tape.watch(tensors[1:])
            loss = loss_of(EagerkitBackend, *tensors)
        return loss, tape.gradient(loss, tensors[1:])

    contenders = {"numpy by hand": numpy_by_hand, "eagerkit": eagerkit_tape}
    reference = numpy_by_hand()
    loss, grads = eagerkit_tape()
    for got, want in zip([loss, *grads], reference, strict=True):
        np.testing.assert_allclose(np.asarray(got), want, rtol=2e-3, atol=1e-6)
    if torch is not None:

        class TorchBackend:
            sigmoid, matmul, log, sum = torch.sigmoid, torch.matmul, torch.log, torch.sum
            square = torch.square
            mean = staticmethod(lambda t, axis: t.mean(axis))

        params = [torch.tensor(v, requires_grad=True) for v in (w1, b1, w2, b2)]
        tx = torch.from_numpy(x)

        def torch_autograd():
            loss = loss_of(TorchBackend, tx, *params)
            return loss, torch.autograd.grad(loss, params)

        contenders["pytorch"] = torch_autograd
    return contenders


def step_benchmarks(torch, data):
    """Print the SGD-step and autoencoder tables with their ratios and targets."""
    x_train, y_train = data[0], data[1]
    print("one SGD step of an MLP 64-128-10, median milliseconds (contenders alternate)")
    for label, index in (("batch 64", np.arange(64)), ("full batch", np.arange(len(x_train)))):
        times = median_milliseconds(sgd_step_contenders(torch, x_train[index], y_train[index]), 200)
        line = f"  {label:<11}" + "".join(f"{k} {v:7.3f}   " for k, v in times.items())
        if torch is not None:
            ratio = times["eagerkit"] / times["pytorch"]
            line += f"eagerkit / pytorch {ratio:.2f} ({_verdict(ratio, 0.9)} <= 0.9)"
        print(line)
    times = median_milliseconds(autoencoder_contenders(torch), 11, warmup=1)
    print("sparse autoencoder 784-196-784, loss + gradient on 10,000 samples, median ms")
    print("  " + "".join(f"{k} {v:8.1f}   " for k, v in times.items()))
    ratio = times["eagerkit"] / times["numpy by hand"]
    line = f"  eagerkit / numpy by hand {ratio:.2f} ({_verdict(ratio, 1.2)} <= 1.2)"
    if torch is not None:
        line += f";  pytorch / numpy by hand {times['pytorch'] / times['numpy by hand']:.2f}"
    print(line + "\n")


def _verdict(ratio, target):
    return "meets" if ratio <= target else "MISSES"


def main():
    data = digits()
    try:
        import torch
    except ImportError:
        torch = None
        print("PyTorch is not installed: eagerkit alone, no ratios (pip install torch to compare)")
    else:
        torch.set_num_threads(1)
    step_benchmarks(torch, data)
    if sys.argv[1:] == ["steps"]:
        return
    print(f"digits: {len(data[0])} train / {len(data[2])} test images, batch {BATCH}, Adam")
    header = (
        f"{'model':<5} {'framework':<10} {'epochs':>6} {'accuracy':>9} {'total s':>8} "
        f"{'median ms/step':>15}"
    )
    print(header)
    print("-" * len(header))
    for kind in ("mlp", "cnn"):
        model = eagerkit_model(kind)
        initial = [v.numpy().copy() for v in model.trainable_variables]
        trainers = {"eagerkit": eagerkit_trainer(model, kind, data)}
        if torch is not None:
            trainers["pytorch"] = torch_trainer(
                torch, torch_model(torch, kind, initial), kind, data
            )
        timings = run(
            {name: step for name, (step, _) in trainers.items()}, len(data[0]), EPOCHS[kind]
        )
        runs = {name: (accuracy(), *timings[name]) for name, (_, accuracy) in trainers.items()}
        for framework, (accuracy, seconds, per_step) in runs.items():
            print(
                f"{kind:<5} {framework:<10} {EPOCHS[kind]:>6} {accuracy:>9.2%} "
                f"{seconds:>8.2f} {1000 * per_step:>15.3f}"
            )
        if torch is not None:
            ratio = runs["eagerkit"][2] / runs["pytorch"][2]
            target = 1.0 if kind == "mlp" else 3.0
            verdict = "meets" if ratio <= target else "MISSES"
            print(
                f"{kind:<5} step time eagerkit / pytorch = {ratio:.2f} "
                f"({verdict} the target <= {target:g})"
            )


if __name__ == "__main__":
    with threadpool_limits(limits=1):
        main()

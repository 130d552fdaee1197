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

Run:  .venv/bin/python benchmarks/train.py
"""

import time

import numpy as np
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


def main():
    data = digits()
    try:
        import torch
    except ImportError:
        torch = None
        print("PyTorch is not installed: eagerkit alone, no ratios (pip install torch to compare)")
    else:
        torch.set_num_threads(1)
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

"""Training benchmark: an MLP and a small CNN on the 8x8 digits, eagerkit beside PyTorch.

Both frameworks get the same data, the same shuffling, batches, epochs and optimizer
settings; the table shows test accuracy, seconds per training step (forward, loss,
backward, Adam update) and the ratio eagerkit / PyTorch.

Targets: accuracy >= 97% (MLP) and >= 98% (CNN), each run under 60 s on 2 CPU cores; the
MLP step no slower than PyTorch's (ratio <= 1), the CNN step within 3x of PyTorch's.

Run:  .venv/bin/python benchmarks/train.py
"""

import time

import numpy as np

import eagerkit as ek

EPOCHS = {"mlp": 30, "cnn": 20}
BATCH = 32
LEARNING_RATE = {"mlp": 0.003, "cnn": 0.003}
SEED = 0


def digits():
    """(x_train, y_train, x_test, y_test): images in [0, 1] as float32, labels int64."""
    data = ek.datasets.load_digits()
    return tuple(np.asarray(part) for part in data)


def batches(count, epochs, seed):
    """The index batches every framework trains on: one fixed shuffle per epoch."""
    rng = np.random.default_rng(seed)
    for _ in range(epochs):
        order = rng.permutation(count)
        for start in range(0, count, BATCH):
            yield order[start:start + BATCH]


# --- eagerkit --------------------------------------------------------------------------------
def eagerkit_model(kind):
    ek.set_random_seed(SEED)
    if kind == "mlp":
        return ek.Sequential([
            ek.layers.Dense(128, activation="relu"),
            ek.layers.Dense(10),
        ])
    return ek.Sequential([
        ek.layers.Reshape([8, 8, 1]),
        ek.layers.Conv2D(32, 3, padding="same", activation="relu"),
        ek.layers.MaxPool2D(2),
        ek.layers.Flatten(),
        ek.layers.Dense(10),
    ])


def train_eagerkit(kind, data):
    x_train, y_train, x_test, y_test = data
    model = eagerkit_model(kind)
    optimizer = ek.train.AdamOptimizer(LEARNING_RATE[kind])
    x_all, y_all = ek.constant(x_train), ek.constant(y_train)
    steps, start = 0, time.perf_counter()
    for index in batches(len(x_train), EPOCHS[kind], SEED):
        x, y = ek.gather(x_all, index), ek.gather(y_all, index)
        with ek.GradientTape() as tape:
            loss = ek.losses.sparse_softmax_cross_entropy(y, model(x))
        variables = model.trainable_variables
        optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
        steps += 1
    seconds = time.perf_counter() - start
    predictions = ek.argmax(model(x_test), axis=1).numpy()
    return float(np.mean(predictions == y_test)), seconds, steps


# --- PyTorch ---------------------------------------------------------------------------------
def torch_model(torch, kind):
    nn = torch.nn
    torch.manual_seed(SEED)
    if kind == "mlp":
        return nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10))
    return nn.Sequential(
        nn.Unflatten(1, (1, 8, 8)),
        nn.Conv2d(1, 32, 3, padding=1),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(32 * 4 * 4, 10),
    )


def train_torch(torch, kind, data):
    x_train, y_train, x_test, y_test = data
    model = torch_model(torch, kind)
    # TF1's Adam epsilon (eagerkit's default) so both take the same steps.
    optimizer = torch.optim.Adam(model.parameters(), lr=LEARNING_RATE[kind], eps=1e-8)
    loss_fn = torch.nn.CrossEntropyLoss()
    x_all, y_all = torch.from_numpy(x_train), torch.from_numpy(y_train)
    steps, start = 0, time.perf_counter()
    for index in batches(len(x_train), EPOCHS[kind], SEED):
        index = torch.from_numpy(index)
        loss = loss_fn(model(x_all[index]), y_all[index])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        steps += 1
    seconds = time.perf_counter() - start
    with torch.no_grad():
        predictions = model(torch.from_numpy(x_test)).argmax(1).numpy()
    return float(np.mean(predictions == y_test)), seconds, steps


def main():
    data = digits()
    try:
        import torch
    except ImportError:
        torch = None
        print("PyTorch is not installed: showing eagerkit alone (pip install torch for ratios)")
    else:
        torch.set_num_threads(2)
    print(f"digits: {len(data[0])} train / {len(data[2])} test, batch {BATCH}")
    header = f"{'model':<5} {'framework':<10} {'epochs':>6} {'accuracy':>9} {'total s':>8} " \
             f"{'ms/step':>8}"
    print(header)
    print("-" * len(header))
    for kind in ("mlp", "cnn"):
        runs = {"eagerkit": train_eagerkit(kind, data)}
        if torch is not None:
            runs["pytorch"] = train_torch(torch, kind, data)
        for framework, (accuracy, seconds, steps) in runs.items():
            print(f"{kind:<5} {framework:<10} {EPOCHS[kind]:>6} {accuracy:>9.2%} "
                  f"{seconds:>8.2f} {1000 * seconds / steps:>8.3f}")
        if torch is not None:
            ratio = (runs["eagerkit"][1] / runs["eagerkit"][2]) / (
                runs["pytorch"][1] / runs["pytorch"][2])
            target = 1.0 if kind == "mlp" else 3.0
            verdict = "meets" if ratio <= target else "MISSES"
            print(f"{kind:<5} step time eagerkit / pytorch = {ratio:.2f} "
                  f"({verdict} the target <= {target:g})")


if __name__ == "__main__":
    main()

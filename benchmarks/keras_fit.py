"""What Keras' ``fit`` costs per step over the GradientTape loop a student writes by hand.

Both train the lesson-07 MLP (64-128-10, ReLU, Adam, sparse softmax cross-entropy from
logits) on the 8x8 digits in batches of 32, the same batches in the same order
(``shuffle=False``), one epoch (45 steps) per turn, each with its own model and optimizer
made from the same seed. Each round runs every contender once, in an order that rotates
from round to round, so a change in machine load hits all alike; each figure is the median
over the rounds, per step. The contenders:

- ``by hand``: the article's loop: ``with GradientTape``, the model, the loss, its
  gradients, ``apply_gradients``;
- ``by hand + mean``: the same, also keeping the epoch's mean loss and accuracy the way
  ``fit`` logs them (Keras metrics), for the like-for-like comparison with the next one;
- ``fit``: ``model.fit(..., epochs=1, verbose=0)`` with ``metrics=["accuracy"]``: the
  data adapter, callbacks (History), ``train_step``, the running metrics, the logs turned
  into Python floats per step, and the snapshot that lets a failed fit take itself back;
- ``fit, verbose=2``: the same, printing one line per epoch (to a buffer).

The overhead reported is fit's median step minus the hand loop's, and the ratio of the two
(paired: the rounds alternate). Everything runs single-threaded (BLAS through
threadpoolctl), as benchmarks/train.py does, on a shared machine.

Run:  .venv/bin/python benchmarks/keras_fit.py [rounds]
"""

import contextlib
import io
import os
import sys
import time

import numpy as np
from threadpoolctl import threadpool_limits

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import eagerkit as ek  # noqa: E402
from eagerkit import keras  # noqa: E402

BATCH = 32
SEED = 0


def digits():
    (x_train, y_train), _ = ek.datasets.load_digits()
    return x_train.reshape(len(x_train), 64).astype("float32"), y_train.astype("int64")


def mlp():
    """The model and its Adam, from the same seed for every contender."""
    ek.random.set_seed(SEED)
    layers = [keras.layers.Dense(128, activation="relu"), keras.layers.Dense(10)]
    model = keras.Sequential([keras.Input(shape=[64]), *layers])
    model(np.zeros((1, 64), "float32"))
    return model, keras.optimizers.Adam(0.003)


def by_hand(x, y, with_means):
    model, optimizer = mlp()
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    mean, accuracy = keras.metrics.Mean(), keras.metrics.SparseCategoricalAccuracy()
    batches = [(x[i : i + BATCH], y[i : i + BATCH]) for i in range(0, len(x), BATCH)]

    def epoch():
        for xb, yb in batches:
            with ek.GradientTape() as tape:
                logits = model(xb, training=True)
                loss = loss_fn(yb, logits)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=True))
            if with_means:
                mean.update_state(loss, sample_weight=len(xb))
                accuracy.update_state(yb, logits)
                float(mean.result()), float(accuracy.result())  # as fit's logs are per step
        return len(batches)

    return epoch


def by_fit(x, y, verbose):
    model, optimizer = mlp()
    model.compile(
        optimizer,
        keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )

    def epoch():
        with contextlib.redirect_stdout(io.StringIO()):
            model.fit(x, y, batch_size=BATCH, epochs=1, shuffle=False, verbose=verbose)
        return -(-len(x) // BATCH)

    return epoch


def measure(contenders, rounds):
    """``{name: [seconds per step, one per round]}``, the contenders rotating each round."""
    names = list(contenders)
    times = {name: [] for name in names}
    for round_ in range(rounds):
        for name in names[round_ % len(names) :] + names[: round_ % len(names)]:
            start = time.perf_counter()
            steps = contenders[name]()
            times[name].append((time.perf_counter() - start) / steps)
    return times


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    x, y = digits()
    contenders = {
        "by hand": by_hand(x, y, with_means=False),
        "by hand + mean": by_hand(x, y, with_means=True),
        "fit": by_fit(x, y, verbose=0),
        "fit, verbose=2": by_fit(x, y, verbose=2),
    }
    with threadpool_limits(limits=1):
        for epoch in contenders.values():  # warm up: first calls build and import
            epoch()
        times = measure(contenders, rounds)
    median = {name: float(np.median(t)) * 1e3 for name, t in times.items()}
    print(f"per training step, median of {rounds} rounds (load {os.getloadavg()[0]:.1f}):")
    for name, ms in median.items():
        print(f"  {name:<16} {ms:7.3f} ms")
    hand = np.array(times["by hand"])
    for name in ("fit", "fit, verbose=2"):
        paired = (np.array(times[name]) - hand) * 1e6
        print(
            f"{name}: overhead {np.median(paired):+.0f} us per step over the hand loop "
            f"(paired median), ratio {median[name] / median['by hand']:.2f}; over the hand "
            f"loop with means {1e3 * (median[name] - median['by hand + mean']):+.0f} us"
        )


if __name__ == "__main__":
    main()

"""Tapes the TapeView must draw well: every lesson's, and the hard cases of issue 9.

Each function returns ``(tape, view)`` with the gradient already taken (so edge labels
exist). ``CORPUS`` names them for parametrized tests.
"""

import numpy as np
from eagerkit.widgets import TapeView

import eagerkit as ek

OPS = [lambda a, b: a + b, lambda a, b: a * b, lambda a, b: ek.tanh(a), lambda a, b: a - 2.0]


def random_tape(records, seed):
    """A tape of ``records`` ops, each on one or two earlier tensors chosen at random."""
    rng = np.random.default_rng(seed)
    leaves = [ek.constant(float(v)) for v in rng.normal(size=4)]
    tape = ek.GradientTape(persistent=True)
    with tape:
        for leaf in leaves:
            tape.watch(leaf)
        pool = list(leaves)
        while len(tape.records) < records:
            a, b = (pool[i] for i in rng.integers(0, len(pool), size=2))
            make = OPS[rng.integers(0, len(OPS))]
            pool.append(make(a, b))
    return tape, leaves, pool[-1]


def lesson02_fan_out():
    x = ek.constant(3.0)
    w = ek.Variable(2.0, name="w")
    with ek.GradientTape(persistent=True) as tape:
        tape.watch(x)
        h = x * w
        y = h * h + w
    view = TapeView(tape, names=locals())
    tape.gradient(y, [x, w])
    return view


def lesson02_record():
    return TapeView.record(lambda x, w: x * w + w, 2.0, 3.0)


def lesson02_magic():
    a = ek.constant([1.0, 2.0, 3.0])
    with ek.GradientTape(persistent=True) as tape:
        tape.watch(a)
        loss = ek.reduce_sum(ek.square(a - 2.0))
    view = TapeView(tape, names=locals())
    tape.gradient(loss, a)
    return view


def lesson02_branch():
    a, b, c = ek.constant(1.0), ek.constant(2.0), ek.constant(-1.0)
    with ek.GradientTape(persistent=True) as tape:
        tape.watch([a, c])
        y = a * b
        if a < 0:
            y = y * c
    view = TapeView(tape, names=locals())
    tape.gradient(y, [a, b, c])
    return view


def value_used_three_times():
    def f(c):
        return c * c + c

    return TapeView.record(f, 3.0)


def edges_skipping_levels():
    def f(x):
        h = x
        for _ in range(6):
            h = ek.sin(h) * 2.0
        return h + x * x  # x's last two uses skip six levels

    return TapeView.record(f, 0.5)


def nested_tapes():
    x = ek.constant(2.0)
    with ek.GradientTape(persistent=True) as outer:
        outer.watch(x)
        view = TapeView(outer, names=locals())  # watching before the inner tape opens
        with ek.GradientTape() as inner:
            inner.watch(x)
            y = x * x * x
        dy_dx = inner.gradient(y, x)
    outer.gradient(dy_dx, x)
    return view


def mlp_step():
    ek.random.set_seed(1) if hasattr(ek, "random") and hasattr(ek.random, "set_seed") else None
    model = ek.keras.Sequential([ek.layers.Dense(8, activation="relu"), ek.layers.Dense(3)])
    x = ek.constant(np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3))
    labels = ek.constant(np.array([0, 1, 2, 1], dtype=np.int32))
    with ek.GradientTape(persistent=True) as tape:
        model(x)  # build first, so the view sees one clean step
    with ek.GradientTape(persistent=True) as tape:
        view = TapeView(tape, names=locals())
        logits = model(x)
        loss = ek.losses.sparse_softmax_cross_entropy(labels, logits)
    tape.gradient(loss, model.trainable_variables)
    return view


def cnn_step():
    model = ek.keras.Sequential(
        [
            ek.layers.Conv2D(4, 3, activation="relu"),
            ek.layers.MaxPool2D(2),
            ek.layers.Flatten(),
            ek.layers.Dense(16, activation="relu"),
            ek.layers.Dense(10),
        ]
    )
    images = ek.constant(np.linspace(0, 1, 2 * 8 * 8, dtype=np.float32).reshape(2, 8, 8, 1))
    labels = ek.constant(np.array([3, 7], dtype=np.int32))
    model(images)
    with ek.GradientTape(persistent=True) as tape:
        view = TapeView(tape, names=locals())
        logits = model(images)
        loss = ek.losses.sparse_softmax_cross_entropy(labels, logits)
    tape.gradient(loss, model.trainable_variables)
    return view


def tape_of_300_records():
    tape, leaves, out = random_tape(300, seed=300)
    view = TapeView(tape)
    tape.gradient(out, leaves)
    return view


CORPUS = {
    "lesson02_fan_out": lesson02_fan_out,
    "lesson02_record": lesson02_record,
    "lesson02_magic": lesson02_magic,
    "lesson02_branch": lesson02_branch,
    "value_used_three_times": value_used_three_times,
    "edges_skipping_levels": edges_skipping_levels,
    "nested_tapes": nested_tapes,
    "mlp_step": mlp_step,
    "cnn_step": cnn_step,
    "tape_of_300_records": tape_of_300_records,
}

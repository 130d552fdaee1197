"""What do live widgets cost a training loop? Target: at most 5% more wall time.

A tiny linear model (plain Variables, GradientDescentOptimizer) trains for 10,000 steps,
once bare and once with a LossCurve (``curve.log`` every step) and a GradientFlow (attached
to the optimizer) live. Outside Jupyter there is no kernel, so each widget's comm is
replaced by one that does what the kernel's session would do with a message: serialize it
to JSON (and count the bytes). Everything else is the widgets' real path: buffering,
the flush clock, downsampling, history updates and the final PNG-free flush.

Run: ``.venv/bin/python benchmarks/widgets.py``.
"""

import json
import time

import numpy as np

import eagerkit as ek
from eagerkit.widgets import GradientFlow, LossCurve

STEPS = 10_000
REPEATS = 5


class SerializingComm:
    """Counts the messages and JSON bytes a kernel would send to the browser."""

    def __init__(self):
        self.messages = 0
        self.bytes = 0

    def send(self, data=None, metadata=None, buffers=None):
        self.messages += 1
        self.bytes += len(json.dumps(data).encode())


def make_problem():
    rng = np.random.default_rng(0)
    x = ek.constant(rng.normal(size=(32, 3)).astype("float32"))
    y = ek.constant(rng.normal(size=(32, 1)).astype("float32"))
    w = ek.Variable(np.zeros((3, 1), "float32"), name="linear/kernel")
    b = ek.Variable(np.zeros(1, "float32"), name="linear/bias")
    return x, y, [w, b]


def train(widgets):
    x, y, variables = make_problem()
    w, b = variables
    optimizer = ek.train.GradientDescentOptimizer(0.01)
    comms = []
    if widgets:
        curve, flow = LossCurve(), GradientFlow(variables).attach(optimizer)
        for widget in (curve, flow):
            comms.append(SerializingComm())
            widget.comm.send = comms[-1].send
    start = time.perf_counter()
    for step in range(STEPS):
        with ek.GradientTape() as tape:
            loss = ek.reduce_mean(ek.square(ek.matmul(x, w) + b - y))
        grads = tape.gradient(loss, variables)
        optimizer.apply_gradients(zip(grads, variables))
        if widgets:
            curve.log(step, loss=loss)
    if widgets:
        curve.flush(final=True)
        flow.flush(final=True)
    return time.perf_counter() - start, comms


def widgets_alone():
    """Only the widgets' work for STEPS steps: the same calls, on values made beforehand.

    On a shared machine the A/B difference of two ~2 s loops is within the noise; this
    measures the widgets' share directly.
    """
    x, y, variables = make_problem()
    loss = ek.reduce_mean(ek.square(ek.matmul(x, variables[0]) + variables[1] - y))
    pairs = [(ek.ones_like(v), v) for v in variables]
    curve, flow = LossCurve(), GradientFlow(variables)
    for widget in (curve, flow):
        widget.comm.send = SerializingComm().send
    start = time.perf_counter()
    for step in range(STEPS):
        flow.log(pairs, step=step)
        curve.log(step, loss=loss)
    curve.flush(final=True)
    flow.flush(final=True)
    return time.perf_counter() - start


def main():
    bare, live, alone = [], [], []
    for _ in range(REPEATS):  # interleaved, so drifting machine load hits both alike
        bare.append(train(widgets=False)[0])
        seconds, comms = train(widgets=True)
        live.append(seconds)
        alone.append(widgets_alone())
    best_bare = min(bare)
    print(f"{STEPS} training steps of a tiny linear model, best of {REPEATS}")
    print(f"  without widgets:                    {best_bare:.3f} s "
          f"({best_bare / STEPS * 1e6:.1f} us/step)")
    print(f"  with LossCurve + GradientFlow live: {min(live):.3f} s "
          f"({min(live) / best_bare - 1:+.1%}, A/B on a shared machine: noisy)")
    print(f"  the widgets' own work, timed alone: {min(alone):.3f} s "
          f"({min(alone) / STEPS * 1e6:.2f} us/step = {min(alone) / best_bare:.1%} of the "
          "bare loop; target <= 5%)")
    for name, comm in zip(("LossCurve", "GradientFlow"), comms):
        print(f"  {name}: {comm.messages} messages, {comm.bytes / 1e3:.0f} kB over the run")


if __name__ == "__main__":
    main()

"""What do live widgets cost a training loop? Target: at most 5% more time.

A tiny two-layer network (plain Variables, GradientDescentOptimizer) trains for 10,000 steps
with a LossCurve (``curve.log`` every step) and a GradientFlow (attached to the optimizer)
live, and for 10,000 steps without them. The steps alternate in blocks of 250, so a change
in machine load hits both alike, and the clock is the process's CPU time (the machine is
shared: wall time would mostly measure the neighbours).

Two figures: the A/B difference of the two loops, and the time spent inside the
widgets' own code (``curve.log``, the optimizer listener, the final flush), timed where
it runs. On a busy shared machine the first swings by +-10% from run to run; the second
is what the widgets cost.

Outside Jupyter there is no kernel, so each widget's comm gets a stand-in that does what
the kernel's session would do with a message: serialize it to JSON (and count the bytes).
Everything else is the widgets' real path: buffering, the flush clock, the norms on the
device, downsampling, history updates and the final flush.

Run: ``.venv/bin/python benchmarks/widgets.py``.
"""

import json
import time

import numpy as np
from eagerkit.widgets import GradientFlow, LossCurve

import eagerkit as ek

STEPS = 10_000
BLOCK = 250


class SerializingComm:
    """Counts the messages and JSON bytes a kernel would send to the browser."""

    def __init__(self):
        self.messages = 0
        self.bytes = 0

    def send(self, data=None, metadata=None, buffers=None):
        self.messages += 1
        self.bytes += len(json.dumps(data).encode())


class Trainer:
    """A tiny two-layer network (4 -> 16 -> 1, tanh) fitting random data by gradient descent.

    ``run(n)`` trains n steps and returns the CPU seconds they took.
    """

    def __init__(self, widgets):
        rng = np.random.default_rng(0)
        self.x = ek.constant(rng.normal(size=(32, 4)).astype("float32"))
        self.y = ek.constant(rng.normal(size=(32, 1)).astype("float32"))
        self.variables = [
            ek.Variable(rng.normal(size=(4, 16)).astype("float32") * 0.5, name="hidden/kernel"),
            ek.Variable(np.zeros(16, "float32"), name="hidden/bias"),
            ek.Variable(rng.normal(size=(16, 1)).astype("float32") * 0.5, name="output/kernel"),
            ek.Variable(np.zeros(1, "float32"), name="output/bias"),
        ]
        self.optimizer = ek.train.GradientDescentOptimizer(0.01)
        self.step = 0
        self.curve = self.flow = None
        self.comms = []
        self.widget_seconds = 0.0  # time spent inside the widgets' own code
        if widgets:
            self.curve = LossCurve()
            self.flow = GradientFlow(self.variables)
            self.optimizer.listeners.append(self)  # relays to the flow, timing it
            for widget in (self.curve, self.flow):
                self.comms.append(SerializingComm())
                widget.comm.send = self.comms[-1].send

    def on_apply(self, optimizer, grads_and_vars):
        start = time.perf_counter()  # not process_time: that one is a system call
        self.flow.on_apply(optimizer, grads_and_vars)
        self.widget_seconds += time.perf_counter() - start

    def loss(self):
        w1, b1, w2, b2 = self.variables
        hidden = ek.tanh(ek.matmul(self.x, w1) + b1)
        return ek.reduce_mean(ek.square(ek.matmul(hidden, w2) + b2 - self.y))

    def run(self, steps):
        start = time.process_time()
        for _ in range(steps):
            with ek.GradientTape() as tape:
                loss = self.loss()
            grads = tape.gradient(loss, self.variables)
            self.optimizer.apply_gradients(zip(grads, self.variables, strict=True))
            if self.curve is not None:
                tick = time.perf_counter()
                self.curve.log(self.step, loss=loss)
                self.widget_seconds += time.perf_counter() - tick
            self.step += 1
        return time.process_time() - start

    def finish(self):
        start = time.process_time()
        if self.curve is not None:
            self.curve.flush(final=True)
            self.flow.flush(final=True)
        seconds = time.process_time() - start
        self.widget_seconds += seconds
        return seconds


def main():
    bare, live = Trainer(widgets=False), Trainer(widgets=True)
    bare_blocks, live_blocks = [], []
    for _ in range(STEPS // BLOCK):
        bare_blocks.append(bare.run(BLOCK))
        live_blocks.append(live.run(BLOCK))
    bare_total = sum(bare_blocks)
    live_total = sum(live_blocks) + live.finish()
    ratios = sorted(b / a for a, b in zip(bare_blocks, live_blocks, strict=True))
    print(f"{STEPS} training steps of a 4-16-1 network (CPU time, blocks of {BLOCK} alternating)")
    print(
        f"  without widgets:                    {bare_total:.3f} s "
        f"({bare_total / STEPS * 1e6:.1f} us/step)"
    )
    print(
        f"  with LossCurve + GradientFlow live: {live_total:.3f} s "
        f"({live_total / STEPS * 1e6:.1f} us/step)"
    )
    print(
        f"  A/B difference: {live_total / bare_total - 1:+.1%} in total, "
        f"{ratios[len(ratios) // 2] - 1:+.1%} median block (noisy on a shared machine)"
    )
    own = live.widget_seconds
    print(
        f"  time inside the widgets' code: {own:.3f} s = {own / STEPS * 1e6:.1f} us/step = "
        f"{own / bare_total:+.1%} of the bare loop (target <= +5%)"
    )
    for name, comm in zip(("LossCurve", "GradientFlow"), live.comms, strict=True):
        print(f"  {name}: {comm.messages} messages, {comm.bytes / 1e3:.0f} kB over the run")


if __name__ == "__main__":
    main()

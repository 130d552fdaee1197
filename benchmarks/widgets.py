"""What do live widgets cost a training loop? Target: at most 5% more time.

A tiny two-layer network (plain Variables, GradientDescentOptimizer) trains for 10,000 steps
with a LossCurve (``curve.log`` every step) and a GradientFlow (attached to the optimizer)
live, and for 10,000 steps without them. The steps alternate in blocks of 250, so a change
in machine load hits both alike, and the clock is the process's CPU time (the machine is
shared: wall time would mostly measure the neighbours).

Outside Jupyter there is no kernel, so each widget's comm gets a stand-in that does what
the kernel's session would do with a message: serialize it to JSON (and count the bytes).
Everything else is the widgets' real path: buffering, the flush clock, the norms on the
device, downsampling, history updates and the final flush.

Run: ``.venv/bin/python benchmarks/widgets.py``.
"""

import json
import time

import numpy as np

import eagerkit as ek
from eagerkit.widgets import GradientFlow, LossCurve

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
        if widgets:
            self.curve = LossCurve()
            self.flow = GradientFlow(self.variables).attach(self.optimizer)
            for widget in (self.curve, self.flow):
                self.comms.append(SerializingComm())
                widget.comm.send = self.comms[-1].send

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
            self.optimizer.apply_gradients(zip(grads, self.variables))
            if self.curve is not None:
                self.curve.log(self.step, loss=loss)
            self.step += 1
        return time.process_time() - start

    def finish(self):
        start = time.process_time()
        if self.curve is not None:
            self.curve.flush(final=True)
            self.flow.flush(final=True)
        return time.process_time() - start


def main():
    bare, live = Trainer(widgets=False), Trainer(widgets=True)
    bare_blocks, live_blocks = [], []
    for _ in range(STEPS // BLOCK):
        bare_blocks.append(bare.run(BLOCK))
        live_blocks.append(live.run(BLOCK))
    bare_total = sum(bare_blocks)
    live_total = sum(live_blocks) + live.finish()
    ratios = sorted(b / a for a, b in zip(bare_blocks, live_blocks))
    print(f"{STEPS} training steps of a 4-16-1 network (CPU time, blocks of {BLOCK} alternating)")
    print(f"  without widgets:                    {bare_total:.3f} s "
          f"({bare_total / STEPS * 1e6:.1f} us/step)")
    print(f"  with LossCurve + GradientFlow live: {live_total:.3f} s "
          f"({live_total / STEPS * 1e6:.1f} us/step)")
    print(f"  overhead: {live_total / bare_total - 1:+.1%} in total, "
          f"{ratios[len(ratios) // 2] - 1:+.1%} median block (target <= +5%)")
    for name, comm in zip(("LossCurve", "GradientFlow"), live.comms):
        print(f"  {name}: {comm.messages} messages, {comm.bytes / 1e3:.0f} kB over the run")


if __name__ == "__main__":
    main()
